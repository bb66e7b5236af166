"""What a board house assembles from: the placement file lists the surface-mount parts only,
under the columns assembly services read, with the rotation corrections per footprint; every
BOM line of a part the board house fits has a manufacturer's part number."""

from __future__ import annotations

import csv
import io
import re

import pytest

from pawnlight_hardware.pcb.fab_files import (
    PLACEMENT_COLUMNS,
    part_number,
    placement_rows,
    rotation_correction,
    write_placement,
)
from pawnlight_hardware.pcb.strips import DESIGNS


def test_rotation_corrections_are_the_assembly_houses():
    assert rotation_correction("Package_TO_SOT_SMD:SOT-23") == 180
    assert rotation_correction("Package_SO:SOIC-16_3.9x9.9mm_P1.27mm") == 270
    assert rotation_correction("Capacitor_SMD:C_0805_2012Metric") == 0


@pytest.mark.parametrize("design", sorted(DESIGNS))
def test_a_strips_placement_file_lists_its_surface_mount_parts(pcb_written, tmp_path, design):
    from kiutils.board import Board

    path = write_placement(pcb_written.boards[design], tmp_path)
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
    assert rows[0] == PLACEMENT_COLUMNS
    refs = {row[0] for row in rows[1:]}
    board = Board.from_file(str(pcb_written.boards[design]))
    smd = {f.properties["Reference"] for f in board.footprints if f.attributes.type == "smd"}
    assert refs == smd and "J1" not in refs and not any(r.startswith("H") for r in refs)
    assert {"U1", "D1", "C1"} <= refs
    for ref, x, y, layer, rotation in rows[1:]:
        assert layer == "Top", ref  # the deck face: the connector, on the back, is hand-soldered
        assert float(x.removesuffix("mm")) > 0 and float(y.removesuffix("mm")) > 0
        if ref.startswith("U"):
            assert rotation == "180"
    assert placement_rows(board) == rows[1:]


def test_every_fitted_part_has_a_part_number(pcb_written):
    for name, netlist in pcb_written.netlists.items():
        for component in netlist.components.values():
            generic = component.footprint.startswith(
                ("Connector_PinHeader", "Connector_PinSocket", "pawnlight:")
            )
            maker, number = part_number(component.value, component.footprint)
            if not generic:
                assert maker and number, (name, component.ref, component.value)


def test_the_distributors_numbers_belong_to_the_boms_parts():
    """Every distributor's number is for a part the BOMs name (none left over from a part
    since replaced), and a Mouser number is its maker's prefix before the maker's number."""
    from pawnlight_hardware.pcb.fab_files import (
        DISTRIBUTOR_NUMBERS,
        IDC_HEADER,
        PART_NUMBERS,
        PI_HEADER,
        TERMINAL_BLOCK,
    )

    named = {number for _, number in PART_NUMBERS.values()}
    named |= {IDC_HEADER[1], PI_HEADER[1], TERMINAL_BLOCK[1]}
    assert set(DISTRIBUTOR_NUMBERS) <= named
    for number, (lcsc, mouser) in DISTRIBUTOR_NUMBERS.items():
        assert lcsc == "" or re.fullmatch(r"C\d+", lcsc), number
        prefix, _, rest = mouser.partition("-")
        assert re.fullmatch(r"\d{3}", prefix) and rest, number
        assert rest == number or (prefix == "621" and rest == number.replace("-7-", "-")), number


def test_a_boms_lines_carry_the_distributors_numbers(pcb_written, tmp_path):
    from pawnlight_hardware.pcb.build import Report, write_boms
    from pawnlight_hardware.pcb.fab_files import BOM_COLUMNS

    write_boms({"hub-colour": pcb_written.netlists["hub-colour"]}, tmp_path, Report())
    with (tmp_path / "fab" / "bom-hub-colour.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert list(rows[0]) == BOM_COLUMNS == [
        "qty", "value", "footprint", "references", "manufacturer", "part number", "LCSC", "Mouser"
    ]  # fmt: skip
    muxes = next(row for row in rows if row["value"] == "CD74HC4067M")
    assert (muxes["qty"], muxes["part number"]) == ("7", "CD74HC4067M96")
    assert (muxes["LCSC"], muxes["Mouser"]) == ("C98457", "595-CD74HC4067M96")
    j33 = next(row for row in rows if row["references"] == "J33")
    assert (j33["manufacturer"], j33["part number"]) == ("On Shore Technology", "302-S101")

"""The strip boards put every sensor and LED where the board's geometry says (within 0.2 mm).

The written .kicad_pcb files are read back; each of the 24 strips is mounted at its place in
:data:`INSTANCES` (origin and quarter turns), and every sensor footprint must land on its place's
centre (``SENSORS_MM``) and every LED footprint on its LED hole (``led_hole_mm``)."""

from __future__ import annotations

import importlib.util
import math

import pytest

from pawnlight.board.cells import CELL_NAMES, LEDS, parse_cell_name
from pawnlight.board.geometry import SENSORS_MM, led_hole_mm
from pawnlight_hardware.pcb.circuit import KICAD_SHARE
from pawnlight_hardware.pcb.strips import DESIGNS, INSTANCES, covered_places

pytestmark = [
    pytest.mark.skipif(
        importlib.util.find_spec("skidl") is None or importlib.util.find_spec("kiutils") is None,
        reason="SKiDL or kiutils missing (the pcb extra)",
    ),
    pytest.mark.skipif(
        not (KICAD_SHARE / "footprints" / "Resistor_SMD.pretty").is_dir()
        or not (KICAD_SHARE / "symbols" / "Device.kicad_sym").is_file(),
        reason="KiCad 6 libraries missing (apt-get install kicad-symbols kicad-footprints)",
    ),
]

TOLERANCE_MM = 0.2


def test_every_place_is_on_exactly_one_strip():
    assert sorted(covered_places()) == sorted(CELL_NAMES)
    slides = [name for strip in INSTANCES for name in strip.slides]
    assert len(slides) == len(set(slides)) == LEDS - len(CELL_NAMES)


@pytest.fixture(scope="module")
def boards(pcb_written):
    """The written strip boards (tests/hardware/conftest.py), read back."""
    from kiutils.board import Board

    return {name: Board.from_file(str(path)) for name, path in pcb_written.boards.items()}


def _positions(board) -> dict[str, tuple[float, float]]:
    from pawnlight_hardware.pcb.layout import PAGE_ORIGIN

    found = {}
    for footprint in board.footprints:
        ref = footprint.properties["Reference"]
        found[ref] = (
            footprint.position.X - PAGE_ORIGIN[0],
            footprint.position.Y - PAGE_ORIGIN[1],
        )
    return found


def test_there_is_a_board_per_design(boards):
    assert set(boards) == set(DESIGNS)


@pytest.mark.parametrize("strip", INSTANCES, ids=[s.name for s in INSTANCES])
def test_sensors_and_leds_lie_at_their_places(boards, strip):
    at = _positions(boards[strip.design.name])
    checked = 0
    for slot, place in enumerate(strip.places):
        cell = parse_cell_name(place)
        for ref, wanted in (
            (f"U{slot + 1}", SENSORS_MM[cell]),
            (f"D{slot + 1}", led_hole_mm(place)),
        ):
            x, y = strip.to_board(at[ref])
            off = math.hypot(x - wanted[0], y - wanted[1])
            assert off <= TOLERANCE_MM, f"{strip.name} {ref} ({place}) is {off:.2f} mm off"
            checked += 1
    for index, name in enumerate(strip.slides):
        x, y = strip.to_board(at[f"D{11 + index}"])
        wanted = led_hole_mm(name)
        off = math.hypot(x - wanted[0], y - wanted[1])
        assert off <= TOLERANCE_MM, f"{strip.name} {name} is {off:.2f} mm off"
        checked += 1
    assert checked == 2 * len(strip.places) + len(strip.slides)


def _outline(board) -> tuple[float, float, float, float]:
    from pawnlight_hardware.pcb.layout import PAGE_ORIGIN

    (edge,) = [g for g in board.graphicItems if g.layer == "Edge.Cuts"]
    ox, oy = PAGE_ORIGIN
    return edge.start.X - ox, edge.start.Y - oy, edge.end.X - ox, edge.end.Y - oy


@pytest.mark.parametrize("strip", INSTANCES, ids=[s.name for s in INSTANCES])
def test_every_strip_lies_under_the_deck_clear_of_the_others(boards, strip):
    """Each strip's outline, mounted, is inside the deck (GRID x SQUARE_MM) with 2 mm to spare
    and overlaps no other strip."""
    from pawnlight.board.geometry import GRID, SQUARE_MM

    def box(s):
        left, top, right, bottom = _outline(boards[s.design.name])
        corners = [s.to_board(p) for p in ((left, top), (right, bottom))]
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        return min(xs), min(ys), max(xs), max(ys)

    x0, y0, x1, y1 = box(strip)
    deck = GRID * SQUARE_MM
    assert x0 >= 2 and y0 >= 2 and x1 <= deck - 2 and y1 <= deck - 2, (x0, y0, x1, y1)
    for other in INSTANCES:
        if other is strip:
            continue
        a0, b0, a1, b1 = box(other)
        assert x1 <= a0 or a1 <= x0 or y1 <= b0 or b1 <= y0, f"{strip.name} overlaps {other.name}"


def test_every_pad_of_a_part_in_the_netlist_is_on_its_net(boards):
    """The board's pads carry the netlist's nets (the connector's pin 11 is SEN0, ...)."""
    board = boards["track-a"]
    (connector,) = [f for f in board.footprints if f.properties["Reference"] == "J1"]
    nets = {str(pad.number): pad.net.name if pad.net else "" for pad in connector.pads}
    assert nets["11"] == "SEN0" and nets["7"] == "DIN" and nets["1"] == "+5V"

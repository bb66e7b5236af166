"""docs/assembly.md gives the builder numbers: they are the geometry's, the wiring's and the
under-deck layout's, and every picture it shows exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pawnlight.board import geometry
from pawnlight.board.cells import parse_cell_name
from pawnlight_hardware import underside
from pawnlight_hardware.wiring import load_wiring

DOC = Path(__file__).parents[2] / "docs" / "assembly.md"
TEXT = DOC.read_text(encoding="utf-8")
WIRING = load_wiring()


def _pair(cell: str) -> tuple[float, float]:
    x, y = (float(v) for v in cell.split(","))
    return x, y


def test_the_positions_table_is_the_geometry() -> None:
    rows = re.findall(r"^\s*\| ([\w-]+) \| ([\d., -]+) \| ([\d., ]+) \| (\d+) \|$", TEXT, re.M)
    assert len(rows) >= 6
    for name, sensor, led, number in rows:
        if sensor.strip() != "-":
            expected = geometry.SENSORS_MM[parse_cell_name(name)]
            assert _pair(sensor) == pytest.approx(expected, abs=0.05), name
        assert _pair(led) == pytest.approx(geometry.led_hole_mm(name), abs=0.05), name
        assert WIRING.led_chain.index(name) == int(number), name


def test_the_feeds_named_are_the_wirings() -> None:
    listed = ", ".join(str(i) for i in WIRING.power_injection[:-1])
    named = f"{listed} and {WIRING.power_injection[-1]}"
    assert f"LEDs {named}" in TEXT.replace("**", "")


def test_the_bottom_panel_numbers_are_the_layouts() -> None:
    w, h = underside.HATCH_OPENING_MM
    cx, cy = underside.hatch_centre()
    assert f"| {w:g} x {h:g} mm | centred at {cx:g}, {cy:g}:" in TEXT
    screws = "; ".join(f"{x:g}, {y:g}" for x, y in underside.hatch_screws())
    assert screws in TEXT
    feet = "; ".join(f"{x:g}, {y:g}" for x, y in underside.feet())
    assert feet in TEXT
    assert f"{underside.DECK_MM:g} x {underside.DECK_MM:g} mm" in TEXT
    cable = underside.usb_cable()
    assert f"{cable.buy_mm / 1000:g} m USB cable" in TEXT
    assert f"{cable.to_edge_mm:.0f} mm to that edge" in TEXT


def test_every_picture_shown_exists() -> None:
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", TEXT)
    assert len(images) >= 4
    for image in images:
        assert (DOC.parent / image).is_file(), image

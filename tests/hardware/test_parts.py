"""``pawnlight hardware parts --out DIR``: the STL parts in board coordinates, leds.json,
sensors.json and the 1:1 drilling template, all from pawnlight.board.geometry."""

from __future__ import annotations

import json
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pawnlight.board import geometry
from pawnlight.board.cells import CELL_NAMES
from pawnlight.hardware import stl
from pawnlight.hardware.parts import CUP_SIDE_MM, TRAY_RADIUS_MM, parts
from pawnlight.hardware.template import PT_PER_MM, SCALE_BAR_MM, scale_bar_points
from pawnlight.hardware.wiring import load_wiring

#: OpenSCAD renders every part (./test --fast leaves it out).
pytestmark = pytest.mark.slow

BOARD_MM = 16 * 33.0


def test_leds_json_gives_every_led_in_chain_order_in_board_millimetres(build_files: Path) -> None:
    leds = json.loads((build_files / "leds.json").read_text())
    assert [led["name"] for led in leds] == list(load_wiring().led_chain)
    assert len(leds) == 132
    first = leds[0]
    assert first["name"] == "T0" and 0 < first["x_mm"] < 33 and 0 < first["y_mm"] < 33
    for led in leds:
        assert (led["x_mm"], led["y_mm"]) == pytest.approx(geometry.led_hole_mm(led["name"]))


def test_sensors_json_gives_every_sensor_at_its_places_centre(build_files: Path) -> None:
    sensors = json.loads((build_files / "sensors.json").read_text())
    assert [s["name"] for s in sensors] == list(CELL_NAMES) and len(sensors) == 112
    t4 = sensors[4]
    assert (t4["name"], t4["x_mm"], t4["y_mm"]) == ("T4", 4.5 * 33, 0.5 * 33)
    for sensor, point in zip(sensors, geometry.SENSORS_MM, strict=True):
        assert (sensor["x_mm"], sensor["y_mm"]) == pytest.approx(point)


def test_every_part_is_an_stl_placed_on_the_board(build_files: Path) -> None:
    listing = json.loads((build_files / "parts.json").read_text())
    assert len(listing) == 80 + 8 == len(list((build_files / "parts").glob("*.stl")))
    for entry, part in zip(listing, parts(), strict=True):
        triangles = stl.read(build_files / entry["file"])
        xs = [v[0] for t in triangles for v in t]
        ys = [v[1] for t in triangles for v in t]
        zs = [v[2] for t in triangles for v in t]
        size = 2 * TRAY_RADIUS_MM if part.shape == "tray" else CUP_SIDE_MM
        assert (max(xs) + min(xs)) / 2 == pytest.approx(part.centre[0], abs=0.05)
        assert (max(ys) + min(ys)) / 2 == pytest.approx(part.centre[1], abs=0.05)
        assert max(xs) - min(xs) == pytest.approx(size, abs=0.1)
        assert min(zs) == pytest.approx(0, abs=1e-4) and 3 < max(zs) < 12
        assert min(xs) > 0 and max(xs) < BOARD_MM and min(ys) > 0 and max(ys) < BOARD_MM
    kinds = {entry["print"] for entry in listing}
    assert kinds == {"print/cup.stl", "print/cup-slide.stl", "print/tray.stl"}
    for kind in kinds:
        assert len(stl.read(build_files / kind)) > 100


def test_the_svg_template_is_one_to_one_with_a_scale_bar(build_files: Path) -> None:
    root = ET.parse(build_files / "template.svg").getroot()
    width, height = (float(root.attrib[k].removesuffix("mm")) for k in ("width", "height"))
    assert root.attrib["viewBox"].split() == ["0", "0", f"{width:g}", f"{height:g}"]
    ns = "{http://www.w3.org/2000/svg}"
    bar = next(e for e in root.iter(f"{ns}line") if e.attrib.get("id") == "scale-bar")
    assert float(bar.attrib["x2"]) - float(bar.attrib["x1"]) == SCALE_BAR_MM
    pilots = [e for e in root.iter(f"{ns}circle") if e.attrib["class"] == "pilot"]
    holes = [e for e in root.iter(f"{ns}circle") if e.attrib["class"] == "led"]
    assert len(pilots) == 112 and len(holes) == 132
    drawn = {(float(e.attrib["cx"]), float(e.attrib["cy"])) for e in pilots}
    for x, y in geometry.SENSORS_MM:
        assert any(math.dist((x, y), point) < 0.01 for point in drawn)
    assert {float(e.attrib["r"]) for e in holes} == {2.5}


def test_the_pdf_template_is_a4_pages_at_one_to_one(build_files: Path) -> None:
    data = (build_files / "template.pdf").read_bytes()
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    boxes = re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", data)
    assert len(boxes) == 6
    for width, height in boxes:
        assert float(width) / PT_PER_MM == pytest.approx(210, abs=0.01)
        assert float(height) / PT_PER_MM == pytest.approx(297, abs=0.01)
    streams = re.findall(rb"stream\n(.*?)\nendstream", data, re.S)
    assert len(streams) == 6
    for stream in streams:
        assert scale_bar_points(stream.decode("latin-1")) == pytest.approx(
            100 * PT_PER_MM, abs=0.02
        )

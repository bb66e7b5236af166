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
from pawnlight_hardware import stl, underside
from pawnlight_hardware.parts import (
    CUP_SIDE_MM,
    PANEL_UNDERSIDE_Z,
    PLA_G_PER_CM3,
    TRAY_RADIUS_MM,
    parts,
)
from pawnlight_hardware.template import PT_PER_MM, SCALE_BAR_MM, scale_bar_points
from pawnlight_hardware.wiring import load_wiring

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


def test_the_hatch_cover_and_feet_are_printed_and_placed_under_the_panel(
    build_files: Path,
) -> None:
    listing = json.loads((build_files / "under.json").read_text())
    assert [e["name"] for e in listing] == ["hatch"] + [f"foot-{i}" for i in range(1, 9)]
    hatch = stl.read(build_files / "under" / "hatch.stl")
    (x0, y0, z0), (x1, y1, z1) = stl.bounds(hatch)
    cover_w, cover_h = underside.hatch_cover_mm()
    assert (x1 - x0, y1 - y0) == pytest.approx((cover_w, cover_h), abs=0.1)
    assert ((x0 + x1) / 2, (y0 + y1) / 2) == pytest.approx(underside.hatch_centre(), abs=0.05)
    assert z1 == pytest.approx(PANEL_UNDERSIDE_Z + underside.HATCH_RIM_MM, abs=1e-3)
    assert z0 == pytest.approx(PANEL_UNDERSIDE_Z - underside.HATCH_PLATE_MM, abs=1e-3)
    for entry in listing[1:]:
        (fx0, fy0, fz0), (fx1, fy1, fz1) = stl.bounds(stl.read(build_files / entry["file"]))
        assert fx1 - fx0 == pytest.approx(underside.FOOT_DIAMETER_MM, abs=0.2)
        assert fz1 - fz0 == pytest.approx(underside.FOOT_HEIGHT_MM, abs=1e-3)
        assert ((fx0 + fx1) / 2, (fy0 + fy1) / 2) == pytest.approx(
            (entry["x_mm"], entry["y_mm"]), abs=0.05
        )
    # A foot's volume: its cylinder less the screw hole and chamfer, within a few percent.
    foot = stl.volume_mm3(stl.read(build_files / "print" / "foot.stl"))
    cylinder = math.pi * (underside.FOOT_DIAMETER_MM / 2) ** 2 * underside.FOOT_HEIGHT_MM
    assert 0.9 * cylinder < foot < cylinder


def test_the_panel_drawing_is_one_to_one_with_its_hatch_and_holes(build_files: Path) -> None:
    root = ET.parse(build_files / "panel.svg").getroot()
    ns = "{http://www.w3.org/2000/svg}"
    width = float(root.attrib["width"].removesuffix("mm"))
    assert root.attrib["viewBox"].split()[2] == f"{width:g}"
    panel = next(e for e in root.iter(f"{ns}rect") if e.attrib.get("id") == "panel")
    assert float(panel.attrib["width"]) == underside.DECK_OUTER_MM
    assert float(panel.attrib["x"]) == underside.DECK_CORNER_MM
    hatch = next(e for e in root.iter(f"{ns}rect") if e.attrib.get("id") == "hatch")
    assert (float(hatch.attrib["width"]), float(hatch.attrib["height"])) == (
        underside.HATCH_OPENING_MM
    )
    kinds = [e.attrib.get("class") for e in root.iter(f"{ns}circle")]
    assert kinds.count("hatch-screw") == 4 and kinds.count("foot") == 8
    assert kinds.count("panel-screw") == len(underside.panel_screws()) > 0


def test_filament_is_each_kinds_stl_volume_times_count(build_files: Path) -> None:
    grams = json.loads((build_files / "filament.json").read_text())
    listing = json.loads((build_files / "parts.json").read_text())
    total = 0.0
    for kind in ("cup", "cup-slide", "tray", "hatch", "foot"):
        triangles = stl.read(build_files / "print" / f"{kind}.stl")
        cm3 = stl.volume_mm3(triangles) / 1000
        count = sum(1 for e in listing if e["kind"] == kind) or (8 if kind == "foot" else 1)
        assert grams[kind]["count"] == count
        assert grams[kind]["pla_g"] == pytest.approx(cm3 * PLA_G_PER_CM3 * count, abs=0.1)
        total += cm3 * PLA_G_PER_CM3 * count
    assert grams["total"]["pla_g"] == pytest.approx(total, abs=0.5)

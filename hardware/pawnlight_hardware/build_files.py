"""Writes the build files of ``pawnlight hardware parts`` into a folder (the list is in
:mod:`.parts`' help): the printed parts from :mod:`.parts`, the drilling template and the panel
from :mod:`.template`, which draws what :mod:`.parts` places."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Sequence
from pathlib import Path

from . import stl
from .parts import (
    FIXED_FACE_MM,
    Point,
    filament,
    hang,
    kinds,
    led_positions,
    parts,
    place,
    render_kind,
    render_under,
    sensor_positions,
    under_parts,
)
from .template import panel_svg, template_pdf, template_svg


def _positions_json(rows: Sequence[tuple[str, Point]]) -> str:
    listed = [{"name": name, "x_mm": round(x, 2), "y_mm": round(y, 2)} for name, (x, y) in rows]
    return json.dumps(listed, indent=1) + "\n"


def write_build_files(out: Path) -> list[Path]:
    """Write everything listed in the module's help into ``out``; return the files written."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "parts").mkdir(exist_ok=True)
    (out / "print").mkdir(exist_ok=True)
    written = []
    all_parts = parts()
    names = kinds(all_parts)
    shapes: dict[str, list[stl.Triangle]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        for (shape, windows), kind in names.items():
            path = out / "print" / f"{kind}.stl"
            raw = Path(scratch) / f"{kind}.stl"
            render_kind(shape, windows, raw)
            shapes[kind] = stl.read(raw)
            stl.write(path, shapes[kind], f"pawnlight {kind}")
            written.append(path)
    listing = []
    for part in all_parts:
        kind = names[(part.shape, part.windows)]
        path = out / "parts" / f"{part.name}.stl"
        stl.write(path, place(part, shapes[kind]), f"pawnlight {part.name}")
        written.append(path)
        listing.append(
            {"name": part.name, "kind": kind, "file": f"parts/{part.name}.stl",
             "print": f"print/{kind}.stl", "x_mm": round(part.centre[0], 2),
             "y_mm": round(part.centre[1], 2), "quarter_turns": part.quarters % 4}
        )  # fmt: skip
    files = {
        "parts.json": json.dumps(listing, indent=1) + "\n",
        "leds.json": _positions_json(led_positions()),
        "sensors.json": _positions_json(sensor_positions()),
        "template.svg": template_svg(all_parts),
    }
    for name, text in files.items():
        (out / name).write_text(text, encoding="utf-8")
        written.append(out / name)
    (out / "template.pdf").write_bytes(template_pdf(all_parts))
    written.append(out / "template.pdf")
    written += _write_under(out, shapes)
    counts = {kind: 0 for kind in shapes}
    for part in all_parts:
        counts[names[(part.shape, part.windows)]] += 1
    for _name, kind, _centre in under_parts():
        counts[kind] += 1
    (out / "filament.json").write_text(
        json.dumps(filament(shapes, counts), indent=1) + "\n", encoding="utf-8"
    )
    written.append(out / "filament.json")
    return written


def _write_under(out: Path, shapes: dict[str, list[stl.Triangle]]) -> list[Path]:
    """The hatch cover and the feet: to print, placed under the board, listed; the panel."""
    written = []
    (out / "under").mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        for kind in ("hatch", "foot"):
            raw = Path(scratch) / f"{kind}.stl"
            render_under(kind, raw)
            shapes[kind] = stl.read(raw)
            stl.write(out / "print" / f"{kind}.stl", shapes[kind], f"pawnlight {kind}")
            written.append(out / "print" / f"{kind}.stl")
    listing = []
    for name, kind, centre in under_parts():
        path = out / "under" / f"{name}.stl"
        stl.write(path, hang(shapes[kind], centre, FIXED_FACE_MM[kind]), f"pawnlight {name}")
        written.append(path)
        listing.append(
            {"name": name, "kind": kind, "file": f"under/{name}.stl", "print": f"print/{kind}.stl",
             "x_mm": round(centre[0], 2), "y_mm": round(centre[1], 2)}
        )  # fmt: skip
    (out / "under.json").write_text(json.dumps(listing, indent=1) + "\n", encoding="utf-8")
    (out / "panel.svg").write_text(panel_svg(), encoding="utf-8")
    return [*written, out / "under.json", out / "panel.svg"]

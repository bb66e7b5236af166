"""``pawnlight hardware assembly --out DIR``: the assembly model's files and its exploded picture.

For each build (``pcb``: the strips and the presence hub, the colour hub's board has the same
outline; ``hand``: the hand-wired build) it writes

* ``assembly-<build>.scad``: every solid, coloured by kind, for OpenSCAD (seen from above: the
  board's y mirrored into OpenSCAD's y-up world);
* ``assembly-<build>.stl``: the same solids as one STL, in board coordinates (y down: a mirror
  image in a viewer, as the parts' STLs);
* ``assembly-<build>.json``: the solids, the room kept free, each ribbon's run, and the checks'
  findings (none on a build that can be built);
* ``exploded-<build>.scad`` and, with OpenSCAD, ``exploded-<build>.png``: the layers lifted
  apart, for docs/assembly.md.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from . import solids, stl
from .assembly import Assembly, build_assembly, problems
from .pictures import Picture, _command

#: How far each group is lifted in the exploded view (mm).
EXPLODE: dict[str, float] = {
    "cups": 330.0,
    "board": 260.0,
    "deck": 200.0,
    "sensors": 120.0,
    "leds": 120.0,
    "strips": 120.0,
    "hub": 40.0,
    "frame": -40.0,
    "pi": -40.0,
    "panel": -110.0,
    "hatch": -160.0,
    "feet": -200.0,
}
#: The exploded picture's view: from the front-left, above (OpenSCAD --camera).
EXPLODED_CAMERA = "264,-264,0,66,0,-25,1900"


def hub_netlist() -> Any:
    """The presence hub's netlist, made by SKiDL (a few seconds; the pcb extra and KiCad 6's
    symbol libraries)."""
    from .pcb.circuit import hub_circuit
    from .pcb.netlist import read_netlist
    from .wiring import load_wiring

    return read_netlist(hub_circuit(load_wiring(), "presence").netlist)


def summary(model: Assembly) -> dict[str, Any]:
    return {
        "build": model.build,
        "solids": [
            {"name": s.name, "group": s.group, "lo": s.lo, "hi": s.hi, "round": s.round}
            for s in model.solids
        ],
        "keep_free": [{"name": s.name, "lo": s.lo, "hi": s.hi} for s in model.keepouts],
        "ribbons_mm": model.ribbons,
        "usb_socket": model.usb_socket,
        "problems": problems(model),
    }


def write(out: Path, builds: tuple[str, ...] = ("pcb", "hand"), picture: bool = True) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for build in builds:
        model = build_assembly(build, hub_netlist() if build == "pcb" else None)
        files = {
            f"assembly-{build}.scad": solids.openscad(model.solids),
            f"exploded-{build}.scad": solids.openscad(model.solids, EXPLODE),
            f"assembly-{build}.json": json.dumps(summary(model), indent=1) + "\n",
        }
        for name, text in files.items():
            (out / name).write_text(text, encoding="utf-8")
            written.append(out / name)
        path = out / f"assembly-{build}.stl"
        stl.write(path, solids.triangles(model.solids))
        written.append(path)
        if picture:
            written.append(render(out / f"exploded-{build}.scad", out / f"exploded-{build}.png"))
    return written


def render(scad: Path, png: Path) -> Path:
    """The exploded view as a PNG (pictures.SIZE), OpenSCAD under xvfb-run without a display."""
    view = Picture(png.stem, "", EXPLODED_CAMERA, fit=True)
    result = subprocess.run(
        _command(scad, png, view), capture_output=True, text=True, timeout=600, check=False
    )
    if result.returncode != 0 or not png.exists() or png.stat().st_size == 0:
        raise RuntimeError(f"openscad could not draw {png.name}: {result.stderr.strip()[-500:]}")
    return png

"""Pictures of the printed parts, rendered from the STL files ``pawnlight hardware parts``
writes, for docs/assembly.md:

    pawnlight hardware pictures --out docs/img [--parts DIR]

OpenSCAD draws each picture (``import()`` of the STLs in a small generated .scad, exported as
PNG).  It needs an OpenGL display: on a machine without one (a server, CI) the command runs
OpenSCAD under ``xvfb-run``, a virtual X display (Debian: xvfb and xauth,
scripts/install-system-packages).  Without ``--parts`` the parts are built first in a
temporary folder (about 15 s).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from . import underside
from .build_files import write_build_files
from .parts import openscad_command

#: Every picture's size in pixels: small PNGs (tens of kB each) that read well on a page.
SIZE = (800, 600)


@dataclass(frozen=True)
class Picture:
    name: str  # the PNG's file name, without .png
    scad: str  # the scene, with {parts} for the parts folder
    camera: str  # OpenSCAD's --camera: translate x,y,z, rotate x,y,z, distance
    fit: bool = True  # let OpenSCAD fit the view to the scene (--viewall --autocenter)


_DECK = 'color("BurlyWood") translate([0, 0, -{t}]) cube([{s}, {s}, {t}]);'.format(
    s=f"{underside.DECK_MM:g}", t=f"{underside.DECK_THICKNESS_MM:g}"
)

#: The parts folder holds every part in board coordinates with y down the board (a mirror
#: image in OpenSCAD's y-up world): the scenes mirror y back, so the board looks as seen from
#: above, T0 at the top left.
PICTURES: tuple[Picture, ...] = (
    Picture(
        "parts-on-board",
        "mirror([0, 1, 0]) {{ " + _DECK + ' color("SteelBlue") for (f = {files}) import(f); }}',
        "264,-264,0,35,0,0,1500",
        fit=False,
    ),
    Picture(
        "part-cup",
        'color("SteelBlue") import("{parts}/print/cup-slide.stl");',
        "0,0,0,55,0,25,0",
    ),
    Picture(
        "part-tray",
        'color("SteelBlue") import("{parts}/print/tray.stl");',
        "0,0,0,55,0,25,0",
    ),
    Picture(
        "part-hatch-and-foot",
        'color("DarkOrange") import("{parts}/print/hatch.stl"); '
        'color("DarkOrange") translate([85, 0, 0]) import("{parts}/print/foot.stl");',
        "0,0,0,50,0,20,0",
    ),
)


def _scene(picture: Picture, parts: Path) -> str:
    files = sorted((parts / "parts").glob("*.stl"))
    listed = "[" + ", ".join(f'"{path.as_posix()}"' for path in files) + "]"
    return picture.scad.format(parts=parts.as_posix(), files=listed) + "\n"


def _command(scad: Path, png: Path, picture: Picture) -> list[str]:
    command = [
        openscad_command(),
        "--quiet",
        "-o",
        str(png),
        f"--imgsize={SIZE[0]},{SIZE[1]}",
        f"--camera={picture.camera}",
        *(["--viewall", "--autocenter"] if picture.fit else []),
        "--projection=perspective",
        "--colorscheme=Tomorrow",
        str(scad),
    ]
    if not os.environ.get("DISPLAY"):
        xvfb = shutil.which("xvfb-run")
        if xvfb is None:
            raise RuntimeError(
                "no display and no xvfb-run: sudo apt-get install xvfb xauth "
                "(scripts/install-system-packages), or run with a DISPLAY"
            )
        command = [xvfb, "-a", "-s", "-screen 0 1024x768x24", *command]
    return command


def render(out: Path, parts: Path | None = None) -> list[Path]:
    """Write every picture as ``out/<name>.png``; build the parts first unless ``parts`` is a
    folder ``pawnlight hardware parts`` wrote."""
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        if parts is None:
            parts = Path(scratch) / "build"
            write_build_files(parts)
        elif not (parts / "parts").is_dir() or not (parts / "print").is_dir():
            raise RuntimeError(
                f"{parts} holds no parts: run pawnlight hardware parts --out {parts}"
            )
        written = []
        for picture in PICTURES:
            scad = Path(scratch) / f"{picture.name}.scad"
            scad.write_text(_scene(picture, parts.resolve()), encoding="utf-8")
            png = out / f"{picture.name}.png"
            result = subprocess.run(
                _command(scad, png, picture),
                capture_output=True,
                text=True,
                timeout=600,
                check=False,
            )
            if result.returncode != 0 or not png.exists() or png.stat().st_size == 0:
                raise RuntimeError(
                    f"openscad could not draw {picture.name}: {result.stderr.strip()[-500:]}"
                )
            written.append(png)
    return written

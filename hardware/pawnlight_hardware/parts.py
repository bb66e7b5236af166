"""The build files of a board: every printed part placed on the board, the LED and sensor
positions, and the drilling template, all from pawnlight.board.geometry.

    pawnlight hardware parts --out DIR

writes

* ``DIR/parts/<part>.stl``: every printable part (a cup on each of the 80 track and safety squares,
  a tray on each of the 8 START and HOME circles) placed in board coordinates: millimetres, origin
  at the outer top-left corner of the deck (T0's corner), x to the right along T0..T14, y down the
  board, z up from the deck's top surface.  (With y down these coordinates are a mirror image
  of what an STL viewer assumes: view them, print from ``print/``.)
* ``DIR/print/<kind>.stl``: one of each kind of part, as it prints (flat side down, not
  mirrored), and ``DIR/parts.json``: every part, its kind, file, centre and turn;
* ``DIR/leds.json``, ``DIR/sensors.json``: ``[{"name": "T4", "x_mm": .., "y_mm": ..}, ...]``
  for the 132 LEDs (in chain order) and the 112 sensors;
* ``DIR/template.svg`` (the whole board at 1:1) and ``DIR/template.pdf`` (the same on A4 pages
  to tape together), the drilling template (:mod:`.template`);
* under the deck (hardware/bottom-panel.scad, sizes from :mod:`.underside`): ``DIR/print/hatch.stl``
  and ``DIR/print/foot.stl`` to print, ``DIR/under/*.stl`` the hatch cover and the eight feet
  placed below the bottom panel (z < 0), listed in ``DIR/under.json``, and ``DIR/panel.svg``,
  the bottom panel's hatch opening and holes at 1:1;
* ``DIR/filament.json``: each kind's volume from its STL, how many, and the grams of PLA.

``parts.json`` lists only the parts *on* the deck (cups and trays): everything the LEDs shine
through.  The parts under the deck are listed apart, so a check over the deck's parts never
meets the panel's.

The parts are modelled in hardware/centring-cups.scad and rendered with OpenSCAD, once per kind
(a cup with one LED window, a cup with a slide LED's window too, a tray); each part is then
turned and moved into place here.  Every LED hole under a part becomes a window through it.
"""

from __future__ import annotations

import math
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pawnlight.board import geometry
from pawnlight.board.cells import AREAS, CELL_NAMES, START_BASE
from pawnlight.rules.board import COLOURS, START

from . import stl, underside
from .wiring import load_wiring, repository_hardware

#: The parameters of hardware/centring-cups.scad that the geometry fixes.
PLACE_MM = geometry.SQUARE_MM
SPOT_MM = geometry.SPOT_OFFSET * geometry.SQUARE_MM
CIRCLE_MM = 2 * geometry.AREA_RADIUS * geometry.SQUARE_MM
GAP_MM = 1.5
CUP_SIDE_MM = PLACE_MM - GAP_MM
TRAY_RADIUS_MM = (CIRCLE_MM - GAP_MM) / 2
WINDOW_MM = 6.0
LED_HOLE_MM = 5.0
PILOT_HOLE_MM = 1.5
#: PLA's density, g/cm³ (PETG: 1.27): the filament a part takes if printed solid, which these
#: thin-walled parts nearly are with three perimeters and solid top and bottom layers.
PLA_G_PER_CM3 = 1.24
#: The bottom panel's underside, where the hatch cover and the feet are fixed (z is up from the
#: deck's top surface).
PANEL_UNDERSIDE_Z = -(
    underside.DECK_THICKNESS_MM + underside.FRAME_HEIGHT_MM + underside.PANEL_THICKNESS_MM
)

Point = tuple[float, float]


@dataclass(frozen=True)
class Part:
    """One printed part on the board."""

    name: str  # cup-T4, cup-red-S1, tray-red-start
    shape: str  # "square" or "tray": the part of centring-cups.scad
    centre: Point  # board millimetres
    quarters: int  # quarter turns clockwise from red's side
    windows: tuple[Point, ...]  # LED windows from the centre, red's frame, board axes (y down)

    def to_board(self, u: float, v: float) -> Point:
        """A point of the part (red's frame, board axes) on the board."""
        for _ in range(self.quarters % 4):
            u, v = -v, u
        return self.centre[0] + u, self.centre[1] + v

    def covers(self, x: float, y: float, margin: float = 0.0) -> bool:
        dx, dy = x - self.centre[0], y - self.centre[1]
        if self.shape == "tray":
            return math.hypot(dx, dy) <= TRAY_RADIUS_MM + margin
        return max(abs(dx), abs(dy)) <= CUP_SIDE_MM / 2 + margin


def _to_local(offset: Point, quarters: int) -> Point:
    u, v = offset
    for _ in range(quarters % 4):
        u, v = v, -u
    return u, v


def led_positions() -> list[tuple[str, Point]]:
    """Every LED in chain order: its wiring name and its hole in board millimetres."""
    return [(name, geometry.led_hole_mm(name)) for name in load_wiring().led_chain]


def sensor_positions() -> list[tuple[str, Point]]:
    """Every sensor by cell: its place's name and its centre in board millimetres."""
    return list(zip(CELL_NAMES, geometry.SENSORS_MM, strict=True))


def parts() -> list[Part]:
    """Every printed part, with a window over every LED hole it covers."""
    holes = [point for _name, point in led_positions()]
    found = []
    for cell in range(START_BASE):
        centre, quarters = geometry.SENSORS_MM[cell], geometry.cell_quarters(cell)
        found.append(Part(f"cup-{CELL_NAMES[cell]}", "square", centre, quarters, ()))
    for place, colour in AREAS:
        word = "start" if place == START else "home"
        centre = geometry.mm(geometry.area_centre(place, colour))
        found.append(Part(f"tray-{COLOURS[colour]}-{word}", "tray", centre, colour, ()))
    placed = []
    for part in found:
        windows = tuple(
            sorted(
                _round(_to_local((x - part.centre[0], y - part.centre[1]), part.quarters))
                for x, y in holes
                if part.covers(x, y, WINDOW_MM / 2)
            )
        )
        placed.append(Part(part.name, part.shape, part.centre, part.quarters, windows))
    return placed


def _round(point: Point) -> Point:
    return round(point[0], 3) + 0.0, round(point[1], 3) + 0.0


def kinds(all_parts: Sequence[Part]) -> dict[tuple[str, tuple[Point, ...]], str]:
    """A name for each kind of part (a shape and its windows): cup, cup-slide, tray."""
    names: dict[tuple[str, tuple[Point, ...]], str] = {}
    for part in all_parts:
        key = (part.shape, part.windows)
        if key in names:
            continue
        base = "tray" if part.shape == "tray" else "cup" if len(part.windows) == 1 else "cup-slide"
        name, number = base, 2
        while name in names.values():
            name, number = f"{base}-{number}", number + 1
        names[key] = name
    return names


def openscad_command() -> str:
    found = shutil.which("openscad")
    if found is None:
        raise RuntimeError(
            "openscad not found: sudo apt-get install openscad (scripts/install-system-packages)"
        )
    return found


def render_scad(scad: Path, defines: dict[str, str], out: Path) -> None:
    """Render ``scad`` to the STL ``out`` with OpenSCAD, its variables set by ``defines``."""
    command = [openscad_command(), "--quiet", "-o", str(out)]
    for key, value in defines.items():
        command += ["-D", f"{key}={value}"]
    result = subprocess.run(
        [*command, str(scad)], capture_output=True, text=True, timeout=600, check=False
    )
    if result.returncode != 0 or not out.exists():
        raise RuntimeError(f"openscad failed on {scad.name}: {result.stderr.strip()[-500:]}")


def render_kind(shape: str, windows: Sequence[Point], out: Path) -> None:
    """Render one kind of part with OpenSCAD, in its printing position (y up, not mirrored)."""
    scad = repository_hardware() / "centring-cups.scad"
    listed = ", ".join(f"[{u:g}, {-v:g}]" for u, v in windows)
    defines = {
        "part": f'"{shape}"',
        "windows": f"[{listed}]",
        "place": f"{PLACE_MM:g}",
        "gap": f"{GAP_MM:g}",
        "spot": f"{SPOT_MM:g}",
        "circle": f"{CIRCLE_MM:g}",
        "window": f"{WINDOW_MM:g}",
    }
    render_scad(scad, {"part": f'"{shape}"', **defines}, out)


def render_under(kind: str, out: Path) -> None:
    """Render the hatch cover or a foot (hardware/bottom-panel.scad) in its printing position."""
    w, h = underside.HATCH_OPENING_MM
    defines = {
        "part": f'"{kind}"',
        "opening": f"[{w:g}, {h:g}]",
        "overlap": f"{underside.HATCH_OVERLAP_MM:g}",
        "screw": f"{underside.HATCH_SCREW_MM:g}",
        "plate": f"{underside.HATCH_PLATE_MM:g}",
        "rim": f"{underside.HATCH_RIM_MM:g}",
        "foot_d": f"{underside.FOOT_DIAMETER_MM:g}",
        "foot_h": f"{underside.FOOT_HEIGHT_MM:g}",
        "foot_screw": f"{underside.FOOT_SCREW_MM:g}",
    }
    render_scad(repository_hardware() / "bottom-panel.scad", defines, out)


def under_parts() -> list[tuple[str, str, Point]]:
    """The parts under the deck: (name, kind, centre in board mm)."""
    found = [("hatch", "hatch", underside.hatch_centre())]
    found += [(f"foot-{i + 1}", "foot", point) for i, point in enumerate(underside.feet())]
    return found


#: How high above its printing bed each kind's face against the panel is: the hatch cover's
#: plate (its rim stands higher, up into the opening), a foot's top.
FIXED_FACE_MM = {"hatch": underside.HATCH_PLATE_MM, "foot": underside.FOOT_HEIGHT_MM}


def hang(triangles: Sequence[stl.Triangle], centre: Point, fixed: float) -> list[stl.Triangle]:
    """A part in its printing position hung under the bottom panel at ``centre``.  It prints
    the way it is fitted, outer face down and the face at height ``fixed`` up against the
    panel, so it is only moved: until that face touches the panel's underside, and into board
    axes (y down: a mirror, so each triangle's vertex order is reversed to keep it facing out)."""
    placed: list[stl.Triangle] = []
    top = fixed
    for a, b, c in triangles:
        corners = [
            (centre[0] + x, centre[1] - y, PANEL_UNDERSIDE_Z - top + z) for x, y, z in (a, c, b)
        ]
        placed.append((corners[0], corners[1], corners[2]))
    return placed


def place(part: Part, triangles: Sequence[stl.Triangle]) -> list[stl.Triangle]:
    """A kind's triangles (printing position: y up) turned and moved onto the board (y down).
    Flipping y mirrors, so each triangle's vertex order is reversed to keep it facing out."""
    placed: list[stl.Triangle] = []
    for a, b, c in triangles:
        corners = []
        for x, y, z in (a, c, b):
            bx, by = part.to_board(x, -y)
            corners.append((bx, by, z))
        placed.append((corners[0], corners[1], corners[2]))
    return placed


def filament(
    shapes: dict[str, list[stl.Triangle]], counts: dict[str, int]
) -> dict[str, dict[str, float]]:
    """Each kind's solid volume (cm³, from its STL), how many are printed and the PLA it takes,
    with a ``total`` entry."""
    found: dict[str, dict[str, float]] = {}
    grams_total = 0.0
    for kind, triangles in shapes.items():
        cm3 = stl.volume_mm3(triangles) / 1000
        grams = cm3 * PLA_G_PER_CM3 * counts[kind]
        found[kind] = {"cm3_each": round(cm3, 2), "count": counts[kind], "pla_g": round(grams, 1)}
        grams_total += grams
    found["total"] = {"pla_g": round(grams_total, 1)}
    return found

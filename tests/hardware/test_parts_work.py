"""What the printed parts are for, checked on the STL files ``pawnlight hardware parts`` writes:
every LED shines straight up through no material, and wherever a pawn can come to rest on a part
it stands over its sensor, close enough for the magnet model (board/magnets.py) to read it on
both kinds of board."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest

from pawnlight.board import magnets
from pawnlight_hardware import stl
from pawnlight_hardware.parts import PANEL_UNDERSIDE_Z, parts
from pawnlight_hardware.underside import DECK_THICKNESS_MM, HATCH_RIM_MM, PANEL_THICKNESS_MM

#: OpenSCAD renders the parts, then every LED and resting place is checked.
pytestmark = pytest.mark.slow

#: A pawn's base, and the steepest slope it can stand still on (PLA on PLA, felt-less:
#: a friction coefficient of at most tan 20 deg = 0.36; the parts slope at 30 deg).
PAWN_BASE_MM = 13.5
FRICTION = math.tan(math.radians(20))
GRID_MM = 0.5


def _triangles(path: Path) -> np.ndarray:
    return np.array(stl.read(path), dtype=float)  # (n, 3, 3)


def _hits(triangles: np.ndarray, x: float, y: float) -> np.ndarray:
    """The heights where the vertical line through (x, y) crosses the triangles."""
    a, b, c = triangles[:, 0], triangles[:, 1], triangles[:, 2]
    det = (b[:, 1] - c[:, 1]) * (a[:, 0] - c[:, 0]) + (c[:, 0] - b[:, 0]) * (a[:, 1] - c[:, 1])
    flat = np.abs(det) > 1e-9  # vertical walls project to a line: the line does not cross them
    safe = np.where(flat, det, 1.0)
    l1 = ((b[:, 1] - c[:, 1]) * (x - c[:, 0]) + (c[:, 0] - b[:, 0]) * (y - c[:, 1])) / safe
    l2 = ((c[:, 1] - a[:, 1]) * (x - c[:, 0]) + (a[:, 0] - c[:, 0]) * (y - c[:, 1])) / safe
    l3 = 1 - l1 - l2
    eps = 1e-7
    inside = flat & (l1 >= -eps) & (l2 >= -eps) & (l3 >= -eps)
    z = l1 * a[:, 2] + l2 * b[:, 2] + l3 * c[:, 2]
    return np.asarray(z[inside])


def _top(triangles: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """The top surface's height over a grid (0 where there is no part: the board)."""
    top = np.zeros((len(ys), len(xs)))
    gx, gy = np.meshgrid(xs, ys)
    for a, b, c in triangles:
        det = (b[1] - c[1]) * (a[0] - c[0]) + (c[0] - b[0]) * (a[1] - c[1])
        if abs(det) < 1e-9:
            continue
        lo_x, hi_x = (
            np.searchsorted(xs, min(a[0], b[0], c[0])),
            np.searchsorted(xs, max(a[0], b[0], c[0]), side="right"),
        )
        lo_y, hi_y = (
            np.searchsorted(ys, min(a[1], b[1], c[1])),
            np.searchsorted(ys, max(a[1], b[1], c[1]), side="right"),
        )
        if lo_x >= hi_x or lo_y >= hi_y:
            continue
        px, py = gx[lo_y:hi_y, lo_x:hi_x], gy[lo_y:hi_y, lo_x:hi_x]
        l1 = ((b[1] - c[1]) * (px - c[0]) + (c[0] - b[0]) * (py - c[1])) / det
        l2 = ((c[1] - a[1]) * (px - c[0]) + (a[0] - c[0]) * (py - c[1])) / det
        l3 = 1 - l1 - l2
        inside = (l1 >= -1e-9) & (l2 >= -1e-9) & (l3 >= -1e-9)
        z = np.where(inside, l1 * a[2] + l2 * b[2] + l3 * c[2], 0.0)
        np.maximum(top[lo_y:hi_y, lo_x:hi_x], z, out=top[lo_y:hi_y, lo_x:hi_x])
    return top


def _resting_height(top: np.ndarray) -> np.ndarray:
    """How high a pawn's flat base stands at each grid point: the highest point under it."""
    radius = PAWN_BASE_MM / 2 / GRID_MM
    reach = int(radius)
    padded = np.pad(top, reach)
    height = np.zeros_like(top)
    rows, columns = top.shape
    for dy in range(-reach, reach + 1):
        for dx in range(-reach, reach + 1):
            if dx * dx + dy * dy <= radius * radius:
                window = padded[reach + dy : reach + dy + rows, reach + dx : reach + dx + columns]
                np.maximum(height, window, out=height)
    return height


def _resting(height: np.ndarray) -> np.ndarray:
    """Grid points where a pawn stays: no neighbour lies lower than friction allows."""
    rows, columns = height.shape
    stays = np.ones_like(height, dtype=bool)
    padded = np.pad(height, 1, mode="edge")
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if dx or dy:
                step = math.hypot(dx, dy) * GRID_MM
                neighbour = padded[1 + dy : 1 + dy + rows, 1 + dx : 1 + dx + columns]
                stays &= height - neighbour <= FRICTION * step
    return stays


#: How far below its highest contact a point of the part still carries the base (a pawn tilts
#: that much over its 13.5 mm base: about 1 degree).
CONTACT_MM = 0.25
#: Contacts nearer the pawn's centre than this only balance it.
BALANCE_MM = 2.0
#: A pawn whose contacts leave a gap wider than this round its centre tips into it.
TIPPING_GAP = math.radians(150)


def _supported(top: np.ndarray, height: np.ndarray, row: int, column: int) -> bool:
    """Whether a pawn at this grid point stands on its contacts, its centre among them: with
    all its contacts on one side it tips over that edge (off a corner or a ridge), and on
    contacts all near its centre it balances on a point (a peak), which no hand leaves it on."""
    radius = PAWN_BASE_MM / 2 / GRID_MM
    reach = int(radius)
    rows, columns = top.shape
    angles = []
    for dy in range(-reach, reach + 1):
        for dx in range(-reach, reach + 1):
            y, x = row + dy, column + dx
            if dx * dx + dy * dy > radius * radius or not (0 <= y < rows and 0 <= x < columns):
                continue
            far = dx * dx + dy * dy >= (BALANCE_MM / GRID_MM) ** 2
            if far and top[y, x] >= height[row, column] - CONTACT_MM:
                angles.append(math.atan2(dy, dx))
    if not angles:
        return False
    angles.sort()
    gaps = [b - a for a, b in itertools.pairwise(angles)]
    gaps.append(angles[0] + 2 * math.pi - angles[-1])
    # Contacts on one line through the centre (a knife edge) do not hold it either.
    return max(gaps) < TIPPING_GAP


def test_every_led_shines_through_no_material(build_files: Path) -> None:
    """Over the deck: the parts on it (parts.json) are what an LED shines through.  The hatch
    cover and the feet hang under the bottom panel, below the LEDs (the next test), and are
    not in parts(): a vertical line through an LED meets the panel anyway."""
    leds = json.loads((build_files / "leds.json").read_text())
    covered = 0
    for part in parts():
        triangles = _triangles(build_files / "parts" / f"{part.name}.stl")
        low, high = triangles.min(axis=(0, 1)), triangles.max(axis=(0, 1))
        for led in leds:
            x, y = led["x_mm"], led["y_mm"]
            if low[0] <= x <= high[0] and low[1] <= y <= high[1]:
                covered += 1
                # The LED's whole 5 mm hole, not just its centre, sees the sky.
                for r, angle in [(0.0, 0.0)] + [(2.5, k * math.pi / 6) for k in range(12)]:
                    hits = _hits(triangles, x + r * math.cos(angle), y + r * math.sin(angle))
                    assert hits.size == 0, f"{led['name']} is under {part.name} at z {hits}"
    assert covered == 132  # every LED lies under some part: none is missed by the check


def test_the_parts_under_the_deck_are_all_below_it(build_files: Path) -> None:
    listing = json.loads((build_files / "under.json").read_text())
    assert {e["name"] for e in listing}.isdisjoint({p.name for p in parts()})
    for entry in listing:
        triangles = _triangles(build_files / entry["file"])
        # The hatch cover's rim stands up into the panel's opening, no higher than the panel.
        top = PANEL_UNDERSIDE_Z + (HATCH_RIM_MM if entry["kind"] == "hatch" else 0.0)
        assert triangles[:, :, 2].max() == pytest.approx(top, abs=1e-3)
        assert top <= PANEL_UNDERSIDE_Z + PANEL_THICKNESS_MM
        assert triangles[:, :, 2].max() < -DECK_THICKNESS_MM  # under the deck, and the LEDs


def test_a_pawn_rests_only_over_its_sensor_and_is_read_there(build_files: Path) -> None:
    sensors = np.array(
        [(s["x_mm"], s["y_mm"]) for s in json.loads((build_files / "sensors.json").read_text())]
    )
    listing = {e["name"]: e for e in json.loads((build_files / "parts.json").read_text())}
    worst = 0.0
    analysed: dict[tuple[str, int], tuple[np.ndarray, tuple[float, float]]] = {}
    for part in parts():
        triangles = _triangles(build_files / "parts" / f"{part.name}.stl")
        # Parts of one kind turned the same way are the same solid moved: analyse the first,
        # check the others are it, moved by the difference of their centres.
        kind = (listing[part.name]["kind"], part.quarters % 4)
        if kind in analysed:
            first, centre = analysed[kind]
            moved = first + np.array([part.centre[0] - centre[0], part.centre[1] - centre[1], 0.0])
            np.testing.assert_allclose(triangles, moved, atol=1e-3)
            continue
        analysed[kind] = (triangles, part.centre)
        low, high = triangles.min(axis=(0, 1)), triangles.max(axis=(0, 1))
        pad = PAWN_BASE_MM
        xs = np.arange(low[0] - pad, high[0] + pad, GRID_MM)
        ys = np.arange(low[1] - pad, high[1] + pad, GRID_MM)
        top = _top(triangles, xs, ys)
        height = _resting_height(top)
        stays = _resting(height)
        gx, gy = np.meshgrid(xs, ys)
        on_part = np.array(
            [[part.covers(x, y) for x in xs] for y in ys]
        )  # the pawn's centre over the part
        rows, columns = np.nonzero(stays & on_part)
        kept = [i for i in range(rows.size) if _supported(top, height, rows[i], columns[i])]
        rows, columns = rows[kept], columns[kept]
        assert rows.size, f"a pawn finds no resting place on {part.name}"
        points = np.stack([gx[rows, columns], gy[rows, columns]], axis=1)
        nearest = np.min(np.linalg.norm(points[:, None, :] - sensors[None, :, :], axis=2), axis=1)
        worst = max(worst, float(nearest.max()))
    # Wherever a pawn comes to rest it is within the recess's play of a sensor...
    assert worst <= magnets.PAWN_CLEARANCE_MM / 2 + GRID_MM / 2
    # ...and with a sensor glued up to 1.5 mm off its mark, both boards read it there.
    offset = worst + magnets.SENSOR_PLACEMENT_MM
    assert magnets.misreadings("presence", offset) == []
    assert magnets.misreadings("colour", offset) == []


@pytest.mark.parametrize("sensing", ["presence", "colour"])
def test_the_magnet_model_would_catch_a_pawn_resting_off_centre(sensing: str) -> None:
    # The check above has teeth: a pawn on the old cups' flat shelf, 11.5 mm off, is not read.
    assert magnets.misreadings(sensing, 11.5)

"""Simple solids for the assembly model: axis-aligned boxes and upright cylinders, the
interference check between them, and their export (OpenSCAD, STL).

Board coordinates as everywhere (:mod:`pawnlight.board.geometry`): millimetres, x to the right,
y down the board seen from above, z up from the board's top face.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from . import stl

#: Overlaps thinner than this are touching (a part on its board), not interference.
EPSILON_MM = 0.01

Vector = tuple[float, float, float]


@dataclass(frozen=True)
class Solid:
    """A box from ``lo`` to ``hi``, or an upright cylinder inscribed in that box's footprint
    (``round``), in board coordinates; ``group`` says which assembly it belongs to."""

    name: str
    group: str
    lo: Vector
    hi: Vector
    round: bool = False
    colour: str = "Silver"

    @property
    def radius(self) -> float:
        return min(self.hi[0] - self.lo[0], self.hi[1] - self.lo[1]) / 2

    @property
    def centre(self) -> tuple[float, float]:
        return (self.lo[0] + self.hi[0]) / 2, (self.lo[1] + self.hi[1]) / 2

    def moved(self, dx: float = 0.0, dy: float = 0.0, dz: float = 0.0) -> Solid:
        lo = (self.lo[0] + dx, self.lo[1] + dy, self.lo[2] + dz)
        hi = (self.hi[0] + dx, self.hi[1] + dy, self.hi[2] + dz)
        return Solid(self.name, self.group, lo, hi, self.round, self.colour)


def box(name: str, group: str, x: Sequence[float], y: Sequence[float], z: Sequence[float],
        colour: str = "Silver") -> Solid:  # fmt: skip
    """A box spanning the ranges ``x``, ``y`` and ``z`` (each given in any order)."""
    return Solid(
        name,
        group,
        (min(x), min(y), min(z)),
        (max(x), max(y), max(z)),
        colour=colour,
    )


def cylinder(name: str, group: str, centre: tuple[float, float], radius: float,
             z: Sequence[float], colour: str = "Silver") -> Solid:  # fmt: skip
    cx, cy = centre
    return Solid(
        name,
        group,
        (cx - radius, cy - radius, min(z)),
        (cx + radius, cy + radius, max(z)),
        round=True,
        colour=colour,
    )


def _overlap(a0: float, a1: float, b0: float, b1: float) -> float:
    return min(a1, b1) - max(a0, b0)


def intersect(a: Solid, b: Solid, epsilon: float = EPSILON_MM) -> bool:
    """Whether two solids share more than a touching face."""
    if _overlap(a.lo[2], a.hi[2], b.lo[2], b.hi[2]) <= epsilon:
        return False
    if not a.round and not b.round:
        return all(_overlap(a.lo[i], a.hi[i], b.lo[i], b.hi[i]) > epsilon for i in (0, 1))
    if a.round and b.round:
        return math.dist(a.centre, b.centre) < a.radius + b.radius - epsilon
    circle, square = (a, b) if a.round else (b, a)
    cx, cy = circle.centre
    nx = min(max(cx, square.lo[0]), square.hi[0])
    ny = min(max(cy, square.lo[1]), square.hi[1])
    inside = square.lo[0] < cx < square.hi[0] and square.lo[1] < cy < square.hi[1]
    return inside or math.hypot(cx - nx, cy - ny) < circle.radius - epsilon


def interferences(solids: Sequence[Solid]) -> list[tuple[Solid, Solid]]:
    """Every pair of solids that overlap (a sweep along x: only neighbours are compared)."""
    order = sorted(solids, key=lambda s: s.lo[0])
    found = []
    active: list[Solid] = []
    for solid in order:
        active = [s for s in active if s.hi[0] > solid.lo[0] + EPSILON_MM]
        found += [(other, solid) for other in active if intersect(other, solid)]
        active.append(solid)
    return found


def blocking(region: Solid, solids: Iterable[Solid]) -> list[Solid]:
    """The solids that reach into a region that must stay free (a cable's run, a plug)."""
    return [s for s in solids if intersect(region, s)]


def openscad(solids: Sequence[Solid], explode: dict[str, float] | None = None) -> str:
    """An OpenSCAD file of the solids (seen from above as in the drawings: y mirrored into
    OpenSCAD's y-up world); ``explode`` lifts each group by its mm for an exploded view."""
    lines = [
        "// pawnlight: the board assembled (pawnlight hardware assembly); open in OpenSCAD.",
        "$fn = 32;",
        "mirror([0, 1, 0]) {",
    ]
    for s in solids:
        dz = (explode or {}).get(s.group, 0.0)
        size = [s.hi[i] - s.lo[i] for i in range(3)]
        at = f"[{s.lo[0]:.3f}, {s.lo[1]:.3f}, {s.lo[2] + dz:.3f}]"
        if s.round:
            cx, cy = s.centre
            shape = (
                f"translate([{cx:.3f}, {cy:.3f}, {s.lo[2] + dz:.3f}]) "
                f"cylinder(r = {s.radius:.3f}, h = {size[2]:.3f});"
            )
        else:
            shape = f"translate({at}) cube([{size[0]:.3f}, {size[1]:.3f}, {size[2]:.3f}]);"
        lines.append(f'  color("{s.colour}") {shape} // {s.name}')
    lines.append("}")
    return "\n".join(lines) + "\n"


def triangles(solids: Sequence[Solid], sides: int = 24) -> list[stl.Triangle]:
    """Every solid as triangles (a cylinder as a ``sides``-sided prism), for one STL file."""
    found: list[stl.Triangle] = []
    for s in solids:
        if s.round:
            cx, cy = s.centre
            ring = [
                (cx + s.radius * math.cos(2 * math.pi * k / sides),
                 cy + s.radius * math.sin(2 * math.pi * k / sides))
                for k in range(sides)
            ]  # fmt: skip
        else:
            ring = [(s.lo[0], s.lo[1]), (s.hi[0], s.lo[1]), (s.hi[0], s.hi[1]), (s.lo[0], s.hi[1])]
        found += _prism(ring, s.lo[2], s.hi[2])
    return found


def _prism(ring: list[tuple[float, float]], z0: float, z1: float) -> list[stl.Triangle]:
    """A convex prism over ``ring`` (counter-clockwise in x, y), outward-facing triangles."""
    out: list[stl.Triangle] = []
    first = ring[0]
    for a, b in itertools.pairwise(ring[1:]):
        out.append(((first[0], first[1], z1), (a[0], a[1], z1), (b[0], b[1], z1)))
        out.append(((first[0], first[1], z0), (b[0], b[1], z0), (a[0], a[1], z0)))
    for a, b in zip(ring, ring[1:] + ring[:1], strict=True):
        out.append(((a[0], a[1], z0), (b[0], b[1], z0), (b[0], b[1], z1)))
        out.append(((a[0], a[1], z0), (b[0], b[1], z1), (a[0], a[1], z1)))
    return out

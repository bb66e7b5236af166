"""A small two-layer grid router for the sensor strips (issue #35): every net in copper.

KiCad 6 has no autorouter, and a strip is simple enough for a generated one: a row of sensors
with their capacitors, a row of LEDs with theirs, and a 16-way header.  This is a maze router
(Lee's idea, searched with A*) on a square grid of track centre lines, on both copper layers:

* each net is routed as a tree: its pads are taken in the order of a minimum spanning tree from
  the first one, and each next pad is reached by the cheapest path from any copper the net
  already has (pads, tracks, vias) to that pad;
* a path moves in the eight directions (straight or at 45 degrees) and changes layer through a
  via; turns and vias cost extra, so paths stay straight and vias few;
* every grid point knows which net's copper is near it: a point closer than the clearance plus
  half a track (or half a via) to copper of another net, or to the board edge, is closed to a
  track (or a via) there.  The distances are measured to the real shapes (pads as rectangles
  or circles, tracks as segments of their width), with a small margin for the diagonal steps
  between grid points;
* the power nets (+5V, GND, +3V3) get wider tracks;
* when a net cannot be routed, the nets are routed again with that one first, a few times.

Only numpy and the standard library: the router knows pads and an outline, not KiCad, so it
runs (and is tested) without KiCad.  :mod:`.layout` hands it the board's pads and writes its
tracks and vias into the board file.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from pawnlight.errors import PawnlightError

FRONT, BACK = "F.Cu", "B.Cu"
LAYERS = (FRONT, BACK)
#: Nets that carry the supply current: routed with :attr:`Rules.power_width`.
POWER_NETS = frozenset({"+5V", "GND", "+3V3"})


class RoutingError(PawnlightError, RuntimeError):
    """A net could not be routed."""


@dataclass(frozen=True)
class Rules:
    """Design rules, in mm: those of common low-cost board houses, inside KiCad 6's defaults."""

    clearance: float = 0.2
    track_width: float = 0.25
    power_width: float = 0.5
    via_size: float = 0.6
    via_drill: float = 0.3
    edge_clearance: float = 0.5
    grid: float = 0.25
    #: Added to every keep-out distance: a step between two grid points that both keep the
    #: clearance may pass a corner a little closer (at most 0.04 mm for a 0.25 mm diagonal).
    margin: float = 0.05
    #: Grid points one search may take before it gives up on a connection: enough for a
    #: strip; a board as large and full as the hub needs more (and takes longer).
    search_limit: int = 200_000

    def width(self, net: str) -> float:
        return self.power_width if net in POWER_NETS else self.track_width


@dataclass(frozen=True)
class Pad:
    """A pad's copper: centre, full size, on which layers, and its net ("" for none)."""

    ref: str
    number: str
    net: str
    x: float
    y: float
    w: float
    h: float
    layers: tuple[str, ...]
    round: bool = False


@dataclass(frozen=True)
class Track:
    net: str
    layer: str
    start: tuple[float, float]
    end: tuple[float, float]
    width: float


@dataclass(frozen=True)
class Via:
    net: str
    at: tuple[float, float]
    size: float
    drill: float


@dataclass
class Routed:
    tracks: list[Track] = field(default_factory=list)
    vias: list[Via] = field(default_factory=list)
    #: Nets left unfinished (only when routing with ``partial``).
    unrouted: list[str] = field(default_factory=list)


Box = tuple[float, float, float, float]  # left, top, right, bottom

# Grid moves: (di, dj, length in cells, direction number 0..7).
_MOVES = [
    (1, 0, 1.0, 0),
    (1, 1, math.sqrt(2), 1),
    (0, 1, 1.0, 2),
    (-1, 1, math.sqrt(2), 3),
    (-1, 0, 1.0, 4),
    (-1, -1, math.sqrt(2), 5),
    (0, -1, 1.0, 6),
    (1, -1, math.sqrt(2), 7),
]
#: Extra cost (in grid steps) of a turn by 45, 90, 135 degrees, and of a via.
_TURN = (0.0, 0.6, 2.0, 6.0, 50.0)
_VIA_COST = 12.0
#: The A* estimate's weight: above 1 it finds a path sooner, a little longer at worst.
_GREED = 1.2
#: The kinds of copper a grid point is checked for: a signal track, a power track, a via.
_KINDS = ("signal", "power", "via")


class _Grid:
    """Per layer and kind, who may put copper at each grid point: 0 anyone, n > 0 only net n,
    -1 nobody."""

    def __init__(self, outline: Box, rules: Rules) -> None:
        self.rules = rules
        left, top, right, bottom = outline
        g = rules.grid
        self.x0, self.y0 = left, top
        self.nx = math.floor((right - left) / g) + 1
        self.ny = math.floor((bottom - top) / g) + 1
        xs = self.x0 + g * np.arange(self.nx)
        ys = self.y0 + g * np.arange(self.ny)
        self.xs, self.ys = xs, ys
        self.half = {
            "signal": rules.track_width / 2,
            "power": rules.power_width / 2,
            "via": rules.via_size / 2,
        }
        self.owner: dict[tuple[str, str], npt.NDArray[np.int32]] = {}
        for kind in _KINDS:
            keep = rules.edge_clearance + self.half[kind] + rules.margin
            inside = ((xs >= left + keep) & (xs <= right - keep))[:, None] & (
                (ys >= top + keep) & (ys <= bottom - keep)
            )[None, :]
            for layer in LAYERS:
                self.owner[(layer, kind)] = np.where(inside, 0, -1).astype(np.int32)

    def cell(self, x: float, y: float) -> tuple[int, int]:
        g = self.rules.grid
        return round((x - self.x0) / g), round((y - self.y0) / g)

    def point(self, i: int, j: int) -> tuple[float, float]:
        g = self.rules.grid
        return self.x0 + g * i, self.y0 + g * j

    def _window(self, box: Box) -> tuple[slice, slice]:
        g = self.rules.grid
        i0 = max(0, math.floor((box[0] - self.x0) / g))
        j0 = max(0, math.floor((box[1] - self.y0) / g))
        i1 = min(self.nx, math.ceil((box[2] - self.x0) / g) + 1)
        j1 = min(self.ny, math.ceil((box[3] - self.y0) / g) + 1)
        return slice(i0, i1), slice(j0, j1)

    def claim_rect(
        self,
        net: int,
        layers: Iterable[str],
        cx: float,
        cy: float,
        hw: float,
        hh: float,
        rounded: float = 0.0,
        kinds: Sequence[str] = _KINDS,
    ) -> None:
        """Copper of ``net``: a rectangle (half sizes hw, hh) grown by ``rounded`` (a circle
        when hw == hh == 0)."""
        for kind in kinds:
            reach = self.rules.clearance + self.half[kind] + self.rules.margin + rounded
            si, sj = self._window(
                (cx - hw - reach, cy - hh - reach, cx + hw + reach, cy + hh + reach)
            )
            dx = np.maximum(np.abs(self.xs[si] - cx) - hw, 0.0)[:, None]
            dy = np.maximum(np.abs(self.ys[sj] - cy) - hh, 0.0)[None, :]
            near = dx * dx + dy * dy < reach * reach
            for layer in layers:
                self._claim(self.owner[(layer, kind)][si, sj], near, net)

    def claim_segment(
        self, net: int, layer: str, a: tuple[float, float], b: tuple[float, float], width: float
    ) -> None:
        for kind in _KINDS:
            reach = self.rules.clearance + self.half[kind] + self.rules.margin + width / 2
            low_x, high_x = min(a[0], b[0]), max(a[0], b[0])
            low_y, high_y = min(a[1], b[1]), max(a[1], b[1])
            si, sj = self._window((low_x - reach, low_y - reach, high_x + reach, high_y + reach))
            px = self.xs[si][:, None]
            py = self.ys[sj][None, :]
            vx, vy = b[0] - a[0], b[1] - a[1]
            length2 = vx * vx + vy * vy
            if length2 == 0:
                t = np.zeros((1, 1))
            else:
                t = np.clip(((px - a[0]) * vx + (py - a[1]) * vy) / length2, 0.0, 1.0)
            dx = px - (a[0] + t * vx)
            dy = py - (a[1] + t * vy)
            near = dx * dx + dy * dy < reach * reach
            self._claim(self.owner[(layer, kind)][si, sj], near, net)

    @staticmethod
    def _claim(view: npt.NDArray[np.int32], near: npt.NDArray[np.bool_], net: int) -> None:
        free = near & (view == 0)
        taken = near & (view != 0) & (view != net)
        view[free] = net
        view[taken] = -1

    def open_to(self, net: int, layer: str, kind: str) -> npt.NDArray[np.bool_]:
        owner = self.owner[(layer, kind)]
        result: npt.NDArray[np.bool_] = (owner == 0) | (owner == net)
        return result


def _mst_order(pads: Sequence[Pad]) -> list[Pad]:
    """The pads in the order Prim's minimum spanning tree reaches them from the first."""
    order = [pads[0]]
    rest = list(pads[1:])
    while rest:
        best = min(rest, key=lambda p: min(abs(p.x - q.x) + abs(p.y - q.y) for q in order))
        order.append(best)
        rest.remove(best)
    return order


class _Router:
    def __init__(self, pads: Sequence[Pad], outline: Box, rules: Rules) -> None:
        self.pads = list(pads)
        self.outline = outline
        self.rules = rules
        names = sorted({p.net for p in pads if p.net})
        self.ids = {name: number for number, name in enumerate(names, start=1)}

    def route(self, order: Sequence[str], partial: bool = False) -> tuple[Routed, str | None]:
        """Every net in ``order``; the result and the first net that failed (or None).  With
        ``partial`` a net that fails is left as far as it got and the others are routed on
        (``Routed.unrouted`` names the failed ones)."""
        grid = _Grid(self.outline, self.rules)
        no_net = len(self.ids) + 1
        for pad in self.pads:
            net = self.ids.get(pad.net, no_net)
            if pad.round:
                grid.claim_rect(net, pad.layers, pad.x, pad.y, 0.0, 0.0, rounded=pad.w / 2)
            else:
                grid.claim_rect(net, pad.layers, pad.x, pad.y, pad.w / 2, pad.h / 2)
            if len(pad.layers) == 1:
                # No via in or at a surface-mount pad, even of its own net: solder would run
                # down the hole.
                grid.claim_rect(
                    no_net, pad.layers, pad.x, pad.y, pad.w / 2, pad.h / 2, kinds=("via",)
                )
        routed = Routed()
        for name in order:
            pads = [p for p in self.pads if p.net == name]
            if len(pads) < 2:
                continue
            if not self._route_net(grid, name, pads, routed):
                if not partial:
                    return routed, name
                routed.unrouted.append(name)
        return routed, (routed.unrouted[0] if routed.unrouted else None)

    def _access(self, grid: _Grid, pad: Pad, net: int, kind: str) -> list[tuple[int, int, int]]:
        """Grid points inside the pad where a track of the net may start or end: (layer, i, j)."""
        found = []
        hw, hh = (pad.w / 2 * 0.7, pad.h / 2 * 0.7) if pad.round else (pad.w / 2, pad.h / 2)
        si, sj = grid._window((pad.x - hw, pad.y - hh, pad.x + hw, pad.y + hh))
        for layer_index, layer in enumerate(LAYERS):
            if layer not in pad.layers:
                continue
            owner = grid.owner[(layer, kind)]
            for i in range(si.start, si.stop):
                for j in range(sj.start, sj.stop):
                    x, y = grid.point(i, j)
                    inside = abs(x - pad.x) <= hw - 0.01 and abs(y - pad.y) <= hh - 0.01
                    if inside and owner[i, j] in (0, net):
                        found.append((layer_index, i, j))
        return found

    def _route_net(self, grid: _Grid, name: str, pads: list[Pad], routed: Routed) -> bool:
        net = self.ids[name]
        kind = "power" if name in POWER_NETS else "signal"
        width = self.rules.width(name)
        order = _mst_order(pads)
        tree: set[tuple[int, int, int]] = set(self._access(grid, order[0], net, kind))
        if not tree:
            return False
        for pad in order[1:]:
            targets = set(self._access(grid, pad, net, kind))
            if not targets:
                return False
            met = tree & targets
            if met:
                self._stub(grid, name, net, width, pad, met, routed)
                tree |= targets
                continue
            path = self._search(grid, net, kind, tree, targets, (pad.x, pad.y))
            if path is None:
                return False
            self._lay(grid, name, net, width, path, routed)
            tree |= set(path) | targets
            # A via's cell is on both layers.
            for (la, i, j), (lb, _, _) in itertools.pairwise(path):
                if la != lb:
                    tree |= {(0, i, j), (1, i, j)}
        return True

    def _stub(
        self,
        grid: _Grid,
        name: str,
        net: int,
        width: float,
        pad: Pad,
        met: set[tuple[int, int, int]],
        routed: Routed,
    ) -> None:
        """Copper of the net already crosses this pad (at the grid points ``met``).  Unless it
        covers the pad's centre, a stub from it to the centre, so that a track ends in the pad
        (as KiCad counts a connection)."""

        def off_centre(cell: tuple[int, int, int]) -> float:
            x, y = grid.point(cell[1], cell[2])
            return math.hypot(x - pad.x, y - pad.y)

        layer, i, j = min(met, key=lambda cell: (off_centre(cell), cell))
        if off_centre((layer, i, j)) <= width / 2:
            return
        x, y = grid.point(i, j)
        stub = Track(name, LAYERS[layer], (round(x, 4), round(y, 4)), (pad.x, pad.y), width)
        routed.tracks.append(stub)
        grid.claim_segment(net, stub.layer, stub.start, stub.end, width)

    def _search(
        self,
        grid: _Grid,
        net: int,
        kind: str,
        sources: set[tuple[int, int, int]],
        targets: set[tuple[int, int, int]],
        goal: tuple[float, float],
    ) -> list[tuple[int, int, int]] | None:
        """A* from any source point to any target point; the path as (layer, i, j) points."""
        nx, ny = grid.nx, grid.ny
        plane = nx * ny
        open_track = [grid.open_to(net, layer, kind).ravel().tobytes() for layer in LAYERS]
        open_via = (
            (grid.open_to(net, FRONT, "via") & grid.open_to(net, BACK, "via")).ravel().tobytes()
        )
        gi, gj = (goal[0] - grid.x0) / grid.rules.grid, (goal[1] - grid.y0) / grid.rules.grid
        goal_states = {layer * plane + i * ny + j for layer, i, j in targets}
        diagonal = math.sqrt(2) - 1

        def estimate(i: int, j: int) -> float:
            dx, dy = abs(i - gi), abs(j - gj)
            return _GREED * (dx + diagonal * dy if dx > dy else dy + diagonal * dx)

        # Every open grid point lies at least one step inside the grid (the board edge's
        # clearance closes the border), so a step from one needs no bounds check.
        moves = [(di * ny + dj, di, dj, length, d) for di, dj, length, d in _MOVES]
        turns = [[0.0] * 8] + [
            [_TURN[min((d - h) % 8, (h - d) % 8)] for d in range(8)] for h in range(8)
        ]
        inf = math.inf
        best = [inf] * (2 * plane)
        came = [-1] * (2 * plane)
        heading = [-1] * (2 * plane)
        heap: list[tuple[float, float, int]] = []
        for layer, i, j in sources:
            state = layer * plane + i * ny + j
            best[state] = 0.0
            heap.append((estimate(i, j), 0.0, state))
        heapq.heapify(heap)
        push, pop = heapq.heappush, heapq.heappop
        limit = grid.rules.search_limit
        while heap and limit:
            limit -= 1
            _, cost, state = pop(heap)
            if cost > best[state]:
                continue
            if state in goal_states:
                path = []
                while state != -1:
                    layer, rest = divmod(state, plane)
                    path.append((layer, *divmod(rest, ny)))
                    state = came[state]
                return path[::-1]
            layer, rest = divmod(state, plane)
            i, j = divmod(rest, ny)
            turn = turns[heading[state] + 1]
            allowed = open_track[layer]
            for delta, di, dj, length, direction in moves:
                if not allowed[rest + delta]:
                    continue
                step = state + delta
                new = cost + length + turn[direction]
                if new < best[step]:
                    best[step] = new
                    came[step] = state
                    heading[step] = direction
                    push(heap, (new + estimate(i + di, j + dj), new, step))
            if open_via[rest]:
                step = (1 - layer) * plane + rest
                new = cost + _VIA_COST
                if new < best[step]:
                    best[step] = new
                    came[step] = state
                    heading[step] = -1
                    push(heap, (new + estimate(i, j), new, step))
        return None

    def _lay(
        self,
        grid: _Grid,
        name: str,
        net: int,
        width: float,
        path: list[tuple[int, int, int]],
        routed: Routed,
    ) -> None:
        """The path as tracks (straight runs merged) and vias, claimed on the grid."""
        run_start = path[0]
        previous = path[0]
        direction: tuple[int, int] | None = None
        corners: list[tuple[tuple[int, int, int], tuple[int, int, int]]] = []
        for point in path[1:]:
            if point[0] != previous[0]:
                if previous != run_start:
                    corners.append((run_start, previous))
                x, y = grid.point(point[1], point[2])
                via = Via(
                    name, (round(x, 4), round(y, 4)), self.rules.via_size, self.rules.via_drill
                )
                routed.vias.append(via)
                grid.claim_rect(net, LAYERS, x, y, 0.0, 0.0, rounded=self.rules.via_size / 2)
                run_start, previous, direction = point, point, None
                continue
            step = (point[1] - previous[1], point[2] - previous[2])
            if direction is not None and step != direction:
                corners.append((run_start, previous))
                run_start = previous
            direction = step
            previous = point
        if previous != run_start:
            corners.append((run_start, previous))
        for a, b in corners:
            start = tuple(round(v, 4) for v in grid.point(a[1], a[2]))
            end = tuple(round(v, 4) for v in grid.point(b[1], b[2]))
            track = Track(name, LAYERS[a[0]], (start[0], start[1]), (end[0], end[1]), width)
            routed.tracks.append(track)
            grid.claim_segment(net, track.layer, track.start, track.end, width)


def route(
    pads: Sequence[Pad],
    outline: Box,
    rules: Rules | None = None,
    tries: int = 6,
    partial: bool = False,
) -> Routed:
    """Tracks and vias that join every net's pads, keeping ``rules``; RoutingError if a net
    cannot be routed.  Nets are routed shortest first (their spanning trees' lengths), the power
    nets last; a net that fails is moved to the front and all are routed again.  With
    ``partial`` no error: after ``tries`` the result with the fewest unfinished nets is
    returned, naming them in ``Routed.unrouted``."""
    rules = rules or Rules()
    router = _Router(pads, outline, rules)
    spans: dict[str, float] = {}
    for name in router.ids:
        members = _mst_order([p for p in pads if p.net == name])
        spans[name] = sum(
            min(abs(p.x - q.x) + abs(p.y - q.y) for q in members[:k])
            for k, p in enumerate(members)
            if k
        )
    order = sorted(router.ids, key=lambda n: (n in POWER_NETS, spans[n], n))
    failed: str | None = None
    best: Routed | None = None
    for _ in range(tries):
        routed, failed = router.route(order, partial)
        if failed is None:
            return routed
        if partial:
            if best is None or len(routed.unrouted) < len(best.unrouted):
                best = routed
            order = routed.unrouted + [n for n in order if n not in routed.unrouted]
            continue
        order = [failed] + [n for n in order if n != failed]
    if best is not None:
        return best
    raise RoutingError(f"could not route net {failed} in {tries} tries")

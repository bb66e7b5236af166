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
* the power nets (+5V, GND, +3V3) get wider tracks, a supply feed (5V_IN) wider still;
* nets carried by a plane on an inner layer (the hub's GND and +5V) are not routed as trees:
  their through-hole pads reach the plane anyway, and each of their surface-mount pads gets a
  short track to a via of its own (the via goes through every layer, the plane included),
  laid before any other net so that it lands next to its pad;
* when a net cannot be routed, the nets are routed again with that one first, a few times.

Only numpy and the standard library: the router knows pads and an outline, not KiCad, so it
runs (and is tested) without KiCad.  :mod:`.layout` hands it the board's pads and writes its
tracks and vias into the board file.
"""

from __future__ import annotations

import copy
import functools
import heapq
import itertools
import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from pawnlight.errors import PawnlightError

FRONT, BACK = "F.Cu", "B.Cu"
LAYERS = (FRONT, BACK)
#: Nets that carry the supply current: routed with :attr:`Rules.power_width`.
POWER_NETS = frozenset({"+5V", "GND", "+3V3", "+3V3_SENS"})
#: The supply's feed before the fuse (the hub's power entry): the whole board's current, up to
#: 4 A, routed with :attr:`Rules.feed_width`.
FEED_NETS = frozenset({"5V_IN"})


class RoutingError(PawnlightError, RuntimeError):
    """A net could not be routed."""


@dataclass(frozen=True)
class Rules:
    """Design rules, in mm: those of common low-cost board houses, inside KiCad 6's defaults."""

    clearance: float = 0.2
    #: Between the edges of two drilled holes (a via's and a pad's, or two vias'), whatever
    #: their nets: the drill's rule, not the copper's.
    hole_clearance: float = 0.25
    track_width: float = 0.25
    power_width: float = 0.5
    #: 4 A on 1 oz outer copper warms a 2 mm track by about 10 degrees (IPC-2221).
    feed_width: float = 2.0
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
        return {"signal": self.track_width, "power": self.power_width, "feed": self.feed_width}[
            self.kind(net)
        ]

    @staticmethod
    def kind(net: str) -> str:
        """Which of the grid's track kinds a net's tracks are."""
        if net in FEED_NETS:
            return "feed"
        return "power" if net in POWER_NETS else "signal"


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
    #: The hole's diameter of a through-hole pad (0 if none or not known).
    drill: float = 0.0


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
#: The kinds of copper a grid point is checked for: a signal track, a power track, a feed
#: track, a via.
_KINDS = ("signal", "power", "feed", "via")
#: How far (grid steps) the search for a plane net's via may go from its pad, and how far apart
#: two vias of one pad are kept.
_VIA_SEARCH_LIMIT = 40_000
#: Rip-up and reroute: the cost of a step across another net's copper while looking for the
#: nets in a failed net's way, how many rounds, and how often one net may be retried.
_CROSSING = 4.0
_RIP_UP_ROUNDS = 150
_RIP_UP_TRIES = 8
_VIA_SPACING = 1.0


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
            "feed": rules.feed_width / 2,
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
    def __init__(
        self,
        pads: Sequence[Pad],
        outline: Box,
        rules: Rules,
        planes: Collection[str] = (),
        plane_vias: Mapping[str, int] | None = None,
    ) -> None:
        self.pads = list(pads)
        self.outline = outline
        self.rules = rules
        names = sorted({p.net for p in pads if p.net})
        self.ids = {name: number for number, name in enumerate(names, start=1)}
        #: The owner of copper no net may touch (and of the places no via may go).
        self.no_net = len(self.ids) + 1
        self.planes = sorted(set(planes) & set(self.ids))
        #: Per net number (index 0 for copper two nets share), how often it was ripped up.
        self.history = np.zeros(len(self.ids) + 2)
        self.plane_vias = dict(plane_vias or {})

    def route(self, order: Sequence[str], partial: bool = False) -> tuple[Routed, str | None]:
        """Every net in ``order``; the result and the first net that failed (or None).  With
        ``partial`` a net that fails is left as far as it got and the others are routed on
        (``Routed.unrouted`` names the failed ones).  Nets that fail are then ripped up and
        rerouted (:meth:`_rip_up`)."""
        grid = self._pad_grid()
        routed = Routed()
        # The planes' vias first: each lands next to its pad before other nets fill the room.
        for name in self.planes:
            for pad in self.pads:
                if pad.net != name or len(pad.layers) != 1:
                    continue
                count = self.plane_vias.get(pad.ref, 1)
                if not self._drop_vias(grid, name, pad, count, routed):
                    if not partial:
                        return routed, name
                    if name not in routed.unrouted:
                        routed.unrouted.append(name)
        # What no other net may take: the pads and the planes' vias.
        self.fixed = copy.deepcopy(grid)
        self.order = [n for n in order if n not in self.planes]
        for name in self.order:
            if not self._route_net(grid, name, self._net_pads(name), routed):
                if not partial:
                    return routed, name
                routed.unrouted.append(name)
        if routed.unrouted:
            routed = self._rip_up(routed)
        return routed, (routed.unrouted[0] if routed.unrouted else None)

    def _net_pads(self, name: str) -> list[Pad]:
        return [p for p in self.pads if p.net == name]

    def _pad_grid(self) -> _Grid:
        """A grid holding only the pads."""
        grid = _Grid(self.outline, self.rules)
        no_net = self.no_net
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
            elif pad.drill:
                # Nor a via's hole too near a pad's hole, of its own net either.
                reach = self._hole_reach(pad.drill)
                grid.claim_rect(no_net, LAYERS, pad.x, pad.y, 0.0, 0.0, reach, kinds=("via",))
        return grid

    def _grid_with(self, routed: Routed) -> _Grid:
        """The pads, the planes' vias and every net's copper in ``routed`` (claims do not
        depend on their order, so this is the grid the copper was laid on)."""
        grid = copy.deepcopy(self.fixed)
        for track in routed.tracks:
            if track.net not in self.planes:
                grid.claim_segment(
                    self.ids[track.net], track.layer, track.start, track.end, track.width
                )
        for via in routed.vias:
            if via.net not in self.planes:
                self._claim_via(grid, self.ids[via.net], via.at[0], via.at[1])
        return grid

    def _claim_via(self, grid: _Grid, net: int, x: float, y: float) -> None:
        """A via's copper, and its hole: no other via's hole (of any net, its own too) within
        the hole clearance of it."""
        rules = self.rules
        grid.claim_rect(net, LAYERS, x, y, 0.0, 0.0, rounded=rules.via_size / 2)
        hole = self._hole_reach(rules.via_drill)
        grid.claim_rect(self.no_net, LAYERS, x, y, 0.0, 0.0, hole, kinds=("via",))

    def _hole_reach(self, drill: float) -> float:
        """How far beyond a via's reach (clearance plus half a via) a hole of ``drill`` keeps
        other vias: hole clearance between the two holes' edges."""
        rules = self.rules
        wanted = drill / 2 + rules.hole_clearance + rules.via_drill / 2
        return max(0.0, wanted - rules.clearance - rules.via_size / 2)

    def _rip_up(self, routed: Routed) -> Routed:
        """Rip-up and reroute: for a net that failed, the path it would take if it could
        cross other nets' tracks (at a cost per grid point crossed, so it crosses few); those
        nets are ripped up, the failed net is routed, then they are rerouted round it.  A net
        that fails then is taken next.  The result with the fewest unfinished nets is kept."""
        best = Routed(list(routed.tracks), list(routed.vias), list(routed.unrouted))
        tried: dict[str, int] = {}
        for _ in range(_RIP_UP_ROUNDS):
            waiting = [n for n in routed.unrouted if n not in self.planes]
            waiting = [n for n in waiting if tried.get(n, 0) < _RIP_UP_TRIES]
            if not waiting:
                break
            name = waiting[0]
            tried[name] = tried.get(name, 0) + 1
            routed = _without(routed, {name})
            routed.unrouted.remove(name)
            full = self._grid_with(routed)
            # The trial may cross signal nets; the power nets (long trees, slow to reroute)
            # only if it finds no way round them.
            kept = Routed(
                [t for t in routed.tracks if t.net in POWER_NETS],
                [v for v in routed.vias if v.net in POWER_NETS],
            )
            pads = self._net_pads(name)
            trial = Routed()
            fixed = POWER_NETS
            if not self._route_net(self._grid_with(kept), name, pads, trial, soft=full):
                trial = Routed()
                fixed = frozenset()
                if not self._route_net(copy.deepcopy(self.fixed), name, pads, trial, soft=full):
                    routed.unrouted.append(name)  # not even across other nets: give up on it
                    tried[name] = _RIP_UP_TRIES
                    continue
            blockers = _blockers(trial, routed, self.rules, exclude={name, *fixed, *self.planes})
            for blocker in blockers:
                self.history[self.ids[blocker]] += 1.0
            routed = _without(routed, blockers)
            grid = self._grid_with(routed)
            again = [name] + [n for n in self.order if n in blockers]
            for net in again:
                routed.unrouted = [n for n in routed.unrouted if n != net]
                if not self._route_net(grid, net, self._net_pads(net), routed):
                    routed.unrouted.append(net)
            if len(routed.unrouted) < len(best.unrouted):
                best = Routed(list(routed.tracks), list(routed.vias), list(routed.unrouted))
        return best

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

    def _drop_vias(self, grid: _Grid, name: str, pad: Pad, count: int, routed: Routed) -> bool:
        """A surface-mount pad of a plane's net joined to the plane: ``count`` vias near it,
        each with a track from the pad (more than one where the pad carries the supply)."""
        net = self.ids[name]
        kind = self.rules.kind(name)
        width = self.rules.width(name)
        starts = self._access(grid, pad, net, kind)
        if not starts:
            return False
        placed: list[tuple[int, int]] = []
        apart = (_VIA_SPACING + self.rules.via_size) / self.rules.grid
        for _ in range(count):
            path = self._nearest_via(grid, net, kind, starts, placed, apart)
            if path is None:
                return False
            self._lay(grid, name, net, width, path, routed)
            _, i, j = path[-1]
            x, y = grid.point(i, j)
            routed.vias.append(
                Via(name, (round(x, 4), round(y, 4)), self.rules.via_size, self.rules.via_drill)
            )
            self._claim_via(grid, net, x, y)
            placed.append((i, j))
        return True

    def _nearest_via(
        self,
        grid: _Grid,
        net: int,
        kind: str,
        starts: list[tuple[int, int, int]],
        placed: list[tuple[int, int]],
        apart: float,
    ) -> list[tuple[int, int, int]] | None:
        """The shortest track on the pad's layer from ``starts`` to a grid point where a via
        of the net may go (at least ``apart`` grid steps from the vias in ``placed``)."""
        layer = starts[0][0]
        ny = grid.ny
        allowed = grid.open_to(net, LAYERS[layer], kind)
        via_ok = grid.open_to(net, FRONT, "via") & grid.open_to(net, BACK, "via")
        best: dict[tuple[int, int], float] = {}
        came: dict[tuple[int, int], tuple[int, int] | None] = {}
        heap: list[tuple[float, tuple[int, int]]] = []
        for _, i, j in starts:
            best[(i, j)] = 0.0
            came[(i, j)] = None
            heap.append((0.0, (i, j)))
        heapq.heapify(heap)
        limit = _VIA_SEARCH_LIMIT
        while heap and limit:
            limit -= 1
            cost, (i, j) = heapq.heappop(heap)
            if cost > best[(i, j)]:
                continue
            if via_ok[i, j] and all(math.hypot(i - a, j - b) >= apart for a, b in placed):
                path: list[tuple[int, int, int]] = []
                cell: tuple[int, int] | None = (i, j)
                while cell is not None:
                    path.append((layer, *cell))
                    cell = came[cell]
                return path[::-1]
            for di, dj, length, _ in _MOVES:
                step = (i + di, j + dj)
                if not (0 <= step[0] < grid.nx and 0 <= step[1] < ny) or not allowed[step]:
                    continue
                new = cost + length
                if new < best.get(step, math.inf):
                    best[step] = new
                    came[step] = (i, j)
                    heapq.heappush(heap, (new, step))
        return None

    def _route_net(
        self, grid: _Grid, name: str, pads: list[Pad], routed: Routed, soft: _Grid | None = None
    ) -> bool:
        """The net's pads joined as a tree.  With ``soft`` (a grid holding other nets'
        copper) a path may cross that copper at a cost: to find which nets are in the way."""
        if len(pads) < 2:
            return True
        net = self.ids[name]
        kind = self.rules.kind(name)
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
            path = self._search(grid, net, kind, tree, targets, (pad.x, pad.y), soft)
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
        soft: _Grid | None = None,
    ) -> list[tuple[int, int, int]] | None:
        """A* from any source point to any target point; the path as (layer, i, j) points.
        Where ``soft`` is closed (another net's copper) a step costs :data:`_CROSSING` more."""
        nx, ny = grid.nx, grid.ny
        plane = nx * ny
        open_track = [grid.open_to(net, layer, kind).ravel().tobytes() for layer in LAYERS]
        open_via = (
            (grid.open_to(net, FRONT, "via") & grid.open_to(net, BACK, "via")).ravel().tobytes()
        )
        if soft is None:
            extra = [_zeros(plane)] * 2
            via_extra = extra[0]
        else:
            # Crossing a net costs more the more often it was ripped up already (the
            # "history" of negotiated routing): the trials go round the nets that keep moving.
            costs = _CROSSING * (1.0 + self.history)
            crossed = []
            for side in LAYERS:
                owner = soft.owner[(side, kind)].ravel()
                closed = ~soft.open_to(net, side, kind).ravel()
                crossed.append(np.where(closed, costs[np.maximum(owner, 0)], 0.0))
            extra = [c.tolist() for c in crossed]
            via_extra = np.maximum(crossed[0], crossed[1]).tolist()
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
        # Dictionaries, not lists over the whole grid: most searches visit a small part of
        # it, and a hub's grid has 1.5 million states to allocate per search.
        best: dict[int, float] = {}
        came: dict[int, int] = {}
        heading: dict[int, int] = {}
        heap: list[tuple[float, float, int]] = []
        for layer, i, j in sources:
            state = layer * plane + i * ny + j
            best[state] = 0.0
            came[state] = -1
            heap.append((estimate(i, j), 0.0, state))
        heapq.heapify(heap)
        push, pop = heapq.heappush, heapq.heappop
        limit = grid.rules.search_limit * (1 if soft is None else 4)
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
            turn = turns[heading.get(state, -1) + 1]
            allowed = open_track[layer]
            crossing = extra[layer]
            for delta, di, dj, length, direction in moves:
                if not allowed[rest + delta]:
                    continue
                step = state + delta
                new = cost + length + turn[direction] + crossing[rest + delta]
                if new < best.get(step, inf):
                    best[step] = new
                    came[step] = state
                    heading[step] = direction
                    push(heap, (new + estimate(i + di, j + dj), new, step))
            if open_via[rest]:
                step = (1 - layer) * plane + rest
                new = cost + _VIA_COST + via_extra[rest]
                if new < best.get(step, inf):
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
                self._claim_via(grid, net, x, y)
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


@functools.cache
def _zeros(size: int) -> list[float]:
    """No extra cost anywhere (a search without ``soft``), made once per grid size."""
    return [0.0] * size


def _without(routed: Routed, nets: Collection[str]) -> Routed:
    """``routed`` with the copper of ``nets`` taken away (ripped up)."""
    return Routed(
        [t for t in routed.tracks if t.net not in nets],
        [v for v in routed.vias if v.net not in nets],
        list(routed.unrouted),
    )


def _blockers(trial: Routed, routed: Routed, rules: Rules, exclude: set[str]) -> set[str]:
    """The nets of ``routed`` whose copper lies closer than the clearance to ``trial``'s (the
    nets a trial path crossed).  Measured at points along the trial's tracks, one grid step
    apart, against every track and via on the same layer."""
    found: set[str] = set()
    for layer in LAYERS:
        points: list[tuple[float, float, float]] = []
        for track in trial.tracks:
            if track.layer != layer:
                continue
            length = math.dist(track.start, track.end)
            steps = max(1, math.ceil(length / rules.grid))
            for k in range(steps + 1):
                t = k / steps
                points.append(
                    (
                        track.start[0] + t * (track.end[0] - track.start[0]),
                        track.start[1] + t * (track.end[1] - track.start[1]),
                        track.width / 2,
                    )
                )
        points += [(v.at[0], v.at[1], v.size / 2) for v in trial.vias]
        others = [
            (t.net, *t.start, *t.end, t.width / 2)
            for t in routed.tracks
            if t.layer == layer and t.net not in exclude
        ]
        others += [(v.net, *v.at, *v.at, v.size / 2) for v in routed.vias if v.net not in exclude]
        if not points or not others:
            continue
        p = np.array(points)
        seg = np.array([o[1:] for o in others])
        px, py, pr = p[:, 0:1], p[:, 1:2], p[:, 2:3]
        ax, ay, bx, by, sr = (seg[:, k][None, :] for k in range(5))
        vx, vy = bx - ax, by - ay
        length2 = np.maximum(vx * vx + vy * vy, 1e-12)
        t = np.clip(((px - ax) * vx + (py - ay) * vy) / length2, 0.0, 1.0)
        gap = np.hypot(px - (ax + t * vx), py - (ay + t * vy)) - pr - sr
        hit = (gap < rules.clearance).any(axis=0)
        found |= {others[k][0] for k in np.flatnonzero(hit)}
    return found


def route(
    pads: Sequence[Pad],
    outline: Box,
    rules: Rules | None = None,
    tries: int = 6,
    partial: bool = False,
    planes: Collection[str] = (),
    plane_vias: Mapping[str, int] | None = None,
    power_first: bool = False,
    links_first_mm: float | None = None,
) -> Routed:
    """Tracks and vias that join every net's pads, keeping ``rules``; RoutingError if a net
    cannot be routed.  Nets are routed shortest first (their spanning trees' lengths), the power
    nets last; a net that fails is moved to the front and all are routed again.  With
    ``partial`` no error: after ``tries`` the result with the fewest unfinished nets is
    returned, naming them in ``Routed.unrouted``.

    The nets in ``planes`` are joined by planes on inner layers (which the board adds): only
    their surface-mount pads get copper, a track to a via each (``plane_vias`` gives a part's
    pads more than one).  With ``power_first`` the power nets left to route (the hub's +3V3,
    its planes carrying GND and +5V) go first, while the board is empty.  With
    ``links_first_mm`` the links between two pads further apart than that (the hub's shift
    register links from one side of the board to the other) go next, before the short nets
    fill the middle they have to cross."""
    rules = rules or Rules()
    router = _Router(pads, outline, rules, planes, plane_vias)
    order = routing_order(pads, power_first, links_first_mm)
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


def routing_order(
    pads: Sequence[Pad], power_first: bool = False, links_first_mm: float | None = None
) -> list[str]:
    """The nets of ``pads`` in the order :func:`route` takes them first: the power nets first
    with ``power_first`` (last without), then the two-pad links longer than ``links_first_mm``,
    then the other signal nets; within each, shortest first (their spanning trees' lengths,
    Manhattan)."""
    members: dict[str, list[Pad]] = {}
    for pad in pads:
        if pad.net:
            members.setdefault(pad.net, []).append(pad)
    spans: dict[str, float] = {}
    for name, found in members.items():
        tree = _mst_order(found)
        spans[name] = sum(
            min(abs(p.x - q.x) + abs(p.y - q.y) for q in tree[:k]) for k, p in enumerate(tree) if k
        )

    def group(name: str) -> int:
        if name in POWER_NETS:
            return 0 if power_first else 3
        long = links_first_mm is not None and spans[name] > links_first_mm
        return 1 if long and len(members[name]) == 2 else 2

    return sorted(members, key=lambda n: (group(n), spans[n], n))

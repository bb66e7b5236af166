"""The strip router (pawnlight_hardware.pcb.route) joins every net and keeps the clearances.

Its copper is checked here with exact geometry, independent of the router's grid: every track
and via against every pad, track and via of another net (at least the clearance apart), against
the board edge, and no via in a surface-mount pad; and every net's pads joined by its copper
(union-find over pads, track ends and vias, on the same layer).  The synthetic boards need only
numpy; the strip designs are read back from the written board files (kiutils and KiCad 6's
footprint libraries, not KiCad itself)."""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import pytest

from pawnlight_hardware.pcb.route import (
    FRONT,
    LAYERS,
    Pad,
    Routed,
    RoutingError,
    Rules,
    Track,
    Via,
    route,
)

Point = tuple[float, float]
EPSILON = 1e-6


# --- exact geometry -------------------------------------------------------------------------------


def _point_segment(p: Point, a: Point, b: Point) -> float:
    vx, vy = b[0] - a[0], b[1] - a[1]
    length2 = vx * vx + vy * vy
    t = (
        0.0
        if length2 == 0
        else max(0.0, min(1.0, ((p[0] - a[0]) * vx + (p[1] - a[1]) * vy) / length2))
    )
    return math.hypot(p[0] - a[0] - t * vx, p[1] - a[1] - t * vy)


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    d1, d2 = _cross(c, d, a), _cross(c, d, b)
    d3, d4 = _cross(a, b, c), _cross(a, b, d)
    return ((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0)) and d1 * d2 < 0 and d3 * d4 < 0


def _segment_segment(a: Point, b: Point, c: Point, d: Point) -> float:
    if _segments_cross(a, b, c, d):
        return 0.0
    return min(
        _point_segment(a, c, d),
        _point_segment(b, c, d),
        _point_segment(c, a, b),
        _point_segment(d, a, b),
    )


@dataclass(frozen=True)
class Shape:
    """Copper: a capsule (segment a-b grown by r; a circle when a == b) or a rectangle."""

    net: str
    layers: tuple[str, ...]
    what: str
    a: Point
    b: Point
    r: float = 0.0
    rect: tuple[float, float, float, float] | None = None  # left, top, right, bottom

    def box(self) -> tuple[float, float, float, float]:
        if self.rect:
            return self.rect
        return (
            min(self.a[0], self.b[0]) - self.r,
            min(self.a[1], self.b[1]) - self.r,
            max(self.a[0], self.b[0]) + self.r,
            max(self.a[1], self.b[1]) + self.r,
        )


def _inside(p: Point, rect: tuple[float, float, float, float]) -> bool:
    return rect[0] <= p[0] <= rect[2] and rect[1] <= p[1] <= rect[3]


def _segment_rect(a: Point, b: Point, rect: tuple[float, float, float, float]) -> float:
    if _inside(a, rect) or _inside(b, rect):
        return 0.0
    left, top, right, bottom = rect
    corners = [(left, top), (right, top), (right, bottom), (left, bottom)]
    return min(_segment_segment(a, b, corners[k], corners[(k + 1) % 4]) for k in range(4))


def gap(one: Shape, other: Shape) -> float:
    """The distance between two copper shapes (0 when they touch or overlap)."""
    if one.rect and other.rect:
        raise AssertionError("pads against pads are the placement's business")
    if one.rect:
        one, other = other, one
    if other.rect:
        return max(0.0, _segment_rect(one.a, one.b, other.rect) - one.r)
    return max(0.0, _segment_segment(one.a, one.b, other.a, other.b) - one.r - other.r)


def pad_shape(pad: Pad) -> Shape:
    if pad.round:
        return Shape(
            pad.net,
            pad.layers,
            f"{pad.ref}.{pad.number}",
            (pad.x, pad.y),
            (pad.x, pad.y),
            pad.w / 2,
        )
    rect = (pad.x - pad.w / 2, pad.y - pad.h / 2, pad.x + pad.w / 2, pad.y + pad.h / 2)
    return Shape(
        pad.net, pad.layers, f"{pad.ref}.{pad.number}", (pad.x, pad.y), (pad.x, pad.y), rect=rect
    )


def copper(routed: Routed) -> list[Shape]:
    shapes = [
        Shape(t.net, (t.layer,), f"track {t.start}-{t.end}", t.start, t.end, t.width / 2)
        for t in routed.tracks
    ]
    shapes += [Shape(v.net, LAYERS, f"via {v.at}", v.at, v.at, v.size / 2) for v in routed.vias]
    return shapes


def clearance_faults(pads: Sequence[Pad], routed: Routed, outline, rules: Rules) -> list[str]:
    """Every pair of copper of different nets closer than the clearance (the router's tracks
    and vias against everything), copper too near the edge, and vias in surface-mount pads."""
    faults = []
    laid = copper(routed)
    fixed = [pad_shape(p) for p in pads]
    everything = laid + fixed
    for index, one in enumerate(laid):
        left, top, right, bottom = one.box()
        if (
            left < outline[0] + rules.edge_clearance - EPSILON
            or top < outline[1] + rules.edge_clearance - EPSILON
            or right > outline[2] - rules.edge_clearance + EPSILON
            or bottom > outline[3] - rules.edge_clearance + EPSILON
        ):
            faults.append(f"{one.net} {one.what} is too near the board edge")
        for other in everything[index + 1 :]:
            if not set(one.layers) & set(other.layers):
                continue
            b = other.box()
            reach = rules.clearance
            if (
                b[0] > right + reach
                or b[2] < left - reach
                or b[1] > bottom + reach
                or b[3] < top - reach
            ):
                continue
            smd_pad = other.rect is not None and len(other.layers) == 1
            if one.what.startswith("via") and smd_pad and gap(one, other) < EPSILON:
                faults.append(f"{one.what} is in the pad {other.what}")
            if other.net == one.net:
                continue
            if gap(one, other) < rules.clearance - EPSILON:
                apart = gap(one, other)
                faults.append(
                    f"{one.net} {one.what} is {apart:.3f} mm from {other.net} {other.what}"
                )
    return faults


def unjoined(pads: Sequence[Pad], routed: Routed, planes: Collection[str] = ()) -> dict[str, int]:
    """Per net whose pads lie in more than one piece of copper: how many pieces.  Two items
    on a common layer are joined when an anchor of one (a track's ends, a via's or a pad's
    centre) lies in the other's copper, as KiCad's connectivity has it.  A net in ``planes``
    has a plane on an inner layer, which every through-hole pad and via of its own reaches:
    those are joined too."""
    items: list[Shape] = [pad_shape(p) for p in pads] + copper(routed)
    parent = list(range(len(items)))

    def find(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    def holds(item: Shape, point: Point) -> bool:
        if item.rect:
            return _inside(point, item.rect)
        return _point_segment(point, item.a, item.b) <= item.r + EPSILON

    for k, item in enumerate(items):
        anchors = [item.a, item.b] if item.what.startswith("track") else [item.a]
        for other, shape in enumerate(items):
            if other == k or not set(item.layers) & set(shape.layers):
                continue
            if any(holds(shape, anchor) for anchor in anchors):
                parent[find(k)] = find(other)
    for net in planes:
        through = [
            k for k, item in enumerate(items) if item.net == net and set(item.layers) == set(LAYERS)
        ]
        for k in through[1:]:
            parent[find(k)] = find(through[0])
    pieces: dict[str, set[int]] = {}
    for k, pad in enumerate(pads):
        if pad.net:
            pieces.setdefault(pad.net, set()).add(find(k))
    return {net: len(roots) for net, roots in pieces.items() if len(roots) > 1}


def check(pads: Sequence[Pad], routed: Routed, outline, rules: Rules | None = None) -> None:
    rules = rules or Rules()
    faults = clearance_faults(pads, routed, outline, rules)
    assert not faults, "\n".join(faults[:10])
    assert unjoined(pads, routed) == {}


# --- synthetic boards (numpy only) ----------------------------------------------------------------


def _sot23(ref: str, x: float, y: float, out: str) -> list[Pad]:
    """A sensor's pads: 1 supply, 2 output, 3 ground (SOT-23 sizes)."""
    return [
        Pad(ref, "1", "+3V3", x - 0.94, y - 0.95, 1.475, 0.6, (FRONT,)),
        Pad(ref, "2", out, x - 0.94, y + 0.95, 1.475, 0.6, (FRONT,)),
        Pad(ref, "3", "GND", x + 0.94, y, 1.475, 0.6, (FRONT,)),
    ]


def _header(x: float, y: float, nets: Sequence[str]) -> list[Pad]:
    """A 2-row 2.54 mm through-hole header, pins numbered across then down."""
    return [
        Pad("J1", str(k + 1), net, x + 2.54 * (k % 2), y + 2.54 * (k // 2), 1.7, 1.7, LAYERS, True)
        for k, net in enumerate(nets)
    ]


def little_strip() -> tuple[list[Pad], tuple[float, float, float, float]]:
    """Four sensors in a row, each with its capacitor, and a header in the middle whose pins
    are in another order than the sensors (so lines have to cross)."""
    pads: list[Pad] = []
    for slot, x in enumerate((5.0, 15.0, 35.0, 45.0)):
        pads += _sot23(f"U{slot + 1}", x, 6.0, f"SEN{slot}")
        pads.append(Pad(f"C{slot + 1}", "1", "+3V3", x - 0.95, 2.5, 1.0, 1.45, (FRONT,)))
        pads.append(Pad(f"C{slot + 1}", "2", "GND", x + 0.95, 2.5, 1.0, 1.45, (FRONT,)))
    pads += _header(24.0, 4.0, ["+3V3", "GND", "SEN3", "SEN0", "SEN2", "SEN1"])
    return pads, (0.0, 0.0, 52.0, 14.0)


def test_the_router_joins_every_net_and_keeps_the_clearances():
    pads, outline = little_strip()
    routed = route(pads, outline)
    check(pads, routed, outline)
    nets = {p.net for p in pads}
    assert {t.net for t in routed.tracks} == nets
    assert {t.width for t in routed.tracks if t.net in ("GND", "+3V3")} == {Rules().power_width}
    assert {t.width for t in routed.tracks if t.net.startswith("SEN")} == {Rules().track_width}


def test_the_checks_find_a_short_and_a_break():
    """The checks above can fail: a track of one net laid across another's pad, and a net with
    a track missing."""
    pads, outline = little_strip()
    routed = route(pads, outline)
    sen0 = next(p for p in pads if p.net == "SEN0" and p.ref == "U1")
    across = Track("GND", FRONT, (sen0.x - 1, sen0.y), (sen0.x + 1, sen0.y), 0.25)
    shorted = Routed([*routed.tracks, across], routed.vias)
    assert any("SEN0" in fault for fault in clearance_faults(pads, shorted, outline, Rules()))
    broken = Routed(
        [t for t in routed.tracks if t.net != "SEN2"], [v for v in routed.vias if v.net != "SEN2"]
    )
    assert unjoined(pads, broken) == {"SEN2": 2}


def test_a_net_walled_off_is_an_error_naming_it():
    """Two pads of net A on either side of a wall of net B's copper on both layers."""
    wall = [Pad("W", str(k), "B", 10.0, 5.0, 1.0, 10.0, LAYERS) for k in (1, 2)]
    pads = [
        Pad("A", "1", "A", 3.0, 5.0, 1.0, 1.0, (FRONT,)),
        Pad("A", "2", "A", 17.0, 5.0, 1.0, 1.0, (FRONT,)),
        *wall,
    ]
    with pytest.raises(RoutingError, match="net A"):
        route(pads, (0.0, 0.0, 20.0, 10.0), tries=2)


def test_a_partial_route_names_the_net_it_left_and_routes_the_others():
    """With ``partial`` (the hub's, not finished yet) a net walled off is named, not an error,
    and the nets that can be routed still are, within the rules."""
    wall = [Pad("W", str(k), "B", 10.0, 5.0, 1.0, 10.0, LAYERS) for k in (1, 2)]
    pads = [
        Pad("A", "1", "A", 3.0, 5.0, 1.0, 1.0, (FRONT,)),
        Pad("A", "2", "A", 17.0, 5.0, 1.0, 1.0, (FRONT,)),
        Pad("C", "1", "C", 2.0, 2.0, 1.0, 1.0, (FRONT,)),
        Pad("C", "2", "C", 7.0, 8.0, 1.0, 1.0, (FRONT,)),
        *wall,
    ]
    outline = (0.0, 0.0, 20.0, 10.0)
    routed = route(pads, outline, tries=2, partial=True)
    assert routed.unrouted == ["A"]
    assert {t.net for t in routed.tracks} == {"C"}
    assert unjoined(pads, routed) == {"A": 2}
    assert not clearance_faults(pads, routed, outline, Rules())
    # Without it the same board is an error, as before.
    with pytest.raises(RoutingError, match="net A"):
        route(pads, outline, tries=2)


def test_vias_stay_out_of_surface_mount_pads():
    """A net that must change layer: its vias land beside its pads, never in them."""
    pads, outline = little_strip()
    routed = route(pads, outline)
    assert routed.vias, "the crossing lines need vias"
    smd = [pad_shape(p) for p in pads if len(p.layers) == 1]
    for via in routed.vias:
        shape = Shape(via.net, LAYERS, "via", via.at, via.at, via.size / 2)
        assert all(gap(shape, pad) > 0 for pad in smd), via


def test_a_plane_net_gets_a_via_beside_each_surface_mount_pad_and_no_tree():
    """GND on a plane (the hub's inner layer): its through-hole pads get no copper, each of
    its surface-mount pads a short track to a via of its own (three on a pad given three),
    within the rules; the other nets are routed as before."""
    pads, outline = little_strip()
    routed = route(pads, outline, planes={"GND"}, plane_vias={"C4": 3})
    assert not clearance_faults(pads, routed, outline, Rules())
    assert unjoined(pads, routed) == {"GND": 9}  # 8 surface-mount pads and the header's
    assert unjoined(pads, routed, planes={"GND"}) == {}
    smd = [p for p in pads if p.net == "GND" and len(p.layers) == 1]
    ground_vias = [v for v in routed.vias if v.net == "GND"]
    assert len(ground_vias) == len(smd) + 2
    for pad in smd:
        near = [v for v in ground_vias if math.dist(v.at, (pad.x, pad.y)) < 3.0]
        assert near, pad
    c4 = next(p for p in smd if p.ref == "C4")
    three = sorted(ground_vias, key=lambda v: math.dist(v.at, (c4.x, c4.y)))[:3]
    assert all(math.dist(a.at, b.at) >= 1.0 for a, b in itertools.combinations(three, 2))
    # Stubs only: no GND track longer than the way to its via.
    assert all(math.dist(t.start, t.end) < 3.0 for t in routed.tracks if t.net == "GND")
    others = Routed([t for t in routed.tracks if t.net != "GND"], routed.vias)
    assert set(unjoined(pads, others)) == {"GND"}


def test_no_via_hole_comes_near_another_hole_of_any_net():
    """Holes keep 0.25 mm between their edges (the drill's rule, which KiCad's DRC checks as
    hole_near_hole), even a via's beside a through-hole pad of its own net, or two vias of
    one net."""
    rules = Rules()
    strip, strip_outline = little_strip()
    strip = [dataclasses.replace(p, drill=1.0) if len(p.layers) == 2 else p for p in strip]
    # A GND surface-mount pad hemmed in by another net's copper but for the side of a GND
    # through-hole pad: the nearest place for its via would be in that pad's hole.
    hemmed = [
        Pad("J", "1", "GND", 5.0, 5.0, 1.7, 1.7, LAYERS, True, drill=1.0),
        Pad("C", "1", "GND", 6.5, 5.0, 0.8, 0.8, (FRONT,)),
        Pad("W", "1", "X", 6.9, 3.6, 3.0, 1.0, LAYERS),
        Pad("W", "2", "X", 6.9, 6.4, 3.0, 1.0, LAYERS),
        Pad("W", "3", "X", 8.8, 5.0, 1.0, 3.8, LAYERS),
    ]
    for pads, outline, planes in (
        (strip, strip_outline, ()),
        (strip, strip_outline, ("GND",)),
        (hemmed, (0.0, 0.0, 12.0, 10.0), ("GND",)),
    ):
        routed = route(pads, outline, planes=planes)
        assert not clearance_faults(pads, routed, outline, rules)
        holes = [((p.x, p.y), p.drill) for p in pads if p.drill]
        holes += [(v.at, v.drill) for v in routed.vias]
        for k, (at, drill) in enumerate(holes):
            for other, other_drill in holes[k + 1 :]:
                apart = math.dist(at, other) - drill / 2 - other_drill / 2
                assert apart >= rules.hole_clearance - EPSILON, (at, other)
    assert unjoined(hemmed, routed, planes={"GND"}) == {}


def test_the_rip_up_finds_the_nets_a_trial_path_crosses():
    """What the rip-up tears out: the nets whose copper a trial path comes too near (on the
    same layer, or a via on any), not those it passes at a distance."""
    from pawnlight_hardware.pcb.route import _blockers

    trial = Routed([Track("A", FRONT, (0.0, 5.0), (10.0, 5.0), 0.25)], [])
    laid = Routed(
        [
            Track("X", FRONT, (5.0, 0.0), (5.0, 10.0), 0.25),  # crosses
            Track("Y", LAYERS[1], (6.0, 0.0), (6.0, 10.0), 0.25),  # other layer
            Track("Z", FRONT, (0.0, 5.4), (10.0, 5.4), 0.25),  # 0.15 mm apart: too near
            Track("F", FRONT, (0.0, 6.0), (10.0, 6.0), 0.25),  # 0.75 mm apart: clear
        ],
        [Via("V", (8.0, 5.5), 0.6, 0.3), Via("W", (8.0, 7.0), 0.6, 0.3)],
    )
    assert _blockers(trial, laid, Rules(), exclude={"A"}) == {"X", "Z", "V"}


# --- the strip designs, read back from their board files ------------------------------------------


def _read_back(path) -> tuple[list[Pad], Routed, tuple[float, float, float, float]]:
    from kiutils.board import Board

    from pawnlight_hardware.pcb.layout import HOLE_KEEPOUT_MM, board_pads

    board = Board.from_file(str(path))
    names = {net.number: net.name for net in board.nets}
    routed = Routed()
    for item in board.traceItems:
        if hasattr(item, "start"):
            routed.tracks.append(
                Track(
                    names[item.net],
                    item.layer,
                    (item.start.X, item.start.Y),
                    (item.end.X, item.end.Y),
                    item.width,
                )
            )
        else:
            routed.vias.append(
                Via(names[item.net], (item.position.X, item.position.Y), item.size, item.drill)
            )
    pads = board_pads(board)
    # The mounting holes: no copper under the screw heads.
    for footprint in board.footprints:
        if footprint.libId.startswith("MountingHole:"):
            size = 2 * HOLE_KEEPOUT_MM
            pads.append(
                Pad(
                    "H",
                    "",
                    "",
                    footprint.position.X,
                    footprint.position.Y,
                    size,
                    size,
                    LAYERS,
                    True,
                )
            )
    (edge,) = [g for g in board.graphicItems if g.layer == "Edge.Cuts"]
    return pads, routed, (edge.start.X, edge.start.Y, edge.end.X, edge.end.Y)


@pytest.fixture(scope="module")
def strip_boards(pcb_written):
    return {name: _read_back(path) for name, path in pcb_written.boards.items()}


@pytest.mark.parametrize("design", ["track-a", "track-b", "track-c", "lane", "area"])
def test_every_strip_is_routed_within_the_rules(strip_boards, design):
    pads, routed, outline = strip_boards[design]
    assert routed.tracks and routed.vias
    check(pads, routed, outline)


def test_every_strip_has_two_mounting_holes_clear_of_its_copper(strip_boards):
    for design, (pads, _routed, outline) in strip_boards.items():
        holes = [p for p in pads if p.ref == "H"]
        assert len(holes) == 2, design
        for hole in holes:
            assert outline[0] + hole.w / 2 <= hole.x <= outline[2] - hole.w / 2, design
            assert outline[1] + hole.w / 2 <= hole.y <= outline[3] - hole.w / 2, design
            for pad in pads:
                if pad.ref != "H" and pad.ref[:1] != "H":
                    assert gap(pad_shape(hole), pad_shape(pad)) > 0.2, (design, pad)
        # One at each end of the strip's longer side.
        wide = outline[2] - outline[0] >= outline[3] - outline[1]
        along = sorted(h.x if wide else h.y for h in holes)
        length = (outline[2] - outline[0]) if wide else (outline[3] - outline[1])
        assert along[1] - along[0] > length / 2, design


def test_every_strip_has_a_ground_pour_kept_off_its_holes(pcb_written):
    """A GND zone over the bottom layer (KiCad fills it before the DRC), and a keep-out over
    each mounting hole on both layers, so no copper lies under a screw head."""
    from kiutils.board import Board

    from pawnlight_hardware.pcb.layout import HOLE_KEEPOUT_MM

    for design, path in pcb_written.boards.items():
        board = Board.from_file(str(path))
        pours = [z for z in board.zones if z.keepoutSettings is None]
        assert [(z.netName, z.layers) for z in pours] == [("GND", ["B.Cu"])], design
        holes = [f.position for f in board.footprints if f.libId.startswith("MountingHole:")]
        keepouts = [z for z in board.zones if z.keepoutSettings is not None]
        assert len(keepouts) == len(holes) == 2, design
        for hole in holes:
            (around,) = [
                z
                for z in keepouts
                if all(
                    abs(math.hypot(p.X - hole.X, p.Y - hole.Y) - HOLE_KEEPOUT_MM) < 0.01
                    for p in z.polygons[0].coordinates
                )
            ]
            assert around.keepoutSettings.copperpour == "not_allowed"
            assert around.keepoutSettings.tracks == "not_allowed"

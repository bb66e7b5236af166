"""The hub's board: every part of its netlist placed once, inside the board, no two courtyards
overlapping, the strip connectors round the edge in the strips' order, every pad on its
netlist's net, four copper layers with the GND and +5V planes inside; and (slow, routing takes
minutes) its copper within the design rules, every net joined and KiCad's DRC of it: zero
errors, zero unrouted connections."""

from __future__ import annotations

import math
from concurrent.futures import ProcessPoolExecutor

import pytest

from .conftest import has_pcbnew, needs_hub_routing
from .test_pcb_route import clearance_faults, unjoined

KINDS = ("presence", "colour")


@pytest.fixture(scope="module")
def placed(pcb_written):
    """Each hub's board, placed but not routed."""
    from pawnlight_hardware.pcb.hub import hub_board

    return {kind: hub_board(pcb_written.netlists[f"hub-{kind}"], copper=False)[0] for kind in KINDS}


def _courtyard(footprint) -> tuple[float, float, float, float]:
    from pawnlight_hardware.pcb.layout import _courtyard

    left, top, right, bottom = _courtyard(footprint)
    turn = math.radians(footprint.position.angle or 0.0)
    cos, sin = math.cos(turn), math.sin(turn)
    xs, ys = [], []
    for dx, dy in ((left, top), (right, top), (right, bottom), (left, bottom)):
        xs.append(footprint.position.X + dx * cos + dy * sin)
        ys.append(footprint.position.Y - dx * sin + dy * cos)
    return min(xs), min(ys), max(xs), max(ys)


@pytest.mark.parametrize("kind", KINDS)
def test_every_part_is_placed_once_inside_the_board_and_none_overlap(placed, pcb_written, kind):
    from pawnlight_hardware.pcb.hub import ORIGIN, SIDE_MM

    board = placed[kind]
    refs = [f.properties["Reference"] for f in board.footprints]
    # The M3 mounting holes (H1-H3) are on the board, not in the circuit.
    holes = sorted(ref for ref in refs if ref.startswith("H"))
    assert holes == ["H1", "H2", "H3"]
    parts = sorted(ref for ref in refs if not ref.startswith("H"))
    assert parts == sorted(pcb_written.netlists[f"hub-{kind}"].components)
    boxes = {f.properties["Reference"]: _courtyard(f) for f in board.footprints}
    for ref, (left, top, right, bottom) in boxes.items():
        assert left >= ORIGIN[0] and top >= ORIGIN[1], ref
        assert right <= ORIGIN[0] + SIDE_MM and bottom <= ORIGIN[1] + SIDE_MM, ref
    names = sorted(boxes)
    for k, one in enumerate(names):
        a = boxes[one]
        for other in names[k + 1 :]:
            b = boxes[other]
            overlap = a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
            assert not overlap, f"{one} and {other} overlap on the {kind} hub"


@pytest.mark.parametrize("kind", KINDS)
def test_the_strip_connectors_go_round_the_edge_in_the_strips_order(placed, kind):
    """The hub hangs parts down under the deck, so its layout is the board seen from above
    mirrored left to right: seen from its parts, red's six connectors are along the top,
    blue's down the left, yellow's along the bottom and green's up the right (each ribbon leaves
    towards the side of the board where its strips lie; assembly.py checks the directions)."""
    from pawnlight_hardware.pcb.hub import ORIGIN, SIDE_MM

    sides = []
    for number in range(1, 25):
        (footprint,) = [
            f for f in placed[kind].footprints if f.properties["Reference"] == f"J{number}"
        ]
        left, top, right, bottom = _courtyard(footprint)
        gaps = [top - ORIGIN[1], ORIGIN[0] + SIDE_MM - right, ORIGIN[1] + SIDE_MM - bottom]
        gaps.append(left - ORIGIN[0])
        # Against an edge: within 15 mm of it.
        assert min(gaps) < 15, f"J{number} is not at an edge of the {kind} hub"
        sides.append(gaps.index(min(gaps)))
    top, right, bottom, left = range(4)
    assert sides == [top] * 6 + [left] * 6 + [bottom] * 6 + [right] * 6


@pytest.mark.parametrize("kind", KINDS)
def test_every_pad_carries_its_netlist_net(placed, pcb_written, kind):
    netlist = pcb_written.netlists[f"hub-{kind}"]
    wanted = {node: name for name, nodes in netlist.nets.items() for node in nodes}
    found = {}
    for footprint in placed[kind].footprints:
        ref = footprint.properties["Reference"]
        for pad in footprint.pads:
            found[(ref, str(pad.number))] = pad.net.name if pad.net else ""
    for node, name in wanted.items():
        assert found.get(node) == name, f"{node} on the {kind} hub"
    assert {node for node, name in found.items() if name} == set(wanted)
    # The Pico's footprint is the one made in code, its 40 pads all there.
    assert sum(1 for ref, _ in found if ref == "A1") == 40


@pytest.mark.parametrize("kind", KINDS)
def test_the_hub_has_four_copper_layers_with_the_planes_inside(placed, kind):
    """F.Cu and B.Cu for the signals, In1.Cu a GND plane and In2.Cu a +5V plane over the whole
    board, and a layer stack of 1.6 mm."""
    from pawnlight_hardware.pcb.hub import ORIGIN, SIDE_MM

    board = placed[kind]
    copper = [layer.name for layer in board.layers if layer.name.endswith(".Cu")]
    assert copper == ["F.Cu", "In1.Cu", "In2.Cu", "B.Cu"]
    planes = {}
    for zone in board.zones:
        if zone.layers in (["In1.Cu"], ["In2.Cu"]):
            (outline,) = zone.polygons
            xs = [p.X for p in outline.coordinates]
            ys = [p.Y for p in outline.coordinates]
            assert (min(xs), min(ys)) == ORIGIN
            assert (max(xs), max(ys)) == (ORIGIN[0] + SIDE_MM, ORIGIN[1] + SIDE_MM)
            planes[zone.layers[0]] = zone.netName
    assert planes == {"In1.Cu": "GND", "In2.Cu": "+5V"}
    numbers = {net.name: net.number for net in board.nets}
    assert all(z.net == numbers[z.netName] for z in board.zones if z.netName)
    thickness = sum(layer.thickness or 0.0 for layer in board.setup.stackup.layers)
    assert thickness == pytest.approx(1.6, abs=0.03)


def test_the_order_gives_each_board_its_fab_parameters(placed, pcb_written, tmp_path):
    """What the board house is asked for, read from the board files: the hub on four layers
    with thinner inner copper, a strip on two."""
    from pawnlight_hardware.pcb.build import FAB_COLUMNS, fab_parameters

    hub = tmp_path / "hub-presence.kicad_pcb"
    placed["presence"].to_file(str(hub))
    assert dict(zip(FAB_COLUMNS, fab_parameters(hub), strict=True)) == {
        "size mm": "220.0 x 220.0",
        "layers": "4",
        "thickness mm": "1.6",
        "copper": "1 oz outer, 0.5 oz inner",
        "min track/space mm": "0.25/0.2",
        "min drill mm": "0.3",
    }
    strip = fab_parameters(pcb_written.boards["lane"])
    assert strip[1:4] == ["2", "1.6", "1 oz outer"]
    assert strip[0] == "28.6 x 153.9"


@pytest.fixture(scope="module")
def routed_hubs(pcb_written, tmp_path_factory):
    """Each hub placed and routed, and its board file (the router's part of the command)."""
    from pawnlight_hardware.pcb.hub import hub_board
    from pawnlight_hardware.pcb.layout import board_pads, write_rules

    out = tmp_path_factory.mktemp("hub")
    found = {}
    # Side by side, as the command routes them.
    with ProcessPoolExecutor(max_workers=2) as pool:
        boards = pool.map(hub_board, [pcb_written.netlists[f"hub-{kind}"] for kind in KINDS])
    for kind, (board, routed) in zip(KINDS, boards, strict=True):
        path = out / f"hub-{kind}.kicad_pcb"
        board.to_file(str(path))
        write_rules(path.with_suffix(".kicad_pro"))
        (edge,) = [g for g in board.graphicItems if g.layer == "Edge.Cuts"]
        outline = (edge.start.X, edge.start.Y, edge.end.X, edge.end.Y)
        found[kind] = (board_pads(board), routed, outline, path)
    return found


@pytest.mark.slow
@needs_hub_routing
@pytest.mark.parametrize("kind", KINDS)
def test_the_hub_is_routed_whole_within_the_rules(routed_hubs, kind):
    from pawnlight_hardware.pcb.hub import PLANES
    from pawnlight_hardware.pcb.route import Rules

    pads, routed, outline, _ = routed_hubs[kind]
    assert routed.unrouted == []
    faults = clearance_faults(pads, routed, outline, Rules())
    assert not faults, "\n".join(faults[:10])
    # Every net joined by its copper, GND and +5V through their planes (each surface-mount
    # pad of theirs by a track to a via, which reaches the plane).
    assert unjoined(pads, routed, planes=PLANES.values()) == {}
    # The planes carry the current: no GND or +5V track but the stubs to their vias, and the
    # supply's feed to the fuse 2 mm wide.
    plane_tracks = [t for t in routed.tracks if t.net in PLANES.values()]
    assert plane_tracks and all(math.dist(t.start, t.end) < 5.0 for t in plane_tracks)
    assert {t.width for t in routed.tracks if t.net == "5V_IN"} == {Rules().feed_width}
    # The fuse (a radial MF-RG400) joins the +5V plane by its own through-hole pad, with no
    # via's resistance between them.
    fuse_out = [p for p in pads if p.ref == "F1" and p.net == "+5V"]
    assert fuse_out and all(p.drill > 0 for p in fuse_out)


@pytest.mark.slow
@needs_hub_routing
@pytest.mark.skipif(not has_pcbnew(), reason="KiCad's pcbnew missing (apt-get install kicad)")
@pytest.mark.parametrize("kind", KINDS)
def test_kicad_finds_the_hub_routed_without_a_violation(routed_hubs, tmp_path, kind):
    from kiutils.board import Board

    from pawnlight_hardware.pcb.build import Report, kicad_python, run_kicad

    *_, path = routed_hubs[kind]
    report = Report()
    python = kicad_python()
    assert python is not None
    run_kicad(python, path, tmp_path, report)
    assert not report.notes, report.notes
    text = (tmp_path / "drc" / f"{path.stem}.txt").read_text()
    assert report.drc[path.stem] == (0, 0), text
    # KiCad filled the planes (the board is saved filled), and plotted them.
    filled = Board.from_file(str(path))
    for layer, net in (("In1.Cu", "GND"), ("In2.Cu", "+5V")):
        (zone,) = [z for z in filled.zones if z.layers == [layer]]
        assert zone.netName == net and zone.filledPolygons, layer
        gerber = tmp_path / "fab" / path.stem / f"{path.stem}-{layer.replace('.', '_')}.gbr"
        assert gerber.is_file(), gerber


def test_the_shift_registers_links_across_the_board_are_routed_before_the_short_nets(placed):
    """The presence hub's chain links from one side's chips to another's (wiring.toml's chain
    order) go right after the power nets: routed by length with the rest, SR_U12_Q7 (right
    side to top left) found the middle closed and stayed unfinished.  The colour hub has no
    such link, so its order is as before."""
    from pawnlight_hardware.pcb.hub import LINKS_FIRST_MM
    from pawnlight_hardware.pcb.layout import board_pads
    from pawnlight_hardware.pcb.route import POWER_NETS, routing_order

    pads = board_pads(placed["presence"])
    order = routing_order(pads, power_first=True, links_first_mm=LINKS_FIRST_MM)
    power = [n for n in order if n in POWER_NETS]
    assert order[: len(power)] == power
    links = order[len(power) : len(power) + 3]
    assert "SR_U12_Q7" in links and all(n.startswith("SR_U") for n in links)
    assert routing_order(pads, power_first=True).index("SR_U12_Q7") > len(order) // 2
    colour = board_pads(placed["colour"])
    assert routing_order(colour, True, LINKS_FIRST_MM) == routing_order(colour, True)

"""The hub's board file (.kicad_pcb), placed from its netlist and routed by :mod:`.route`.

A square board with the 24 strip connectors round its edge in the order of the strips: J1-J6
(red's strips) along the top from left to right, J7-J12 (blue's) down the right side, J13-J18
(yellow's) along the bottom from right to left, J19-J24 (green's) up the left side, each turned
a quarter further, as the game board's sides are.  A ribbon therefore leaves the hub on the side
of the board where its strip lies.

Inside that ring, each chip that reads sensors sits on the side nearest the connectors whose
sensors it reads (wiring.toml gives every chip its inputs), with its resistor network between
it and the connectors (the sensor lines pass the network's pads on their way to the chip) and
its 100 nF capacitor beside it.  The Pico is in the middle, the LED buffer and the small parts
beside it, the card reader's, the Pi's and the buttons' and buzzer's headers round it, and the
power entry (terminal block, fuse, 1000 uF) in the top-left corner.
"""

from __future__ import annotations

import math
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .circuit import CircuitError
from .layout import (
    add_copper,
    add_ground_pour,
    add_outline,
    board_pads,
    board_with_nets,
    label_and_connect,
    load_footprint,
    outline_zone,
    write_rules,
)
from .netlist import Netlist
from .route import LAYERS, Box, Pad, Routed, Rules, route

#: The board's side (mm) and where its top-left corner lies on KiCad's page.
SIDE_MM = 220.0
ORIGIN: tuple[float, float] = (40.0, 40.0)
#: Centre to centre of neighbouring strip connectors along a side, and their inset.
CONNECTOR_PITCH_MM = 32.0
CONNECTOR_INSET_MM = 8.5
#: From the edge to the resistor networks' row and to the chips' centres: far enough in to
#: leave a channel round the board between the connectors and the networks (33 mm for the
#: chips left 30 and 26 nets unfinished, 44 mm 11 and 13).
NETWORK_INSET_MM = 33.0
CHIP_INSET_MM = 44.0
#: A multiplexer (SOIC-24W) stands across its side, 16 mm long: its centre further in, clear
#: of its networks by a channel.
MUX_INSET_MM = 50.0
MUX_END_MM = MUX_INSET_MM + 16.0
#: Room a chip with its network takes along its side, and how near a side's ends it may go
#: (clear of the chips on the next side).
CHIP_SPACING_MM = 26.0
CHIP_END_MM = CHIP_INSET_MM + 12.0
#: The strips' design rules, with longer searches: a connection across the hub may have to go
#: a long way round (4 times the strips' limit finishes a third more of the nets that are
#: left unfinished otherwise, for about twice the time).
HUB_RULES = Rules(search_limit=800_000)
#: Two-pad links longer than this (Manhattan, mm) are routed right after the power nets: the
#: presence hub's shift-register links that cross the board from one side's chips to another's
#: (wiring.toml's chain order).  Routed by length with the rest, the longest of them
#: (SR_U12_Q7, right side to top left) found the middle closed by then.
LINKS_FIRST_MM = 0.9 * SIDE_MM


#: The hub is a four-layer board: signals on the outer layers, a plane on each inner one.
PLANES = {"In1.Cu": "GND", "In2.Cu": "+5V"}
#: Vias per surface-mount pad of a plane's net, where one is not enough (the fuse, through
#: hole, joins the +5V plane with its own pad).
PLANE_VIAS: dict[str, int] = {}
#: A plane keeps this far from other nets' copper; thermal reliefs join pads to it.
PLANE_CLEARANCE_MM = 0.25
#: The layer stack the fab files are for (docs/pcb.md): mm of copper and of dielectric.
STACKUP: tuple[tuple[str, str, float], ...] = (
    ("F.Cu", "copper", 0.035),
    ("dielectric 1", "prepreg", 0.2104),
    ("In1.Cu", "copper", 0.0175),
    ("dielectric 2", "core", 1.065),
    ("In2.Cu", "copper", 0.0175),
    ("dielectric 3", "prepreg", 0.2104),
    ("B.Cu", "copper", 0.035),
)


@dataclass(frozen=True)
class HubPart:
    ref: str
    footprint: str
    at: tuple[float, float]  # the centre of its pads, board mm from the top-left corner
    angle: float = 0.0


def _rotate(dx: float, dy: float, angle: float) -> tuple[float, float]:
    """A footprint-local offset on the page for a footprint turned by ``angle`` (KiCad's
    sense, as :func:`.layout.board_pads` turns pads)."""
    turn = math.radians(angle)
    cos, sin = math.cos(turn), math.sin(turn)
    return dx * cos + dy * sin, -dx * sin + dy * cos


def _side_point(side: int, along: float, inset: float) -> tuple[float, float]:
    """A point ``inset`` from edge ``side`` (0 top, 1 right, 2 bottom, 3 left), ``along`` it
    in the clockwise sense."""
    s = SIDE_MM
    if side == 0:
        return along, inset
    if side == 1:
        return s - inset, along
    if side == 2:
        return s - along, s - inset
    return inset, s - along


#: The layout's side (0 top, 1 right, 2 bottom, 3 left, seen from the parts) of each colour's
#: strip connectors (red, blue, yellow, green): the hub hangs parts down, so the layout is the
#: board's view from above mirrored left to right (assembly.py checks each faces its strips).
MIRRORED_SIDE = (0, 3, 2, 1)
#: The hub's M3 mounting holes (3.2 mm, no copper) in three corners (the fourth holds the power
#: entry), and the copper kept off the spacers' and screw heads' circle.
MOUNTING_HOLE = "MountingHole:MountingHole_3.2mm_M3"
MOUNTING_HOLES_MM: tuple[tuple[float, float], ...] = (
    (SIDE_MM - 5.0, 5.0),
    (5.0, SIDE_MM - 5.0),
    (SIDE_MM - 5.0, SIDE_MM - 5.0),
)
HOLE_KEEPOUT_MM = 3.2

#: Per side: the turn of a strip connector (its pin rows along the edge), of a chip and of a
#: resistor network (both along the edge too).
_CONNECTOR_ANGLE = (90.0, 0.0, 270.0, 180.0)
_NETWORK_ANGLE = (0.0, 270.0, 180.0, 90.0)
_CHIP_ANGLE = (90.0, 0.0, 270.0, 180.0)


def _spread(wanted: list[float], gap: float, low: float, high: float) -> list[float]:
    """Positions along a line near ``wanted`` (sorted), at least ``gap`` apart, in [low, high]."""
    placed: list[float] = []
    for value in wanted:
        value = max(value, low, placed[-1] + gap if placed else low)
        placed.append(value)
    if placed and placed[-1] > high:
        # Pushed back from the far end: only as far as each needs to keep its gap.
        placed[-1] = high
        for k in range(len(placed) - 2, -1, -1):
            placed[k] = min(placed[k], placed[k + 1] - gap)
    return placed


def _slots() -> list[int]:
    """Each of a colour's six strips' slot along its side of the hub: in the order their
    connectors lie along the board's side, so every ribbon leaves towards its strip (the
    START and HOME circles' strips and the lane's lie near the side's first squares)."""
    from .layout import CONNECTOR_AT, _family
    from .strips import INSTANCES

    red = INSTANCES[:6]
    along = [s.origin[0] + CONNECTOR_AT[_family(s.design)][0] for s in red]
    order = sorted(range(6), key=lambda k: along[k])
    return [order.index(k) for k in range(6)]


def hub_parts(netlist: Netlist) -> list[HubPart]:
    """Where every part of a hub's netlist goes."""
    comps = netlist.components
    parts: list[HubPart] = []
    connector_at: dict[str, tuple[float, float]] = {}
    for index in range(24):
        ref = f"J{index + 1}"
        if ref not in comps:
            raise CircuitError(f"hub: strip connector {ref} is not in the netlist")
        colour, strip = divmod(index, 6)
        slot = _slots()[strip]
        # Seen from its parts' side (the layout's view), the hub hanging parts down under the
        # deck is the board seen from above mirrored left to right: red's and yellow's run the
        # other way along their sides, blue's are on the layout's left, green's on its right.
        side = MIRRORED_SIDE[colour]
        along = SIDE_MM / 2 - (slot - 2.5) * CONNECTOR_PITCH_MM
        at = _side_point(side, along, CONNECTOR_INSET_MM)
        connector_at[ref] = at
        parts.append(HubPart(ref, comps[ref].footprint, at, _CONNECTOR_ANGLE[side]))

    # The chips that read the sensors, by the connectors they read.
    chip_refs = sorted(
        (r for r, c in comps.items() if c.value in ("74HC165", "CD74HC4067M")),
        key=lambda r: int(r[1:]),
    )
    networks = sorted((r for r in comps if r.startswith("RN")), key=lambda r: int(r[2:]))
    per_chip = len(networks) // max(len(chip_refs), 1)
    nets_of: dict[str, set[str]] = {}
    for name, nodes in netlist.nets.items():
        for ref, _pin in nodes:
            nets_of.setdefault(ref, set()).add(name)
    hundred_nf = sorted(
        (r for r, c in comps.items() if r.startswith("C") and c.value == "100nF"),
        key=lambda r: int(r[1:]),
    )
    # The first 100 nF is the LED buffer's; then one per chip, in the chips' order.
    chip_caps = hundred_nf[1:]
    by_side: dict[int, list[tuple[float, str]]] = {0: [], 1: [], 2: [], 3: []}
    for chip in chip_refs:
        points = [
            connector_at[ref]
            for name in nets_of.get(chip, set())
            if name.startswith("SEN_")
            for ref, _ in netlist.nets[name]
            if ref in connector_at
        ]
        if not points:
            raise CircuitError(f"hub: chip {chip} reads no strip's sensor")
        cx = sum(p[0] for p in points) / len(points)
        cy = sum(p[1] for p in points) / len(points)
        distances = [cy, SIDE_MM - cx, SIDE_MM - cy, cx]
        side = distances.index(min(distances))
        along = (cx, cy, SIDE_MM - cx, SIDE_MM - cy)[side]
        by_side[side].append((along, chip))
    for side, chips in by_side.items():
        chips.sort()
        # Clear of the chips on the next side, which reach this far in.
        muxes = any(comps[chip].value == "CD74HC4067M" for _, chip in chips)
        end = MUX_END_MM if muxes else CHIP_END_MM
        spread = _spread([a for a, _ in chips], CHIP_SPACING_MM, end, SIDE_MM - end)
        for along, (_, chip) in zip(spread, chips, strict=True):
            k = chip_refs.index(chip)
            # A multiplexer stands across the side, its pin-1 end to the edge: its inputs on
            # both rows face sideways, reached from the networks down either side, and its
            # select and enable pins (10-15) at the inner end face the Pico.  Along the side,
            # its inner row took half the sensor lines round the chip into the lines from the
            # Pico.
            across = comps[chip].value == "CD74HC4067M"
            inset = MUX_INSET_MM if across else CHIP_INSET_MM
            parts.append(
                HubPart(
                    chip,
                    comps[chip].footprint,
                    _side_point(side, along, inset),
                    _NETWORK_ANGLE[side] if across else _CHIP_ANGLE[side],
                )
            )
            own = networks[k * per_chip : (k + 1) * per_chip]
            for n, network in enumerate(own):
                offset = (n - (len(own) - 1) / 2) * 5.0
                parts.append(
                    HubPart(
                        network,
                        comps[network].footprint,
                        _side_point(side, along, NETWORK_INSET_MM + offset),
                        _NETWORK_ANGLE[side],
                    )
                )
            if k < len(chip_caps):
                cap = chip_caps[k]
                parts.append(
                    HubPart(
                        cap,
                        comps[cap].footprint,
                        _side_point(side, along + 13.0, inset),
                        _CHIP_ANGLE[side],
                    )
                )

    # The middle: the Pico, the LED buffer and the small parts, the headers.
    mid = SIDE_MM / 2
    fixed: dict[str, tuple[tuple[float, float], float]] = {
        "A1": ((mid, mid), 0.0),
        "U30": ((mid - 22.0, mid - 12.0), 0.0),
        "J32": ((mid + 24.0, mid - 14.0), 0.0),
        "J33": ((mid + 32.0, mid - 14.0), 0.0),
        "J34": ((mid + 24.0, mid + 14.0), 0.0),
        "J35": ((mid + 32.0, mid + 14.0), 0.0),
        "Q1": ((mid + 32.0, mid + 24.0), 0.0),
        "D1": ((mid + 24.0, mid + 24.0), 0.0),
        "J36": ((mid - 22.0, mid + 24.0), 0.0),
        "J30": ((9.0, 9.0), 0.0),
        "F1": ((20.0, 19.0), 0.0),
        "C1": ((26.0, 27.0), 0.0),
        "J31": ((mid - 8.0, mid + 36.0), 0.0),
    }
    for ref, (at, angle) in fixed.items():
        if ref in comps:
            parts.append(HubPart(ref, comps[ref].footprint, at, angle))
    placed = {p.ref for p in parts}
    # What is left (the 0805 resistors and capacitors): columns left of the Pico.
    rest = sorted((r for r in comps if r not in placed), key=_natural)
    for n, ref in enumerate(rest):
        column, row = divmod(n, 8)
        at = (mid - 30.0 - 6.0 * column, mid - 2.0 + 4.0 * row - 14.0 * (column > 0))
        parts.append(HubPart(ref, comps[ref].footprint, at, 0.0))
    return parts


def _natural(ref: str) -> tuple[str, int]:
    letters = ref.rstrip("0123456789")
    return letters, int(ref[len(letters) :] or 0)


def hub_board(
    netlist: Netlist, rules: Rules | None = None, copper: bool = True
) -> tuple[Any, Routed]:
    """The hub's board: every part placed, its pads on their nets, routed as far as the router
    gets (``Routed.unrouted`` names the nets it could not finish); without ``copper`` only
    placed."""
    from kiutils.items.common import Position

    board, numbers, net_of_pin = board_with_nets(netlist)
    ox, oy = ORIGIN
    for part in hub_parts(netlist):
        component = netlist.components[part.ref]
        footprint = load_footprint(part.footprint)
        xs = [pad.position.X for pad in footprint.pads]
        ys = [pad.position.Y for pad in footprint.pads]
        cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
        dx, dy = _rotate(cx, cy, part.angle)
        footprint.position = Position(
            X=round(ox + part.at[0] - dx, 4),
            Y=round(oy + part.at[1] - dy, 4),
            angle=part.angle or None,
        )
        label_and_connect(footprint, part.ref, component.value, numbers, net_of_pin)
        if part.angle:
            # KiCad keeps a pad's angle on the board, the footprint's turn included.
            for pad in footprint.pads:
                pad.position.angle = ((pad.position.angle or 0.0) + part.angle) % 360 or None
        board.footprints.append(footprint)
    outline: Box = (ox, oy, ox + SIDE_MM, oy + SIDE_MM)
    add_outline(board, outline, (ox, oy))
    add_planes(board, outline, numbers)
    keepouts = add_mounting_holes(board)
    if not copper:
        return board, Routed()
    routed = route(
        board_pads(board) + keepouts,
        outline,
        rules or HUB_RULES,
        tries=1,
        partial=True,
        planes=set(PLANES.values()),
        plane_vias=PLANE_VIAS,
        power_first=True,
        links_first_mm=LINKS_FIRST_MM,
    )
    add_copper(board, routed, numbers)
    add_ground_pour(board, outline, [], numbers["GND"])
    return board, routed


def add_mounting_holes(board: Any) -> list[Pad]:
    """The M3 holes (:data:`MOUNTING_HOLES_MM`), H1-H3; the circles the router keeps off."""
    from kiutils.items.common import Position

    ox, oy = ORIGIN
    keepouts = []
    for number, (u, v) in enumerate(MOUNTING_HOLES_MM, start=1):
        x, y = ox + u, oy + v
        hole = load_footprint(MOUNTING_HOLE)
        hole.position = Position(X=x, Y=y)
        ref = f"H{number}"
        for item in hole.graphicItems:
            if getattr(item, "type", None) == "reference":
                item.text = ref
                item.layer = "F.Fab"
        hole.properties = {**(hole.properties or {}), "Reference": ref, "Value": "M3"}
        board.footprints.append(hole)
        size = 2 * HOLE_KEEPOUT_MM
        keepouts.append(Pad(ref, "", "", x, y, size, size, LAYERS, round=True))
    return keepouts


def add_planes(board: Any, outline: Box, numbers: dict[str, int]) -> None:
    """The inner layers In1.Cu and In2.Cu, each filled by one net's plane (:data:`PLANES`),
    and the board's layer stack.  KiCad fills the planes round the other nets' pads and vias
    and joins their own nets' pads by thermal reliefs (the power entry's ground solidly)."""
    from kiutils.items.brditems import LayerToken, Stackup, StackupLayer

    copper = [layer for layer in board.layers if layer.name in ("F.Cu", "B.Cu")]
    others = [layer for layer in board.layers if layer.name not in ("F.Cu", "B.Cu")]
    inner = [LayerToken(ordinal=k, name=name, type="power") for k, name in enumerate(PLANES, 1)]
    board.layers = copper[:1] + inner + copper[1:] + others
    board.setup.stackup = Stackup(
        layers=[
            StackupLayer(name="F.SilkS", type="Top Silk Screen"),
            StackupLayer(name="F.Paste", type="Top Solder Paste"),
            StackupLayer(name="F.Mask", type="Top Solder Mask", thickness=0.01),
        ]
        + [
            StackupLayer(
                name=name,
                type=kind,
                thickness=thickness,
                material=None if kind == "copper" else "FR4",
                epsilonR=None if kind == "copper" else 4.5,
                lossTangent=None if kind == "copper" else 0.02,
            )
            for name, kind, thickness in STACKUP
        ]
        + [
            StackupLayer(name="B.Mask", type="Bottom Solder Mask", thickness=0.01),
            StackupLayer(name="B.Paste", type="Bottom Solder Paste"),
            StackupLayer(name="B.SilkS", type="Bottom Silk Screen"),
        ],
        copperFinish="HAL lead-free",
    )
    for layer, net in PLANES.items():
        board.zones.append(
            outline_zone(
                outline, numbers[net], net, layer, PLANE_CLEARANCE_MM, 0.4, f"{net} plane {outline}"
            )
        )
    # The supply's return (up to 4 A) enters the ground plane without a thermal relief's
    # narrow spokes.
    for footprint in board.footprints:
        if footprint.properties.get("Reference") == "J30":
            for pad in footprint.pads:
                if pad.net and pad.net.name == "GND":
                    pad.zoneConnect = 2


def write_hub_boards(
    netlists: dict[str, Netlist],
    out: Path,
    copper: dict[str, tuple[int, int]] | None = None,
    unfinished: dict[str, list[str]] | None = None,
) -> list[Path]:
    """boards/hub-<kind>.kicad_pcb (and its project file with the design rules) for each board
    kind.  ``copper`` gets each board's numbers of tracks and vias, ``unfinished`` the nets the
    router could not finish.  The hubs are routed side by side, one process each (minutes
    each, and independent)."""
    names = sorted(n for n in netlists if n.startswith("hub-"))
    workers = max(1, min(len(names), os.cpu_count() or 1))
    # forkserver, not fork: forking a process with threads may deadlock (Python 3.12+ warns).
    context = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        boards = list(pool.map(hub_board, [netlists[name] for name in names]))
    written = []
    for name, (board, routed) in zip(names, boards, strict=True):
        path = out / "boards" / f"{name}.kicad_pcb"
        path.parent.mkdir(parents=True, exist_ok=True)
        board.to_file(str(path))
        write_rules(path.with_suffix(".kicad_pro"))
        written.append(path)
        if copper is not None:
            copper[name] = (len(routed.tracks), len(routed.vias))
        if unfinished is not None:
            unfinished[name] = list(routed.unrouted)
    return written

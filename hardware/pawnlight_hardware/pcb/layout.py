"""The strips' board files (.kicad_pcb, KiCad 6's text format), written with kiutils.

Every footprint comes from KiCad's own library (Debian's kicad-footprints) and is placed at its
part's position in the strip design (:mod:`.strips`): a sensor at its place's centre, an LED
under its LED hole.  A design's origin (its first sensor) sits at :data:`PAGE_ORIGIN` on KiCad's
page, which is also the board's auxiliary (drill and placement) origin: the placement file gives
every part in the design's own millimetres.  Two M2 mounting holes go where the parts leave room
nearest the strip's ends, and :mod:`.route` lays the copper of every net (tracks and vias on
both layers), keeping off the holes' screw heads.
"""

from __future__ import annotations

import json
import math
import os
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .circuit import FP, KICAD_SHARE, CircuitError, strip_refs
from .netlist import Netlist
from .pico import LIB_ID as PICO_LIB_ID
from .pico import pico_footprint
from .route import LAYERS, Box, Pad, Routed, RoutingError, Rules, route
from .strips import DESIGNS, Point, StripDesign

#: Where a design's (0, 0) lies on KiCad's page, in mm.
PAGE_ORIGIN: Point = (60.0, 60.0)
#: Beyond the parts' courtyards, the board edge.
MARGIN_MM = 1.0
#: Per design: where the connector's pin 1 and the bulk capacitor go (design mm).  A track
#: strip's connector stands between slot 2's sensor and slot 3's LED, so the strip ends where
#: its first LED and last sensor do (the next strip starts 15 mm on) and stays 2 mm inside the
#: deck's outer edge; a lane's is beside its squares, away from the track strip above it.
CONNECTOR_AT: dict[str, Point] = {
    "track": (75.23, -7.0),
    "lane": (7.0, 14.0),
    "area": (33.0, 4.3),
}
BULK_AT: dict[str, Point] = {"track": (43.5, 0.0), "lane": (6.0, 4.0), "area": (13.2, -3.5)}
#: Beside a sensor its 100 nF capacitor; below an LED its own.
#: The strips' mounting holes: M2 screws (a 2.2 mm hole without copper), the copper kept
#: off a circle the size of the screw's head, and the footprint's courtyard.
MOUNTING_HOLE = "MountingHole:MountingHole_2.2mm_M2"
HOLE_KEEPOUT_MM = 2.2
HOLE_COURTYARD_MM = 2.45
#: The bottom layer's ground pour keeps this far from other nets' copper (more than the 0.2 mm
#: of tracks: a pour's edge is long).
GROUND_POUR_CLEARANCE_MM = 0.3
SENSOR_CAP_OFFSET: Point = (0.0, -3.5)
LED_CAP_OFFSET: Point = (0.0, 4.5)


def footprint_dir() -> Path:
    return Path(os.environ.get("KICAD6_FOOTPRINT_DIR", KICAD_SHARE / "footprints"))


def _family(design: StripDesign) -> str:
    return "track" if design.name.startswith("track") else design.name


#: The face a part is mounted on: the front (F.Cu) lies against the deck's underside.
FRONT, BACK = "F.Cu", "B.Cu"
#: The connector's pin pitch (2.54 mm).
CONNECTOR_PITCH_MM = 2.54


@dataclass(frozen=True)
class Placed:
    ref: str
    footprint: str
    at: Point  # design mm
    layer: str = FRONT


def placements(design: StripDesign) -> list[Placed]:
    """Every part of a strip design and where it goes, in the design's millimetres."""
    refs = strip_refs(design)
    found = []
    for index, at in enumerate(design.sensors):
        found.append(Placed(refs["sensor"][index], FP["sensor"], at))
        cap_at = (at[0] + SENSOR_CAP_OFFSET[0], at[1] + SENSOR_CAP_OFFSET[1])
        found.append(Placed(refs["sensor_cap"][index], FP["C"], cap_at))
    for leds, caps, points in (
        (refs["led"], refs["led_cap"], design.leds),
        (refs["slide"], refs["slide_cap"], design.slide_leds),
    ):
        for led, cap, at in zip(leds, caps, points, strict=True):
            found.append(Placed(led, FP["led"], at))
            found.append(
                Placed(cap, FP["C"], (at[0] + LED_CAP_OFFSET[0], at[1] + LED_CAP_OFFSET[1]))
            )
    family = _family(design)
    found.append(Placed("C31", FP["C"], BULK_AT[family]))
    # The connector stands on the far face (B.Cu), away from the deck: turned over, its pads
    # lie where they would on the front with each row's columns swapped, so pin 1 moves one
    # pitch along the row (docs/pcb.md, "The strips' faces").
    x, y = CONNECTOR_AT[family]
    found.append(Placed("J1", FP["strip"], (x + CONNECTOR_PITCH_MM, y), BACK))
    return found


def flip_to_back(footprint: Any) -> None:
    """Turn a footprint over onto B.Cu as KiCad's flip does (mirrored left to right): every
    pad and drawing mirrored in x, every front layer swapped for its back layer."""

    def swap(layer: str) -> str:
        if layer.startswith("F."):
            return "B." + layer[2:]
        if layer.startswith("B."):
            return "F." + layer[2:]
        return layer

    footprint.layer = "B.Cu"
    for pad in footprint.pads:
        pad.position.X = -pad.position.X
        pad.layers = [swap(layer) for layer in pad.layers]
    for item in footprint.graphicItems:
        if hasattr(item, "layer") and item.layer:
            item.layer = swap(item.layer)
        for name in ("start", "end", "center", "mid", "position"):
            point = getattr(item, name, None)
            if point is not None and hasattr(point, "X"):
                point.X = -point.X
        for point in getattr(item, "coordinates", None) or []:
            point.X = -point.X
        effects = getattr(item, "effects", None)
        if effects is not None and getattr(effects, "justify", None) is not None:
            effects.justify.mirror = True


def _kiutils() -> Any:
    try:
        import kiutils.board
        import kiutils.footprint
    except ImportError:
        raise CircuitError("kiutils is not installed: pip install -e 'hardware[pcb]'") from None
    return kiutils


def load_footprint(lib_id: str) -> Any:
    kiutils = _kiutils()
    if lib_id == PICO_LIB_ID:  # not in KiCad's library: made in code
        return pico_footprint()
    library, name = lib_id.split(":", 1)
    path = footprint_dir() / f"{library}.pretty" / f"{name}.kicad_mod"
    if not path.is_file():
        raise CircuitError(
            f"footprint {lib_id} not found at {path}: apt-get install kicad-footprints "
            "(or set KICAD6_FOOTPRINT_DIR)"
        )
    footprint = kiutils.footprint.Footprint.from_file(str(path))
    footprint.libId = lib_id
    return footprint


def _courtyard(footprint: Any) -> tuple[float, float, float, float]:
    """The footprint's courtyard box relative to its origin (or its pads' box)."""
    xs: list[float] = []
    ys: list[float] = []
    for item in footprint.graphicItems:
        if getattr(item, "layer", "") in ("F.CrtYd", "B.CrtYd") and hasattr(item, "start"):
            for point in (item.start, item.end):
                xs.append(point.X)
                ys.append(point.Y)
    if not xs:
        for pad in footprint.pads:
            xs += [pad.position.X - pad.size.X / 2, pad.position.X + pad.size.X / 2]
            ys += [pad.position.Y - pad.size.Y / 2, pad.position.Y + pad.size.Y / 2]
    return min(xs), min(ys), max(xs), max(ys)


def board_with_nets(netlist: Netlist) -> tuple[Any, dict[str, int], dict[tuple[str, str], str]]:
    """A new board holding the netlist's nets: the board, each net's number, each pin's net."""
    from kiutils.board import Board
    from kiutils.items.common import Net

    board = Board.create_new()
    names = sorted(n for n in netlist.nets if n)
    numbers = {name: number for number, name in enumerate(names, start=1)}
    board.nets = [Net(0, "")] + [Net(numbers[n], n) for n in names]
    net_of_pin = {node: name for name, nodes in netlist.nets.items() for node in nodes}
    return board, numbers, net_of_pin


def label_and_connect(
    footprint: Any,
    ref: str,
    value: str,
    numbers: dict[str, int],
    net_of_pin: dict[tuple[str, str], str],
) -> None:
    """A placed footprint given its reference and value, and each pad its net."""
    from kiutils.items.common import Net

    for item in footprint.graphicItems:
        if getattr(item, "type", None) == "reference":
            item.text = ref
            # On the assembly drawing, not the silkscreen: the board house places the parts
            # from the placement file, and printed among the pads they were clipped.
            item.layer = "B.Fab" if footprint.layer == "B.Cu" else "F.Fab"
        elif getattr(item, "type", None) == "value":
            item.text = value
    footprint.properties = {**(footprint.properties or {}), "Reference": ref, "Value": value}
    for pad in footprint.pads:
        net = net_of_pin.get((ref, str(pad.number)))
        if net:
            pad.net = Net(numbers[net], net)


def add_outline(board: Any, outline: Box, origin: tuple[float, float]) -> None:
    """The board's edge, and its origin for the drill and placement files."""
    from kiutils.items.common import Position
    from kiutils.items.gritems import GrRect

    board.graphicItems.append(
        GrRect(
            start=Position(X=outline[0], Y=outline[1]),
            end=Position(X=outline[2], Y=outline[3]),
            layer="Edge.Cuts",
            width=0.1,
        )
    )
    board.setup.auxAxisOrigin = Position(X=origin[0], Y=origin[1])
    board.setup.gridOrigin = Position(X=origin[0], Y=origin[1])


def strip_board(design: StripDesign, netlist: Netlist) -> Any:
    """The design's board: footprints placed, every pad on its net, the outline around them."""
    _kiutils()  # the pcb extra, or an error that names it
    from kiutils.items.common import Position

    board, numbers, net_of_pin = board_with_nets(netlist)
    ox, oy = PAGE_ORIGIN
    box = [math.inf, math.inf, -math.inf, -math.inf]
    courtyards: list[Box] = []
    for placed in placements(design):
        component = netlist.components.get(placed.ref)
        if component is None:
            raise CircuitError(f"{design.name}: {placed.ref} is placed but not in the netlist")
        footprint = load_footprint(placed.footprint)
        if placed.layer == BACK:
            flip_to_back(footprint)
        x, y = ox + placed.at[0], oy + placed.at[1]
        footprint.position = Position(X=round(x, 4), Y=round(y, 4))
        label_and_connect(footprint, placed.ref, component.value, numbers, net_of_pin)
        left, top, right, bottom = _courtyard(footprint)
        courtyards.append((x + left, y + top, x + right, y + bottom))
        box = [
            min(box[0], x + left),
            min(box[1], y + top),
            max(box[2], x + right),
            max(box[3], y + bottom),
        ]
        board.footprints.append(footprint)
    missing = set(netlist.components) - {p.ref for p in placements(design)}
    if missing:
        raise CircuitError(f"{design.name}: no place on the board for {', '.join(sorted(missing))}")
    outline: Box = (
        round(box[0] - MARGIN_MM, 2),
        round(box[1] - MARGIN_MM, 2),
        round(box[2] + MARGIN_MM, 2),
        round(box[3] + MARGIN_MM, 2),
    )
    add_outline(board, outline, (ox, oy))
    keepouts = []
    for number, (x, y) in enumerate(mounting_holes(outline, courtyards), start=1):
        hole = load_footprint(MOUNTING_HOLE)
        hole.position = Position(X=x, Y=y)
        ref = f"H{number}"
        for item in hole.graphicItems:
            if getattr(item, "type", None) == "reference":
                item.text = ref
                item.layer = "F.Fab"
        hole.properties = {**(hole.properties or {}), "Reference": ref, "Value": "M2"}
        board.footprints.append(hole)
        # No copper under the screw's head: the router keeps off a circle of its size.
        size = 2 * HOLE_KEEPOUT_MM
        keepouts.append(Pad(ref, "", "", x, y, size, size, LAYERS, round=True))
    try:
        routed = route(board_pads(board) + keepouts, outline)
    except RoutingError as error:
        raise CircuitError(f"{design.name}: {error}") from None
    add_copper(board, routed, numbers)
    add_ground_pour(board, outline, [(k.x, k.y) for k in keepouts], numbers["GND"])
    return board


def outline_zone(
    outline: Box, net: int, name: str, layer: str, clearance: float, thermal_gap: float, label: str
) -> Any:
    """A copper zone of net ``name`` filling ``layer`` to the board's outline: the strips' GND
    pour and the hubs' inner planes alike.  ``label`` makes its timestamp, the same each run."""
    from kiutils.items.common import Position
    from kiutils.items.zones import FillSettings, Hatch, Zone, ZonePolygon

    left, top, right, bottom = outline
    corners = [(left, top), (right, top), (right, bottom), (left, bottom)]
    return Zone(
        net=net,
        netName=name,
        layers=[layer],
        tstamp=str(uuid.uuid5(uuid.NAMESPACE_OID, label)),
        hatch=Hatch("edge", 0.508),
        clearance=clearance,
        minThickness=0.25,
        fillSettings=FillSettings(
            yes=True, thermalGap=thermal_gap, thermalBridgeWidth=0.5, islandRemovalMode=0
        ),
        polygons=[ZonePolygon([Position(X=x, Y=y) for x, y in corners])],
        filledPolygons=[],
    )


def add_ground_pour(board: Any, outline: Box, holes: list[tuple[float, float]], gnd: int) -> None:
    """A GND zone over the whole bottom layer (KiCad fills it round the other nets' copper,
    and drops the pieces that reach no GND pad or via), kept off the mounting holes' screw
    heads.  The routed tracks join every GND pad already: the pour only adds ground."""
    from kiutils.items.common import Position
    from kiutils.items.zones import Hatch, KeepoutSettings, Zone, ZonePolygon

    pour = outline_zone(
        outline, gnd, "GND", "B.Cu", GROUND_POUR_CLEARANCE_MM, 0.5, f"GND pour {outline}"
    )
    board.zones.append(pour)
    for x, y in holes:
        circle = [
            Position(
                X=round(x + HOLE_KEEPOUT_MM * math.cos(math.pi * k / 12), 4),
                Y=round(y + HOLE_KEEPOUT_MM * math.sin(math.pi * k / 12), 4),
            )
            for k in range(24)
        ]
        board.zones.append(
            Zone(
                net=0,
                netName="",
                layers=["F.Cu", "B.Cu"],
                tstamp=str(uuid.uuid5(uuid.NAMESPACE_OID, f"hole keepout {x} {y}")),
                hatch=Hatch("edge", 0.508),
                keepoutSettings=KeepoutSettings(
                    tracks="not_allowed",
                    vias="not_allowed",
                    pads="allowed",
                    copperpour="not_allowed",
                    footprints="allowed",
                ),
                polygons=[ZonePolygon(circle)],
                filledPolygons=[],
            )
        )


def mounting_holes(outline: Box, courtyards: list[Box]) -> list[tuple[float, float]]:
    """Where the two mounting holes go: the free points nearest the board's two ends (along its
    longer side), whose courtyard circle stays clear of every part's courtyard and inside the
    board."""
    left, top, right, bottom = outline
    inset = HOLE_COURTYARD_MM + 0.5
    step = 0.5
    free = []
    y = top + inset
    while y <= bottom - inset:
        x = left + inset
        while x <= right - inset:
            if all(_box_distance(x, y, court) >= HOLE_COURTYARD_MM + 0.25 for court in courtyards):
                free.append((round(x, 2), round(y, 2)))
            x += step
        y += step
    if not free:
        raise CircuitError("no room for the mounting holes on the strip")
    wide = right - left >= bottom - top
    middle = (top + bottom) / 2 if wide else (left + right) / 2

    def along(point: tuple[float, float]) -> tuple[float, float]:
        first, second = point if wide else point[::-1]
        return first, abs(second - middle)

    start = min(free, key=along)
    end = min(free, key=lambda p: (-along(p)[0], along(p)[1]))
    return [start, end]


def _box_distance(x: float, y: float, box: Box) -> float:
    dx = max(box[0] - x, 0.0, x - box[2])
    dy = max(box[1] - y, 0.0, y - box[3])
    return math.hypot(dx, dy)


def board_pads(board: Any) -> list[Pad]:
    """Every copper pad of a kiutils board, where it lies on the page (footprints turned by
    their angle), with its net."""
    found = []
    for footprint in board.footprints:
        turn = math.radians(footprint.position.angle or 0.0)
        cos, sin = math.cos(turn), math.sin(turn)
        for pad in footprint.pads:
            layers: tuple[str, ...] = tuple(
                layer for layer in LAYERS if layer in pad.layers or "*.Cu" in pad.layers
            )
            if not layers:
                continue
            dx, dy = pad.position.X, pad.position.Y
            x = footprint.position.X + dx * cos + dy * sin
            y = footprint.position.Y - dx * sin + dy * cos
            w, h = pad.size.X, pad.size.Y
            angle = ((pad.position.angle or 0.0) + 0.0) % 180
            if round(angle) == 90:
                w, h = h, w
            elif round(angle) != 0:
                w = h = max(w, h) * math.sqrt(2)  # a turned pad: its bounding square
            found.append(
                Pad(
                    ref=footprint.properties.get("Reference", ""),
                    number=str(pad.number),
                    net=pad.net.name if pad.net else "",
                    x=x,
                    y=y,
                    w=w,
                    h=h,
                    layers=layers,
                    round=pad.shape in ("circle", "oval") and abs(w - h) < 1e-6,
                    drill=_drill(pad),
                )
            )
    return found


def _drill(pad: Any) -> float:
    """A through-hole pad's hole diameter (the longer side of a slot), 0 for none."""
    drill = getattr(pad, "drill", None)
    if drill is None:
        return 0.0
    return float(max(drill.diameter or 0.0, getattr(drill, "width", None) or 0.0))


def add_copper(board: Any, routed: Routed, numbers: dict[str, int]) -> None:
    """The router's tracks and vias into the board, on their nets."""
    from kiutils.items.brditems import Segment, Via
    from kiutils.items.common import Position

    def stamp(item: object) -> str:  # the same board gets the same time stamps
        return str(uuid.uuid5(uuid.NAMESPACE_OID, repr(item)))

    for track in routed.tracks:
        board.traceItems.append(
            Segment(
                start=Position(X=track.start[0], Y=track.start[1]),
                end=Position(X=track.end[0], Y=track.end[1]),
                width=track.width,
                layer=track.layer,
                net=numbers[track.net],
                tstamp=stamp(track),
            )
        )
    for via in routed.vias:
        board.traceItems.append(
            Via(
                position=Position(X=via.at[0], Y=via.at[1]),
                size=via.size,
                drill=via.drill,
                layers=list(LAYERS),
                net=numbers[via.net],
                tstamp=stamp(via),
            )
        )


def write_rules(path: Path, rules: Rules | None = None) -> None:
    """The board's KiCad project file, holding the design rules the router keeps (KiCad 6 keeps
    them there, not in the board): KiCad's DRC checks the board against these, not against its
    looser defaults (a copper edge clearance of 0.01 mm, vias of 0.4 mm)."""
    rules = rules or Rules()
    settings = {
        "board": {
            "design_settings": {
                "rules": {
                    "min_clearance": rules.clearance,
                    "min_copper_edge_clearance": rules.edge_clearance,
                    "min_track_width": rules.track_width,
                    "min_via_diameter": rules.via_size,
                    "min_through_hole_diameter": rules.via_drill,
                    "min_via_annular_width": round((rules.via_size - rules.via_drill) / 2, 4),
                    "min_hole_clearance": 0.25,
                    "min_hole_to_hole": 0.25,
                }
            }
        },
        "net_settings": {
            "classes": [
                {
                    "name": "Default",
                    "clearance": rules.clearance,
                    "track_width": rules.track_width,
                    "via_diameter": rules.via_size,
                    "via_drill": rules.via_drill,
                }
            ]
        },
        "meta": {"filename": path.name, "version": 1},
    }
    path.write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")


def write_strip_boards(
    netlists: dict[str, Netlist], out: Path, copper: dict[str, tuple[int, int]] | None = None
) -> list[Path]:
    """boards/<design>.kicad_pcb for every design, from its presence netlist (the colour
    board's strips are the same boards with other sensors fitted: the same nets).  ``copper``
    gets each board's numbers of tracks and vias."""
    written = []
    for name, design in DESIGNS.items():
        board = strip_board(design, netlists[f"strip-{name}-presence"])
        path = out / "boards" / f"strip-{name}.kicad_pcb"
        path.parent.mkdir(parents=True, exist_ok=True)
        board.to_file(str(path))
        write_rules(path.with_suffix(".kicad_pro"))
        written.append(path)
        if copper is not None:
            vias = sum(1 for item in board.traceItems if not hasattr(item, "start"))
            copper[path.stem] = (len(board.traceItems) - vias, vias)
    return written

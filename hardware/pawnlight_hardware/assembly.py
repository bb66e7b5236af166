"""The whole board as one assembly, from the one geometry: the Sorry! board and the deck, the
frame, the bottom panel with its hatch cover and feet, the printed cups and trays, under the deck
either the hand-wired sensors and LEDs or the 24 sensor strips and the hub (every PCB as its
outline with its parts' courtyards and heights on their faces, :mod:`.stackup`), the Pico, the
Raspberry Pi's box and the cables' runs.

    pawnlight hardware assembly --out DIR

writes the model (``assembly-<build>.scad`` for OpenSCAD, ``assembly-<build>.stl`` for any
viewer, ``assembly-<build>.json``), an exploded view and, with OpenSCAD, its picture.  The
checks (:func:`problems`) are what a builder meets: two solids in one place, a cable's run or a
plug's room taken, the Pico's USB socket out of the hatch's reach, a strip connector on the
hub's side away from its strip.

Board coordinates: millimetres from the board's top-left corner (T0's outer corner) seen from
above, x to the right, y down the board, z up from the board's top face.  The deck is larger
than the board by :data:`.underside.DECK_BORDER_MM` on every side, and the frame stands under
that border, outside the board's square: nothing under the board's edge.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from . import parts as printed
from . import stackup, underside
from .solids import Solid, blocking, box, cylinder, interferences

#: Heights below the board's top face.
BOARD_MM = 2.0
DECK_UNDER_Z = -(BOARD_MM + underside.DECK_THICKNESS_MM)
PANEL_TOP_Z = DECK_UNDER_Z - underside.FRAME_HEIGHT_MM
PANEL_UNDER_Z = PANEL_TOP_Z - underside.PANEL_THICKNESS_MM
TABLE_Z = PANEL_UNDER_Z - underside.FOOT_HEIGHT_MM
#: The hub hangs under the deck, parts down, on M3 spacers this long: the pin tails on its
#: back (1.2 mm) clear the deck, and its tallest part, the 1000 uF capacitor (17.5 mm), keeps
#: PANEL_GAP_MM off the panel (on 5 mm spacers it was 0.9 mm).
HUB_SPACER_MM = 3.0
#: Room every part under the deck keeps above the bottom panel: a knock on the panel, or the
#: panel bowing under a hand, must not reach it.
PANEL_GAP_MM = 2.0
#: A ribbon's IDC socket in a header: how far it stands out of the header, with the ribbon's
#: first bend.
IDC_PLUG_MM = 6.0
#: The cable run to the Pi: a 10-way ribbon (12.7 mm wide, 1 mm thick) lies on the panel from
#: the hub's J33 to a notch in the right-hand frame strip, into the Pi's box.
RIBBON_MM = (12.7, 1.0)
PI_NOTCH_MM = (30.0, 8.0)  # the notch in the frame strip's lower edge: along it, up it
#: A micro-USB plug and its strain relief, straight out of the Pico's socket, and the hand room
#: round the socket the hatch must give.
USB_PLUG_MM = (25.0, 12.0, 9.0)  # out of the socket, across, high
HATCH_REACH_MM = 10.0
#: The Raspberry Pi's box (bom.md): stands on the table against the frame's right-hand side.
PI_BOX_MM = (80.0, 150.0, 50.0)
#: The status LED (a 5 mm LED in a panel clip, on J36's lead) stands this far out of the Pi
#: box's lid, beside the buttons, in the players' sight; nothing may stand over it.
STATUS_LED_MM = 5.0
#: How high over the table a player's eye is, for the LED's sight line.
EYE_MM = 400.0


def _cup_height(far: float) -> float:
    """hardware/centring-cups.scad's height_for()."""
    recess = 13.5 + 1.0
    return 1.0 + (far - recess / 2) * math.tan(math.radians(30)) + 0.2


CUP_HEIGHT_MM = _cup_height((printed.CUP_SIDE_MM / 2 - 2) * math.sqrt(2) + 2)
TRAY_HEIGHT_MM = _cup_height(
    max(
        math.sqrt(2) * printed.SPOT_MM,
        math.hypot(printed.SPOT_MM, printed.TRAY_RADIUS_MM - printed.SPOT_MM),
    )
)


@dataclass
class Assembly:
    build: str
    solids: list[Solid] = field(default_factory=list)
    #: Room that must stay free: a cable's run, a plug, a light's path.
    keepouts: list[Solid] = field(default_factory=list)
    #: Each ribbon's run (strip connector to hub connector), mm, by strip.
    ribbons: dict[str, float] = field(default_factory=dict)
    #: Where the Pico's USB socket is (board x, y).
    usb_socket: tuple[float, float] = (0.0, 0.0)
    #: Hub connector -> (its position, its strip's connector position), for the facing check.
    facing: dict[str, tuple[tuple[float, float], tuple[float, float]]] = field(default_factory=dict)


def structure() -> list[Solid]:
    """The board, the deck, the frame, the panel with its hatch cover, the feet."""
    size, border = underside.DECK_MM, underside.DECK_BORDER_MM
    low, high = -border, size + border
    width = underside.FRAME_WIDTH_MM
    z_frame = (PANEL_TOP_Z, DECK_UNDER_Z)
    found = [
        box("Sorry! board", "board", (0, size), (0, size), (-BOARD_MM, 0), "Khaki"),
        box("deck", "deck", (low, high), (low, high), (DECK_UNDER_Z, -BOARD_MM), "BurlyWood"),
        box("frame top", "frame", (low, high), (low, low + width), z_frame, "Peru"),
        box("frame bottom", "frame", (low, high), (high - width, high), z_frame, "Peru"),
        box(
            "frame left", "frame", (low, low + width), (low + width, high - width), z_frame, "Peru"
        ),
    ]
    # The right-hand strip, with the notch the Pi's ribbon leaves through.
    notch_y = _pi_cable_y()
    along, up = PI_NOTCH_MM
    right = (high - width, high)
    y0, y1 = low + width, high - width
    found += [
        box("frame right", "frame", right, (y0, notch_y - along / 2), z_frame, "Peru"),
        box("frame right", "frame", right, (notch_y + along / 2, y1), z_frame, "Peru"),
        box("frame right over the notch", "frame", right,
            (notch_y - along / 2, notch_y + along / 2), (PANEL_TOP_Z + up, DECK_UNDER_Z), "Peru"),
    ]  # fmt: skip
    # The panel round the hatch opening, the hatch cover (its rim up into the opening).
    cx, cy = underside.hatch_centre()
    w, h = underside.HATCH_OPENING_MM
    hx, hy = (cx - w / 2, cx + w / 2), (cy - h / 2, cy + h / 2)
    z_panel = (PANEL_UNDER_Z, PANEL_TOP_Z)
    found += [
        box("panel", "panel", (low, high), (low, hy[0]), z_panel, "Tan"),
        box("panel", "panel", (low, high), (hy[1], high), z_panel, "Tan"),
        box("panel", "panel", (low, hx[0]), hy, z_panel, "Tan"),
        box("panel", "panel", (hx[1], high), hy, z_panel, "Tan"),
    ]
    cw, ch = underside.hatch_cover_mm()
    found += [
        box("hatch cover", "hatch", (cx - cw / 2, cx + cw / 2), (cy - ch / 2, cy + ch / 2),
            (PANEL_UNDER_Z - underside.HATCH_PLATE_MM, PANEL_UNDER_Z), "DimGray"),
        box("hatch cover rim", "hatch", hx, hy,
            (PANEL_UNDER_Z, PANEL_UNDER_Z + underside.HATCH_RIM_MM), "DimGray"),
    ]  # fmt: skip
    found += [
        cylinder(f"foot {i + 1}", "feet", point, underside.FOOT_DIAMETER_MM / 2,
                 (TABLE_Z, PANEL_UNDER_Z), "DimGray")
        for i, point in enumerate(underside.feet())
    ]  # fmt: skip
    return found


def on_deck() -> list[Solid]:
    """The printed cups and trays, standing on the board."""
    found = []
    for part in printed.parts():
        if part.shape == "tray":
            found.append(
                cylinder(part.name, "cups", part.centre, printed.TRAY_RADIUS_MM,
                         (0, TRAY_HEIGHT_MM), "SteelBlue")
            )  # fmt: skip
        else:
            half = printed.CUP_SIDE_MM / 2
            x, y = part.centre
            found.append(
                box(part.name, "cups", (x - half, x + half), (y - half, y + half),
                    (0, CUP_HEIGHT_MM), "SteelBlue")
            )  # fmt: skip
    return found


def _pi_cable_y() -> float:
    """The Pi's cable leaves level with the hub's J33 (pcb/hub.py: 14 mm above the centre)."""
    return underside.CENTRE_MM[1] - 14.0


def _courtyard(footprint: Any) -> tuple[float, float, float, float]:
    """A KiCad footprint's courtyard box (its pads' box where it has none), circles included."""
    xs: list[float] = []
    ys: list[float] = []
    for item in footprint.graphicItems:
        if not str(getattr(item, "layer", "")).endswith("CrtYd"):
            continue
        centre = getattr(item, "center", None)
        if centre is not None and hasattr(item, "end") and not hasattr(item, "mid"):
            r = math.dist((centre.X, centre.Y), (item.end.X, item.end.Y))
            xs += [centre.X - r, centre.X + r]
            ys += [centre.Y - r, centre.Y + r]
            continue
        for name in ("start", "end"):
            point = getattr(item, name, None)
            if point is not None:
                xs.append(point.X)
                ys.append(point.Y)
        for point in getattr(item, "coordinates", None) or []:
            xs.append(point.X)
            ys.append(point.Y)
    if not xs:
        for pad in footprint.pads:
            xs += [pad.position.X - pad.size.X / 2, pad.position.X + pad.size.X / 2]
            ys += [pad.position.Y - pad.size.Y / 2, pad.position.Y + pad.size.Y / 2]
    return min(xs), min(ys), max(xs), max(ys)


_COURTYARDS: dict[str, tuple[float, float, float, float]] = {}


def courtyard(lib_id: str) -> tuple[float, float, float, float]:
    if lib_id not in _COURTYARDS:
        from .pcb.layout import load_footprint

        _COURTYARDS[lib_id] = _courtyard(load_footprint(lib_id))
    return _COURTYARDS[lib_id]


_PAD_CENTRES: dict[str, tuple[float, float]] = {}


def _pad_centre(lib_id: str) -> tuple[float, float]:
    if lib_id not in _PAD_CENTRES:
        from .pcb.layout import load_footprint

        footprint = load_footprint(lib_id)
        xs = [pad.position.X for pad in footprint.pads]
        ys = [pad.position.Y for pad in footprint.pads]
        _PAD_CENTRES[lib_id] = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    return _PAD_CENTRES[lib_id]


def strips() -> tuple[list[Solid], dict[str, tuple[float, float]]]:
    """The 24 strips under the deck, each lying on its tallest deck-face part; and where each
    strip's connector J1 is on the board."""
    from .pcb.layout import BACK, MARGIN_MM, placements
    from .pcb.strips import INSTANCES

    found: list[Solid] = []
    connectors: dict[str, tuple[float, float]] = {}
    for instance in INSTANCES:
        placed = placements(instance.design)
        front = [p for p in placed if p.layer != BACK]
        face = DECK_UNDER_Z - max(stackup.height_mm(p.footprint)[1] for p in front)
        back = face - stackup.PCB_MM
        boxes = []
        for p in placed:
            left, top, right, bottom = courtyard(p.footprint)
            if p.layer == BACK:
                left, right = -right, -left
            local = (p.at[0] + left, p.at[1] + top, p.at[0] + right, p.at[1] + bottom)
            boxes.append(local)
            xs, ys = _turned(instance, local)
            height = stackup.height_mm(p.footprint)[1]
            if p.layer == BACK:
                z = (back - height - (IDC_PLUG_MM if p.ref == "J1" else 0.0), back)
                tails = (face, face + stackup.PIN_TAIL_MM[1])
                found.append(box(f"{instance.name} {p.ref} pin tails", "strips", xs, ys,
                                 tails, "Gold"))  # fmt: skip
            else:
                z = (face, face + height)
            found.append(box(f"{instance.name} {p.ref}", "strips", xs, ys, z, "Black"))
            if p.ref == "J1":
                connectors[instance.name] = ((xs[0] + xs[1]) / 2, (ys[0] + ys[1]) / 2)
        outline = (
            min(b[0] for b in boxes) - MARGIN_MM,
            min(b[1] for b in boxes) - MARGIN_MM,
            max(b[2] for b in boxes) + MARGIN_MM,
            max(b[3] for b in boxes) + MARGIN_MM,
        )
        xs, ys = _turned(instance, outline)
        found.append(box(f"{instance.name} board", "strips", xs, ys, (back, face), "Green"))
    return found, connectors


def _turned(
    instance: Any, local: Sequence[float]
) -> tuple[tuple[float, float], tuple[float, float]]:
    corners = [instance.to_board((local[i], local[j])) for i in (0, 2) for j in (1, 3)]
    xs = [c[0] for c in corners]
    ys = [c[1] for c in corners]
    return (min(xs), max(xs)), (min(ys), max(ys))


def hub(netlist: Any) -> tuple[list[Solid], dict[str, tuple[float, float]], tuple[float, float]]:
    """The hub hanging parts down under the deck on its spacers, seen from above (so its
    layout, drawn from its parts' side, is mirrored left to right); its strip connectors'
    positions and the Pico's USB socket (board x, y)."""
    from .pcb.hub import SIDE_MM, _rotate, hub_parts

    cx, cy = underside.CENTRE_MM
    back = DECK_UNDER_Z - HUB_SPACER_MM
    front = back - stackup.PCB_MM

    def to_board(u: float, v: float) -> tuple[float, float]:
        return cx - (u - SIDE_MM / 2), cy + (v - SIDE_MM / 2)

    found = [
        box("hub board", "hub", (cx - SIDE_MM / 2, cx + SIDE_MM / 2),
            (cy - SIDE_MM / 2, cy + SIDE_MM / 2), (front, back), "DarkGreen")
    ]  # fmt: skip
    connectors: dict[str, tuple[float, float]] = {}
    usb = (0.0, 0.0)
    for part in hub_parts(netlist):
        left, top, right, bottom = courtyard(part.footprint)
        px, py = _pad_centre(part.footprint)
        ox, oy = _rotate(px, py, part.angle)
        origin = (part.at[0] - ox, part.at[1] - oy)
        corners = [_rotate(x, y, part.angle) for x in (left, right) for y in (top, bottom)]
        points = [to_board(origin[0] + dx, origin[1] + dy) for dx, dy in corners]
        xs = (min(p[0] for p in points), max(p[0] for p in points))
        ys = (min(p[1] for p in points), max(p[1] for p in points))
        height = stackup.height_mm(part.footprint)[1]
        plug = IDC_PLUG_MM if part.footprint.startswith("Connector_IDC") else 0.0
        found.append(box(f"hub {part.ref}", "hub", xs, ys, (front - height - plug, front), "Black"))
        if stackup.through_hole(part.footprint):
            found.append(box(f"hub {part.ref} pin tails", "hub", xs, ys,
                             (back, back + stackup.PIN_TAIL_MM[1]), "Gold"))  # fmt: skip
        if part.ref[0] == "J" and part.ref[1:].isdigit() and int(part.ref[1:]) <= 24:
            connectors[part.ref] = to_board(*part.at)
        if part.ref == "A1":
            # Pin 1's end of the Pico is its USB end (pico.py).
            usb = to_board(part.at[0], part.at[1] - 25.5)
    return found, connectors, usb


def pi_box() -> list[Solid]:
    size, border = underside.DECK_MM, underside.DECK_BORDER_MM
    x0 = size + border
    w, length, h = PI_BOX_MM
    y = _pi_cable_y()
    led = status_led_at()
    return [
        box("the Pi's box", "pi", (x0, x0 + w), (y - length / 2, y + length / 2),
            (TABLE_Z, TABLE_Z + h), "White"),
        cylinder("status LED", "pi", led, STATUS_LED_MM / 2,
                 (TABLE_Z + h, TABLE_Z + h + STATUS_LED_MM), "Lime"),
    ]  # fmt: skip


def status_led_at() -> tuple[float, float]:
    """The status LED on the Pi box's lid, beside the buttons: the lid's far end (board x, y)."""
    w, length, _ = PI_BOX_MM
    x0 = underside.DECK_MM + underside.DECK_BORDER_MM
    return x0 + w / 2, _pi_cable_y() + length / 2 - 15.0


def _status_led_view(model: Assembly) -> Solid:
    """The status LED's sight line: straight up from it to a player's eye over the table."""
    led = next(s for s in model.solids if s.name == "status LED")
    return box("status LED's view", "keepout", (led.lo[0], led.hi[0]), (led.lo[1], led.hi[1]),
               (led.hi[2], TABLE_Z + EYE_MM))  # fmt: skip


def hand_parts() -> tuple[list[Solid], tuple[float, float]]:
    """The hand-wired build under the deck: a sensor flat under every place, an LED under every
    LED hole, the stripboard hub with the Pico (underside.py)."""
    found = []
    for name, (x, y) in printed.sensor_positions():
        found.append(box(f"sensor {name}", "sensors", (x - 2.2, x + 2.2), (y - 2.2, y + 2.2),
                         (DECK_UNDER_Z - 1.6, DECK_UNDER_Z), "Black"))  # fmt: skip
    for index, (_name, point) in enumerate(printed.led_positions()):
        found.append(cylinder(f"LED {index}", "leds", point, 3.0,
                              (DECK_UNDER_Z - 8.0, DECK_UNDER_Z), "White"))  # fmt: skip
    cx, cy = underside.CENTRE_MM
    w, h = underside.HUB_SIZE_MM
    hub_under = DECK_UNDER_Z - stackup.PCB_MM
    found.append(box("stripboard hub", "hub", (cx - w / 2, cx + w / 2), (cy - h / 2, cy + h / 2),
                     (hub_under, DECK_UNDER_Z), "DarkGreen"))  # fmt: skip
    px, py = underside.PICO_MM
    pw, ph = underside.PICO_SIZE_MM
    found.append(box("Pico", "hub", (px - pw / 2, px + pw / 2), (py - ph / 2, py + ph / 2),
                     (hub_under - 12.5, hub_under), "Black"))  # fmt: skip
    return found, underside.PICO_USB_MM


def build_assembly(build: str, hub_netlist: Any = None) -> Assembly:
    """The whole board for ``build`` ("pcb": the strips and the hub of ``hub_netlist``;
    "hand": the hand-wired build)."""
    model = Assembly(build)
    model.solids = structure() + on_deck() + pi_box()
    if build == "pcb":
        if hub_netlist is None:
            raise ValueError("the PCB build's assembly needs a hub netlist")
        strip_solids, strip_connectors = strips()
        hub_solids, hub_connectors, usb = hub(hub_netlist)
        model.solids += strip_solids + hub_solids
        model.usb_socket = usb
        from .pcb.circuit import strip_ref
        from .pcb.strips import INSTANCES

        for index, instance in enumerate(INSTANCES):
            ref = strip_ref(index)
            a, b = hub_connectors[ref], strip_connectors[instance.name]
            model.facing[ref] = (a, b)
            drop = (DECK_UNDER_Z - HUB_SPACER_MM) - (DECK_UNDER_Z - 8.0)
            model.ribbons[instance.name] = round(
                abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(drop) + 40.0, 1
            )
        usb_out = (0.0, -1.0)  # the Pico's USB end points up the board (towards red)
        j33 = next(s for s in hub_solids if s.name == "hub J33")
        model.keepouts += _ribbon_run(j33)
    elif build == "hand":
        hand, usb = hand_parts()
        model.solids += hand
        model.usb_socket = usb
        usb_out = (1.0, 0.0)  # towards the right-hand edge
    else:
        raise ValueError(f"unknown build {build!r}: 'hand' or 'pcb'")
    model.keepouts.append(_usb_plug(model, usb_out))
    model.keepouts.append(_status_led_view(model))
    return model


def _usb_plug(model: Assembly, out: tuple[float, float]) -> Solid:
    """The room the Pico's USB plug takes, straight out of its socket."""
    length, across, high = USB_PLUG_MM
    x, y = model.usb_socket
    pico = next(s for s in model.solids if s.name in ("Pico", "hub A1"))
    z = pico.lo[2] + 1.0
    ex, ey = x + out[0] * length, y + out[1] * length
    if out[0]:
        return box("USB plug", "keepout", (x, ex), (y - across / 2, y + across / 2), (z, z + high))
    return box("USB plug", "keepout", (x - across / 2, x + across / 2), (y, ey), (z, z + high))


def _ribbon_run(j33: Solid) -> list[Solid]:
    """The Pi's ribbon: down from J33's socket to the panel, then along the panel to the notch
    in the right-hand frame strip and out to the Pi's box."""
    width, thick = RIBBON_MM
    end = underside.DECK_MM + underside.DECK_BORDER_MM
    y = _pi_cable_y()
    cx = (j33.lo[0] + j33.hi[0]) / 2
    return [
        box("the Pi's ribbon (down)", "keepout", (cx - width / 2, cx + width / 2),
            (j33.lo[1], j33.hi[1]), (PANEL_TOP_Z, j33.lo[2])),
        box("the Pi's ribbon", "keepout", (cx + width / 2, end), (y - width / 2, y + width / 2),
            (PANEL_TOP_Z, PANEL_TOP_Z + thick)),
    ]  # fmt: skip


def problems(model: Assembly) -> list[str]:
    """What stops the build: every interference, every keep-out taken (the cables' runs, the
    USB plug's room, the status LED's sight line), the USB socket out of the hatch's reach, a
    hub part closer than PANEL_GAP_MM to the panel, a hub connector on the far side from its
    strip."""
    found = [f"{a.name} and {b.name} overlap" for a, b in interferences(model.solids)]
    for region in model.keepouts:
        found += [
            f"{s.name} is in the {region.name}'s room" for s in blocking(region, model.solids)
        ]
    cx, cy = underside.hatch_centre()
    w, h = underside.HATCH_OPENING_MM
    x, y = model.usb_socket
    if not (abs(x - cx) <= w / 2 - HATCH_REACH_MM and abs(y - cy) <= h / 2 - HATCH_REACH_MM):
        found.append(f"the Pico's USB socket at {x:.0f}, {y:.0f} is out of the hatch's reach")
    for part in model.solids:
        gap = part.lo[2] - PANEL_TOP_Z
        if part.group == "hub" and gap < PANEL_GAP_MM:
            found.append(
                f"{part.name} is {gap:.1f} mm above the panel (at least {PANEL_GAP_MM:g} mm)"
            )
    hx, hy = underside.CENTRE_MM
    for ref, (a, b) in model.facing.items():
        if (a[0] - hx) * (b[0] - hx) + (a[1] - hy) * (b[1] - hy) <= 0:
            found.append(f"hub connector {ref} faces away from its strip")
    return found

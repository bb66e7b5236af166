"""What sits under the deck, in board millimetres: the hub (Pico, chips, terminal blocks), the
bottom panel that closes the frame, its hatch over the Pico, its feet, and the USB cable from
the Pico to the Raspberry Pi.

Board coordinates as everywhere (pawnlight.board.geometry): origin at the deck's top-left
corner seen from above, x to the right, y down the board, z up from the deck's top surface, so
everything here has z < 0.  The deck is ``DECK_MM`` square (16 squares of 33 mm).

The middle of the board is free of sensors and LEDs: the track is the outer ring, the safety
lanes, START and HOME circles reach at most 3.45 squares in from an edge, so a square of
``CLEAR_MM`` round the centre holds the hub.  The power model (:mod:`.feeds`) measures every
feed wire from the hub's terminal blocks, and the USB cable from the Pico to the Pi is
measured from here too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pawnlight.board import geometry

#: The board's 16 x 16 squares (the track fills it edge to edge).
DECK_MM = geometry.GRID * geometry.SQUARE_MM
DECK_THICKNESS_MM = 3.0
#: The frame strips: high enough for the hub hanging under the deck (a Pico on header sockets
#: on stripboard is about 20 mm), wide enough to screw into.
FRAME_HEIGHT_MM = 25.0
FRAME_WIDTH_MM = 18.0
#: The frame stands outside the board's square: the deck is cut this much larger than the board
#: on every side and the frame glued under that border, ``FRAME_GAP_MM`` clear of the board's
#: edge, so nothing of the frame lies under a sensor, an LED hole or a strip (the track's
#: sensors are 16.5 mm from the board's edge, its first LED holes 6.6 mm, the strips 2 mm).
FRAME_GAP_MM = 2.0
DECK_BORDER_MM = FRAME_WIDTH_MM + FRAME_GAP_MM
#: The deck's and the bottom panel's side, and their top-left corner in board coordinates.
DECK_OUTER_MM = DECK_MM + 2 * DECK_BORDER_MM
DECK_CORNER_MM = -DECK_BORDER_MM
#: The bottom panel: hardboard or plywood, the deck's size, screwed to the frame.
PANEL_THICKNESS_MM = 3.0
#: The board's centre, and the free square round it where the hub goes.
CENTRE_MM = (DECK_MM / 2, DECK_MM / 2)
CLEAR_MM = 7 * geometry.SQUARE_MM

#: The hub: a 160 x 100 mm stripboard glued under the deck at the centre; the Pico on it with
#: its USB socket towards the board's right edge (blue's side, +x), where the cable leaves.
HUB_SIZE_MM = (160.0, 100.0)
PICO_SIZE_MM = (51.0, 21.0)
#: The Pico's centre, and its USB socket (at the board's +x end of the Pico).
PICO_MM = (CENTRE_MM[0] + 40.0, CENTRE_MM[1] - 20.0)
PICO_USB_MM = (PICO_MM[0] + PICO_SIZE_MM[0] / 2, PICO_MM[1])
#: The terminal blocks (5 V and GND rails) beside the Pico: every feed wire starts here.
TERMINALS_MM = (CENTRE_MM[0] - 40.0, CENTRE_MM[1] + 25.0)

#: The hatch: an opening in the bottom panel under the Pico, so its USB socket and BOOTSEL
#: button can be reached without taking the panel off, closed by a printed cover.
HATCH_OPENING_MM = (90.0, 60.0)
HATCH_OVERLAP_MM = 8.0  # the cover is this much larger than the opening on every side
HATCH_SCREW_MM = 3.4  # clearance for M3 screws, one at each corner of the cover
HATCH_PLATE_MM = 2.4  # the cover's plate, under the panel
HATCH_RIM_MM = PANEL_THICKNESS_MM - 0.4  # its rim, standing up into the opening
#: Feet: printed cylinders screwed through the panel into the frame at its corners and under
#: the middle of each side, so the 3 mm panel does not sag under a leaning elbow.
FOOT_DIAMETER_MM = 30.0
FOOT_HEIGHT_MM = 10.0
FOOT_SCREW_MM = 3.5  # 3.5 mm wood screws into the frame
#: Screws holding the panel to the frame, between the feet.
PANEL_SCREW_SPACING_MM = 140.0

#: The Raspberry Pi's box stands outside the frame, against the right edge (+x), level with
#: the Pico; the cable runs from the Pico's socket to the edge, through the frame, into the box.
PI_BOX_REACH_MM = 120.0  # from the frame's outside to the Pi's USB port, inside its box
CABLE_SLACK = 1.25
#: USB cable lengths one can buy, in millimetres.
CABLE_LENGTHS_MM = (150, 300, 500, 1000, 1500, 2000)

Point = tuple[float, float]


#: The PCB build's Pico: in the middle of the hub (pcb/hub.py), which hangs parts down under
#: the board's centre, its USB socket towards the top of the board (red's side).
PCB_PICO_USB_MM = (CENTRE_MM[0], CENTRE_MM[1] - 25.5)


def hatch_centre() -> Point:
    """The hatch opening's centre: under both builds' Pico USB sockets (the stripboard's, by
    the BOOTSEL button, and the PCB hub's), halfway between them across and at the middle of
    the two along."""
    return (
        (PICO_USB_MM[0] + PCB_PICO_USB_MM[0]) / 2,
        round((PICO_USB_MM[1] + PCB_PICO_USB_MM[1]) / 2, 2),
    )


def hatch_cover_mm() -> tuple[float, float]:
    w, h = HATCH_OPENING_MM
    return w + 2 * HATCH_OVERLAP_MM, h + 2 * HATCH_OVERLAP_MM


def hatch_screws() -> list[Point]:
    """The four M3 screws at the cover's corners, in board millimetres."""
    cx, cy = hatch_centre()
    w, h = hatch_cover_mm()
    inset = HATCH_OVERLAP_MM / 2
    return [
        (cx + sx * (w / 2 - inset), cy + sy * (h / 2 - inset)) for sy in (-1, 1) for sx in (-1, 1)
    ]


def feet() -> list[Point]:
    """Eight feet: the four corners and the middle of each side, within the panel's edges,
    their screws into the frame strips."""
    inset = FOOT_DIAMETER_MM / 2
    low, mid, high = DECK_CORNER_MM + inset, DECK_MM / 2, DECK_MM + DECK_BORDER_MM - inset
    return [(x, y) for y in (low, mid, high) for x in (low, mid, high) if (x, y) != (mid, mid)]


def panel_screws() -> list[Point]:
    """Screws along the frame strips between the feet, about every ``PANEL_SCREW_SPACING_MM``."""
    inset = DECK_CORNER_MM + FRAME_WIDTH_MM / 2
    far = DECK_MM + DECK_BORDER_MM - FRAME_WIDTH_MM / 2
    feet_at = feet()
    span = far - inset
    steps = max(1, math.ceil(span / PANEL_SCREW_SPACING_MM))
    along = [inset + span * i / steps for i in range(steps + 1)]
    points: set[Point] = set()
    for t in along:
        for point in ((t, inset), (t, far), (inset, t), (far, t)):
            if all(math.dist(point, foot) > FOOT_DIAMETER_MM for foot in feet_at):
                points.add((round(point[0], 1), round(point[1], 1)))
    return sorted(points)


@dataclass(frozen=True)
class Cable:
    to_edge_mm: float
    through_frame_mm: float
    to_pi_mm: float
    needed_mm: float  # with the slack
    buy_mm: int


def usb_cable() -> Cable:
    """The USB cable from the Pico's socket to the Pi: straight to the right edge along x,
    through the frame, into the Pi's box, plus slack for routing and strain relief."""
    to_edge = DECK_MM + FRAME_GAP_MM - PICO_USB_MM[0]
    frame = FRAME_WIDTH_MM
    needed = (to_edge + frame + PI_BOX_REACH_MM) * CABLE_SLACK
    buy = next((n for n in CABLE_LENGTHS_MM if n >= needed), CABLE_LENGTHS_MM[-1])
    return Cable(to_edge, frame, PI_BOX_REACH_MM, needed, buy)


def under_hub(point: Point) -> bool:
    """Whether a point lies in the free middle of the board (no sensor or LED there)."""
    half = CLEAR_MM / 2
    return all(abs(point[i] - CENTRE_MM[i]) <= half for i in (0, 1))

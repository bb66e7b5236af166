"""Where each cell and slide LED sits on the board, on a 16 x 16 grid of squares.

The 60 track squares are the grid's outer ring: T0 is the top-left corner and the track runs
clockwise, T0..T15 along the top from left to right (T15 the top-right corner), T15..T30 down
the right side, T30..T45 along the bottom from right to left, T45..T59 up the left side.  Each
colour owns one side of 15 squares (red the top one, then blue, yellow, green clockwise).

Coordinates are the centres of things in square units, x to the right and y down, so the
top-left square's centre is (0.5, 0.5).  Everything of red is placed by hand for the top side
and turned a quarter clockwise for each next colour, as on the printed board.

Used to draw frames (render_svg) and to order guidance by how far a hand has to travel.

The same geometry in millimetres is the one source of the physical board (docs/assembly.md):
``SQUARE_MM`` is the printed board's pitch, and the sensors (a place's centre), the LED holes
and the printed parts' positions below are what the drilling template, the STL parts and
``leds.json``/``sensors.json`` of ``pawnlight hardware parts`` are made from.  Board
coordinates in mm: origin at the outer top-left corner of the deck (T0's corner), x to the
right along T0..T14, y down the board, z up from the deck's top surface.
"""

from __future__ import annotations

import math

from pawnlight.rules.board import HOME, SIDE, TRACK_SQUARES, Place

from .cells import (
    CELLS,
    SAFETY_BASE,
    SLIDE_CHANNEL_SQUARES,
    SPOTS_PER_AREA,
    START_BASE,
    area_cells,
    cells_of,
    parse_cell_name,
    place_of_cell,
)

GRID = 16
#: Radius of the START and HOME circles, and how far their spots sit from the centre.
AREA_RADIUS = 0.95
SPOT_OFFSET = 0.4

# Red's things, on the top side, before turning.
_SAFETY_COLUMN = 2.5  # under T2, red's entry square
_HOME_CENTRE = (2.5, 7.3)  # just past S5
_START_CENTRE = (4.5, 2.4)  # under T4, red's start circle
_SPOT_OFFSETS = ((-1, -1), (1, -1), (-1, 1), (1, 1))
_CHANNEL_LED_Y = 0.82  # a slide-channel LED sits on the inner edge of its square

#: The distance between neighbouring squares' centres on the printed board, in millimetres.
SQUARE_MM = 33.0
#: A track or safety square's own LED hole, from the square's centre in red's frame (squares):
#: towards its inner-left corner, clear of a centred pawn's base and of the slide LED.
_PLACE_LED_OFFSET = (-0.3, 0.3)
#: A START/HOME spot's LED hole lies on the line from the circle's centre to its spot, this
#: far along it: between the four pockets, clear of every pawn standing in one.
_SPOT_LED_FRACTION = 0.4


def _turn(x: float, y: float, quarters: int) -> tuple[float, float]:
    """Turn a point about the board's centre by quarter turns clockwise."""
    for _ in range(quarters % 4):
        x, y = GRID - y, x
    return x, y


def square_centre(square: int) -> tuple[float, float]:
    side, along = divmod(square, SIDE)
    return _turn(along + 0.5, 0.5, side)


def area_centre(place: int, colour: int) -> tuple[float, float]:
    x, y = _HOME_CENTRE if place == HOME else _START_CENTRE
    return _turn(x, y, colour)


def cell_centre(cell: int) -> tuple[float, float]:
    if cell < TRACK_SQUARES:
        return square_centre(cell)
    place = place_of_cell(cell)
    if cell < START_BASE:
        index = cell - SAFETY_BASE - 5 * place.colour
        return _turn(_SAFETY_COLUMN, index + 1.5, place.colour)
    x, y = _HOME_CENTRE if place.number == HOME else _START_CENTRE
    dx, dy = _SPOT_OFFSETS[(cell - area_cells(place.number, place.colour).start) % SPOTS_PER_AREA]
    return _turn(x + dx * SPOT_OFFSET, y + dy * SPOT_OFFSET, place.colour)


def slide_led_centre(square: int) -> tuple[float, float]:
    """The slide-channel LED beside a channel square, on the square's inner edge."""
    side, along = divmod(square, SIDE)
    return _turn(along + 0.5, _CHANNEL_LED_Y, side)


def place_centre(place: Place) -> tuple[float, float]:
    """The centre of a place: a whole START or HOME's is the area's."""
    if place.is_area and not place.spot:
        return area_centre(place.number, place.colour)
    return cell_centre(cells_of(place).start)


def distance(a: Place, b: Place) -> float:
    """Straight-line distance between two places, in squares."""
    (ax, ay), (bx, by) = place_centre(a), place_centre(b)
    return math.hypot(ax - bx, ay - by)


CELL_CENTRES: tuple[tuple[float, float], ...] = tuple(cell_centre(c) for c in range(CELLS))
SLIDE_LED_CENTRES: tuple[tuple[float, float], ...] = tuple(
    slide_led_centre(square) for square in SLIDE_CHANNEL_SQUARES
)


# --- The physical board, in millimetres ------------------------------------------------------


def mm(point: tuple[float, float]) -> tuple[float, float]:
    """A point in squares, in millimetres of board coordinates."""
    return point[0] * SQUARE_MM, point[1] * SQUARE_MM


def cell_quarters(cell: int) -> int:
    """How many quarter turns clockwise a cell's things are from red's (its side or colour)."""
    if cell < TRACK_SQUARES:
        return cell // SIDE
    return place_of_cell(cell).colour


def _offset(offset: tuple[float, float], quarters: int) -> tuple[float, float]:
    """An offset (dx, dy) turned by quarter turns clockwise (board x right, y down)."""
    dx, dy = offset
    for _ in range(quarters % 4):
        dx, dy = -dy, dx
    return dx, dy


def led_hole(cell: int) -> tuple[float, float]:
    """Where a place's own LED shines through the board (squares)."""
    x, y = CELL_CENTRES[cell]
    if cell < START_BASE:
        dx, dy = _offset(_PLACE_LED_OFFSET, cell_quarters(cell))
        return x + dx, y + dy
    place = place_of_cell(cell)
    cx, cy = area_centre(place.number, place.colour)
    return cx + (x - cx) * _SPOT_LED_FRACTION, cy + (y - cy) * _SPOT_LED_FRACTION


#: Every sensor (a place's centre) in board millimetres, by cell.
SENSORS_MM: tuple[tuple[float, float], ...] = tuple(mm(c) for c in CELL_CENTRES)
#: Every place's LED hole in board millimetres, by cell.
PLACE_LEDS_MM: tuple[tuple[float, float], ...] = tuple(mm(led_hole(c)) for c in range(CELLS))
#: The slide-channel LEDs' holes in board millimetres, in SLIDE_CHANNEL_SQUARES order.
SLIDE_LEDS_MM: tuple[tuple[float, float], ...] = tuple(mm(c) for c in SLIDE_LED_CENTRES)


def led_hole_mm(name: str) -> tuple[float, float]:
    """The LED hole of a wiring name (``T4``, ``red-S2``, ``red-start-1``, ``slide-T2``), mm."""
    if name.startswith("slide-T"):
        return SLIDE_LEDS_MM[SLIDE_CHANNEL_SQUARES.index(int(name[len("slide-T") :]))]
    return PLACE_LEDS_MM[parse_cell_name(name)]

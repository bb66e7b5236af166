"""Where each cell and slide LED sits on the board, on a 16 x 16 grid of squares.

The 60 track squares are the grid's outer ring: T0 is the top-left corner and the track runs
clockwise, T0..T15 along the top from left to right (T15 the top-right corner), T15..T30 down
the right side, T30..T45 along the bottom from right to left, T45..T59 up the left side.  Each
colour owns one side of 15 squares (red the top one, then blue, yellow, green clockwise).

Coordinates are the centres of things in square units, x to the right and y down, so the
top-left square's centre is (0.5, 0.5).  Everything of red is placed by hand for the top side
and turned a quarter clockwise for each next colour, as on the printed board.

Used to draw frames (render_svg) and to order guidance by how far a hand has to travel.
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

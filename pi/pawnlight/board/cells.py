"""The physical places of a board: the 112 sensed cells and the 20 slide-channel LEDs.

The rules core counts pawns in START and HOME; a physical board has four spots in each, one
sensor under every spot, so a pawn sent back to START can stand on any free spot of its colour.
Here every sensed place gets a *cell* number in a fixed logical order, independent of how the
sensors are wired (the layout files map cells to sensor channels and LEDs):

* ``0..59``    the track squares T0..T59 (cell number = place number);
* ``60..79``   the safety squares: ``60 + 5 * colour + (S - 1)``;
* ``80..95``   the START spots: ``80 + 4 * colour + spot``;
* ``96..111``  the HOME spots: ``96 + 4 * colour + spot``.

Every cell is a :class:`~pawnlight.rules.board.Place` (a START or HOME cell one spot of its
area); :func:`cells_of` goes the other way, a whole START or HOME being its four spots.
"""

from __future__ import annotations

from pawnlight.rules.board import (
    HOME,
    S1,
    S5,
    SAFETY_SQUARES,
    SLIDES,
    SPOTS_PER_AREA,
    START,
    TRACK_SQUARES,
    Place,
)

SAFETY_BASE = TRACK_SQUARES  # 60
START_BASE = SAFETY_BASE + 4 * SAFETY_SQUARES  # 80
HOME_BASE = START_BASE + 4 * SPOTS_PER_AREA  # 96
CELLS = HOME_BASE + 4 * SPOTS_PER_AREA  # 112

#: The track squares of every slide channel (between triangle and end circle), in board order.
#: Each has one extra LED in the painted channel: 2 per short slide, 3 per long one.
SLIDE_CHANNEL_SQUARES: tuple[int, ...] = tuple(
    sorted(square for slide in SLIDES for square in slide.channel)
)
SLIDE_LEDS = len(SLIDE_CHANNEL_SQUARES)  # 20
LEDS = CELLS + SLIDE_LEDS  # 132

# What a cell holds, as sensed.  0..3 are the colours of rules.board.COLOURS.
EMPTY = -1
#: A pawn whose colour the board cannot sense (presence boards).
PAWN = 4
#: A colour board's reading that fits no colour's range: a fault (or a pawn being moved).
UNKNOWN = 5


def safety_cell(colour: int, place: int) -> int:
    return SAFETY_BASE + SAFETY_SQUARES * colour + (place - S1)


def area_cells(place: int, colour: int) -> range:
    """The four spot cells of one colour's START or HOME."""
    base = START_BASE if place == START else HOME_BASE
    first = base + SPOTS_PER_AREA * colour
    return range(first, first + SPOTS_PER_AREA)


#: The eight areas (START of each colour, then HOME of each colour) as (place, colour).
AREAS: tuple[tuple[int, int], ...] = tuple((START, c) for c in range(4)) + tuple(
    (HOME, c) for c in range(4)
)
#: First cell of each area, in AREAS order; an area's cells are the next four.
AREA_STARTS: tuple[int, ...] = tuple(area_cells(place, c).start for place, c in AREAS)
#: Cells that are not spots of an area: track and safety squares.
SQUARE_CELLS = range(START_BASE)


def cells_of(place: Place) -> range:
    """The cells of a place: one for a square or a spot, four for a whole START or HOME."""
    if place.number < TRACK_SQUARES:
        return range(place.number, place.number + 1)
    if place.number <= S5:
        cell = safety_cell(place.colour, place.number)
        return range(cell, cell + 1)
    cells = area_cells(place.number, place.colour)
    return cells[place.spot - 1 : place.spot] if place.spot else cells


def cell_of(colour: int, place: int) -> int:
    """The cell of a pawn of ``colour`` on ``place``; for START and HOME the area's first spot."""
    if place < TRACK_SQUARES:
        return place
    if place <= S5:
        return safety_cell(colour, place)
    return area_cells(place, colour).start


def _place_of_cell(cell: int) -> Place:
    if cell < SAFETY_BASE:
        return Place(cell)
    if cell < START_BASE:
        colour, index = divmod(cell - SAFETY_BASE, SAFETY_SQUARES)
        return Place(S1 + index, colour)
    area, spot = divmod(cell - START_BASE, SPOTS_PER_AREA)
    place, colour = AREAS[area]
    return Place(place, colour, spot + 1)


#: The place of every cell; a START or HOME cell is one spot of the area (``.whole``: the area).
CELL_PLACES: tuple[Place, ...] = tuple(_place_of_cell(cell) for cell in range(CELLS))


def place_of_cell(cell: int) -> Place:
    return CELL_PLACES[cell]


def cell_colour(cell: int) -> int:
    """The colour a cell belongs to (-1 for track squares)."""
    return CELL_PLACES[cell].colour


def area_index(cell: int) -> int:
    """Index into AREAS of a spot cell, or -1 for track and safety cells."""
    if cell < START_BASE:
        return -1
    return (cell - START_BASE) // SPOTS_PER_AREA


# -- names ----------------------------------------------------------------------------------------

#: Each cell's name in layout and calibration files and diagnostics: ``T7``, ``red-S2``,
#: ``blue-start-3`` (the place's one spelling, rules.board.Place).
CELL_NAMES: tuple[str, ...] = tuple(str(place) for place in CELL_PLACES)
#: Each cell's name on the wire, the keys of ``GET /api/sim/leds`` and of the state's ``lit``:
#: ``T4``, ``S2:red``, ``start:red:1`` (``Place.key``; docs/simulator.md, 'LED names').
CELL_KEYS: tuple[str, ...] = tuple(place.key for place in CELL_PLACES)


def slide_led_key(square: int) -> str:
    """The wire key of the slide-channel LED beside a channel square: ``slide:T10``."""
    return f"slide:T{square}"


def parse_cell_name(name: str) -> int:
    """The one cell a place text names (any spelling Place.parse reads; a START or HOME
    needs its spot); ValueError names the text."""
    place = Place.parse(name)
    cells = cells_of(place)
    if len(cells) != 1:
        raise ValueError(f"{name!r} is a whole area: name one spot, e.g. {place}-1")
    return cells[0]

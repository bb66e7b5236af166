"""The physical places of a board: the 112 sensed cells and the 20 slide-channel LEDs.

The rules core counts pawns in START and HOME; a physical board has four spots in each, one
sensor under every spot, so a pawn sent back to START can stand on any free spot of its colour.
Here every sensed place gets a *cell* number in a fixed logical order, independent of how the
sensors are wired (the layout files map cells to sensor channels and LEDs):

* ``0..59``    the track squares T0..T59 (cell number = place number);
* ``60..79``   the safety squares: ``60 + 5 * colour + (S - 1)``;
* ``80..95``   the START spots: ``80 + 4 * colour + spot``;
* ``96..111``  the HOME spots: ``96 + 4 * colour + spot``.

A :class:`Spot` names a place the way people do, for guidance and LEDs: a track square, one
colour's safety square, or one colour's whole START or HOME (its spots are interchangeable).
"""

from __future__ import annotations

from typing import NamedTuple

from pawnlight.rules.board import (
    COLOURS,
    HOME,
    S1,
    S5,
    SAFETY_SQUARES,
    SLIDES,
    START,
    TRACK_SQUARES,
    parse_colour,
    place_name,
)

SPOTS_PER_AREA = 4
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


class Spot(NamedTuple):
    """A place on the physical board as people name it.

    ``colour`` is -1 for a track square (which belongs to nobody); safety squares, START and
    HOME name their colour.  START and HOME stand for the whole area, any of its four spots.
    """

    place: int
    colour: int = -1

    @property
    def name(self) -> str:
        if self.place < TRACK_SQUARES:
            return place_name(self.place)
        word = place_name(self.place)
        if self.place in (START, HOME):
            word = word.upper()
        return f"{COLOURS[self.colour]} {word}"

    @property
    def key(self) -> str:
        """The stand-alone key the page and the simulator use: ``T4``, ``S2:red``, ``start:red``."""
        if self.place < TRACK_SQUARES:
            return f"T{self.place}"
        if S1 <= self.place <= S5:
            return f"{place_name(self.place)}:{COLOURS[self.colour]}"
        return f"{'start' if self.place == START else 'home'}:{COLOURS[self.colour]}"

    @property
    def is_area(self) -> bool:
        return self.place in (START, HOME)

    @property
    def preposition(self) -> str:
        return "in" if self.is_area else "on"

    def cells(self) -> range:
        """The cells of this spot: one for a square, four for START or HOME."""
        if self.place < TRACK_SQUARES:
            return range(self.place, self.place + 1)
        if S1 <= self.place <= S5:
            cell = safety_cell(self.colour, self.place)
            return range(cell, cell + 1)
        return area_cells(self.place, self.colour)

    def __str__(self) -> str:
        return self.name


def cell_of(colour: int, place: int) -> int:
    """The cell of a pawn of ``colour`` on ``place``; for START and HOME the area's first spot."""
    if place < TRACK_SQUARES:
        return place
    if place <= S5:
        return safety_cell(colour, place)
    return area_cells(place, colour).start


def spot_of_cell(cell: int) -> Spot:
    if cell < SAFETY_BASE:
        return Spot(cell)
    if cell < START_BASE:
        colour, index = divmod(cell - SAFETY_BASE, SAFETY_SQUARES)
        return Spot(S1 + index, colour)
    if cell < HOME_BASE:
        return Spot(START, (cell - START_BASE) // SPOTS_PER_AREA)
    return Spot(HOME, (cell - HOME_BASE) // SPOTS_PER_AREA)


def cell_colour(cell: int) -> int:
    """The colour a cell belongs to (-1 for track squares)."""
    return spot_of_cell(cell).colour


def area_index(cell: int) -> int:
    """Index into AREAS of a spot cell, or -1 for track and safety cells."""
    if cell < START_BASE:
        return -1
    return (cell - START_BASE) // SPOTS_PER_AREA


# -- names used in layout files -------------------------------------------------------------------


def cell_name(cell: int) -> str:
    """The layout-file key of a cell: ``T7``, ``red-S2``, ``blue-start-3``, ``green-home-1``."""
    if cell < SAFETY_BASE:
        return f"T{cell}"
    spot = spot_of_cell(cell)
    colour = COLOURS[spot.colour]
    if cell < START_BASE:
        return f"{colour}-{place_name(spot.place)}"
    kind = "start" if spot.place == START else "home"
    return f"{colour}-{kind}-{(cell - AREA_STARTS[area_index(cell)]) + 1}"


def cell_key(cell: int) -> str:
    """The simulator's and the API's name of a cell (the keys of ``GET /api/sim/leds`` and of
    the state's ``lit``): ``T4``, ``S2:red``, ``start:red:1``, ``home:red:4``."""
    if cell < SAFETY_BASE:
        return f"T{cell}"
    spot = spot_of_cell(cell)
    colour = COLOURS[spot.colour]
    if cell < START_BASE:
        return f"{place_name(spot.place)}:{colour}"
    kind = "start" if spot.place == START else "home"
    return f"{kind}:{colour}:{(cell - AREA_STARTS[area_index(cell)]) + 1}"


CELL_NAMES: tuple[str, ...] = tuple(cell_name(cell) for cell in range(CELLS))
CELL_KEYS: tuple[str, ...] = tuple(cell_key(cell) for cell in range(CELLS))
_CELL_BY_NAME: dict[str, int] = {name.lower(): cell for cell, name in enumerate(CELL_NAMES)}


def parse_cell_name(name: str) -> int:
    """Inverse of :func:`cell_name` (case-insensitive); ValueError says what is expected."""
    cell = _CELL_BY_NAME.get(name.strip().lower())
    if cell is None:
        raise ValueError(
            f"unknown place {name!r} (expected T0..T59, <colour>-S1..S5, <colour>-start-1..4 "
            "or <colour>-home-1..4, colour one of red, blue, yellow, green)"
        )
    return cell


def parse_spot(text: str) -> Spot:
    """``"T7"``, ``"red S2"``, ``"blue START"``: the inverse of :attr:`Spot.name`."""
    words = text.replace("-", " ").split()
    if len(words) == 1 and words[0][:1] in "Tt":
        cell = parse_cell_name(words[0])
        return Spot(cell)
    if len(words) == 2:
        colour = parse_colour(words[0])
        word = words[1].lower()
        if word in ("start", "home"):
            return Spot(START if word == "start" else HOME, colour)
        return spot_of_cell(parse_cell_name(f"{COLOURS[colour]}-{words[1]}"))
    raise ValueError(f"unknown spot {text!r} (expected e.g. T7, red S2, blue START)")

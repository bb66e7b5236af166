"""The Sorry! board as data: colours, places, slides, safety zones.

Places are small integers so that positions are cheap to build, hash and compare:

* ``0..59``  the track squares ``T0``..``T59``, clockwise (forward) from the top-left corner;
* ``60..64`` the five safety squares ``S1``..``S5`` of the pawn's own colour (S1 next to the entry);
* ``65``     ``home``;
* ``66``     ``start``.

Safety squares, home and start belong to a colour: a place number only means something together
with the colour of the pawn standing there.  Everything here follows section 1 of the contract in
docs/coordinates.md.
"""

from __future__ import annotations

from typing import NamedTuple

COLOURS: tuple[str, ...] = ("red", "blue", "yellow", "green")
RED, BLUE, YELLOW, GREEN = range(4)
COLOUR_INDEX: dict[str, int] = {name: i for i, name in enumerate(COLOURS)}
INITIALS: tuple[str, ...] = ("R", "B", "Y", "G")

TRACK_SQUARES = 60
SIDE = 15
SAFETY_SQUARES = 5
S1 = 60
S5 = 64
HOME = 65
START = 66
PLACE_COUNT = 67

#: Red and yellow are partners, blue and green are partners: they sit opposite each other.
PARTNER: tuple[int, ...] = (YELLOW, GREEN, RED, BLUE)


def side_base(colour: int) -> int:
    return SIDE * colour


def entry_square(colour: int) -> int:
    """The track square marked "Enters Here": forward moves from or through it turn into safety."""
    return SIDE * colour + 2


def start_circle(colour: int) -> int:
    """Where a pawn leaving START is put: the end circle of the colour's own short slide."""
    return SIDE * colour + 4


def diamond_square(colour: int) -> int:
    """The diamond square of the classic boards, one square past the entry."""
    return SIDE * colour + 3


def is_track(place: int) -> bool:
    return place < TRACK_SQUARES


def is_safety(place: int) -> bool:
    return S1 <= place <= S5


class Slide(NamedTuple):
    """A slide: a pawn of another colour ending on ``triangle`` is carried to ``end``."""

    colour: int
    triangle: int
    end: int
    #: Every square the slide covers, triangle and end circle included; pawns on them are swept.
    squares: tuple[int, ...]

    @property
    def channel(self) -> tuple[int, ...]:
        return self.squares[1:-1]


def _slides() -> tuple[Slide, ...]:
    slides = []
    for colour in range(4):
        base = side_base(colour)
        for first, last in ((1, 4), (9, 13)):
            squares = tuple(range(base + first, base + last + 1))
            slides.append(Slide(colour, squares[0], squares[-1], squares))
    return tuple(slides)


SLIDES: tuple[Slide, ...] = _slides()
#: The slide whose triangle is on each track square, or None.
SLIDE_AT: tuple[Slide | None, ...] = tuple(
    next((s for s in SLIDES if s.triangle == square), None) for square in range(TRACK_SQUARES)
)


def place_name(place: int) -> str:
    """The contract's name of a place: ``T7``, ``S2``, ``home``, ``start``."""
    if 0 <= place < PLACE_COUNT:
        return PLACE_NAMES[place]
    return _place_name(place)


def _place_name(place: int) -> str:
    if place < TRACK_SQUARES:
        return f"T{place}"
    if place <= S5:
        return f"S{place - S1 + 1}"
    return "home" if place == HOME else "start"


#: Every place's name, looked up rather than formatted: notation is written for every move played.
PLACE_NAMES: tuple[str, ...] = tuple(_place_name(place) for place in range(PLACE_COUNT))


def parse_place(name: str) -> int:
    """Inverse of :func:`place_name`; raises ValueError naming the bad text."""
    text = name.strip()
    lowered = text.lower()
    if lowered == "home":
        return HOME
    if lowered == "start":
        return START
    digits = text[1:]
    if len(text) >= 2 and text[0] in "TtSs" and digits.isdigit() and digits == str(int(digits)):
        number = int(digits)
        if text[0] in "Tt" and number < TRACK_SQUARES:
            return number
        if text[0] in "Ss" and 1 <= number <= SAFETY_SQUARES:
            return S1 + number - 1
    raise ValueError(f"unknown location {name!r} (expected T0..T59, S1..S5, start or home)")


def parse_colour(name: str) -> int:
    try:
        return COLOUR_INDEX[name.strip().lower()]
    except (KeyError, AttributeError):
        raise ValueError(f"unknown colour {name!r} (expected red, blue, yellow or green)") from None


def _forward_table() -> tuple[tuple[int, ...], ...]:
    table = []
    for colour in range(4):
        entry = entry_square(colour)
        row = []
        for place in range(PLACE_COUNT):
            if place < TRACK_SQUARES:
                row.append(S1 if place == entry else (place + 1) % TRACK_SQUARES)
            elif place <= S5:
                row.append(place + 1)  # S5 + 1 is HOME
            else:
                row.append(-1)  # nothing moves forward out of home or start
        table.append(tuple(row))
    return tuple(table)


def _backward_table() -> tuple[tuple[int, ...], ...]:
    table = []
    for colour in range(4):
        row = []
        for place in range(PLACE_COUNT):
            if place < TRACK_SQUARES:
                row.append((place - 1) % TRACK_SQUARES)
            elif place == S1:
                row.append(entry_square(colour))
            elif place <= S5:
                row.append(place - 1)
            else:
                row.append(-1)
        table.append(tuple(row))
    return tuple(table)


#: NEXT[colour][place]: the square a pawn of that colour reaches by one forward step (-1: none).
NEXT = _forward_table()
#: PREVIOUS[colour][place]: one backward step. Backward steps never enter a safety zone.
PREVIOUS = _backward_table()

MAX_FORWARD = 12
MAX_BACKWARD = 4


def _paths(table: tuple[tuple[int, ...], ...], longest: int) -> tuple:
    """PATHS[colour][place][n]: the squares passed by an n-step move, or None when impossible."""
    result = []
    for colour in range(4):
        step = table[colour]
        per_place = []
        for place in range(PLACE_COUNT):
            per_n: list[tuple[int, ...] | None] = [()]
            path: list[int] = []
            here = place
            for _ in range(longest):
                here = step[here] if here >= 0 else -1
                if here < 0 or (path and path[-1] == HOME):
                    per_n.append(None)
                    here = -1
                    continue
                path.append(here)
                per_n.append(tuple(path))
            per_place.append(tuple(per_n))
        result.append(tuple(per_place))
    return tuple(result)


FORWARD_PATHS = _paths(NEXT, MAX_FORWARD)
BACKWARD_PATHS = _paths(PREVIOUS, MAX_BACKWARD)

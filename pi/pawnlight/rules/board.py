"""The Sorry! board as data: colours, places, slides, safety zones.

Places are small integers so that positions are cheap to build, hash and compare:

* ``0..59``  the track squares ``T0``..``T59``, clockwise (forward) from the top-left corner;
* ``60..64`` the five safety squares ``S1``..``S5`` of the pawn's own colour (S1 next to the entry);
* ``65``     ``home``;
* ``66``     ``start``.

Safety squares, home and start belong to a colour: a place number only means something together
with the colour of the pawn standing there.  Everything here follows docs/coordinates.md, 'Places'.
"""

from __future__ import annotations

from typing import Final, NamedTuple

COLOURS: tuple[str, ...] = ("red", "blue", "yellow", "green")
RED, BLUE, YELLOW, GREEN = range(4)
COLOUR_INDEX: dict[str, int] = {name: i for i, name in enumerate(COLOURS)}
INITIALS: tuple[str, ...] = ("R", "B", "Y", "G")

# Final: constants the compiled rules core (setup.py) builds in as numbers.
TRACK_SQUARES: Final = 60
SIDE: Final = 15
SAFETY_SQUARES: Final = 5
S1: Final = 60
S5: Final = 64
HOME: Final = 65
START: Final = 66
PLACE_COUNT: Final = 67

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


#: Each colour's start circle, for the loops that ask on every move.
START_CIRCLES: tuple[int, ...] = tuple(start_circle(colour) for colour in range(4))


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
    """The name of a place in pawn lists (docs/coordinates.md, 'Places'): ``T7``, ``S2``,
    ``home``, ``start``."""
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


# -- places named on their own ----------------------------------------------------------------

SPOTS_PER_AREA = 4
_AREAS = frozenset({START, HOME})
_EXPECTED = (
    "expected T0..T59, or a colour's S1..S5, start or home: red-S2, red-start, red-home-1 "
    "(also red S2, S2:red, start:red:1)"
)


class _PlaceFields(NamedTuple):
    number: int
    colour: int
    spot: int


class Place(_PlaceFields):
    """A place on the board named on its own, the way ``chess.Square`` names a square.

    A place number alone (``S2``, ``start``) means something only with the colour of the pawn on
    it; a ``Place`` carries that colour, so it can be a dict key, a page's ``data-place`` or a
    layout file's key.  ``number`` is the rules core's place number (0..66, above), ``colour``
    the owner of a safety square, START or HOME (-1 for a track square, which belongs to
    nobody), ``spot`` one of the four spots of a physical board's START or HOME (1..4; 0 for
    the whole area and for squares).  Immutable, hashable, ordered as its fields.

    Text (``Place.parse(str(p)) == p`` and ``Place.parse(p.key) == p`` for every place):

    * ``str(p)``, the one spelling of the project's files and messages: ``T7``, ``red-S2``,
      ``red-start``, ``red-home``, ``red-start-1`` (layout files, calibration, diagnostics,
      guidance);
    * ``p.key``, the spelling on the wire (docs/simulator.md, 'Place names': the simulator
      API, ``lit``, the LED keys, the page's ``data-place``): ``T7``, ``S2:red``, ``start:red``,
      ``start:red:1``;
    * ``p.name``, the rules core's name without the colour (the pawn lists of
      docs/coordinates.md): ``S2``.

    :meth:`parse` reads all of these, and ``red S2`` / ``red START 1`` as people type them,
    in any letter case.
    """

    __slots__ = ()

    def __new__(cls, number: int, colour: int = -1, spot: int = 0) -> Place:
        if not 0 <= number < PLACE_COUNT:
            raise ValueError(f"no place number {number!r} (0..{PLACE_COUNT - 1})")
        if number < TRACK_SQUARES:
            colour = -1  # a track square belongs to nobody, whoever stands on it
        elif not 0 <= colour < len(COLOURS):
            raise ValueError(f"{PLACE_NAMES[number]} needs a colour 0..3, not {colour!r}")
        if spot and not (number in _AREAS and 1 <= spot <= SPOTS_PER_AREA):
            raise ValueError(f"spot {spot!r}: only START and HOME have spots 1..{SPOTS_PER_AREA}")
        return super().__new__(cls, number, colour, spot)

    @classmethod
    def parse(cls, text: str) -> Place:
        """The place a text names, in any of the spellings above; ValueError names the text."""
        if not isinstance(text, str):
            raise ValueError(f"a place is text such as T7 or red-S2, not {text!r}")
        place = _PLACES_BY_TEXT.get(" ".join(text.replace("-", " ").split()).lower())
        if place is None:
            place = _PLACES_BY_TEXT.get(text.strip().lower())  # the wire's S2:red
        if place is None:
            if text.strip().lower() in _COLOURLESS:
                raise ValueError(f"place {text!r} needs its colour, e.g. red-{text.strip()}")
            raise ValueError(f"unknown place {text!r} ({_EXPECTED})")
        return place

    @property
    def name(self) -> str:
        """The rules core's name, without the colour: ``T7``, ``S2``, ``start``, ``home``."""
        return PLACE_NAMES[self.number]

    @property
    def key(self) -> str:
        """The stand-alone spelling on the wire (docs/simulator.md, 'Place names'): ``T7``,
        ``S2:red``, ``start:red``, ``start:red:1``."""
        if self.colour < 0:
            return PLACE_NAMES[self.number]
        key = f"{PLACE_NAMES[self.number]}:{COLOURS[self.colour]}"
        return f"{key}:{self.spot}" if self.spot else key

    @property
    def is_track(self) -> bool:
        return self.number < TRACK_SQUARES

    @property
    def is_area(self) -> bool:
        """START or HOME (one of its spots, or the whole area)."""
        return self.number in _AREAS

    @property
    def whole(self) -> Place:
        """The whole START or HOME a spot belongs to; any other place is returned as it is."""
        return Place(self.number, self.colour) if self.spot else self

    def __str__(self) -> str:
        if self.colour < 0:
            return PLACE_NAMES[self.number]
        text = f"{COLOURS[self.colour]}-{PLACE_NAMES[self.number]}"
        return f"{text}-{self.spot}" if self.spot else text

    def __repr__(self) -> str:
        return f"Place.parse({str(self)!r})"


def _every_place() -> tuple[Place, ...]:
    places = [Place(square) for square in range(TRACK_SQUARES)]
    for colour in range(len(COLOURS)):
        places += [Place(number, colour) for number in range(S1, S5 + 1)]
        for area in (START, HOME):
            places += [Place(area, colour, spot) for spot in range(SPOTS_PER_AREA + 1)]
    return tuple(places)


#: Every place that can be named: track squares, each colour's safety squares, START and HOME
#: (whole, and each spot).
EVERY_PLACE: tuple[Place, ...] = _every_place()


def _spellings(place: Place) -> tuple[str, ...]:
    """The texts :meth:`Place.parse` reads for a place, lower case, words separated by a space."""
    canonical = str(place).replace("-", " ").lower()
    return (canonical, place.key.lower())


_COLOURLESS = frozenset(name.lower() for name in PLACE_NAMES[TRACK_SQUARES:])
_PLACES_BY_TEXT: dict[str, Place] = {
    text: place for place in EVERY_PLACE for text in _spellings(place)
}


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


#: A path table: per colour, place and count, the squares passed (None: no such move).
Paths = tuple[tuple[tuple[tuple[int, ...] | None, ...], ...], ...]


def _paths(table: tuple[tuple[int, ...], ...], longest: int) -> Paths:
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


FORWARD_PATHS: Final = _paths(NEXT, MAX_FORWARD)
BACKWARD_PATHS: Final = _paths(PREVIOUS, MAX_BACKWARD)

"""Positions: where every pawn stands. Small, immutable and hashable."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import NamedTuple

from .board import (
    COLOURS,
    HOME,
    PLACE_COUNT,
    START,
    TRACK_SQUARES,
    parse_colour,
    parse_place,
    place_name,
    start_circle,
)


class Position(NamedTuple):
    """The pawns of each colour, as sorted tuples of places; ``None`` for a colour not playing.

    Pawns of one colour are interchangeable, so sorting makes equal positions equal values.
    """

    red: tuple[int, ...] | None = None
    blue: tuple[int, ...] | None = None
    yellow: tuple[int, ...] | None = None
    green: tuple[int, ...] | None = None

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def initial(cls, colours: Iterable[int], pawns: int = 4, on_circle: bool = False) -> Position:
        """Every pawn in START; with ``on_circle`` one pawn of each colour on its start circle
        (point play: "Each player starts one man out on his own starting point")."""
        groups: list[tuple[int, ...] | None] = [None] * 4
        for colour in colours:
            places = [START] * pawns
            if on_circle:
                places[0] = start_circle(colour)
            groups[colour] = tuple(sorted(places))
        return cls(*groups)

    @classmethod
    def from_places(cls, groups: Iterable[Iterable[int] | None]) -> Position:
        return cls(*(None if g is None else tuple(sorted(g)) for g in groups))

    @classmethod
    def from_json(cls, data: object) -> Position:
        """Read pawn lists, ``{"red": ["start", "T7", ...], ...}`` (docs/coordinates.md,
        'Places'), validating them."""
        if not isinstance(data, Mapping) or not data:
            raise ValueError("pawns must be an object mapping colours to lists of locations")
        groups: list[tuple[int, ...] | None] = [None] * 4
        for name, places in data.items():
            colour = parse_colour(name) if isinstance(name, str) else parse_colour(repr(name))
            if not isinstance(places, list) or not all(isinstance(p, str) for p in places):
                raise ValueError(f"pawns of {name} must be a list of location names")
            groups[colour] = tuple(sorted(parse_place(p) for p in places))
        position = cls(*groups)
        position.validate()
        return position

    # -- reading ------------------------------------------------------------------------------

    @property
    def colours(self) -> tuple[int, ...]:
        return tuple(c for c in range(4) if self[c] is not None)

    def pawns(self, colour: int) -> tuple[int, ...]:
        return self[colour] or ()

    def items(self) -> Iterator[tuple[int, int]]:
        """Every pawn as ``(colour, place)``."""
        for colour in range(4):
            for place in self[colour] or ():
                yield colour, place

    def track_occupancy(self) -> list[int]:
        """For each track square, the colour standing there or -1."""
        return track_occupancy(self)

    def count(self, colour: int, place: int) -> int:  # type: ignore[override]
        return (self[colour] or ()).count(place)

    def all_home(self, colour: int) -> bool:
        pawns = self[colour]
        return bool(pawns) and pawns.count(HOME) == len(pawns)  # type: ignore[union-attr,arg-type]

    def to_json(self) -> dict[str, list[str]]:
        return {
            COLOURS[c]: [place_name(p) for p in pawns]
            for c, pawns in enumerate(self)
            if pawns is not None
        }

    def validate(self) -> None:
        """Raise ValueError when this cannot be a position of a game (rule A and pawn counts)."""
        counts = {len(p) for p in self if p is not None}
        if not counts:
            raise ValueError("no colour has any pawns")
        if len(counts) > 1 or not counts <= {3, 4}:
            raise ValueError(
                "every colour must have 4 pawns (3 in the quick game), all the same number; got "
                + ", ".join(f"{COLOURS[c]} {len(p)}" for c, p in enumerate(self) if p is not None)
            )
        seen: dict[int, int] = {}
        for colour, place in self.items():
            if not 0 <= place < PLACE_COUNT:
                raise ValueError(f"bad place number {place}")
            if place in (HOME, START):
                continue
            if place < TRACK_SQUARES:
                if place in seen:
                    raise ValueError(
                        f"two pawns on {place_name(place)} ({COLOURS[seen[place]]} and "
                        f"{COLOURS[colour]}): no two pawns ever share a square"
                    )
                seen[place] = colour
            elif (self[colour] or ()).count(place) > 1:
                raise ValueError(f"two {COLOURS[colour]} pawns on {place_name(place)}")

    def __str__(self) -> str:
        return " ".join(
            f"{COLOURS[c]}:{','.join(place_name(p) for p in pawns)}"
            for c, pawns in enumerate(self)
            if pawns is not None
        )


def track_occupancy(position: Position) -> list[int]:
    """For each track square, the colour standing there or -1.  A function as well as the
    method: the compiled move generator calls it directly (setup.py)."""
    board = [-1] * TRACK_SQUARES
    for colour, pawns in enumerate(position):
        if pawns:
            for place in pawns:
                if place < TRACK_SQUARES:
                    board[place] = colour
    return board

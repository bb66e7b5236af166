"""What a replayed turn's board highlights: where the move's pawns went, its slide, its bumps.

The live board is drawn from the state's ``lit`` (what the LEDs light now); a turn of the
history is drawn from its move: parsing its text against the position before rebuilds the rules
core's Move with every step, slide and bump (notation.parse_move is the generator's inverse).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pawnlight.rules.board import COLOURS, Place
from pawnlight.rules.moves import Move
from pawnlight.rules.notation import NotationError, parse_move
from pawnlight.rules.position import Position


@dataclass(frozen=True)
class Marks:
    """Highlights on the board, by place key (``T4``, ``S2:red``, ``home:red``)."""

    #: Where pawns would end, and the colour of the pawn that would end there.
    destinations: Mapping[str, str] = field(default_factory=dict)
    #: Pawns that would move.
    origins: frozenset[str] = frozenset()
    #: Slides that would fire: every square of each, triangle and end circle included.
    slides: tuple[tuple[int, ...], ...] = ()
    #: Pawns that would be bumped or swept back to START, or switched by an 11.
    bumped: frozenset[str] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.destinations or self.origins or self.slides or self.bumped)


NO_MARKS = Marks()


def marks_for(moves: Iterable[Move]) -> Marks:
    destinations: dict[str, str] = {}
    origins: set[str] = set()
    slides: list[tuple[int, ...]] = []
    bumped: set[str] = set()
    for move in moves:
        for step in move.steps:
            origins.add(Place(step.origin, step.colour).key)
            destinations[Place(step.final, step.colour).key] = COLOURS[step.colour]
            if step.slide is not None and step.slide.squares not in slides:
                slides.append(step.slide.squares)
            bumped.update(Place(square).key for _, square in step.bumped)
            if step.swapped >= 0:
                bumped.add(Place(step.target).key)
    return Marks(destinations, frozenset(origins), tuple(slides), frozenset(bumped))


def parse_moves(
    texts: Sequence[object], pawns: Mapping[str, Any] | None, teams: bool
) -> list[Move]:
    """The moves the texts describe in this position; texts that do not fit are left out (a
    forfeit has no move, and a page must never fail over one odd line)."""
    try:
        position = Position.from_json(pawns)
    except (ValueError, TypeError):
        return []
    moves = []
    for text in texts:
        if not isinstance(text, str):
            continue
        try:
            moves.append(parse_move(text, position, teams))
        except (NotationError, ValueError, IndexError):
            continue
    return moves


def texts_of(moves: object) -> list[str]:
    """The ``text`` of each ``{text, pawns}`` entry of a snapshot list."""
    if not isinstance(moves, list):
        return []
    return [m["text"] for m in moves if isinstance(m, Mapping) and isinstance(m.get("text"), str)]


def turn_marks(turn: Mapping[str, Any], teams: bool) -> Marks:
    """The marks of one turn of the history (nothing for a forfeit)."""
    text = turn.get("text")
    if not isinstance(text, str):
        return NO_MARKS
    return marks_for(parse_moves([text], turn.get("before"), teams))

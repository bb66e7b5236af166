"""Small helpers that let rule tests read like the rule books."""

from __future__ import annotations

from pawnlight.rules import EDITIONS, Position, legal_options, move_text
from pawnlight.rules.board import parse_colour

HASBRO = EDITIONS["hasbro-2002"]
PARKER = EDITIONS["parker-1950"]
PARKER_1939 = EDITIONS["parker-1939"]
ALL_EDITIONS = (HASBRO, PARKER, PARKER_1939)


def pos(**pawns: str) -> Position:
    """``pos(red="T7 S2 start start")``: each colour's pawns by place name."""
    return Position.from_json({colour: places.split() for colour, places in pawns.items()})


def options(position: Position, player: str, card: str, edition=HASBRO, teams: bool = False):
    return legal_options(position, parse_colour(player), card, edition, teams)


def texts(position: Position, player: str, card: str, edition=HASBRO, teams: bool = False) -> set:
    return {move_text(m) for m in options(position, player, card, edition, teams).moves}


def results(position: Position, player: str, card: str, edition=HASBRO, teams: bool = False):
    """The positions a card can lead to, as pawn-list JSON (docs/coordinates.md) with sorted
    lists (order-free)."""
    return {_key(m.after) for m in options(position, player, card, edition, teams).moves}


def _key(position: Position) -> tuple:
    return tuple(sorted((c, tuple(sorted(p))) for c, p in position.to_json().items()))


def key(position: Position) -> tuple:
    return _key(position)

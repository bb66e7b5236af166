"""Small helpers that let board tests read like what happens at the table."""

from __future__ import annotations

from pawnlight.board.layout import Layout
from pawnlight.rules import EDITIONS, Move, Options, Position, legal_options, move_text
from pawnlight.rules.board import parse_colour

HASBRO = EDITIONS["hasbro-2002"]
PARKER = EDITIONS["parker-1950"]
PARKER_1939 = EDITIONS["parker-1939"]
ALL_EDITIONS = (HASBRO, PARKER, PARKER_1939)

PRESENCE = Layout.named("presence")
COLOUR = Layout.named("colour")
LAYOUTS = (PRESENCE, COLOUR)
RED, BLUE, YELLOW, GREEN = range(4)


def pos(**pawns: str) -> Position:
    """``pos(red="T7 S2 start start")``: each colour's pawns by place name."""
    return Position.from_json({colour: places.split() for colour, places in pawns.items()})


def options(
    position: Position, player: str, card: str, edition=HASBRO, teams: bool = False
) -> Options:
    return legal_options(position, parse_colour(player), card, edition, teams)


def named(choices: Options, notation: str) -> Move:
    """The legal move with this text."""
    found = [m for m in choices.moves if move_text(m) == notation]
    assert found, f"{notation} is not among {[move_text(m) for m in choices.moves]}"
    return found[0]


def layout_id(layout: Layout) -> str:
    return layout.sensing

"""The rules core: board, cards, editions, positions, moves, games, scoring, notation.

Pure code with no I/O, no clock and no threads.  Start with :class:`Game` for a whole game, or
:func:`legal_options` for the legal moves of one card in one position.
"""

# First: decides whether the compiled modules or their sources run (compiled.py).
from . import compiled as _compiled  # noqa: F401
from .board import COLOURS, HOME, START, parse_colour, parse_place, place_name
from .cards import CARDS, Deck, leader_draw, pack, parse_card
from .editions import EDITIONS, VARIANTS, Edition, Variant, get_edition
from .game import Event, EventKind, Game, GameConfig, GameError, Result, Turn
from .match import Match
from .moves import Move, Options, Rules, Step, legal_options
from .notation import NotationError, move_text, parse_move
from .position import Position
from .scoring import final_scores

__all__ = [
    "CARDS",
    "COLOURS",
    "EDITIONS",
    "HOME",
    "START",
    "VARIANTS",
    "Deck",
    "Edition",
    "Event",
    "EventKind",
    "Game",
    "GameConfig",
    "GameError",
    "Match",
    "Move",
    "NotationError",
    "Options",
    "Position",
    "Result",
    "Rules",
    "Step",
    "Turn",
    "Variant",
    "final_scores",
    "get_edition",
    "leader_draw",
    "legal_options",
    "move_text",
    "pack",
    "parse_card",
    "parse_colour",
    "parse_move",
    "parse_place",
    "place_name",
]

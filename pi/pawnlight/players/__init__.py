"""Computer players, hints and game statistics.

For a computer seat the companion builds a :class:`GameView` with :func:`view_of` and asks the
seat's :class:`Player` (from :func:`make_player`): ``choose(view, card, options)`` for the card
drawn, ``choose_card(view)`` for point play's hand, ``wants_double`` / ``accepts_double`` for
classic point play.  :func:`hint` suggests a move to a person; :func:`game_statistics` counts a
finished game.  ``pawnlight tournament`` and ``pawnlight simulate`` are in :mod:`.commands`.
docs/players.md explains how the players decide.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# Names load on first use (PEP 562), so that ``pawnlight --help`` and the other commands do not
# pay for the players' tables when they only register the tournament and simulate commands.
_WHERE = {
    "Player": "base",
    "Weights": "evaluation",
    "ColourStatistics": "game_stats",
    "GameStatistics": "game_stats",
    "game_statistics": "game_stats",
    "HeuristicPlayer": "heuristic",
    "hint": "hints",
    "LearnedPlayer": "learned",
    "RandomPlayer": "random_player",
    "PLAYER_NAMES": "registry",
    "make_player": "registry",
    "parse_spec": "registry",
    "StrongPlayer": "strong",
    "play_game": "table",
    "GameView": "view",
    "view_of": "view",
}

if TYPE_CHECKING:
    from .base import Player
    from .evaluation import Weights
    from .game_stats import ColourStatistics, GameStatistics, game_statistics
    from .heuristic import HeuristicPlayer
    from .hints import hint
    from .learned import LearnedPlayer
    from .random_player import RandomPlayer
    from .registry import PLAYER_NAMES, make_player, parse_spec
    from .strong import StrongPlayer
    from .table import play_game
    from .view import GameView, view_of


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "PLAYER_NAMES",
    "ColourStatistics",
    "GameStatistics",
    "GameView",
    "HeuristicPlayer",
    "LearnedPlayer",
    "Player",
    "RandomPlayer",
    "StrongPlayer",
    "Weights",
    "game_statistics",
    "hint",
    "make_player",
    "parse_spec",
    "play_game",
    "view_of",
]

"""The baseline: a legal move picked at random, as a child might; and the casual player, who
mostly plays the heuristic's move."""

from __future__ import annotations

import random

from ..rules.moves import Move, Options
from .base import Player, playable_cards
from .heuristic import HeuristicPlayer
from .view import GameView


class RandomPlayer(Player):
    """Picks uniformly among the legal moves (and the playable cards); never declines or doubles.

    The generator is the player's own, so a seed replays the same choices.
    """

    name = "random"

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: GameView, card: str, options: Options) -> Move | None:
        return self.rng.choice(options.moves) if options.moves else None

    def choose_card(self, view: GameView) -> str:
        return self.rng.choice(playable_cards(view) or list(view.hand))


#: How often the casual player plays a random legal move instead of the heuristic's.
CASUAL_SLIP = 0.5


class CasualPlayer(Player):
    """The heuristic's move, except that half the time (``slip``) it plays a random legal move
    instead, as a person not paying much attention might: between the random player and the
    heuristic in strength (docs/players.md), for the easy level.  Seeded like the random player.
    """

    name = "casual"

    def __init__(self, seed: int | str | None = None, slip: float = CASUAL_SLIP) -> None:
        self.rng = random.Random(seed)
        self.slip = slip
        self.careful = HeuristicPlayer()

    def choose(self, view: GameView, card: str, options: Options) -> Move | None:
        if options.moves and self.rng.random() < self.slip:
            return self.rng.choice(options.moves)
        return self.careful.choose(view, card, options)

    def choose_card(self, view: GameView) -> str:
        if self.rng.random() < self.slip:
            return self.rng.choice(playable_cards(view) or list(view.hand))
        return self.careful.choose_card(view)

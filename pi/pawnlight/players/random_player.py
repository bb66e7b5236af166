"""The baseline: a legal move picked at random, as a child might."""

from __future__ import annotations

import random

from ..rules.moves import Move, Options
from .base import Player, playable_cards
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

"""Seeded random games for the store tests: every call to :func:`act` adds exactly one event.

Also imported by journal_writer.py, the script the SIGKILL test runs in a subprocess.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from pawnlight.rules.cards import Deck
from pawnlight.rules.editions import EDITIONS
from pawnlight.rules.game import Game, GameConfig, Phase

FOUR = ("red", "blue", "yellow", "green")


def every_config() -> Iterator[GameConfig]:
    """Each edition with each variant its book allows, alone and (where possible) in teams."""
    for edition in EDITIONS.values():
        for variant in sorted(edition.variants):
            if variant == "patience":
                yield GameConfig(edition.name, ("blue", "green"), False, variant)
                continue
            yield GameConfig(edition.name, FOUR, False, variant)
            yield GameConfig(edition.name, ("yellow", "red", "green"), False, variant)
            yield GameConfig(edition.name, FOUR, True, variant)
        if edition.extra_one:
            yield GameConfig(edition.name, ("green", "red"), False, "standard", extra_one=True)


def doubling(game: Game) -> bool:
    return game.config.variant == "points" and game.edition.scoring.drop_out_win is not None


class Player:
    """Plays one game at random: draws, moves, forfeits an 11 now and then, doubles in point
    play, and takes events back (``undo``) now and then, several in a row at times."""

    def __init__(self, game: Game, seed: int, undo: float = 0.04, double: float = 0.02) -> None:
        self.game = game
        self.rng = random.Random(seed)
        self.deck = Deck(random.Random(seed + 1), extra_one=game.config.extra_one)
        self.undo_rate = undo
        self.double_rate = double
        self.undo_run = 0

    def act(self) -> None:
        game, rng = self.game, self.rng
        if game.can_undo() and (self.undo_run or rng.random() < self.undo_rate):
            # Sometimes take back several events in a row (a takeback several moves deep).
            self.undo_run = self.undo_run - 1 if self.undo_run else rng.choice((0, 0, 1, 3, 6))
            game.undo()
            return
        self.undo_run = 0
        if game.phase == Phase.DOUBLE:
            colour = rng.choice(sorted(game.waiting_for))
            (game.drop if rng.random() < 0.3 else game.accept)(colour)
        elif (
            doubling(game)
            and game.phase in (Phase.DRAW, Phase.MOVE)
            and rng.random() < self.double_rate
        ):
            game.double(rng.choice(game.active_players))
        elif game.phase == Phase.DRAW:
            game.draw(self.deck.draw())
        elif game.phase == Phase.MOVE:
            options = game.options
            assert options is not None
            if options.forfeit and rng.random() < 0.3:
                game.forfeit()
            else:
                game.play(rng.choice(game.legal))
        else:
            raise AssertionError(f"nothing to do in phase {game.phase}")

    def play_out(self, limit: int = 5000) -> Game:
        while not self.game.over:
            self.act()
            if len(self.game.events) > limit:
                raise AssertionError("a random game ran too long")
        return self.game


def random_game(config: GameConfig, seed: int, **rates: float) -> Game:
    return Player(Game(config), seed, **rates).play_out()

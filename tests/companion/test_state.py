"""The snapshot's turns: kept between snapshots, always those of the game shown."""

from __future__ import annotations

import random

from pawnlight.board.layout import choose_layout
from pawnlight.companion.deck import CardDeck, simulated_uids
from pawnlight.companion.machine import Companion
from pawnlight.rules import Deck, Game, GameConfig
from pawnlight.rules.board import COLOURS


def random_game(seed: int, turns: int) -> Game:
    rng = random.Random(seed)
    game, deck = Game(GameConfig()), Deck(rng)
    while len(game.history) < turns and not game.over:
        options = game.draw(deck.draw())
        if options.moves:
            game.play(rng.choice(options.moves))
    return game


def written_out(game: Game) -> list[dict]:
    """The turns as the API documents them, built here from the game alone."""
    return [
        {
            "colour": COLOURS[turn.colour],
            "card": turn.card,
            "text": turn.text,
            "before": turn.before.to_json(),
            "after": turn.after.to_json(),
        }
        for turn in game.history
    ]


def test_the_turns_follow_moves_undos_and_a_new_game():
    companion = Companion(choose_layout(None, "presence"), CardDeck(simulated_uids()))
    game = random_game(1, 30)
    companion.resume(game)
    assert companion.state().to_json()["turns"] == written_out(game)

    while game.history and len(game.history) > 25:  # taken back: the cache must not keep them
        game.undo()
    assert companion.state().to_json()["turns"] == written_out(game)

    rng, deck = random.Random(2), Deck(random.Random(3))
    while len(game.history) < 28:  # played on from there: new turns after the kept ones
        options = game.draw(deck.draw())
        if options.moves:
            game.play(rng.choice(options.moves))
    assert companion.state().to_json()["turns"] == written_out(game)

    other = random_game(4, 12)  # another game on the same companion
    companion.resume(other)
    assert companion.state().to_json()["turns"] == written_out(other)

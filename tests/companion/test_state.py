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


def test_settled_is_false_from_a_changed_reading_until_its_decision():
    from pawnlight.board.snapshot import reading_for, true_occupancy
    from pawnlight.companion.signals import Reading, Tick
    from pawnlight.rules.notation import parse_move

    from .bench import Bench

    bench = Bench()
    assert bench.companion.state().settled  # nothing watched: nothing to decide
    bench.command("new_game", players=["red", "blue"])
    bench.show(bench.game.position)
    bench.scan("1")
    # A new phase's recogniser takes the board in afresh: decided once it was still that long.
    assert not bench.companion.state().settled
    bench.advance(0.31)
    state = bench.companion.state()
    assert state.phase == "move" and state.settled and state.to_json()["settled"] is True
    move = parse_move("R:start-T4", bench.game.position, False)
    reading = reading_for(bench.layout, true_occupancy(move.after))
    at = bench.now + 0.01
    bench.companion.handle(Reading(reading, at))
    assert not bench.companion.state().settled  # changed: not yet taken in
    bench.companion.handle(Tick(at + 0.1))
    assert not bench.companion.state().settled  # taken in, not still for the settle time
    assert bench.game.history == ()
    bench.companion.handle(Tick(at + 0.31))
    state = bench.companion.state()
    assert state.game is not None and [t.turn.text for t in state.game.turns] == ["R:start-T4"]
    assert state.game.turns[0].move == move  # the move as a value
    # The move played: the next phase's recogniser takes the board in afresh.
    bench.companion.handle(Tick(at + 0.31 + bench.companion.settings.settle))
    assert bench.companion.state().settled


def test_equal_states_compare_equal_and_the_json_has_the_contracts_fields():
    from .bench import Bench

    bench = Bench()
    bench.command("new_game", players=["red", "blue"])
    bench.show(bench.game.position)
    assert bench.companion.state() == bench.companion.state()
    state = bench.companion.state().to_json()
    for key in ("edition", "players", "teams", "phase", "turn", "card", "pawns", "legal"):
        assert key in state
    for key in ("history", "scores", "lit", "settled"):
        assert key in state
    assert state["players"] == ["red", "blue"] and state["phase"] == "draw"

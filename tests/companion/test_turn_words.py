"""Every turn says what happened, in board words; one press of New game never ends a game."""

from __future__ import annotations

import re

from pawnlight.companion.signals import Buzz, FinishRecord, Pressed, StartRecord
from pawnlight.rules import Position
from pawnlight.rules.game import Game, GameConfig
from pawnlight.rules.notation import parse_move

from .bench import Bench

CODE = re.compile(r"\b[TS]\d+\b")


def resumed(pawns: dict) -> Bench:
    bench = Bench()
    position = Position.from_json(pawns)
    bench.companion.resume(Game(GameConfig(players=("red", "blue")), position))
    bench.show(position)
    assert bench.companion.phase == "draw"
    return bench


def no_codes(state: dict) -> None:
    texts = [state["message"], *state["corrections"]]
    texts += [c["words"] for c in state["choices"]] + [m["words"] for m in state["legal"]]
    for line in texts:
        assert not CODE.search(line), line


def test_a_forfeit_says_why_and_whose_turn_it_is():
    bench = resumed({"red": ["start"] * 4, "blue": ["start"] * 4})
    bench.scan("5")
    state = bench.companion.state().to_json()
    assert state["message"].startswith("Red drew a 5: no pawn can go forward 5. Blue: draw")
    assert state["news"] == "Red drew a 5: no pawn can go forward 5"
    no_codes(state)


def test_a_bump_says_who_went_back_to_start():
    bench = resumed({"red": ["T10", "start", "start", "start"], "blue": ["T13", *["start"] * 3]})
    bench.scan("3")
    no_codes(bench.companion.state().to_json())
    bench.play(parse_move("T10-T13", bench.game.position, False))
    state = bench.companion.state().to_json()
    assert "(blue back to START)" in state["news"], state["news"]
    assert state["message"].startswith("Red: the red pawn on the 1st square of red's long slide")
    no_codes(state)


def test_the_two_says_draw_again():
    bench = resumed({"red": ["start"] * 4, "blue": ["start"] * 4})
    bench.scan("2")
    bench.play(parse_move("R:start-T4", bench.game.position, False))
    state = bench.companion.state().to_json()
    assert "The 2 says red draws again" in state["news"]
    assert state["turn"] == "red" and state["phase"] == "draw"


def test_one_press_of_new_game_only_asks_a_second_within_three_seconds_ends_the_game():
    bench = resumed({"red": ["T10", "start", "start", "start"], "blue": ["start"] * 4})
    game = bench.game
    bench.effects.clear()
    bench.effects += bench.companion.handle(Pressed("new_game", bench.now + 0.1))
    state = bench.companion.state().to_json()
    assert bench.game is game and Buzz("ask") in bench.effects
    assert "press it again within 3 s" in state["warning"]
    assert set(state["lit"].values()) == {"ask"}
    # Left alone, the question lapses: the game goes on, the lights with it.
    bench.advance(3.5)
    state = bench.companion.state().to_json()
    assert bench.game is game and state["warning"] is None and "ask" not in state["lit"].values()
    # Two presses within 3 s: the old game is abandoned (kept in the journal), a new one starts.
    bench.effects += bench.companion.handle(Pressed("new_game", bench.now + 0.1))
    bench.effects += bench.companion.handle(Pressed("new_game", bench.now + 1.5))
    assert bench.game is not game and bench.companion.phase == "setup"
    assert any(isinstance(e, FinishRecord) and e.result is None for e in bench.effects)
    assert any(isinstance(e, StartRecord) for e in bench.effects)

"""The state's ``lit`` is exactly what the LEDs light, in every phase (docs/api.md,
'GET /api/state', 'What is lit')."""

from __future__ import annotations

import pytest

from pawnlight.board.cells import CELL_KEYS, CELLS, SLIDE_CHANNEL_SQUARES
from pawnlight.board.leds import OFF
from pawnlight.companion.lights import frame_for
from pawnlight.players import hint
from pawnlight.rules import Position
from pawnlight.rules.game import Game, GameConfig
from pawnlight.rules.notation import move_text, parse_move

from .bench import Bench

#: Instants sampled over a few seconds: every blink, breath, chase and comet passes through.
INSTANTS = [i * 0.01 for i in range(400)]


def on_keys(bench: Bench, at: float) -> set[str]:
    """The places whose LED is on at ``at``."""
    frame = frame_for(bench.companion, at)
    layout = bench.layout
    keys = {CELL_KEYS[c] for c in range(CELLS) if frame[layout.led_of[c]] != OFF}
    for square, led in zip(SLIDE_CHANNEL_SQUARES, layout.slide_led_of, strict=True):
        if frame[led] != OFF:
            keys.add(f"slide:T{square}")
    return keys


def assert_lit_is_what_the_leds_show(bench: Bench) -> dict[str, str]:
    lit = bench.companion.state().to_json()["lit"]
    seen: set[str] = set()
    for at in INSTANTS:
        on = on_keys(bench, bench.now + at)
        assert on <= set(lit), f"lit but not in 'lit': {sorted(on - set(lit))}"
        seen |= on
    assert seen == set(lit), f"in 'lit' but never on: {sorted(set(lit) - seen)}"
    return lit


def started(players=("red", "blue"), layout="colour") -> Bench:
    bench = Bench(layout)
    bench.command("new_game", players=list(players))
    bench.show(bench.game.position)
    assert bench.companion.phase == "draw"
    return bench


def at(bench: Bench, pawns: dict) -> None:
    """Carry on a red and blue game from a position (resumed, the board set up), red to play."""
    position = Position.from_json(pawns)
    bench.companion.resume(Game(GameConfig(players=("red", "blue")), position))
    bench.show(position)
    assert bench.companion.phase == "draw"


def test_no_game_lights_nothing():
    bench = Bench()
    assert assert_lit_is_what_the_leds_show(bench) == {}


def test_waiting_for_a_card_breathes_the_players_start():
    bench = started()
    lit = assert_lit_is_what_the_leds_show(bench)
    assert lit == {f"start:red:{i}": "turn" for i in range(1, 5)}


def test_every_legal_move_with_its_slide_and_bump():
    bench = started()
    at(bench, {"red": ["T19", "T40", "start", "start"], "blue": ["T26", "start", "start", "start"]})
    bench.scan("5")
    assert bench.companion.phase == "move"
    lit = assert_lit_is_what_the_leds_show(bench)
    assert lit["T28"] == "destination" and lit["T24"] == "slide" and lit["T26"] == "bump"
    assert lit["slide:T25"] == "slide" and lit["T19"] == "pawn" and lit["T45"] == "destination"


def test_a_hint_lights_only_the_suggested_move_and_so_does_the_page():
    bench = started()
    at(bench, {"red": ["T5", "T20", "start", "start"], "blue": ["start"] * 4})
    bench.scan("4")
    legal = {move_text(m) for m in bench.game.legal}
    assert len(legal) > 1
    suggested = hint(bench.game)
    bench.command("hint")
    lit = assert_lit_is_what_the_leds_show(bench)
    assert suggested is not None
    finals = {f"T{step.final}" for step in suggested.steps}
    assert {k for k, role in lit.items() if role == "hint"} == finals
    assert "destination" not in lit.values()


def test_a_wrong_board_lights_the_corrections():
    bench = started()
    bench.scan("1")
    wrong = Position.from_json({"red": ["T5", "start", "start", "start"], "blue": ["start"] * 4})
    bench.show(wrong)
    bench.advance(2.5)
    state = bench.companion.state().to_json()
    assert state["corrections"]
    lit = assert_lit_is_what_the_leds_show(bench)
    assert lit["T5"] == "correction"
    assert state["guidance"][0] == {
        "action": "move",
        "from": "T5",
        "to": "start:red",
        "colour": "red",
        "text": state["corrections"][0],
        "code": "move the red pawn from T5 to red-start",
    }


def test_part_way_through_a_split_seven():
    bench = started()
    at(bench, {"red": ["T5", "T20", "start", "start"], "blue": ["start"] * 4})
    bench.scan("7")
    halfway = Position.from_json({"red": ["T8", "T20", "start", "start"], "blue": ["start"] * 4})
    bench.show(halfway, settle=False)
    assert bench.companion.state().to_json()["in_progress"]
    assert_lit_is_what_the_leds_show(bench)


def test_a_board_that_fits_two_moves():
    bench = started(layout="presence")
    at(
        bench,
        {"red": ["T5", "start", "start", "start"], "blue": ["T20", "start", "start", "start"]},
    )
    bench.scan("11")
    switch = parse_move("T5<>T20", bench.game.position, False)
    lifted = Position.from_json({"red": ["start"] * 3, "blue": ["start"] * 3})
    bench.show(lifted, settle=False)
    bench.show(switch.after)
    assert bench.companion.phase == "choose"
    lit = assert_lit_is_what_the_leds_show(bench)
    assert lit["T20"] == "switch" and lit["T5"] == "pawn"


@pytest.mark.parametrize("winner", ["red"])
def test_the_winner_is_celebrated(winner):
    bench = started()
    at(bench, {"red": ["S5", "home", "home", "home"], "blue": ["start"] * 4})
    bench.scan("1")
    bench.play(parse_move("R:S5-home", bench.game.position, False))
    assert bench.companion.phase == "over"
    lit = assert_lit_is_what_the_leds_show(bench)
    assert lit["home:red:1"] == "celebration" and lit["T0"] == "celebration"


def test_with_the_brightness_at_zero_nothing_is_lit():
    bench = started()
    assert bench.companion.state().to_json()["lit"]
    bench.command("settings", brightness=0)
    assert bench.companion.state().to_json()["lit"] == {}


def test_half_way_through_a_split_seven_the_board_is_drawn_as_it_is():
    """Issue #34, 8: after the first part of a split 7 the page draws the moved pawn where it
    stands (not both on their old squares), in its colour on a presence board too."""
    from pawnlight.web import view

    bench = started(layout="presence")
    at(bench, {"red": ["T5", "T20", "start", "start"], "blue": ["start"] * 4})
    bench.scan("7")
    halfway = Position.from_json({"red": ["T8", "T20", "start", "start"], "blue": ["start"] * 4})
    bench.show(halfway, settle=False)
    state = bench.companion.state().to_json()
    assert state["in_progress"] and state["phase"] == "move"
    sensed = {item["at"]: item["colour"] for item in state["sensed"]}
    assert sensed["T8"] == "red" and sensed["T20"] == "red" and "T5" not in sensed
    svg = view.board_svg(state)
    assert 'data-pawn="red" data-at="T8"' in svg and 'data-at="T5"' not in svg

"""A seat handed to the computer, or taken back, from the board's buttons (issue #34): Hint and
Confirm held together for UNLOCK_HOLD seconds, nobody's phone needed.  Time comes only from
the inputs, so it is moved by hand."""

from __future__ import annotations

from pawnlight.companion.board_buttons import SEAT_CHORD
from pawnlight.companion.commands import UNLOCK_HOLD
from pawnlight.companion.signals import Held, Pressed

from .bench import Bench


def hold(bench: Bench, seconds: float) -> None:
    """Hint first, then Confirm (docs/daemon.md), held ``seconds``, then let go."""
    c = bench.companion
    bench.now += 0.01
    bench.effects += c.handle(Held(frozenset({"hint"}), bench.now))
    bench.effects += c.handle(Pressed("hint", bench.now))
    bench.now += 0.2
    bench.effects += c.handle(Held(SEAT_CHORD, bench.now))
    bench.effects += c.handle(Pressed("confirm", bench.now, frozenset({"hint"})))
    bench.advance(seconds)
    bench.effects += c.handle(Held(frozenset(), bench.now))


def test_the_seat_whose_turn_it_is_goes_to_the_computer_and_comes_back():
    bench = Bench()
    bench.command("new_game", players=["red", "blue"])
    bench.show(bench.game.position)
    assert bench.companion.phase == "draw" and bench.game.turn == 0
    hold(bench, UNLOCK_HOLD - 0.2)  # too short: nothing changes
    assert bench.companion.state().to_json()["computer"] == {}
    hold(bench, UNLOCK_HOLD + 0.1)
    state = bench.companion.state().to_json()
    assert state["computer"] == {"red": "normal"}
    assert state["message"].startswith("The computer plays Red from now on")
    # Red's card: the computer chooses and lights its move; the person makes it.
    bench.scan("1")
    state = bench.companion.state().to_json()
    assert state["guided"] == {"text": "R:start-T4", "by": "Red (computer, normal)"}
    bench.show(_guided_after(bench))
    assert len(bench.game.history) == 1
    # Blue's turn now; blue's player leaves too, and red's comes back on red's next turn.
    hold(bench, UNLOCK_HOLD + 0.1)
    both = {"red": "normal", "blue": "normal"}
    assert bench.companion.state().to_json()["computer"] == both
    bench.scan("5")  # no blue pawn can move 5: the computer's forfeit is played at once
    assert bench.game.turn == 0 and len(bench.game.history) == 2
    hold(bench, UNLOCK_HOLD + 0.1)
    state = bench.companion.state().to_json()
    assert state["computer"] == {"blue": "normal"}
    assert state["message"].startswith("Red is played by a person again")


def _guided_after(bench: Bench):
    move = bench.companion.guided
    assert move is not None
    return move.after


def test_confirm_completing_the_chord_confirms_nothing():
    """Red's 11 may be declined with Confirm; as part of the chord, Confirm declines nothing."""
    from pawnlight.rules import Game, GameConfig
    from pawnlight.rules.position import Position

    bench = Bench()
    position = Position.from_json(
        {"red": ["T0", "start", "start", "start"], "blue": ["T30", "start", "start", "start"]}
    )
    bench.companion.resume(Game(GameConfig(players=("red", "blue")), position))
    bench.show(position)
    bench.scan("11")
    assert bench.companion.state().to_json()["forfeit_allowed"]
    hold(bench, UNLOCK_HOLD - 0.5)  # let go too soon: the seat stays a person's
    assert bench.game.history == () and bench.companion.phase == "move"
    assert bench.companion.state().to_json()["computer"] == {}

"""The owner's unlock on the board's buttons (issue #33): Hint and Undo held together for
UNLOCK_HOLD seconds count as "the owner is at the board" in the companion's state, which the
web follows to lift its PIN lockout.  Time comes only from the inputs, so it is moved by hand."""

from __future__ import annotations

import pytest

from pawnlight.companion.board_buttons import UNLOCK_SHOWN, UNLOCKED
from pawnlight.companion.commands import LOCKOUT_WARNING, UNLOCK_HOLD
from pawnlight.companion.service import CommandRefused
from pawnlight.companion.signals import Buzz, Held, Pressed, StatusLight, Tick

from .bench import Bench

CHORD = frozenset({"hint", "undo"})


def started_with_a_move() -> Bench:
    bench = Bench()
    bench.command("new_game", players=["red", "blue"])
    bench.show(bench.game.position)
    bench.scan("1")
    bench.show(bench.game.legal[0].after)
    assert len(bench.game.history) == 1 and bench.game.can_undo()
    return bench


def hold_the_chord(bench: Bench) -> None:
    """Hint first, then Undo, as docs/daemon.md says, each press with its Held change first
    (the order devices.controls sends them in)."""
    c = bench.companion
    bench.now += 0.01
    bench.effects += c.handle(Held(frozenset({"hint"}), bench.now))
    bench.effects += c.handle(Pressed("hint", bench.now))
    bench.now += 0.2
    bench.effects += c.handle(Held(CHORD, bench.now))
    bench.effects += c.handle(Pressed("undo", bench.now, frozenset({"hint"})))


def unlock(bench: Bench) -> dict:
    return bench.companion.state().to_json()["owner_unlock"]


def test_held_for_three_seconds_lifts_once_with_the_tune_and_the_words():
    bench = started_with_a_move()
    hold_the_chord(bench)
    # Undo was pressed as part of the chord: nothing is taken back.
    assert len(bench.game.history) == 1
    bench.effects.clear()
    bench.advance(UNLOCK_HOLD - 0.1)
    assert unlock(bench) == {"count": 0, "notice": None}
    bench.advance(0.11)
    assert unlock(bench) == {"count": 1, "notice": UNLOCKED}
    assert Buzz("unlock") in bench.effects
    # Held on, it lifts no more; a second hold does.
    bench.advance(10.0)
    bench.effects += bench.companion.handle(Held(frozenset(), bench.now))
    assert unlock(bench)["count"] == 1
    assert bench.effects.count(Buzz("unlock")) == 1
    hold_the_chord(bench)
    bench.advance(UNLOCK_HOLD + 0.01)
    assert unlock(bench)["count"] == 2
    assert len(bench.game.history) == 1  # still nothing undone
    # The page says so for UNLOCK_SHOWN seconds after the last lift, then no more.
    bench.advance(UNLOCK_SHOWN - 1)
    assert unlock(bench)["notice"] == UNLOCKED
    bench.advance(1.01)
    assert unlock(bench) == {"count": 2, "notice": None}


def test_a_short_hold_or_one_button_lifts_nothing():
    bench = started_with_a_move()
    hold_the_chord(bench)
    bench.advance(UNLOCK_HOLD - 0.5)
    bench.effects += bench.companion.handle(Held(frozenset({"hint"}), bench.now))
    bench.advance(UNLOCK_HOLD)  # Hint alone, long after
    assert unlock(bench)["count"] == 0
    assert Buzz("unlock") not in bench.effects


def test_a_hold_ended_before_any_tick_saw_it_still_counts():
    # While a storage fault holds the game, ticks do not reach the companion: the release does.
    bench = started_with_a_move()
    hold_the_chord(bench)
    bench.now += UNLOCK_HOLD + 1
    effects = bench.companion.handle(Held(frozenset({"hint"}), bench.now))
    assert Buzz("unlock") in effects and unlock(bench)["count"] == 1


def test_undo_alone_still_takes_back_and_hint_alone_still_hints():
    bench = started_with_a_move()
    bench.effects += bench.companion.handle(Pressed("undo", bench.now + 0.1))
    assert bench.game.history == ()
    bench.show(bench.game.position)
    assert bench.companion.phase == "move"  # the 1 is back in play
    bench.effects += bench.companion.handle(Pressed("hint", bench.now + 0.1))
    assert bench.companion.state().guided is not None


def test_the_lift_ends_the_lockout_warning_and_the_status_light_error():
    bench = started_with_a_move()
    bench.command("pin_lockout", minutes=15)
    warning = bench.companion.state().warning
    assert warning is not None and warning.startswith(LOCKOUT_WARNING)
    assert "hold Hint and Undo" in warning  # the warning says how to get in
    bench.companion.handle(Tick(bench.now))
    hold_the_chord(bench)
    bench.effects.clear()
    bench.advance(UNLOCK_HOLD + 0.01)
    assert bench.companion.state().warning is None
    assert StatusLight("link-down") in bench.effects  # the bench's board is not connected


def test_the_owners_unlock_is_no_command_the_web_can_send():
    # Only the board's buttons say someone is at the board.
    bench = Bench()
    for name in ("owner_at_board", "unlock", "held"):
        with pytest.raises(CommandRefused) as refused:
            bench.command(name)
        assert refused.value.status == 404
    assert bench.companion.state().owner_unlock.count == 0

"""Board time (protocol 1.2): the owner dates each sensor change by when the board saw it, on
its own clock, so touches a busy Pi reads together stay apart (issue #31)."""

from __future__ import annotations

import pytest

from pawnlight.board.layout import Layout
from pawnlight.companion.deck import CardDeck, simulated_uids
from pawnlight.companion.machine import Companion
from pawnlight.companion.signals import Reading
from pawnlight.devices.events import LinkState, SensorChanged, SensorSnapshot
from pawnlight.runtime.board_clock import DRIFT, BoardClock
from pawnlight.runtime.owner import Owner


def near(seconds: float) -> object:
    """Within the mapping's allowance for drift (DRIFT a second since the last change)."""
    return pytest.approx(seconds, abs=0.001)


@pytest.fixture
def owner(tmp_path):
    """An owner whose thread is not started: its translation of device events, alone."""
    return Owner(
        Companion(Layout.named("presence"), CardDeck(simulated_uids())), tmp_path / "j.sqlite3"
    )


def reading(owner: Owner, event: object) -> Reading:
    translated = owner._translate(event)
    assert isinstance(translated, Reading)
    return translated


def test_two_changes_read_together_stay_as_far_apart_as_on_the_board(owner):
    owner._translate(LinkState(True, "connected", "1.2.0"))
    reading(owner, SensorSnapshot((0,) * 112, at=9.0))
    # Read promptly: the board's 500 ms is the Pi's 9.5 s.
    assert reading(owner, SensorChanged(3, 1, at=9.5, board_ms=500)).at == 9.5
    # The Pi was busy: two changes 200 ms apart on the board, both read at 10.3.
    first = reading(owner, SensorChanged(3, 0, at=10.3, board_ms=1000))
    second = reading(owner, SensorChanged(4, 1, at=10.3, board_ms=1200))
    assert first.at == near(10.0) and second.at == near(10.2)
    assert second.at - first.at == pytest.approx(0.2)
    assert first.values[3:5] == (0, 0) and second.values[3:5] == (0, 1)


def test_a_reading_is_never_in_the_future_nor_before_the_previous_one(owner):
    reading(owner, SensorSnapshot((0,) * 112, at=9.0))
    assert reading(owner, SensorChanged(3, 1, at=9.5, board_ms=500)).at == 9.5
    # A snapshot read at 10.25, then a change the board saw at 10.0 (read late): not earlier.
    assert reading(owner, SensorSnapshot((0,) * 112, at=10.25)).at == 10.25
    assert reading(owner, SensorChanged(3, 1, at=10.3, board_ms=1000)).at == 10.25
    # Later changes are dated by the board again, once past the snapshot.
    assert reading(owner, SensorChanged(5, 1, at=10.4, board_ms=1300)).at == near(10.3)


def test_a_new_boot_starts_the_mapping_again(owner):
    reading(owner, SensorSnapshot((0,) * 112, at=1.0))
    assert reading(owner, SensorChanged(3, 1, at=9.5, board_ms=500)).at == 9.5
    # The board restarted: its uptime starts again.  Kept, the old mapping would date this
    # change at 9.05 (then held at 9.5); started again, it is when it was read.
    owner._translate(LinkState(True, "board firmware restarted (1.2.0)", "1.2.0"))
    reading(owner, SensorSnapshot((1,) * 112, at=20.0))
    assert reading(owner, SensorChanged(3, 0, at=20.1, board_ms=50)).at == 20.1
    assert reading(owner, SensorChanged(3, 1, at=20.5, board_ms=300)).at == near(20.35)


def test_an_older_board_keeps_the_pis_time(owner):
    reading(owner, SensorSnapshot((0,) * 112, at=9.0))
    assert reading(owner, SensorChanged(3, 1, at=10.3)).at == 10.3
    assert reading(owner, SensorChanged(4, 1, at=10.3)).at == 10.3


def test_the_clock_finds_a_restart_by_its_uptime_and_follows_drift():
    clock = BoardClock()
    assert clock.place(9.5, 500) == 9.5
    assert clock.place(10.3, 1000) == near(10.0)
    # No link event, but the uptime went back: a new boot (or the u32 ms wrapped).
    assert clock.place(11.0, 100) == 11.0
    # The board's crystal runs slow: after 1000 s its times are 0.2 s behind the Pi's.  The
    # mapping lets go of its offset (DRIFT a second), so they are never pushed into the past.
    assert DRIFT * 1000 > 0.2
    assert clock.place(1011.0, 100 + 999_800) == pytest.approx(1011.0)

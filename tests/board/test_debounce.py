"""Debouncing: flicker is forgotten, real changes count from when they first appeared."""

from __future__ import annotations

import pytest

from pawnlight.board.debounce import Debouncer

A = (0, 0, 0)
B = (1, 0, 0)
C = (1, 1, 0)


def test_the_first_reading_is_the_board():
    bouncer = Debouncer(0.05, reference=A)
    assert bouncer.board is None and bouncer.held(3.0) == 0.0
    bouncer.feed(B, 1.0)
    assert bouncer.board == B and bouncer.since == 1.0
    assert bouncer.touched == {0}


def test_a_bounce_shorter_than_the_flicker_time_is_forgotten():
    bouncer = Debouncer(0.05, reference=A)
    bouncer.feed(A, 0.0)
    bouncer.feed(B, 1.0)
    bouncer.feed(C, 1.01)
    bouncer.feed(A, 1.03)
    bouncer.advance(2.0)
    assert bouncer.board == A and bouncer.since == 0.0
    assert bouncer.touched == frozenset()


def test_a_real_change_counts_from_when_it_appeared():
    bouncer = Debouncer(0.05, reference=A)
    bouncer.feed(A, 0.0)
    bouncer.feed(B, 1.0)
    bouncer.advance(1.04)
    assert bouncer.board == A  # not yet sure
    bouncer.advance(1.05)
    assert bouncer.board == B and bouncer.since == 1.0
    assert bouncer.held(1.5) == pytest.approx(0.5)


def test_a_change_then_another_before_it_counted():
    bouncer = Debouncer(0.05)
    bouncer.feed(A, 0.0)
    bouncer.feed(B, 1.0)
    bouncer.feed(C, 1.04)
    bouncer.advance(1.06)
    assert bouncer.board == C and bouncer.since == 1.04


def test_repeated_readings_change_nothing():
    bouncer = Debouncer(0.05)
    for tick in range(100):
        bouncer.feed(A, tick * 0.01)
    assert bouncer.since == 0.0


def test_touched_cells_are_those_of_the_last_time_away_from_the_reference():
    bouncer = Debouncer(0.05, reference=A)
    bouncer.feed(A, 0.0)
    bouncer.feed(B, 1.0)
    bouncer.feed(A, 2.0)
    bouncer.advance(3.0)
    assert bouncer.touched == {0}
    bouncer.feed((0, 0, 1), 4.0)
    bouncer.feed(A, 5.0)
    bouncer.advance(6.0)
    assert bouncer.touched == {2}  # a new time away starts afresh


def test_time_must_not_go_backwards():
    bouncer = Debouncer(0.05)
    bouncer.feed(A, 2.0)
    with pytest.raises(ValueError, match="backwards"):
        bouncer.advance(1.0)
    bouncer.feed(B, 1.0)  # a reading is never dated before the previous one
    bouncer.advance(2.1)
    assert bouncer.board == B and bouncer.since == 2.0
    with pytest.raises(ValueError):
        Debouncer(-1.0)


def test_a_late_reading_counts_from_when_the_board_saw_it():
    """A busy Pi reads a lift and a put-back 0.2 s apart on the board together, after ticks
    past both: dated by the board, the lift lasted 0.2 s (a real departure, not a glimpse)."""
    bouncer = Debouncer(0.05, reference=A)
    bouncer.feed(A, 0.0)
    bouncer.advance(10.3)
    bouncer.feed(B, 10.0)
    bouncer.advance(10.3)  # the readings that came with it may undo it: not yet
    assert bouncer.board == A and bouncer.pending
    bouncer.feed(A, 10.2)
    assert bouncer.board == B and bouncer.since == 10.0  # the lift lasted 0.2 s
    bouncer.advance(10.31)  # time passes beyond the batch
    assert bouncer.board == A and bouncer.since == 10.2 and not bouncer.pending
    assert bouncer.glimpsed == frozenset() and bouncer.held(10.31) == pytest.approx(0.11)


def test_a_late_reading_shorter_than_the_flicker_time_is_still_a_glimpse():
    bouncer = Debouncer(0.05, reference=A)
    bouncer.feed(A, 0.0)
    bouncer.advance(10.3)
    bouncer.feed(B, 10.0)
    bouncer.advance(10.3)
    bouncer.feed(A, 10.01)
    bouncer.advance(10.31)
    assert bouncer.board == A and bouncer.since == 0.0 and bouncer.glimpsed == {0}

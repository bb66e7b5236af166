"""Debouncing: from a stream of timestamped snapshots to a board that ignores sensor flicker.

A hall sensor at the edge of a magnet's field can bounce for a few milliseconds.  Such a bounce
must neither be taken for a move nor restart the wait for a board to settle.  So a departure
from the current board only counts once it has lasted ``flicker`` seconds; a departure that
comes back sooner is forgotten, and the board keeps the time it has been held since.  A real
change (one that is still there after ``flicker``) makes the latest reading the board, held
since the moment that reading first appeared: the settle time is always measured on an exact,
unbroken board.

The debouncer also remembers which cells differed from a *reference* board (the position
before the move) while the board was away from it.  A presence board cannot see an 11's switch
(two pawns change places, both squares stay full); the touched cells are the only trace of it.

Pure: time is only ever the ``at`` values passed in, which must not go backwards, but for one
case: a reading may be dated before the last advance (a change the board timed, read late by a
busy Pi).  It is dated when it happened (never before the previous reading), so a pawn lifted
and put back 0.2 s later is a lift, not a glimpse, however late both arrived.  The readings that
came with it may undo it, so a late departure becomes the board only by a later reading or by
time passing beyond the moment it arrived, never by an advance to that same moment.
"""

from __future__ import annotations

from .snapshot import Occupancy


class Debouncer:
    def __init__(self, flicker: float = 0.05, reference: Occupancy | None = None) -> None:
        if flicker < 0:
            raise ValueError("flicker must not be negative")
        self.flicker = flicker
        self.reference = reference
        #: The debounced board and the time it has been held since (None before any reading).
        self.board: Occupancy | None = None
        self.since = 0.0
        self._now = float("-inf")
        self._late_at = float("-inf")  # the time when the last late reading arrived
        self._latest: Occupancy | None = None
        self._latest_since = 0.0
        self._away_since: float | None = None
        self._raw_touched: set[int] = set()
        self._touched: set[int] = set()
        self._glimpsed: set[int] = set()

    def feed(self, occupancy: Occupancy, at: float) -> None:
        if self._latest is not None:
            at = max(at, self._latest_since)  # never before the previous reading
        if at < self._now:
            self._expire(at)
            self._late_at = self._now
        else:
            self.advance(at)
        self._take(occupancy, at)

    def _take(self, occupancy: Occupancy, at: float) -> None:
        if self.board is None:
            self.board = self._latest = occupancy
            self.since = self._latest_since = at
            self._touched = self._differences(occupancy)
            return
        if occupancy == self._latest:
            return  # a repeated reading: nothing new
        self._latest = occupancy
        self._latest_since = at
        if occupancy == self.board:
            # Back before the departure counted: it was flicker.  Forget it, but for the
            # glimpses of a pawn lifted from the reference and put straight back.
            self._away_since = None
            if self.board == self.reference:
                self._glimpsed |= self._raw_touched
            self._raw_touched.clear()
            return
        if self._away_since is None:
            self._away_since = at
        self._raw_touched |= self._differences(occupancy)

    def advance(self, at: float) -> None:
        """Let time pass to ``at``: a departure older than ``flicker`` becomes the board."""
        if at < self._now:
            raise ValueError(f"time went backwards: {at} after {self._now}")
        self._now = at
        if at > self._late_at:
            self._expire(at)

    def _expire(self, at: float) -> None:
        if self._away_since is not None and at - self._away_since >= self.flicker:
            assert self._latest is not None
            leaving_reference = self.board == self.reference
            self.board = self._latest
            self.since = self._latest_since
            self._away_since = None
            if leaving_reference:
                self._touched = set()
            self._touched |= self._raw_touched
            self._raw_touched = set()

    def held(self, at: float) -> float:
        """How long the board has been held at time ``at`` (0 before any reading)."""
        return 0.0 if self.board is None else at - self.since

    @property
    def pending(self) -> bool:
        """A reading unlike the board waits to become it (or to be dropped as flicker)."""
        return self._away_since is not None

    @property
    def now(self) -> float:
        """The time of the last reading or advance."""
        return self._now

    @property
    def touched(self) -> frozenset[int]:
        """Cells that differed from the reference during the board's last time away from it."""
        return frozenset(self._touched)

    @property
    def glimpsed(self) -> frozenset[int]:
        """Cells that differed from the reference for less than ``flicker`` while the board
        stood at it: sensor bounce, or a lift and put-back quicker than the readings (on a
        loaded Pi both arrive in one batch).  Only a move the board cannot show at all may
        take them as a trace, and only to ask about it."""
        return frozenset(self._glimpsed)

    def _differences(self, occupancy: Occupancy) -> set[int]:
        if self.reference is None:
            return set()
        return {
            cell
            for cell, (a, b) in enumerate(zip(occupancy, self.reference, strict=True))
            if a != b
        }

"""Helpers for the board link tests: how long to wait for an event, and an event log."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

from pawnlight.devices.events import BoardEvent

# Generous: these waits end as soon as the event arrives, the timeout only bounds a failure.
WAIT = 5.0


class EventRecorder:
    """An ``emit`` callable that keeps every event and lets a test wait for one."""

    def __init__(self) -> None:
        self.events: list[BoardEvent] = []
        self._cond = threading.Condition()

    def __call__(self, event: BoardEvent) -> None:
        with self._cond:
            self.events.append(event)
            self._cond.notify_all()

    def mark(self) -> int:
        """Index of the next event, for waiting only on what comes after this point."""
        with self._cond:
            return len(self.events)

    # The events these return are whatever the predicate chose (``isinstance(e, SensorChanged)
    # and ...``): typed Any, so a test reads their fields without narrowing them again.
    def wait_for(
        self, predicate: Callable[[BoardEvent], bool], since: int = 0, timeout: float = WAIT
    ) -> Any:
        """The first event at index >= since that matches; fails the test after timeout."""
        with self._cond:
            found: list[BoardEvent] = []

            def match() -> bool:
                for event in self.events[since:]:
                    if predicate(event):
                        found.append(event)
                        return True
                return False

            if not self._cond.wait_for(match, timeout):
                pytest.fail(f"no matching event within {timeout} s; got {self.events[since:]!r}")
            return found[0]

    def matching(self, predicate: Callable[[BoardEvent], bool], since: int = 0) -> list[Any]:
        with self._cond:
            return [e for e in self.events[since:] if predicate(e)]

"""Fixtures for the board link tests: simulated firmware on a pty, a driver, an event log."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

import pytest

from pawnlight.devices.events import BoardEvent
from pawnlight.devices.link_session import LinkSettings
from pawnlight.devices.serial_link import SerialBoardLink
from pawnlight.devices.sim_firmware import SimulatedFirmware

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

    def wait_for(
        self, predicate: Callable[[BoardEvent], bool], since: int = 0, timeout: float = WAIT
    ) -> BoardEvent:
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

    def matching(self, predicate: Callable[[BoardEvent], bool], since: int = 0) -> list[BoardEvent]:
        with self._cond:
            return [e for e in self.events[since:] if predicate(e)]


class ManualClock:
    """A monotonic clock that only moves when the test says so."""

    def __init__(self, start: float = 1000.0) -> None:
        self._now = start
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> None:
        with self._lock:
            self._now += seconds


@pytest.fixture
def recorder() -> EventRecorder:
    return EventRecorder()


@pytest.fixture
def sim() -> Iterator[SimulatedFirmware]:
    with SimulatedFirmware("presence") as firmware:
        yield firmware


@pytest.fixture
def colour_sim() -> Iterator[SimulatedFirmware]:
    with SimulatedFirmware("colour") as firmware:
        yield firmware


@pytest.fixture
def fast_settings() -> LinkSettings:
    """Short reconnect backoff so reconnect tests finish quickly."""
    return LinkSettings(reconnect_min=0.02, reconnect_max=0.2)


@pytest.fixture
def link(
    sim: SimulatedFirmware, recorder: EventRecorder, fast_settings: LinkSettings
) -> Iterator[SerialBoardLink]:
    """A driver connected to the presence simulator, past its first snapshot."""
    from pawnlight.devices.events import SensorSnapshot

    with SerialBoardLink(recorder, sim.port, settings=fast_settings) as driver:
        driver.wait_connected(WAIT)
        recorder.wait_for(lambda e: isinstance(e, SensorSnapshot))
        yield driver

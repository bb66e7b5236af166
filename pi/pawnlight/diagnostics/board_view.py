"""The latest of everything a board link reported, for tools that watch the board.

A ``BoardView`` is the ``emit`` callable of a board link (serial, simulated or fake).  It keeps
every channel's latest value, when and how often each changed, the link's state, the last card
and the firmware's errors, and lets a caller wait for the board to show something, for example
"the values the simulated hand just set", without sleeping a guessed time.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from pawnlight.devices.events import (
    BoardEvent,
    CardRead,
    FirmwareError,
    LinkState,
    SensorChanged,
    SensorSnapshot,
)

Values = tuple[int, ...]


@dataclass
class LinkStatus:
    up: bool = False
    detail: str = "not connected yet"
    firmware: str | None = None


@dataclass
class _State:
    values: list[int] | None = None
    version: int = 0  # goes up with every change of any value
    changes: list[int] = field(default_factory=list)  # per channel, since the first snapshot
    changed_at: list[float] = field(default_factory=list)


class BoardView:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._cond = threading.Condition()
        self._state = _State()
        self.link = LinkStatus()
        self.last_uid: str | None = None
        self.cards = 0
        self.errors: list[str] = []

    # -- the emit callable ----------------------------------------------------------------------

    def __call__(self, event: BoardEvent) -> None:
        with self._cond:
            state = self._state
            if isinstance(event, SensorSnapshot):
                if state.values is None:
                    state.changes = [0] * len(event.values)
                    state.changed_at = [event.at] * len(event.values)
                else:
                    for channel, value in enumerate(event.values):
                        if channel < len(state.values) and state.values[channel] != value:
                            self._count(channel, event.at)
                state.values = list(event.values)
                state.version += 1
            elif isinstance(event, SensorChanged):
                if state.values is not None and 0 <= event.channel < len(state.values):
                    if state.values[event.channel] != event.value:
                        self._count(event.channel, event.at)
                    state.values[event.channel] = event.value
                    state.version += 1
            elif isinstance(event, CardRead):
                self.last_uid = event.uid
                self.cards += 1
            elif isinstance(event, LinkState):
                self.link = LinkStatus(event.up, event.detail, event.firmware)
            elif isinstance(event, FirmwareError):
                self.errors.append(f"board error {event.code}: {event.message}")
            self._cond.notify_all()

    def _count(self, channel: int, at: float) -> None:
        self._state.changes[channel] += 1
        self._state.changed_at[channel] = at

    # -- reading --------------------------------------------------------------------------------

    def values(self) -> Values | None:
        """Every channel's latest value, or None before the first snapshot."""
        with self._cond:
            values = self._state.values
            return None if values is None else tuple(values)

    @property
    def version(self) -> int:
        with self._cond:
            return self._state.version

    def changes(self) -> tuple[int, ...]:
        """How often each channel changed since the first snapshot."""
        with self._cond:
            return tuple(self._state.changes)

    def changed_at(self) -> tuple[float, ...]:
        with self._cond:
            return tuple(self._state.changed_at)

    # -- waiting --------------------------------------------------------------------------------

    def wait_for(self, predicate: Callable[[Values], bool], timeout: float) -> Values | None:
        """The values once ``predicate`` holds for them, or None after ``timeout`` seconds."""
        with self._cond:
            matched: list[Values] = []

            def check() -> bool:
                values = self._state.values
                if values is not None and predicate(tuple(values)):
                    matched.append(tuple(values))
                    return True
                return False

            if self._cond.wait_for(check, timeout):
                return matched[0]
            return None

    def wait_change(self, since: int, timeout: float) -> bool:
        """True once any value changed after version ``since``; False after ``timeout``."""
        with self._cond:
            return self._cond.wait_for(lambda: self._state.version > since, timeout)

    def wait_settled(self, quiet: float, timeout: float) -> Values | None:
        """The values once nothing has changed for ``quiet`` seconds (a hand has let go)."""
        deadline = self._clock() + timeout
        while True:
            version = self.version
            if not self.wait_change(version, quiet):
                return self.values()
            if self._clock() > deadline:
                return None

"""The owner's inbox: items from every thread in, the companion's inputs out.

Device threads (the serial link, gpiozero, card readers) and the web server put items here; the
owner thread takes them one at a time.  :meth:`Inbox.translate` turns device events into the
companion's inputs and keeps the latest value of every sensor channel, the board's clock and its
firmware restarts.  What has been taken in is counted as seen (:meth:`Inbox.taken_in`) only once
the owner has published the state with it, so whoever waits on a touch or a card
(:meth:`Inbox.wait_for_reading`, :meth:`Inbox.wait_for_card`) finds it in the state too.
"""

from __future__ import annotations

import queue
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from pawnlight.companion.signals import (
    CardScanned,
    Held,
    Input,
    LinkChanged,
    Pressed,
    Reading,
    Tick,
    Trouble,
)
from pawnlight.devices.controls import ButtonPressed, ButtonsHeld
from pawnlight.devices.events import (
    CardRead,
    FirmwareError,
    LinkState,
    SensorChanged,
    SensorSnapshot,
)
from pawnlight.runtime.board_clock import BoardClock
from pawnlight.runtime.publisher import RESTART_WINDOW, BoardHealth


@dataclass
class Command:
    """A command of the web's, answered through ``reply`` by the owner thread."""

    name: str
    args: dict[str, Any]
    reply: Future[dict[str, Any]]


@dataclass(frozen=True)
class Barrier:
    """Set once every item posted before it has been handled and its state published."""

    passed: threading.Event


class Inbox:
    """The items waiting for the owner thread, and the board's readings as taken in."""

    def __init__(
        self,
        channels: int,
        clock: Callable[[], float],
        diagnostics: Callable[[], dict[str, Any]],
        errors: list[str],
    ) -> None:
        self._clock = clock
        self._diagnostics = diagnostics
        self._errors = errors  # the owner's list: what went wrong, for diagnostics
        self._queue: queue.Queue[object] = queue.Queue()
        self.values: list[int] = [0] * channels
        # The readings as the companion has taken them in and published (taken_in).
        self.taken: tuple[int, ...] = tuple(self.values)
        self._reading_taken = threading.Condition()  # notified when taken changes
        self.have_reading = False
        # The board's times of its changes on our clock, and the time of the last Reading
        # handed on (readings never go back in time).
        self._board_clock = BoardClock()
        self._reading_at = float("-inf")
        # When the board's firmware restarted (our clock), the last RESTART_WINDOW seconds, and
        # the link's count of restarts as last read.
        self._restarts: deque[float] = deque()
        self._restarts_counted = 0
        self.last_uid: str | None = None
        # CardRead events taken in and published, for the simulator to wait on.
        self.card_reads = 0
        self._cards_pending = 0
        self._card_read = threading.Condition()

    # -- any thread -----------------------------------------------------------------------------

    def put(self, item: object) -> None:
        self._queue.put(item)

    def wait_for_card(self, reads_before: int, timeout: float) -> bool:
        """Wait until a card read beyond ``reads_before`` has reached the owner."""
        with self._card_read:
            return self._card_read.wait_for(lambda: self.card_reads > reads_before, timeout)

    def wait_for_reading(self, wanted: Callable[[tuple[int, ...]], bool], timeout: float) -> bool:
        """Wait until the readings taken in and published satisfy ``wanted``."""
        with self._reading_taken:
            return self._reading_taken.wait_for(lambda: wanted(self.taken), timeout)

    # -- the owner thread -----------------------------------------------------------------------

    def get(self, timeout: float) -> object:
        """The next item (queue.Empty when none came within ``timeout``; None: stop)."""
        return self._queue.get(timeout=timeout)

    def translate(self, item: object) -> Input | None:
        """Device events to companion inputs; the inbox keeps the latest of every channel."""
        if isinstance(item, SensorSnapshot):
            if len(item.values) != len(self.values):
                # The link refuses these; a reading of the wrong size must never replace ours.
                self._errors.append(
                    f"a sensor snapshot of {len(item.values)} channels was ignored "
                    f"(the board has {len(self.values)})"
                )
                return None
            self.values = list(item.values)
            self.have_reading = True
            return self.reading(item.at)
        if isinstance(item, SensorChanged):
            if 0 <= item.channel < len(self.values):
                self.values[item.channel] = item.value
            at = item.at
            if item.board_ms is not None:  # a 1.2 board: when the change happened, not was read
                at = self._board_clock.place(item.at, item.board_ms)
            if not self.have_reading:
                return None
            return self.reading(at)
        if isinstance(item, CardRead):
            self.last_uid = item.uid
            self._cards_pending += 1  # counted once the state with it is published
            return CardScanned(item.uid, item.at)
        if isinstance(item, ButtonPressed):
            return Pressed(item.name, item.at, item.held)
        if isinstance(item, ButtonsHeld):
            return Held(item.names, item.at)
        if isinstance(item, LinkState):
            self._board_clock.reset()  # a new link or a new boot: the board's uptime restarts
            self._count_restarts()
            return LinkChanged(item.up, item.detail, item.firmware, self._clock())
        if isinstance(item, FirmwareError):
            self._errors.append(f"board error {item.code}: {item.message}")
            return None
        if isinstance(item, Reading | CardScanned | Pressed | Held | LinkChanged | Tick | Trouble):
            return item  # Trouble: the remote link's words (another board under this id)
        raise TypeError(f"the owner does not know {type(item).__name__}")

    def _count_restarts(self) -> None:
        """A link event may be a restart of the board's firmware: the link's counter says."""
        link = self._diagnostics().get("link")
        total = link.get("firmware_restarts", 0) if isinstance(link, dict) else 0
        if isinstance(total, int):
            now = self._clock()
            self._restarts.extend([now] * max(0, total - self._restarts_counted))
            self._restarts_counted = total

    def board_health(self) -> BoardHealth:
        now = self._clock()
        while self._restarts and now - self._restarts[0] >= RESTART_WINDOW:
            self._restarts.popleft()
        return BoardHealth(len(self._restarts))

    def reading(self, at: float) -> Reading:
        """The channels' values as a Reading at ``at``, never before the previous one."""
        self._reading_at = max(self._reading_at, at)
        return Reading(tuple(self.values), self._reading_at)

    def taken_in(self) -> None:
        """What has been taken in is now in the published state: the readings diagnostics()
        shows and the card reads the simulator waits on, so whoever sees a touch or a card
        arrive there finds it in the state too, never a state from before it."""
        taken = tuple(self.values)
        if taken != self.taken:
            with self._reading_taken:
                self.taken = taken
                self._reading_taken.notify_all()
        if self._cards_pending:
            with self._card_read:
                self.card_reads += self._cards_pending
                self._cards_pending = 0
                self._card_read.notify_all()

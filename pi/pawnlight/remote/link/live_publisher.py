"""The board's live game on the broker, for a club's page (``pawnlight run --remote``).

A reader of the owner's published states, like any phone: each state's game summary
(pawnlight.remote.live) goes to ``pawnlight/boards/<board>/live``, retained and QoS 1, on
change and at most twice a second, the latest always; again on every new connection (a broker
that lost its store is filled in again).  While the broker is away nothing is sent: the latest
goes out when it is back.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from pawnlight.background import BackgroundThread
from pawnlight.companion.service import Subscription
from pawnlight.remote.live import INTERVAL, Throttle, encode, live_topic, summary

log = logging.getLogger("pawnlight.remote")

#: The longest wait for a state, so a new connection and stopping are seen soon.
WAKE = 0.5


class LivePublisher:
    """``LivePublisher(owner.subscribe, board, publish, connected).start()`` ... ``.stop()``.

    ``publish(topic, payload)`` sends one retained message (the link's client, QoS 1);
    ``connected()`` says whether the link is connected now.
    """

    def __init__(
        self,
        subscribe: Callable[[], Subscription],
        board: str,
        publish: Callable[[str, bytes], object],
        connected: Callable[[], bool],
        *,
        interval: float = INTERVAL,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.board = board
        self.topic = live_topic(board)
        self._subscribe = subscribe
        self._publish = publish
        self._connected = connected
        self._clock = clock
        self._wall = wall
        self.throttle = Throttle(interval)
        self.sent = 0
        self._was_connected = False
        self._worker = BackgroundThread("pawnlight-live")

    def start(self) -> None:
        subscription = self._subscribe()  # before the thread: no state falls in between
        self._worker.start(self._run, subscription)

    def stop(self) -> None:
        self._worker.stop()

    def _run(self, subscription: Subscription) -> None:
        try:
            while not self._worker.stopping.is_set():
                wait = self.throttle.wait(self._clock())
                state = subscription.get(WAKE if wait is None else min(WAKE, max(wait, 0.01)))
                while state is not None and (newer := subscription.get(0)) is not None:
                    state = newer  # a burst: only the newest matters
                self.step(state)
        except Exception:
            log.exception("the live game publisher stopped")
        finally:
            subscription.close()

    def resend(self) -> None:
        """Send the latest again soon (another board under this id overwrote it)."""
        self._was_connected = False

    def step(self, state: dict[str, Any] | None) -> bool:
        """Take a new state (or None: none came) in and send what is due; True if sent."""
        if state is not None:
            self.throttle.offer(summary(state))
        connected = self._connected()
        was_connected, self._was_connected = self._was_connected, connected
        if not connected:
            return False
        if not was_connected:
            self.throttle.resend()
        due = self.throttle.take(self._clock())
        if due is None:
            return False
        self._publish(self.topic, encode(self.board, due.game, self._wall()))
        self.sent += 1
        return True

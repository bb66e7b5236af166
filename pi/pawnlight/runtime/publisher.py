"""Publishing the owner's state to its subscribers (the SSE streams, the live publisher).

After each item the owner hands the publisher what a state is made of (:class:`Shown`); when it
differs from the last one, a new :class:`Published` state with the next version goes to every
subscriber.  Subscribers are queues any thread reads; a stalled one loses its oldest states,
never the newest.
"""

from __future__ import annotations

import contextlib
import queue
import threading
from dataclasses import dataclass
from typing import Any

from pawnlight.companion.state import CompanionState, Published

#: The board's firmware restarting this many times within RESTART_WINDOW seconds is shown on the
#: page (``board_health``): brown-outs or the watchdog, a cable or power supply to check.  It
#: goes away once the board has gone RESTART_WINDOW seconds without restarting.
RESTARTS_SHOWN = 2
RESTART_WINDOW = 300.0


@dataclass(frozen=True)
class Storage:
    """Whether the journal can be written (``storage`` of the published state)."""

    problem: str | None  # the storage fault's words, None while writes succeed
    unsaved: int  # events waiting to be written
    saved_turns: int  # turns of the history that are durable

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.problem is None,
            "problem": self.problem,
            "unsaved": self.unsaved,
            "saved_turns": self.saved_turns,
        }


@dataclass(frozen=True)
class BoardHealth:
    """How steady the board has been (``board_health`` of the published state)."""

    restarts: int  # firmware restarts within the last RESTART_WINDOW seconds

    def to_json(self) -> dict[str, Any]:
        return {
            "steady": self.restarts < RESTARTS_SHOWN,
            "restarts": self.restarts,
            "minutes": round(RESTART_WINDOW / 60),
        }


@dataclass(frozen=True)
class Shown:
    """Everything a published state is made of: a new one is published when this changes."""

    companion: CompanionState
    game_id: int | None
    storage: Storage
    board: BoardHealth


class Subscription:
    """One subscriber's states, newest last (``get`` from any thread)."""

    def __init__(self, publisher: Publisher) -> None:
        self._publisher = publisher
        self.queue: queue.Queue[dict[str, Any]] = queue.Queue(maxsize=64)

    def get(self, timeout: float) -> dict[str, Any] | None:
        try:
            return self.queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def offer(self, state: dict[str, Any]) -> None:
        try:
            self.queue.put_nowait(state)
        except queue.Full:  # a stalled reader: drop its oldest state, keep the newest
            with contextlib.suppress(queue.Empty):
                self.queue.get_nowait()
            with contextlib.suppress(queue.Full):
                self.queue.put_nowait(state)

    def close(self) -> None:
        self._publisher.unsubscribe(self)


class Publisher:
    """The latest published state and its subscribers.  ``publish`` runs on the owner thread
    only; ``state``, ``subscribe`` and ``unsubscribe`` on any thread."""

    def __init__(self) -> None:
        self._subscribers: list[Subscription] = []
        self._lock = threading.Lock()
        self._state: Published | None = None
        self._shown: Shown | None = None
        self._version = 0

    def state(self) -> Published:
        assert self._state is not None  # published from the owner's constructor on
        return self._state

    def subscribe(self) -> Subscription:
        subscription = Subscription(self)
        with self._lock:
            self._subscribers.append(subscription)
        subscription.offer(self.state())  # replay the current state on connect
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        with self._lock:
            if subscription in self._subscribers:
                self._subscribers.remove(subscription)

    def publish(self, shown: Shown) -> None:
        """Publish the state when anything in it changed (equal states are not sent again)."""
        if self._state is not None and shown == self._shown:
            return
        self._shown = shown
        self._version += 1
        extra = {"version": self._version, "game_id": shown.game_id}
        state = Published(
            shown.companion,
            {**extra, "storage": shown.storage.to_json(), "board_health": shown.board.to_json()},
        )
        self._state = state
        with self._lock:
            subscribers = list(self._subscribers)
        for subscription in subscribers:
            subscription.offer(state)

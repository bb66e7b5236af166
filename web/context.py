"""What every request handler needs from the app: the service, the PIN, the limiter, the
stop flag.  Kept in ``app.extensions`` so two apps (tests make many) never share anything.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from flask import Flask, current_app

from pawnlight.companion.service import Service

from .hosts import HostPolicy
from .live import LiveCache
from .ratelimit import PinLimiter
from .sessions import Sessions
from .unlock import BoardUnlock

KEY = "pawnlight"


class StreamSlots:
    """Counts the open event streams, in all and per client address, so that neither everyone
    together nor one address alone can hold more than their share: past either limit a phone
    is told to poll instead."""

    def __init__(self, limit: int, per_address: int = 4) -> None:
        self.limit = limit
        self.per_address = per_address
        self.open = 0
        self._by_address: dict[str, int] = {}
        self._lock = threading.Lock()

    def take(self, address: str = "") -> bool:
        with self._lock:
            mine = self._by_address.get(address, 0)
            if self.open >= self.limit or mine >= self.per_address:
                return False
            self.open += 1
            self._by_address[address] = mine + 1
            return True

    def give_back(self, address: str = "") -> None:
        with self._lock:
            self.open -= 1
            left = self._by_address.get(address, 1) - 1
            if left > 0:
                self._by_address[address] = left
            else:
                self._by_address.pop(address, None)


class Stories(Protocol):
    """Tells finished games' stories in the background (pawnlight.runtime.storyteller)."""

    def status(self, game_id: int) -> dict[str, Any]:
        """``{"state": "ready", "story": ...}``, ``"working"`` (``done``, ``of``) or ``"none"``
        (``reason``); asking starts the work if it was not under way."""
        ...


@dataclass
class Context:
    service: Service
    pin: str | None
    limiter: PinLimiter
    sim: bool
    public_url: str | None = None
    #: This board's id on the remote-play broker (docs/remote.md); None: it plays alone.
    remote_board: str | None = None
    #: Set when the server stops: event streams end at their next wake-up.
    stopping: threading.Event = field(default_factory=threading.Event)
    streams: StreamSlots = field(default_factory=lambda: StreamSlots(32))
    #: Each version's encodings and fragments, built once and shared by every phone.
    live: LiveCache = field(default_factory=LiveCache)
    hosts: HostPolicy = field(default_factory=HostPolicy)
    sessions: Sessions = field(default_factory=Sessions)
    #: Follows the board's unlocks, lifting PIN lockouts (unlock.py); None: no such service.
    unlock: BoardUnlock | None = None
    #: The name other phones open this machine by (its network address), set by the web server
    #: when it serves every interface; None when it serves this machine alone.
    share_host: str | None = None
    #: What the event broadcaster builds from each new snapshot before waking the streams
    #: (asgi.Broadcaster); None: the status page's event and live fragments.
    prepare: Callable[[dict[str, Any]], None] | None = None
    #: Tells finished games' stories in the background (pawnlight.runtime.storyteller); None:
    #: no stories on this board (the page says so).
    stories: Stories | None = None


def context() -> Context:
    return current_app.extensions[KEY]


def context_of(app: Flask) -> Context | None:
    return app.extensions.get(KEY)

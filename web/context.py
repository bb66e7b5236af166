"""What every request handler needs from the app: the service, the PIN, the limiter, the
stop flag.  Kept in ``app.extensions`` so two apps (tests make many) never share anything.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from flask import Flask, current_app

from pawnlight.companion.service import Service

from .ratelimit import PinLimiter

KEY = "pawnlight"


class StreamSlots:
    """Counts the open event streams, so they cannot take every server thread: past the limit
    a phone is told to poll instead."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open = 0
        self._lock = threading.Lock()

    def take(self) -> bool:
        with self._lock:
            if self.open >= self.limit:
                return False
            self.open += 1
            return True

    def give_back(self) -> None:
        with self._lock:
            self.open -= 1


@dataclass
class Context:
    service: Service
    pin: str | None
    limiter: PinLimiter
    sim: bool
    public_url: str | None = None
    #: Set when the server stops: event streams end at their next wake-up.
    stopping: threading.Event = field(default_factory=threading.Event)
    streams: StreamSlots = field(default_factory=lambda: StreamSlots(32))


def context() -> Context:
    return current_app.extensions[KEY]


def context_of(app: Flask) -> Context | None:
    return app.extensions.get(KEY)

"""One background thread that can be started, told to stop, and waited for.

The live publisher (remote.link.live_publisher) and the club page's feed (web/club_page.py)
each run a loop in a daemon thread until they are stopped; both start and stop it here.
The loop reads ``stopping`` (an Event: ``while not stopping.wait(interval)`` or
``while not stopping.is_set()``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

#: Seconds ``stop`` waits for the loop to notice and end.
JOIN_TIMEOUT = 5.0


class BackgroundThread:
    """``BackgroundThread("pawnlight-live")``: ``start(loop, *args)`` runs ``loop(*args)`` in a
    daemon thread of that name; ``stop()`` sets ``stopping`` and waits for the thread to end.
    Started again after a stop, it runs anew."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, loop: Callable[..., None], *args: Any) -> None:
        self.stopping.clear()
        self._thread = threading.Thread(target=loop, args=args, name=self.name, daemon=True)
        self._thread.start()

    def stop(self, timeout: float = JOIN_TIMEOUT) -> None:
        self.stopping.set()
        if self._thread is not None:
            self._thread.join(timeout=timeout)
            self._thread = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

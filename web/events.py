"""Server-Sent Events: the state now, then every new snapshot, on one long response.

This is the stream as the Flask app serves it (the test client, a plain WSGI server); the served
app answers ``/api/events`` on its event loop instead (asgi.py), without a thread per phone.
Here a stream holds one thread, so it must end by itself: when the server stops (the stop
flag is checked between short waits), and when the phone goes away (the heartbeat comment every
~15 s makes the write fail, and the generator is closed).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Generator
from typing import Any, Protocol

from pawnlight.companion.service import Subscription

#: How long one wait for a snapshot lasts: the longest a stopping server waits for a stream.
WAKE = 0.5


class Publisher(Protocol):
    """The part of :class:`~pawnlight.companion.service.Service` a stream reads."""

    def state(self) -> dict[str, Any]: ...

    def subscribe(self) -> Subscription: ...


def event(state: dict[str, Any]) -> str:
    """One ``state`` event; ``id`` is the snapshot's version when it has one."""
    version = state.get("version")
    head = f"id: {version}\n" if isinstance(version, int) else ""
    return f"{head}event: state\ndata: {json.dumps(state, separators=(',', ':'))}\n\n"


def stream(
    service: Publisher,
    stopping: Callable[[], bool],
    heartbeat: float = 15.0,
    clock: Callable[[], float] = time.monotonic,
    encode: Callable[[dict[str, Any]], str] = event,
) -> Generator[str, None, None]:
    """The text of an event stream; ends when ``stopping()`` turns true (or when the generator
    is closed).  ``encode`` makes a snapshot's event (the app's sends the compact state, encoded
    once for all phones)."""
    # Subscribe before reading the state, so no snapshot can fall between the two.
    subscription = service.subscribe()
    try:
        # retry: how long the browser waits before reconnecting by itself.
        yield "retry: 2000\n\n"
        state = service.state()
        yield encode(state)
        last = state.get("version")
        quiet_since = clock()
        while not stopping():
            snapshot = subscription.get(WAKE)
            if snapshot is None:
                if clock() - quiet_since >= heartbeat:
                    yield ": heartbeat\n\n"
                    quiet_since = clock()
                continue
            version = snapshot.get("version")
            if isinstance(version, int) and isinstance(last, int) and version <= last:
                continue  # already sent (the replay at connect can overlap the subscription)
            last = version
            yield encode(snapshot)
            quiet_since = clock()
    finally:
        subscription.close()

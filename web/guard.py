"""Connections that cannot starve the server: caps per client address and in all, a cap for
the connections still sending their headers (the oldest closed first when room is needed), and
a time limit for a request's headers.

uvicorn reads requests on its event loop, so a slow client costs a socket and a little memory,
never a thread; these limits keep even that bounded.  A connection past a cap is closed at once
(a phone opens a handful at most); one whose request headers have not all arrived within
``HEADER_TIMEOUT`` seconds is closed (uvicorn's own keep-alive timer stops counting as soon as
any byte arrives, so a client trickling a header a byte at a time would otherwise stay forever).
The request body's time limit is the front app's (asgi.py), which reads bodies before any
thread sees them.
"""

from __future__ import annotations

import asyncio
import socket
from dataclasses import dataclass, field
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

#: Seconds a client has to send a request's line and headers.
HEADER_TIMEOUT = 10.0
#: How much of a connection's unread bytes are looked at for a request's whole head before it
#: is closed to make room (h11 refuses heads past 16 KiB anyway).
PEEK_BYTES = 16384


@dataclass
class ConnectionLimits:
    """How many connections the server holds, in all and from one address; shared by every
    connection of one server (the protocol class is made per server by :func:`protocol`)."""

    total: int = 256
    per_address: int = 16
    #: Connections whose request headers have not all arrived, from every address together:
    #: well below ``total``, so a flood of slow clients always leaves room for the phones.
    #: When a connection needs room, the slow one waiting longest is closed first.
    slow_total: int = 64
    header_timeout: float = HEADER_TIMEOUT
    open: dict[str, int] = field(default_factory=dict)
    refused: int = 0
    #: Slow connections closed to make room for newer ones.
    evicted: int = 0
    #: The connections waiting for their request headers, the longest waiting first.
    waiting: dict[GuardedH11Protocol, None] = field(default_factory=dict)

    def take(self, address: str, connection: GuardedH11Protocol | None = None) -> bool:
        mine = self.open.get(address, 0)
        if mine >= self.per_address:
            self.refused += 1
            return False
        while (
            sum(self.open.values()) >= self.total or len(self.waiting) >= self.slow_total
        ) and self.waiting:
            self._evict()  # the slow client waiting longest makes room
        if sum(self.open.values()) >= self.total:
            self.refused += 1
            return False
        self.open[address] = mine + 1
        if connection is not None:
            self.waiting[connection] = None
        return True

    def _evict(self) -> None:
        # The oldest first, but not one whose request's headers are already in its socket,
        # unread: a phone accepted in one batch with a flood's connections has sent its request
        # whole before the loop reads it, and closing it would refuse the phone, not the flood.
        victim = next((c for c in self.waiting if not c.request_arrived()), None)
        if victim is None:
            victim = next(iter(self.waiting))
        del self.waiting[victim]
        self.evicted += 1
        victim.evict()

    def give_back(self, address: str) -> None:
        left = self.open.get(address, 1) - 1
        if left > 0:
            self.open[address] = left
        else:
            self.open.pop(address, None)


class GuardedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with the limits of :class:`ConnectionLimits`."""

    limits: ConnectionLimits = ConnectionLimits()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._address: str | None = None
        self._header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        address = self.client[0] if self.client else ""
        if not self.limits.take(address, self):
            self._let_go()
            transport.abort()  # no answer at all: a flood must not cost a write each
            return
        self._address = address
        self._arm_header_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_header_timer()
        self.limits.waiting.pop(self, None)
        if self._address is not None:
            self.limits.give_back(self._address)
            self._address = None
        super().connection_lost(exc)

    def request_arrived(self) -> bool:
        """Whether a request's line and headers have all arrived in the socket, not yet read by
        the loop (looked at, not taken: the loop reads them as ever)."""
        sock = self.transport.get_extra_info("socket") if self.transport else None
        if sock is None:
            return False
        peek = socket.socket(fileno=sock.fileno())
        try:
            waiting = peek.recv(PEEK_BYTES, socket.MSG_PEEK | socket.MSG_DONTWAIT)
        except OSError:  # nothing there (EAGAIN), or the connection is gone
            return False
        finally:
            peek.detach()  # the transport's socket: never closed here
        return b"\r\n\r\n" in waiting

    def evict(self) -> None:
        """Closed to make room (the limits took it out of their waiting list): its place is
        given back now, not when the loop gets round to connection_lost."""
        self._cancel_header_timer()
        if self._address is not None:
            self.limits.give_back(self._address)
            self._address = None
        self._let_go()
        self.transport.abort()

    def _let_go(self) -> None:
        """Out of uvicorn's count of connections now, not when the loop gets round to
        connection_lost: under a flood that reopens as fast as it is closed, thousands closed
        and not yet lost filled its ``limit_concurrency``, and it answered the phones' requests
        503 ("Exceeded concurrency limit")."""
        self.connections.discard(self)

    def data_received(self, data: bytes) -> None:
        waiting = self.conn.their_state is h11.IDLE
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._cancel_header_timer()  # the headers are in: the request is the app's now
            self.limits.waiting.pop(self, None)
        elif waiting and self._header_timer is None:
            self._arm_header_timer()  # the next request of a kept-alive connection began
            if self._address is not None:
                self.limits.waiting[self] = None

    def _arm_header_timer(self) -> None:
        self._cancel_header_timer()
        self._header_timer = self.loop.call_later(self.limits.header_timeout, self._too_slow)

    def _cancel_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _too_slow(self) -> None:
        self._header_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.limits.waiting.pop(self, None)
            self._let_go()
            self.transport.close()


def protocol(limits: ConnectionLimits) -> type[GuardedH11Protocol]:
    """A protocol class bound to one server's limits."""
    return type("PawnlightH11Protocol", (GuardedH11Protocol,), {"limits": limits})

"""Serving the app with uvicorn, started and stopped from the daemon's own thread.

uvicorn reads every request on one asyncio event loop, so a slow or idle client holds a socket,
never a thread; the event streams are coroutines on that loop (asgi.py) and the rest of the app
runs in a few threads only once a request has fully arrived.  guard.py caps the connections per
address and in all, and closes those whose headers do not arrive in time.  Stopping sets the
app's stop flag first, so every stream ends at once instead of holding the shutdown up.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
from collections.abc import Callable, Sequence

import uvicorn
from flask import Flask

from . import hosts
from .asgi import Front
from .context import context_of
from .guard import ConnectionLimits, protocol

log = logging.getLogger(__name__)


class WebServer:
    """``WebServer(app, "0.0.0.0", 8080).start()`` ... ``.stop()``; port 0 picks a free port,
    read back from :attr:`port` once started.

    ``threads`` serve the Flask app (requests that have fully arrived; streams need none);
    ``limits`` caps connections (guard.py).  On every interface (``"0.0.0.0"``) the page also
    answers to the machine's network addresses, ``lan_addresses()`` (hosts.py), and its QR code
    carries the first of them: :attr:`share_url`.
    """

    def __init__(
        self,
        app: Flask,
        host: str = "0.0.0.0",
        port: int = 8080,
        *,
        threads: int = 8,
        limits: ConnectionLimits | None = None,
        shutdown_timeout: float = 3.0,
        lan_addresses: Callable[[], Sequence[str]] = hosts.lan_addresses,
    ) -> None:
        self.app = app
        self._lan_addresses = lan_addresses
        #: The address other phones open, once started on every interface; else None.
        self.share_url: str | None = None
        self.host = host
        self.port = port
        self.limits = limits or ConnectionLimits()
        self.front = Front(app, threads=threads)
        self._config = uvicorn.Config(
            self.front,
            http=protocol(self.limits),
            lifespan="on",
            log_config=None,
            access_log=False,
            server_header=False,
            date_header=False,
            timeout_keep_alive=5,
            timeout_graceful_shutdown=max(1, round(shutdown_timeout)),
            limit_concurrency=self.limits.total * 2,
        )
        self._server: uvicorn.Server | None = None
        self._socket: socket.socket | None = None
        self._thread: threading.Thread | None = None
        self._started = threading.Event()

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}/"

    def start(self) -> None:
        """Bind, listen and serve in a background thread; returns once connections are
        accepted (an address in use raises OSError here, in the caller's thread)."""
        if self._thread is not None:
            raise RuntimeError("the web server is already started")
        context = context_of(self.app)
        if context is not None:
            context.stopping.clear()
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        # IPPROTO_TCP named, not 0: asyncio turns Nagle's algorithm off only for sockets that
        # say they are TCP, and with it on every answer written in two parts (headers, body)
        # waited 40 ms for the client's delayed ACK.
        sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((self.host, self.port))
            sock.listen(128)
        except OSError:
            sock.close()
            raise
        sock.setblocking(False)
        self._socket = sock
        self.port = sock.getsockname()[1]
        if hosts.serves_everywhere(self.host):
            addresses = list(self._lan_addresses())
            share = hosts.share_host(addresses)
            self.share_url = hosts.url_of(share, self.port) if share else None
            if context is not None:
                context.hosts.add(addresses)
                if share:
                    context.hosts.add([share])
                context.share_host = share
        self._server = uvicorn.Server(self._config)
        self._started.clear()
        self._thread = threading.Thread(target=self._serve, name="pawnlight-web", daemon=True)
        self._thread.start()
        if not self._started.wait(10):
            log.warning("the web server took long to start")
        log.info("serving the status page on %s", self.url)
        if self.share_url:
            log.info("other phones on this network open %s", self.share_url)

    def _serve(self) -> None:
        assert self._server is not None and self._socket is not None
        server, sock = self._server, self._socket

        async def serve() -> None:
            task = asyncio.ensure_future(server.serve(sockets=[sock]))
            while not server.started and not task.done():
                await asyncio.sleep(0.01)
            self._started.set()
            await task

        try:
            asyncio.run(serve())
        except Exception:  # the daemon goes on without its page rather than dying
            log.exception("the web server stopped unexpectedly")
        finally:
            self._started.set()

    def stop(self) -> None:
        """End every event stream, stop accepting, and wait for the serving thread."""
        context = context_of(self.app)
        if context is not None:
            context.stopping.set()
        if self._thread is None:
            return
        self.front.broadcaster.stop()
        if self._server is not None:
            self._server.should_exit = True
        self._thread.join(timeout=10)
        self._thread = None
        if self._socket is not None:
            self._socket.close()
            self._socket = None

    def __enter__(self) -> WebServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

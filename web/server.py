"""Serving the app with cheroot, started and stopped from the daemon's own thread.

cheroot gives each request a thread from a fixed pool.  An open event stream keeps its thread
for as long as the phone watches, so the pool is much bigger than the number of phones (40 by
default; the app caps streams below that), and stopping sets the app's stop flag first so every
stream ends within half a second instead of holding the shutdown up.
"""

from __future__ import annotations

import logging
import threading

from cheroot import wsgi
from flask import Flask

from .context import context_of

log = logging.getLogger(__name__)


class WebServer:
    """``WebServer(app, "0.0.0.0", 8080).start()`` ... ``.stop()``; port 0 picks a free port,
    read back from :attr:`port` once started."""

    def __init__(
        self,
        app: Flask,
        host: str = "0.0.0.0",
        port: int = 8080,
        *,
        numthreads: int = 40,
        shutdown_timeout: float = 3.0,
    ) -> None:
        self.app = app
        self.host = host
        self.port = port
        self._server = wsgi.Server(
            (host, port),
            app,
            numthreads=numthreads,
            server_name="pawnlight",
            shutdown_timeout=shutdown_timeout,
        )
        self._thread: threading.Thread | None = None

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
        self._server.prepare()
        self.port = self._server.bind_addr[1]
        self._thread = threading.Thread(target=self._serve, name="pawnlight-web", daemon=True)
        self._thread.start()
        log.info("serving the status page on %s", self.url)

    def _serve(self) -> None:
        try:
            self._server.serve()
        except Exception:  # the daemon goes on without its page rather than dying
            log.exception("the web server stopped unexpectedly")

    def stop(self) -> None:
        """End every event stream, stop accepting, and wait for the serving thread."""
        context = context_of(self.app)
        if context is not None:
            context.stopping.set()
        if self._thread is None:
            return
        self._server.stop()
        self._thread.join(timeout=10)
        self._thread = None

    def __enter__(self) -> WebServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

"""The served app: event streams on the event loop, everything else through Flask in a few
threads, and no request reaching a thread before it has arrived whole.

* ``GET /api/events`` is answered here, as a coroutine: twenty phones watching cost twenty
  small tasks, not twenty threads.  One :class:`Broadcaster` thread takes each new snapshot from
  the companion, has its event (and the public live fragment) built once, and wakes every
  stream; a stream sends the newest version it has not sent (a phone that was slow skips the
  versions in between: each event carries the whole compact state).
* Every other request's body is read here, within :data:`BODY_TIMEOUT` seconds and
  :data:`MAX_BODY` bytes (413 past it, chunked or not), then handed to the Flask app in a
  thread (a2wsgi) with the body already in memory.
* The ``Host`` allowlist (hosts.py) applies to every route, the stream's included.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import zlib
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qs

from a2wsgi import WSGIMiddleware
from flask import Flask

from .api import STREAM_REFUSED
from .app import CSP, bad_host_message
from .context import Context, context_of
from .events import WAKE
from .live import Encoded
from .view import whole_number

log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

#: The headers every page answer carries (app.py adds them to the Flask app's answers).
_PAGE_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", CSP.encode()),
]

#: The largest request body (the Flask app's MAX_CONTENT_LENGTH says the same).
MAX_BODY = 64 * 1024
#: Seconds a client has to send a request's body, once its headers are in.
BODY_TIMEOUT = 10.0


async def _json(send: Send, status: int, body: dict[str, Any], headers=()) -> None:
    data = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(data)).encode()),
                (b"cache-control", b"no-store"),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": data})


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers") or ():
        if key == name:
            return value.decode("latin-1")
    return None


class Broadcaster:
    """Takes every snapshot from the companion on one thread and wakes the streams."""

    def __init__(self, app: Flask, ctx: Context) -> None:
        self.app = app
        self.ctx = ctx
        self.loop: asyncio.AbstractEventLoop | None = None
        self._changed: asyncio.Future[None] | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._last: tuple[int, int] | None = None  # the history length and epoch last sent

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._changed = loop.create_future()
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="pawnlight-events", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def changed(self) -> asyncio.Future[None]:
        """A future done at the next change (call on the loop)."""
        assert self._changed is not None
        return self._changed

    def _run(self) -> None:
        subscription = self.ctx.service.subscribe()
        try:
            while not self._stop.is_set() and not self.ctx.stopping.is_set():
                snapshot = subscription.get(WAKE)
                if snapshot is None:
                    continue
                while (newer := subscription.get(0)) is not None:
                    snapshot = newer  # a burst: only the newest matters
                self._prepare(snapshot)
                self._wake()
                # Then the whole state's JSON, for scripts polling GET /api/state (after the
                # wake: the phones need only the compact state).
                with contextlib.suppress(Exception):
                    self.ctx.live.json(snapshot)
        except Exception:
            log.exception("the event broadcaster stopped")
        finally:
            subscription.close()

    def _prepare(self, snapshot: dict[str, Any]) -> None:
        """Build what every phone will ask for next, once, before waking them: the event, the
        public live fragment, and the history lines new since the last state sent."""
        from .pages import fragment, history_fragment

        if self.ctx.prepare is not None:  # another page than the status page (web/club_page.py)
            try:
                self.ctx.prepare(snapshot)
            except Exception:
                log.exception("could not prepare the event")
            return
        try:
            self.ctx.live.event(snapshot)
            with self.app.test_request_context("/partial/live", headers={"Host": "localhost"}):
                fragment("_live.html", "live")
            length = len(snapshot.get("history") or [])
            epoch = self.ctx.live.epoch(snapshot)
            before, self._last = self._last, (length, epoch)
            if before is not None and before[1] == epoch and 0 < before[0] < length:
                path = f"/partial/history?after={before[0]}"
                with self.app.test_request_context(path, headers={"Host": "localhost"}):
                    history_fragment()
        except Exception:  # a phone asking later builds it (and logs what went wrong)
            log.exception("could not prepare the live fragment")

    def _wake(self) -> None:
        loop = self.loop
        if loop is None or loop.is_closed():
            return

        def resolve() -> None:
            done, self._changed = self._changed, loop.create_future()
            if done is not None and not done.done():
                done.set_result(None)

        with contextlib.suppress(RuntimeError):  # the loop may have closed meanwhile
            loop.call_soon_threadsafe(resolve)


class Front:
    """The ASGI app uvicorn serves (see the module docstring)."""

    def __init__(self, app: Flask, *, threads: int = 8) -> None:
        ctx = context_of(app)
        assert ctx is not None, "create the Flask app with create_app()"
        self.app = app
        self.ctx = ctx
        self.wsgi = WSGIMiddleware(app, workers=threads)  # type: ignore[arg-type]
        self.broadcaster = Broadcaster(app, ctx)
        self.heartbeat = float(app.config.get("SSE_HEARTBEAT", 15.0))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        server = scope.get("server")
        local = str(server[0]) if server else None
        host = _header(scope, b"host")
        if not self.ctx.hosts.allows(host, local):
            await _json(send, 421, {"error": bad_host_message(host)})
            return
        if scope["path"] == "/api/events" and scope["method"] in ("GET", "HEAD"):
            await self._events(scope, receive, send)
            return
        if scope["method"] == "GET" and await self._cached(scope, send):
            return
        body = await self._read_body(scope, receive, send)
        if body is None:
            return
        await self.wsgi(_with_length(scope, len(body)), _replay(body), send)  # type: ignore[arg-type]

    async def _cached(self, scope: Scope, send: Send) -> bool:
        """Answer from the per-version cache, on the loop, when the answer is there: the state
        and the fragments of a phone that is not the owner's (whose fragment has the buttons
        and needs the login checked by Flask).  Twenty phones asking after a change, or a
        script polling the state, cost no thread."""
        path = scope["path"]
        if path not in ("/partial/live", "/partial/history", "/api/state"):
            return False
        query_string = scope.get("query_string") or b""
        state = self.ctx.service.state()
        mimetype = b"text/html; charset=utf-8"
        if path == "/api/state":
            if query_string not in (b"", b"compact=0", b"compact=1"):
                return False
            key: Any = ("json", "compact" if query_string == b"compact=1" else "state")
            mimetype = b"application/json"
        elif "pawnlight_session=" in (_header(scope, b"cookie") or ""):
            return False
        elif path == "/partial/live":
            if query_string:
                return False
            key = ("text", ("live", False))
        else:
            query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
            after = query.get("after", ["0"])
            if len(query) > 1 or len(after) != 1 or not whole_number(after[0]):
                return False  # Flask explains what is wrong
            key = ("text", ("history", int(after[0])))
        encoded = self.ctx.live.peek(state, key)
        if not isinstance(encoded, Encoded):
            return False
        headers = [
            (b"etag", f'"{encoded.etag}"'.encode()),
            (b"cache-control", b"no-cache"),
            (b"vary", b"Accept-Encoding, Cookie"),
            *(_PAGE_HEADERS if path != "/api/state" else _PAGE_HEADERS[:3]),
        ]
        if f'"{encoded.etag}"' in (_header(scope, b"if-none-match") or ""):
            await send({"type": "http.response.start", "status": 304, "headers": headers})
            await send({"type": "http.response.body", "body": b""})
            return True
        body = encoded.plain
        if encoded.gzipped is not None and "gzip" in (_header(scope, b"accept-encoding") or ""):
            body = encoded.gzipped
            headers.append((b"content-encoding", b"gzip"))
        headers += [
            (b"content-type", mimetype),
            (b"content-length", str(len(body)).encode()),
        ]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body})
        return True

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self.broadcaster.start(asyncio.get_running_loop())
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await asyncio.get_running_loop().run_in_executor(None, self.broadcaster.stop)
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def _read_body(self, scope: Scope, receive: Receive, send: Send) -> bytes | None:
        """The whole body, or None once a 413/408/400 has been sent."""
        declared = _header(scope, b"content-length")
        if declared is not None and (
            not whole_number(declared.strip(), 12) or int(declared) > MAX_BODY
        ):
            await _json(send, 413, {"error": "the request body is too large"})
            return None
        chunks: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(BODY_TIMEOUT):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return None
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    if size > MAX_BODY:
                        await _json(send, 413, {"error": "the request body is too large"})
                        return None
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        return b"".join(chunks)
        except TimeoutError:
            await _json(
                send, 408, {"error": "the request body took too long"}, [(b"connection", b"close")]
            )
            return None

    async def _events(self, scope: Scope, receive: Receive, send: Send) -> None:
        ctx = self.ctx
        client = scope.get("client")
        address = str(client[0]) if client else ""
        if not ctx.streams.take(address):
            await _json(send, 503, {"error": STREAM_REFUSED}, [(b"retry-after", b"30")])
            return
        gone = asyncio.Event()

        async def watch() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            gone.set()

        watcher = asyncio.ensure_future(watch())
        # A phone that takes gzip gets the stream gzipped, flushed after each event: one
        # compressor for the whole stream, so an event much like the one before (most are)
        # costs a few hundred bytes instead of two kilobytes.
        packer = (
            zlib.compressobj(6, zlib.DEFLATED, 31)
            if "gzip" in (_header(scope, b"accept-encoding") or "")
            else None
        )

        async def emit(data: bytes) -> None:
            if packer is not None:
                data = packer.compress(data) + packer.flush(zlib.Z_SYNC_FLUSH)
            await send({"type": "http.response.body", "body": data, "more_body": True})

        try:
            headers = [
                (b"content-type", b"text/event-stream; charset=utf-8"),
                (b"cache-control", b"no-store"),
                (b"x-accel-buffering", b"no"),
                (b"x-content-type-options", b"nosniff"),
                (b"vary", b"Accept-Encoding"),
            ]
            if packer is not None:
                headers.append((b"content-encoding", b"gzip"))
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            await emit(b"retry: 2000\n\n")
            if scope["method"] == "HEAD":
                return
            sent: Any = None
            while not gone.is_set() and not ctx.stopping.is_set():
                changed = self.broadcaster.changed()
                state = ctx.service.state()
                version = state.get("version")
                if version != sent or not isinstance(version, int):
                    await emit(ctx.live.event(state))
                    sent = version
                waiter = asyncio.ensure_future(gone.wait())
                either: set[asyncio.Future[Any]] = {changed, waiter}
                try:
                    done, _ = await asyncio.wait(
                        either,
                        timeout=self.heartbeat,
                        return_when=asyncio.FIRST_COMPLETED,
                    )
                finally:
                    waiter.cancel()
                if not done:
                    await emit(b": heartbeat\n\n")
        finally:
            watcher.cancel()
            ctx.streams.give_back(address)
            if not gone.is_set():
                with contextlib.suppress(Exception):  # the phone may have gone meanwhile
                    tail = packer.flush() if packer is not None else b""
                    await send({"type": "http.response.body", "body": tail, "more_body": False})


def _with_length(scope: Scope, length: int) -> Scope:
    """The scope as Flask should see it: the body is all here, so it has a plain length."""
    headers = [
        (k, v)
        for k, v in scope.get("headers") or ()
        if k not in (b"content-length", b"transfer-encoding")
    ]
    headers.append((b"content-length", str(length).encode()))
    return {**scope, "headers": headers}


def _replay(body: bytes) -> Receive:
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.Event().wait()  # a WSGI app never asks again; disconnects are not needed
        return {"type": "http.disconnect"}

    return receive

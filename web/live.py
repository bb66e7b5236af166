"""What twenty phones share: each version of the state encoded, compressed and rendered once.

A phone on the status page needs, after every change, a few kilobytes: the event that says a
new version exists (the state without its history), the live fragment of that version, and the
history lines it has not seen.  :class:`LiveCache` builds each of these once per version, the
first time anyone asks (or when the event stream hands a new version out), and every client
gets the same bytes; a client that already has them gets a 304 through its ETag.

The history is never sent again on a move: ``history_length`` and ``history_epoch`` in the
compact state tell the page how many lines it should have and whether the lines it has are
still a prefix of the game's (an undo or a new game starts a new epoch: then it fetches the
history afresh).
"""

from __future__ import annotations

import gzip
import json
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

from flask import Response, request

#: Bodies smaller than this are sent as they are: gzip's header would eat the saving.
GZIP_FROM = 512
#: Versions kept: a phone a little behind still gets a cached answer.
KEEP = 4


def _legal_texts(value: Any) -> list[dict[str, Any]]:
    moves = value if isinstance(value, list) else []
    return [{"text": m.get("text")} for m in moves if isinstance(m, Mapping)]


def compact(state: Mapping[str, Any], epoch: int = 0) -> dict[str, Any]:
    """The state without what grows with the game: no ``turns`` (positions before and after
    every turn), no ``history`` (its length and epoch instead), the legal moves and the
    choices by their texts only (the board picture shows where they go)."""
    out = {k: v for k, v in state.items() if k not in ("turns", "history", "legal", "choices")}
    history = state.get("history")
    out["history_length"] = len(history) if isinstance(history, list) else 0
    out["history_epoch"] = epoch
    out["legal"] = _legal_texts(state.get("legal"))
    out["choices"] = _legal_texts(state.get("choices"))
    return out


def dumps(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


class Encoded:
    """One body, ready to send: plain, gzipped (when worth it, made at the first client that
    takes gzip) and its ETag (unquoted)."""

    __slots__ = ("_gzipped", "etag", "plain")

    def __init__(self, plain: bytes, etag: str) -> None:
        self.plain = plain
        self.etag = etag
        self._gzipped: bytes | bool | None = False  # False: not made yet

    @classmethod
    def of(cls, body: bytes, tag: str) -> Encoded:
        return cls(body, tag)

    @property
    def gzipped(self) -> bytes | None:
        """The gzipped body, or None when gzip would not make it smaller."""
        if self._gzipped is False:
            packed: bytes | None = None
            if len(self.plain) >= GZIP_FROM:
                packed = gzip.compress(self.plain, 6, mtime=0)
                if len(packed) >= len(self.plain):
                    packed = None
            self._gzipped = packed
        return self._gzipped  # type: ignore[return-value]


class _Epochs:
    """Counts how often the history stopped being an extension of what was seen before."""

    def __init__(self) -> None:
        self.epoch = 0
        self._last: tuple[Any, list[str]] = (None, [])
        self._seen: OrderedDict[int, int] = OrderedDict()

    def of(self, state: Mapping[str, Any]) -> int:
        version = state.get("version")
        if isinstance(version, int) and version in self._seen:
            return self._seen[version]
        history = state.get("history")
        texts = [str(t) for t in history] if isinstance(history, list) else []
        game, before = self._last
        if game != state.get("game_id") or texts[: len(before)] != before:
            self.epoch += 1
        self._last = (state.get("game_id"), texts)
        if isinstance(version, int):
            self._seen[version] = self.epoch
            while len(self._seen) > 64:
                self._seen.popitem(last=False)
        return self.epoch


class LiveCache:
    """Per-version encodings of the state and renderings of the page's fragments.

    ``key(name)`` values are built by a function called once per version and key (the others
    asking meanwhile wait for it), then shared; only the last :data:`KEEP` versions are held.
    """

    def __init__(self) -> None:
        #: Changes with every start, so an ETag of one run never matches the next run's.
        self.boot = secrets.token_hex(4)
        self._lock = threading.Lock()
        self._epochs = _Epochs()
        self._versions: OrderedDict[Any, dict[Any, Any]] = OrderedDict()
        self._building: dict[tuple[Any, Any], threading.Event] = {}

    def tag(self, state: Mapping[str, Any], *parts: object) -> str:
        return "-".join([self.boot, str(state.get("version")), *map(str, parts)])

    def epoch(self, state: Mapping[str, Any]) -> int:
        with self._lock:
            return self._epochs.of(state)

    def compact(self, state: Mapping[str, Any]) -> dict[str, Any]:
        return self.get(state, "compact", lambda: compact(state, self.epoch(state)))

    def event(self, state: Mapping[str, Any]) -> bytes:
        """The SSE ``state`` event of this version, as bytes."""

        def build() -> bytes:
            version = state.get("version")
            head = f"id: {version}\n" if isinstance(version, int) else ""
            data = dumps(self.compact(state)).decode()
            return f"{head}event: state\ndata: {data}\n\n".encode()

        return self.get(state, "event", build)

    def json(self, state: Mapping[str, Any], compact_form: bool = False) -> Encoded:
        name = "compact" if compact_form else "state"

        def build() -> Encoded:
            value = self.compact(state) if compact_form else state
            return Encoded.of(dumps(value), self.tag(state, name))

        return self.get(state, ("json", name), build)

    def text(self, state: Mapping[str, Any], key: Any, render: Callable[[], str]) -> Encoded:
        """A rendered fragment of this version, rendered once for everyone who asks."""
        tag = self.tag(state, *(key if isinstance(key, tuple) else (key,)))
        return self.get(state, ("text", key), lambda: Encoded.of(render().encode(), tag))

    def peek(self, state: Mapping[str, Any], key: Any) -> Any:
        """What is built for this version and key already, or None (never builds)."""
        with self._lock:
            return self._versions.get(state.get("version"), {}).get(key)

    def get(self, state: Mapping[str, Any], key: Any, build: Callable[[], Any]) -> Any:
        version = state.get("version")
        if not isinstance(version, int):
            return build()  # a state without a version cannot be cached
        while True:
            with self._lock:
                entries = self._versions.get(version)
                if entries is not None and key in entries:
                    return entries[key]
                waiting = self._building.get((version, key))
                if waiting is None:
                    done = self._building[(version, key)] = threading.Event()
                    break
            waiting.wait(5.0)
        try:
            value = build()
            with self._lock:
                entries = self._versions.setdefault(version, {})
                entries[key] = value
                while len(self._versions) > KEEP:
                    del self._versions[min(self._versions)]
            return value
        finally:
            with self._lock:
                del self._building[(version, key)]
            done.set()


def respond(encoded: Encoded, mimetype: str, cache: str = "no-cache") -> Response:
    """Send a cached body: 304 when the client has it (``If-None-Match``), gzipped when the
    client takes gzip.  ``no-cache`` lets the browser keep it but ask before using it."""
    headers = {
        "ETag": f'"{encoded.etag}"',
        "Cache-Control": cache,
        "Vary": "Accept-Encoding, Cookie",
    }
    if request.if_none_match.contains(encoded.etag) or request.if_none_match.star_tag:
        return Response(status=304, headers=headers)
    if encoded.gzipped is not None and "gzip" in request.accept_encodings:
        response = Response(encoded.gzipped, mimetype=mimetype, headers=headers)
        response.headers["Content-Encoding"] = "gzip"
        return response
    return Response(encoded.plain, mimetype=mimetype, headers=headers)

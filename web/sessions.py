"""The owner's logins as the server knows them, so a login can be taken back.

A signed cookie alone stays valid until it expires, whatever happens on the server.  Each login
gets a random id that the server keeps here (only a hash of it, with its expiry); logging out
forgets it, and changing the PIN forgets them all, so a cookie copied before either is useless.
The ids live in a file in the data folder when one is given, so a restart keeps the owner in
(as the stored cookie key does), and in memory otherwise.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import secrets
import threading
import time
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger(__name__)

#: Logins remembered at most: the oldest are forgotten first.
CAPACITY = 64


def _digest(sid: str) -> str:
    return hashlib.sha256(sid.encode()).hexdigest()


class Sessions:
    def __init__(
        self,
        path: Path | None = None,
        *,
        lifetime: float = 30 * 24 * 3600.0,
        pin_tag: str = "",
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.path = path
        self.lifetime = lifetime
        self.clock = clock
        self._lock = threading.Lock()
        self._expiry: dict[str, float] = {}
        self._pin_tag = pin_tag
        self._load()

    def start(self) -> str:
        """A new login's id (to keep in its cookie)."""
        sid = secrets.token_urlsafe(24)
        with self._lock:
            self._forget_old()
            self._expiry[_digest(sid)] = self.clock() + self.lifetime
            while len(self._expiry) > CAPACITY:
                del self._expiry[min(self._expiry, key=self._expiry.__getitem__)]
            self._save()
        return sid

    def valid(self, sid: object) -> bool:
        if not isinstance(sid, str) or not sid:
            return False
        with self._lock:
            expiry = self._expiry.get(_digest(sid))
            return expiry is not None and expiry > self.clock()

    def end(self, sid: object) -> None:
        if not isinstance(sid, str):
            return
        with self._lock:
            if self._expiry.pop(_digest(sid), None) is not None:
                self._save()

    def end_all(self) -> None:
        with self._lock:
            self._expiry.clear()
            self._save()

    def __len__(self) -> int:
        with self._lock:
            self._forget_old()
            return len(self._expiry)

    def _forget_old(self) -> None:
        now = self.clock()
        for key in [k for k, expiry in self._expiry.items() if expiry <= now]:
            del self._expiry[key]

    def _load(self) -> None:
        if self.path is None or not self.path.exists():
            return
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if data.get("pin") != self._pin_tag:
                return  # the PIN changed since: every earlier login ends
            self._expiry = {str(k): float(v) for k, v in dict(data.get("sessions", {})).items()}
        except (OSError, ValueError, TypeError, AttributeError) as error:
            log.warning(
                "owner logins not read from %s (%s): everyone logs in again", self.path, error
            )
        self._forget_old()

    def _save(self) -> None:
        if self.path is None:
            return
        text = json.dumps({"pin": self._pin_tag, "sessions": self._expiry})
        temporary = self.path.with_name(self.path.name + ".tmp")
        try:
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(descriptor, "w", encoding="utf-8") as out:
                out.write(text)
            os.replace(temporary, self.path)
        except OSError as error:
            log.warning("owner logins not saved to %s: %s", self.path, error)

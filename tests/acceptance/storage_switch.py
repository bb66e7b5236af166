"""A storage made read-only and writable again under a real daemon, without root.

A test may not remount a file system, and as root no file permission makes a file read-only.
So the daemon of an acceptance evening starts with :func:`install`: while the file ``FLAG``
is in its data folder, SQLite connections opened in the daemon are read-only (``mode=ro``, as
SQLite opens a file on a read-only mount), and every write through a connection opened before
fails as SQLite's does there ("attempt to write a readonly database").  Removing the file is
the remount read-write.  (tests/daemon/test_storage_heals.py does the same in process.)

As SQLite on a real read-only mount, a connection opened while the storage was read-only keeps
every connection the process opens beside it to the same file read-only, even after the
remount (SQLite shares one mapping of the ``-shm`` file among them): until it is closed, new
connections are *tainted*, and their writes fail for good.  Issue #44: the daemon opened the
new connection before closing the old one, and a storage read-only at start never healed."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

#: In the data folder: the storage is read-only while it is there.
FLAG = "storage-read-only"
WRITES = ("BEGIN IMMEDIATE", "INSERT", "UPDATE", "DELETE", "CREATE", "REPLACE")
#: Pragmas a read-only mount lets through (a journal in WAL mode already, a connection's sync).
SETTINGS = ("PRAGMA JOURNAL_MODE", "PRAGMA SYNCHRONOUS")


#: Connections opened while the storage was read-only and not yet closed, by file.
_READ_ONLY_OPEN: dict[str, int] = {}


class _Connection:
    """A connection whose writes fail while the storage is read-only (or for good, when it was
    opened beside one opened read-only: see the module docstring)."""

    def __init__(self, real: sqlite3.Connection, flag: Path, key: str | None = None) -> None:
        self._real, self._flag, self._key = real, flag, key
        self._tainted = key is not None and _READ_ONLY_OPEN.get(key, 0) > 0
        # A tainted connection holds the read-only mapping too: one opened beside it is tainted.
        self._holds = key is not None and (flag.exists() or self._tainted)
        if self._holds:
            assert key is not None
            _READ_ONLY_OPEN[key] = _READ_ONLY_OPEN.get(key, 0) + 1

    def _check(self, sql: str) -> None:
        words = sql.lstrip().upper()
        setting = words.startswith(SETTINGS)  # the connection's own, written nowhere
        writes = words.startswith(WRITES) or (words.startswith("PRAGMA") and "=" in words)
        if writes and not setting and (self._flag.exists() or self._tainted):
            raise sqlite3.OperationalError("attempt to write a readonly database")

    def close(self) -> None:
        if self._holds and self._key is not None:
            _READ_ONLY_OPEN[self._key] -= 1
            self._holds = False
        self._real.close()

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        self._check(sql)
        return self._real.execute(sql, *args)

    def executemany(self, sql: str, *args: Any) -> sqlite3.Cursor:
        self._check(sql)
        return self._real.executemany(sql, *args)

    def backup(self, target: Any, *args: Any, **kwargs: Any) -> None:
        if self._flag.exists() or (isinstance(target, _Connection) and target._flag.exists()):
            raise sqlite3.OperationalError("attempt to write a readonly database")
        real = target._real if isinstance(target, _Connection) else target
        self._real.backup(real, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


def install(data: str | Path) -> None:
    """Make the storage of ``data`` switchable (the module docstring)."""
    flag = Path(data) / FLAG
    real = sqlite3.connect

    def connect(database: Any, *args: Any, uri: bool = False, **kwargs: Any) -> Any:
        key = None if uri else str(Path(database).resolve())
        if flag.exists() and not uri:
            database, uri = Path(database).resolve().as_uri() + "?mode=ro", True
        return _Connection(real(database, *args, uri=uri, **kwargs), flag, key)

    sqlite3.connect = connect

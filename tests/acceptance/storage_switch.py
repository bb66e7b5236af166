"""A storage made read-only and writable again under a real daemon, without root.

A test may not remount a file system, and as root no file permission makes a file read-only.
So the daemon of an acceptance evening starts with :func:`install`: while the file ``FLAG``
is in its data folder, SQLite connections opened in the daemon are read-only (``mode=ro``, as
SQLite opens a file on a read-only mount), and every write through a connection opened before
fails as SQLite's does there ("attempt to write a readonly database").  Removing the file is
the remount read-write.  (tests/daemon/test_storage_heals.py does the same in process.)"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

#: In the data folder: the storage is read-only while it is there.
FLAG = "storage-read-only"
WRITES = ("BEGIN IMMEDIATE", "INSERT", "UPDATE", "DELETE", "CREATE", "REPLACE")


class _Connection:
    """A connection whose writes fail while the storage is read-only."""

    def __init__(self, real: sqlite3.Connection, flag: Path) -> None:
        self._real, self._flag = real, flag

    def _check(self, sql: str) -> None:
        words = sql.lstrip().upper()
        writes = words.startswith(WRITES) or (words.startswith("PRAGMA") and "=" in words)
        if writes and self._flag.exists():
            raise sqlite3.OperationalError("attempt to write a readonly database")

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
        if flag.exists() and not uri:
            database, uri = Path(database).resolve().as_uri() + "?mode=ro", True
        return _Connection(real(database, *args, uri=uri, **kwargs), flag)

    sqlite3.connect = connect

"""Opening the journal for play without ever losing what is in it.

A damaged or empty journal file is never replaced in place: it is moved aside with its ``-wal``
and ``-shm`` files (``journal-damaged-<when>.sqlite3``), a fresh journal is started, and the
companion says so on the page.  A write-ahead log deleted while the companion was stopped is
detected from what SQLite's index (``-shm``) still says about it, before SQLite rebuilds that
index; the index is kept aside as the evidence ``pawnlight games check`` reports.
"""

from __future__ import annotations

import os
import struct
from datetime import datetime
from pathlib import Path

from .errors import JournalDamaged
from .journal import Journal
from .schema import sync_directory

#: The wal-index header (sqlite.org/walformat.html): mxFrame, the last valid frame of the WAL,
#: is at byte 16; nBackfill, the frames already copied into the database, at byte 96.  Both are
#: in the writer's native byte order, and SQLite keeps two copies of the header (bytes 0-47).
_MX_FRAME = 16
_BACKFILL = 96
_LOST_WAL = "-shm.lost-wal-"


def _sidecars(path: Path) -> list[Path]:
    return [path.with_name(path.name + suffix) for suffix in ("-wal", "-shm")]


def _stamp() -> str:
    return datetime.now().strftime("%Y%m%d-%H%M%S")


def unsaved_wal_frames(path: Path) -> int:
    """Frames the WAL held that are not in the database file, as its index (``-shm``) says;
    0 when there is no index or it says nothing is pending."""
    try:
        header = path.with_name(path.name + "-shm").read_bytes()[: _BACKFILL + 4]
    except OSError:
        return 0
    if len(header) < _BACKFILL + 4:
        return 0
    frames: int = struct.unpack_from("=I", header, _MX_FRAME)[0]
    backfilled: int = struct.unpack_from("=I", header, _BACKFILL)[0]
    return max(0, frames - backfilled)


def lost_wal_problems(path: Path) -> list[str]:
    """What can be told about a write-ahead log that went missing: now (the index says it held
    changes, the log is gone), or earlier (an index the companion kept aside)."""
    problems = []
    wal = path.with_name(path.name + "-wal")
    frames = unsaved_wal_frames(path)
    if frames and not wal.exists():
        problems.append(
            f"{wal.name} is missing, but SQLite's index says it held {frames} unsaved page "
            "writes: the last moves recorded before pawnlight stopped are lost"
        )
    for kept in sorted(path.parent.glob(path.name + _LOST_WAL + "*")):
        problems.append(
            f"the write-ahead log was missing when pawnlight started (its index is kept as "
            f"{kept.name}): moves recorded shortly before that are lost; delete that file once "
            "you have dealt with it (docs/records.md, 'Damage')"
        )
    return problems


def set_aside(path: Path, why: str = "damaged") -> Path:
    """Move a journal file and its -wal/-shm aside, next to it (``<stem>-<why>-<when>``);
    returns the new main name."""
    stem = path.stem or path.name
    target = path.with_name(f"{stem}-{why}-{_stamp()}{path.suffix}")
    for n in range(1, 100):
        if not any(target.with_name(target.name + s).exists() for s in ("", "-wal", "-shm")):
            break
        target = path.with_name(f"{stem}-{why}-{_stamp()}-{n}{path.suffix}")
    for old, suffix in [(path, ""), *((s, s.name[len(path.name) :]) for s in _sidecars(path))]:
        if old.exists():
            os.replace(old, target.with_name(target.name + suffix))
    sync_directory(path.parent)
    return target


def open_for_play(path: Path) -> tuple[Journal, list[str]]:
    """The journal to play with, and what the players must be told about it.

    Other problems (a newer schema, another program's database, a read-only folder) raise
    JournalError as :meth:`Journal.open` does: those are for a person to fix, not to set aside.
    """
    notices = []
    wal = path.with_name(path.name + "-wal")
    frames = unsaved_wal_frames(path)
    if frames and not wal.exists():
        kept = path.with_name(path.name + _LOST_WAL + _stamp())
        os.replace(path.with_name(path.name + "-shm"), kept)
        notices.append(
            f"The journal's write-ahead log ({wal.name}) was missing, though it held "
            f"{frames} unsaved page writes: the last moves recorded before pawnlight stopped "
            f"are lost. Playing on with what the journal has; {kept.name} is kept as evidence."
        )
    if not path.exists() and any(s.exists() for s in _sidecars(path)):
        target = set_aside(path)
        notices.append(
            f"The journal {path.name} was missing (only its -wal/-shm files were there): they "
            f"were kept aside as {target.name}-wal/-shm and a new journal was started."
        )
    try:
        return Journal.open(path), notices
    except JournalDamaged as error:
        target = set_aside(path)
        what = str(error).split("; it was left as it is")[0]
        notices.append(
            f"{what[0].upper()}{what[1:]}. It was kept aside as {target.name} (its games can "
            "be recovered: "
            "docs/records.md, 'Damage') and a new journal was started."
        )
        return Journal.open(path), notices

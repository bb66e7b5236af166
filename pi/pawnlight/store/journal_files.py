"""A journal's files on disk: its write-ahead log's index read directly, and the files moved
aside together.

Below both :mod:`.journal` (which sets a journal aside when it rescues one) and
:mod:`.safekeeping` (which opens the journal for play): neither imports the other's job.
"""

from __future__ import annotations

import os
import struct
from datetime import datetime
from pathlib import Path

from .schema import sync_directory

#: The wal-index header (sqlite.org/walformat.html): mxFrame, the last valid frame of the WAL,
#: is at byte 16; nBackfill, the frames already copied into the database, at byte 96.  Both are
#: in the writer's native byte order, and SQLite keeps two copies of the header (bytes 0-47).
_MX_FRAME = 16
_BACKFILL = 96
LOST_WAL = "-shm.lost-wal-"


def sidecars(path: Path) -> list[Path]:
    return [path.with_name(path.name + suffix) for suffix in ("-wal", "-shm")]


def stamp() -> str:
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
    for kept in sorted(path.parent.glob(path.name + LOST_WAL + "*")):
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
    target = path.with_name(f"{stem}-{why}-{stamp()}{path.suffix}")
    for n in range(1, 100):
        if not any(target.with_name(target.name + s).exists() for s in ("", "-wal", "-shm")):
            break
        target = path.with_name(f"{stem}-{why}-{stamp()}-{n}{path.suffix}")
    for old, suffix in [(path, ""), *((s, s.name[len(path.name) :]) for s in sidecars(path))]:
        if old.exists():
            os.replace(old, target.with_name(target.name + suffix))
    sync_directory(path.parent)
    return target

"""A journal's files on disk: its write-ahead log's index read directly, the files moved
aside together, and a journal rescued when its files were deleted or replaced under it.

Below both :mod:`.journal` (which sets a journal aside when it rescues one) and
:mod:`.safekeeping` (which opens the journal for play): neither imports the other's job.
"""

from __future__ import annotations

import os
import sqlite3
import struct
from datetime import datetime
from pathlib import Path
from typing import Protocol

from ..rules.game import Game
from .errors import JournalDamaged, JournalError
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


class RescuableJournal(Protocol):
    """What the rescue functions below use of a :class:`~.journal.Journal` (named here, not
    imported, so that the journal and its files' helpers import in one direction only)."""

    path: Path
    notices: list[str]
    _writer: sqlite3.Connection | None
    _unplaced: Path | None
    _unplaced_note: str
    _files: list[tuple[int, int] | None]
    _size: int
    _live: tuple[int, Game] | None

    def open(self, path: Path) -> RescuableJournal: ...


def file_names(path: Path) -> list[Path]:
    return [path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")]


def identity(journal: RescuableJournal) -> list[tuple[int, int] | None]:
    found: list[tuple[int, int] | None] = []
    for name in file_names(journal.path):
        try:
            stat = os.stat(name)
        except OSError:
            found.append(None)
        else:
            found.append((stat.st_dev, stat.st_ino))
    return found


def check_size(journal: RescuableJournal) -> None:
    """A journal never shrinks (no VACUUM): one that did was cut short under the writer,
    whose view of it is broken (JournalDamaged: it is kept aside, a fresh one started)."""
    if journal._writer is None or journal._unplaced is not None:
        return
    try:
        stat = os.stat(journal.path)
    except OSError:
        return  # deleted: files_problem says so
    if journal._files and (stat.st_dev, stat.st_ino) != journal._files[0]:
        return  # replaced: files_problem says so
    if stat.st_size < journal._size:
        raise JournalDamaged(
            f"the journal {journal.path} was cut short while pawnlight was running (from "
            f"{journal._size} to {stat.st_size} bytes); it was left as it is: see "
            "docs/records.md, 'Damage'"
        )
    journal._size = stat.st_size


def rescue(journal: RescuableJournal, problem: str) -> None:
    writer = journal._writer
    assert writer is not None
    path = journal.path
    fresh = path.with_name(f"{path.name}.rescue-{os.getpid()}")
    try:
        for leftover in file_names(fresh):
            leftover.unlink(missing_ok=True)
        copy = sqlite3.connect(fresh, isolation_level=None)
        try:
            # The writer still reads its own (deleted or replaced) files: the backup copies
            # the journal as it was at the last confirmed event, write-ahead log included.
            writer.backup(copy)
            problems = [str(row[0]) for row in copy.execute("PRAGMA quick_check")]
            if problems != ["ok"]:
                raise sqlite3.DatabaseError("; ".join(problems[:3]))
        finally:
            copy.close()
        with open(fresh, "rb+") as file:
            os.fsync(file.fileno())
        # What is in the folder now is kept, never deleted; then the writer lets go of its
        # files (it removes its -wal by name as it closes: nothing is there any more).
        kept = set_aside(path, "replaced") if any(n.exists() for n in file_names(path)) else None
        journal._writer = None
        writer.close()
        aside = f"; what was found in their place is kept as {kept.name}" if kept else ""
        journal._unplaced = fresh  # from here on, the copy is all there is: put in place
        journal._unplaced_note = (
            f"The journal's files were deleted or replaced while pawnlight was running "
            f"({problem}). Every game and move it held was written to a fresh "
            f"{path.name}{aside}."
        )
        place(journal, problem)
    except (OSError, sqlite3.Error) as error:
        raise JournalError(
            f"the journal's files were deleted or replaced while pawnlight was running "
            f"({problem}); what it holds could not be written to a fresh journal yet: "
            f"{error}"
        ) from None


def place(journal: RescuableJournal, problem: str) -> None:
    """Put the rescued copy where the journal belongs and write through it from now on."""
    fresh = journal._unplaced
    assert fresh is not None
    try:
        os.replace(fresh, journal.path)
        sync_directory(journal.path.parent)
    except OSError as error:
        raise JournalError(
            f"the journal's files were deleted or replaced while pawnlight was running "
            f"({problem}); everything it held is in {fresh.name}, which could not be put "
            f"in its place yet: {error}"
        ) from None
    journal._unplaced = None
    path = journal.path
    reopened = journal.open(path)
    journal._writer, reopened._writer = reopened._writer, None
    journal._files = reopened._files
    journal._size = 0
    journal._live = None
    journal.notices.append(journal._unplaced_note)

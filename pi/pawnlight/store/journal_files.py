"""The files under a journal's writer: noticed deleted, replaced or cut short, and rescued.

SQLite goes on writing into a deleted file without a word, and a restart would find nothing:
the journal checks its files (:func:`identity`, :func:`check_size`) and, when they are gone,
writes what its writer still sees to a fresh journal in their place (:func:`rescue`,
:func:`place`); docs/records.md, 'Files deleted or replaced while running'.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import JournalDamaged, JournalError
from .schema import sync_directory

if TYPE_CHECKING:
    from .journal import Journal


def file_names(path: Path) -> list[Path]:
    return [path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")]


def identity(journal: Journal) -> list[tuple[int, int] | None]:
    found: list[tuple[int, int] | None] = []
    for name in file_names(journal.path):
        try:
            stat = os.stat(name)
        except OSError:
            found.append(None)
        else:
            found.append((stat.st_dev, stat.st_ino))
    return found


def check_size(journal: Journal) -> None:
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


def rescue(journal: Journal, problem: str) -> None:
    from .safekeeping import set_aside

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


def place(journal: Journal, problem: str) -> None:
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
    reopened = type(journal).open(path)
    journal._writer, reopened._writer = reopened._writer, None
    journal._files = reopened._files
    journal._size = 0
    journal._live = None
    journal.notices.append(journal._unplaced_note)

"""Opening the journal for play without ever losing what is in it.

A damaged or empty journal file is never replaced in place: it is moved aside with its ``-wal``
and ``-shm`` files (``journal-damaged-<when>.sqlite3``), a fresh journal is started, and the
companion says so on the page.  A write-ahead log deleted while the companion was stopped is
detected from what SQLite's index (``-shm``) still says about it, before SQLite rebuilds that
index; the index is kept aside as the evidence ``pawnlight games check`` reports.
"""

from __future__ import annotations

import os
from pathlib import Path

from .errors import JournalDamaged
from .journal import Journal
from .journal_files import LOST_WAL, set_aside, sidecars, stamp, unsaved_wal_frames


def open_for_play(path: Path) -> tuple[Journal, list[str]]:
    """The journal to play with, and what the players must be told about it.

    Other problems (a newer schema, another program's database, a read-only folder) raise
    JournalError as :meth:`Journal.open` does: those are for a person to fix, not to set aside.
    """
    notices = []
    wal = path.with_name(path.name + "-wal")
    frames = unsaved_wal_frames(path)
    if frames and not wal.exists():
        kept = path.with_name(path.name + LOST_WAL + stamp())
        os.replace(path.with_name(path.name + "-shm"), kept)
        notices.append(
            f"The journal's write-ahead log ({wal.name}) was missing, though it held "
            f"{frames} unsaved page writes: the last moves recorded before pawnlight stopped "
            f"are lost. Playing on with what the journal has; {kept.name} is kept as evidence."
        )
    if not path.exists() and any(s.exists() for s in sidecars(path)):
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

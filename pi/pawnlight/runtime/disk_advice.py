"""What went wrong with the journal's storage, and what to do about it, in words for the page.

The owner's storage guard (runtime.storage_guard) shows these while writes fail: each kind of
fault (:func:`storage_kind`) has its own advice (:func:`storage_advice`).
"""

from __future__ import annotations

import os
import resource
from pathlib import Path

from pawnlight.store.errors import JournalDamaged

#: Free space below which a failing write is taken for a full storage (SQLite needs a few pages).
NEARLY_FULL = 1 << 20


def storage_kind(error: Exception, journal: Path) -> str:
    """Which storage fault an error is: "full", "size-limit", "read-only", "damaged", "gone"
    (the journal's files deleted or replaced and not yet rescued) or "io" (anything else)."""
    lowered = str(error).lower()
    try:
        vfs = os.statvfs(journal.parent if journal.parent.exists() else journal.parent.parent)
    except OSError:
        vfs = None
    limit = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
    try:
        size = journal.stat().st_size
    except OSError:
        size = None
    if "no space" in lowered or "is full" in lowered:
        return "full"
    if "file too large" in lowered or (
        limit != resource.RLIM_INFINITY and size is not None and size + 65536 >= limit
    ):
        return "size-limit"
    if (
        "readonly" in lowered
        or "read-only" in lowered
        or "permission" in lowered
        or (vfs is not None and vfs.f_flag & os.ST_RDONLY)
    ):
        return "read-only"
    if isinstance(error, JournalDamaged) or size == 0 or "malformed" in lowered:
        return "damaged"
    if "not a database" in lowered:
        return "damaged"
    if "deleted or replaced" in lowered:
        return "gone"
    if vfs is not None and vfs.f_bavail * vfs.f_frsize < NEARLY_FULL:
        return "full"
    return "io"


def mount_point(path: Path) -> Path:
    """The mount point of the file system that holds ``path`` (``/`` at the most)."""
    here = path.absolute()
    while not here.exists() and here != here.parent:
        here = here.parent
    while not os.path.ismount(here) and here != here.parent:
        here = here.parent
    return here


def storage_advice(error: Exception, journal: Path) -> str:
    """What went wrong with the journal, and what to do about it, in words for the page: each
    kind of fault (:func:`storage_kind`) its own."""
    detail = str(error)
    kind = storage_kind(error, journal)
    if kind == "full":
        what = f"the storage that holds {journal.parent} is full"
        fix = f"free some space on it ({journal.parent})"
    elif kind == "size-limit":
        limit = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
        what = f"pawnlight may not write files larger than {limit} bytes (a file-size limit)"
        fix = (
            "raise or remove the limit of the pawnlight service (LimitFSIZE= in its systemd "
            "unit, or ulimit -f in the shell that started it)"
        )
    elif kind == "read-only":
        what = f"the storage that holds {journal} is read-only"
        fix = (
            f"remount it read-write (sudo mount -o remount,rw {mount_point(journal)}), or make "
            "the journal and its "
            "folder writable by pawnlight again; a storage that turns read-only by itself is "
            "often an SD card that is failing"
        )
    elif kind == "damaged":
        what = f"the journal file {journal.name} is damaged or was cut short"
        fix = (
            "nothing to do: pawnlight keeps it aside, starts a fresh journal and writes the game "
            "in play to it (docs/records.md, 'Damage')"
        )
    elif kind == "gone":
        what = f"the journal's files in {journal.parent} were deleted or replaced"
        fix = (
            "leave pawnlight's files in place while it runs; it writes what it holds to a "
            "fresh journal as soon as the storage lets it"
        )
    else:
        what = f"the storage that holds {journal.parent} reports an error"
        fix = (
            "check the storage: it has free space and is writable, but a read or write failed "
            "(an SD card that is failing does this; docs/records.md, 'When the journal cannot "
            "be written')"
        )
    return (
        f"The game cannot be saved: {what} ({detail}). Moves are not confirmed until it can: "
        f"{fix}. Play resumes by itself once it works again; nothing made so far is lost."
    )

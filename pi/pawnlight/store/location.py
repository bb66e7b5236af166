"""Where pawnlight keeps its data: ``$PAWNLIGHT_DATA``, else ``~/.local/share/pawnlight``."""

from __future__ import annotations

import os
from pathlib import Path

JOURNAL_FILE = "journal.sqlite3"


def data_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    if explicit:
        return Path(explicit).expanduser()
    from_env = os.environ.get("PAWNLIGHT_DATA")
    if from_env:
        return Path(from_env).expanduser()
    return Path.home() / ".local" / "share" / "pawnlight"


def journal_path(data: str | os.PathLike[str] | None = None) -> Path:
    return data_dir(data) / JOURNAL_FILE

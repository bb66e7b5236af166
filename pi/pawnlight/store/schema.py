"""The journal file's schema: creating it, checking what a file is, and upgrading old ones.

The schema version lives in the file (``PRAGMA user_version``) next to an application id that
marks the file as pawnlight's.  A file of a newer version, another program's database, or a
damaged file is refused with a message that says which, and left exactly as it was.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from .errors import JournalDamaged, JournalError

SCHEMA_VERSION = 3
#: "PWNL": marks the file as a pawnlight journal for SQLite tools and for :meth:`Journal.open`.
APPLICATION_ID = 0x50574E4C

# What the board needs to go on besides the games (version 2): the settings changed on the page,
# the leader draw in progress.  name -> one JSON object.
BOARD_STATE = """CREATE TABLE board_state (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID"""

# The story of a finished game (version 3): its chances by turn, turning points and costly moves,
# worked out once after the game ends (pawnlight.players.story), as the JSON
# ``pawnlight games story ID --json`` prints.
STORIES = """CREATE TABLE stories (
    game_id INTEGER PRIMARY KEY REFERENCES games (id),
    story   TEXT NOT NULL
)"""

TABLES = (
    # header: the record's header line (edition, variant, players, started, seed, names, meta).
    # result: the record's result object, NULL while the game is on.  turns: len(game.history),
    # kept so the listing needs no replay.  AUTOINCREMENT: a deleted game's id is never reused,
    # so "game 12" always means one game.
    """CREATE TABLE games (
        id       INTEGER PRIMARY KEY AUTOINCREMENT,
        header   TEXT NOT NULL,
        turns    INTEGER NOT NULL DEFAULT 0,
        result   TEXT,
        finished TEXT
    )""",
    # One row per event, numbered from 1 as the rules number them in replay errors; colour is
    # the colour's name, so the table reads well in the sqlite3 shell.
    """CREATE TABLE events (
        game_id INTEGER NOT NULL REFERENCES games (id),
        seq     INTEGER NOT NULL,
        kind    TEXT NOT NULL,
        colour  TEXT,
        card    TEXT,
        move    TEXT,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID""",
    BOARD_STATE,
    STORIES,
)

#: Schema upgrades: version -> the statements that bring a journal from it to version + 1.
#: Each step runs in one transaction with the new user_version, so a cut leaves the old schema.
MIGRATIONS: dict[int, tuple[str, ...]] = {1: (BOARD_STATE,), 2: (STORIES,)}


def prepare(db: sqlite3.Connection, path: Path) -> None:
    """Check the file before anything writes to it, then create or upgrade the schema."""
    version = db.execute("PRAGMA user_version").fetchone()[0]  # "file is not a database" here
    problems = [str(row[0]) for row in db.execute("PRAGMA quick_check")]
    if problems != ["ok"]:
        raise JournalDamaged(
            f"the journal {path} is damaged (SQLite quick_check: {'; '.join(problems[:3])}); "
            "it was left as it is: see docs/records.md, 'Damage'"
        )
    if version == 0:
        tables = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
        if tables:
            raise JournalError(
                f"{path} is an SQLite database but not a pawnlight journal "
                f"(tables: {', '.join(t[0] for t in tables)}); it was left as it is"
            )
    else:
        check_version(db, path, writable=True)
    if db.execute("PRAGMA journal_mode = WAL").fetchone()[0] != "wal":
        raise JournalError(f"SQLite cannot use WAL mode for {path} (is it on a network drive?)")
    # FULL: in WAL mode, sync the log at every commit; NORMAL would only sync at checkpoints.
    db.execute("PRAGMA synchronous = FULL")
    if version == 0:
        db.execute("BEGIN IMMEDIATE")
        for statement in TABLES:
            db.execute(statement)
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        db.execute("COMMIT")
        sync_directory(path.parent)
    for old in range(version, SCHEMA_VERSION) if version else ():
        db.execute("BEGIN IMMEDIATE")
        for statement in MIGRATIONS[old]:
            db.execute(statement)
        db.execute(f"PRAGMA user_version = {old + 1}")
        db.execute("COMMIT")


def check_version(db: sqlite3.Connection, path: Path, writable: bool) -> None:
    version = db.execute("PRAGMA user_version").fetchone()[0]
    application = db.execute("PRAGMA application_id").fetchone()[0]
    if application != APPLICATION_ID:
        raise JournalError(f"{path} is not a pawnlight journal; it was left as it is")
    if version > SCHEMA_VERSION:
        raise JournalError(
            f"the journal {path} has schema version {version}, newer than this pawnlight "
            f"understands ({SCHEMA_VERSION}); upgrade pawnlight"
        )
    if version < SCHEMA_VERSION:
        if not writable:
            raise JournalError(
                f"the journal {path} has the older schema version {version}; opening it for "
                "writing (the companion does) upgrades it"
            )
        missing = [v for v in range(version, SCHEMA_VERSION) if v not in MIGRATIONS]
        if missing:
            raise JournalError(
                f"the journal {path} has schema version {version}, which this pawnlight "
                "cannot upgrade"
            )


def sync_directory(directory: Path) -> None:
    """Make the new file's name itself durable (SQLite syncs the files, not their directory)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)

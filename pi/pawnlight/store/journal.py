"""The journal: every game played on the board, event by event, in one SQLite file.

Durability is the point.  The Pi can lose power at any moment, so each event is its own
transaction, committed in WAL mode with ``synchronous=FULL``: SQLite fsyncs the write-ahead log
before COMMIT returns, so :meth:`Journal.append` returns only once the event is on the storage,
and the companion lights a move as confirmed only after that.  A transaction cut short by a power
cut or a kill is rolled back by SQLite the next time the file is opened; nothing else is ever
rewritten behind the players' backs: no automatic deletes, no VACUUM, and a damaged file is
reported, never replaced.

Threads: writes belong to the thread that opened the journal (the companion's owner thread) and go
through one connection.  Reads — the listing, a game's record — open a read-only connection for
the call and close it again, so the web server's threads may call them at any time: a connection
is never shared between threads, and in WAL mode a reader neither waits for the writer nor delays
a move's commit.  Opening a connection costs well under a millisecond; a lock or a pool would cost
more thought than that.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import NamedTuple

from ..rules.board import COLOURS
from ..rules.game import Event, Game, GameConfig, GameError, Result
from .errors import JournalDamaged, JournalError, ReplayError
from .game_record import GameRecord, normal_config, now
from .journal_files import (
    check_size,
    file_names,
    identity,
    lost_wal_problems,
    place,
    rescue,
)
from .record import (
    dump,
    event_json,
    header_json,
    json_object,
    make_event,
    make_result,
    read_header,
    read_record,
    result_json,
    write_record,
)
from .replay import apply_event, outcome, replay_events, replay_record, same_result
from .schema import check_version, prepare

#: How long a write waits for another process's write (an import from the command line).
BUSY_TIMEOUT = 10.0


class GameSummary(NamedTuple):
    """One line of the games listing."""

    id: int
    started: str  # ISO 8601, as recorded
    edition: str
    variant: str
    players: tuple[str, ...]
    teams: bool
    names: dict[str, str]
    turns: int  # turns in the game's history (turns taken back are not counted)
    events: int
    finished: bool
    winners: tuple[str, ...]
    outcome: str  # "red won", "in progress", "patience: success", "ended early (...)"
    damage: str | None  # set when the stored header or result cannot be read


class Decided(NamedTuple):
    """What a game decided with an event: its number in the game (1 for the first), the turns
    played after it, and the result if it ended the game."""

    seq: int
    turns: int
    result: Result | None = None


class Journal:
    """Many games, each an ordered list of events, durable one event at a time."""

    def __init__(self, path: Path, writer: sqlite3.Connection | None) -> None:
        self.path = path
        self._writer = writer
        self._owner = threading.get_ident()
        self._reader_uri = path.resolve().as_uri() + "?mode=ro"
        #: The game being played, replayed from the journal, to check each event before it is
        #: stored: an event the rules refuse never reaches the file, so a game always resumes.
        self._live: tuple[int, Game] | None = None
        #: Which files the writer has open (device and inode of the journal, its -wal and -shm),
        #: to notice them deleted or replaced under it (docs/records.md, 'Files deleted or
        #: replaced while running').
        self._files: list[tuple[int, int] | None] = identity(self) if writer else []
        #: A rescued copy not yet put in the journal's place (it is, at the next write).
        self._unplaced: Path | None = None
        self._unplaced_note = ""
        #: The journal file's size when last seen: it never shrinks unless it was cut short.
        self._size = 0
        #: What the players must be told about the journal (a rescue); the owner takes them.
        self.notices: list[str] = []
        #: True from a COMMIT until the check after it has found the files in place (or put the
        #: rescued copy there): a write that fails meanwhile is in the writer's files, and so in
        #: whatever the rescue copies from them.
        self._committed = False
        #: A game stored by such a write: (its header without the start time, its id, its
        #: header).  The same game asked for again (the owner retries a held write) is that
        #: one once the rescue has put it in place, never a second copy.
        self._unconfirmed_game: tuple[str, int, str] | None = None

    # -- opening and closing ----------------------------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, readonly: bool = False) -> Journal:
        """Open the journal at ``path``, creating it unless ``readonly``.

        Opening for writing runs SQLite's quick_check first and refuses a damaged file.  A
        read-only journal serves listings and records without taking any lock or creating
        anything (the command line's ``list``/``show``/``export`` use one).
        """
        path = Path(path)
        if readonly:
            if not path.exists():
                raise JournalError(f"no journal at {path}")
            journal = cls(path, None)
            with journal._reading() as db:
                check_version(db, path, writable=False)
            return journal
        if path.exists() and path.stat().st_size == 0:
            # SQLite would take an empty file for a new database: a journal cut to nothing
            # would silently become an empty one.
            raise JournalDamaged(
                f"the journal {path} is empty (0 bytes): its games are gone from it; it was "
                "left as it is: see docs/records.md, 'Damage'"
            )
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT)
        except (OSError, sqlite3.Error) as error:
            raise JournalError(f"cannot open the journal {path}: {error}") from None
        try:
            prepare(db, path)
        except sqlite3.Error as error:
            db.close()
            raise _sqlite_error(path, error) from None
        except BaseException:
            db.close()
            raise
        return cls(path, db)

    # -- the files under the writer ------------------------------------------------------------

    def files_problem(self) -> str | None:
        """What became of the files the writer has open, when they are no longer the ones in
        the data folder: deleted, or replaced by other files; None while they are.  (SQLite
        goes on writing into a deleted file without a word, and a restart would find nothing.)"""
        if self._unplaced is not None:
            return f"the rescued copy {self._unplaced.name} is not in place yet"
        if self._writer is None:
            return None
        now = identity(self)
        problems = []
        for index, (name, before, after) in enumerate(
            zip(file_names(self.path), self._files, now, strict=True)
        ):
            if before is None:
                self._files[index] = after  # a -wal/-shm made after the open: its first sight
            elif after is None:
                problems.append(f"{name.name} was deleted")
            elif after != before:
                problems.append(f"{name.name} was replaced by another file")
        return "; ".join(problems) or None

    def heal(self) -> None:
        """Check the files under the writer; when they were deleted or replaced, write what the
        writer still sees — every game, every confirmed event — to a fresh journal in their
        place (JournalError when that cannot be done now: try again)."""
        check_size(self)
        problem = self.files_problem()
        if self._unplaced is not None:
            place(self, problem or "")
        elif problem is not None:
            rescue(self, problem)

    def reopen(self) -> None:
        """Write through a freshly opened connection from now on (after a storage fault: one
        opened while the storage was read-only stays read-only after the remount).  Files
        deleted or replaced under this one are rescued first; when the new open fails
        (JournalError; JournalDamaged for a damaged file) there is no writer until a retry."""
        if threading.get_ident() != self._owner:
            raise JournalError("journal writes belong to the thread that opened it")
        if self._writer is not None:
            self.heal()
        # The old connection goes first: SQLite shares one mapping of the -shm file among a
        # process's connections to a journal, so a new one opened beside a connection made while
        # the storage was read-only inherits its read-only mapping, and every write still fails
        # after the remount.  Until the new open succeeds there is no writer (writes are held).
        old, self._writer = self._writer, None
        if old is not None:
            old.close()
        reopened = Journal.open(self.path)
        self._writer, reopened._writer = reopened._writer, None
        self._files = reopened._files
        self._size = 0
        self._live = None

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing (the owner thread) ----------------------------------------------------------

    def new_game(
        self,
        config: GameConfig,
        *,
        seed: int | None = None,
        names: dict[str, str] | None = None,
        meta: dict[str, object] | None = None,
        started: datetime | None = None,
    ) -> int:
        """Start a game; returns its id once it is durable."""
        record = GameRecord(
            normal_config(config),
            started or now(),
            seed=seed,
            names=dict(names or {}),
            meta=dict(meta or {}),
        )
        header = header_json(record)

        def insert(db: sqlite3.Connection) -> int | None:
            return db.execute("INSERT INTO games (header) VALUES (?)", (dump(header),)).lastrowid

        return self._store_game(header, insert)

    def append(self, game_id: int, event: Event, decided: Decided | None = None) -> int:
        """Store the next event of a game; returns its sequence number (1, 2, ...) once the event
        is durable.  GameError (a ValueError) if the rules refuse it: then nothing is stored.

        ``decided``: what the game that played the event decided with it (the companion's, which
        already ran the rules); it is written down as it is, after a check that the event is the
        next one of the record.  Without it (imports, tools), the event is checked by playing it
        on the store's own replay of the game.

        When the event ends the game — or an undo reopens it — the game's result is stored in
        the same transaction, so a game is never over in the file without its result.
        """
        if decided is not None:
            return self._append_decided(game_id, event, decided)
        fields = event_json(event)  # refuses a malformed event before anything else
        with self._transaction() as db:
            ended, last = _stored_end(db, game_id)
            try:
                game = _live_game(self, db, game_id, last)
                if ended is not None and not game.over:
                    raise JournalError(
                        f"game {game_id} was ended early and takes no more events", game_id
                    )
                seq = last + 1
                try:
                    apply_event(game, event)
                except ValueError as error:  # GameError, NotationError
                    raise GameError(
                        f"game {game_id}: event {seq} ({event.kind}) does not fit: {error}"
                    ) from None
                db.execute(
                    "INSERT INTO events (game_id, seq, kind, colour, card, move) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, seq, event.kind, fields.get("colour"), event.card, event.move),
                )
                if game.over:
                    assert game.result is not None
                    db.execute(
                        "UPDATE games SET turns = ?, result = ?, "
                        "finished = coalesce(finished, ?) WHERE id = ?",
                        (len(game.history), dump(result_json(game.result)), _now(), game_id),
                    )
                else:
                    db.execute(
                        "UPDATE games SET turns = ?, result = NULL, finished = NULL WHERE id = ?",
                        (len(game.history), game_id),
                    )
            except BaseException:
                # The transaction rolls back; forget the live game, which may be ahead of it.
                self._live = None
                raise
        return seq

    def _append_decided(self, game_id: int, event: Event, decided: Decided) -> int:
        fields = event_json(event)  # refuses a malformed event before anything else
        with self._transaction() as db:
            ended, last = _stored_end(db, game_id)
            if decided.seq <= last and _stored_event(db, game_id, decided.seq) == (
                event.kind,
                fields.get("colour"),
                event.card,
                event.move,
            ):
                # Written already: a write retried after its commit reached the journal (files
                # replaced as it committed, then rescued) is not written twice.
                return decided.seq
            if decided.seq != last + 1:
                raise GameError(
                    f"game {game_id}: event {decided.seq} ({event.kind}) does not follow the "
                    f"record's {last} events"
                )
            if ended is not None and _ended_early(ended):
                raise JournalError(
                    f"game {game_id} was ended early and takes no more events", game_id
                )
            db.execute(
                "INSERT INTO events (game_id, seq, kind, colour, card, move) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, decided.seq, event.kind, fields.get("colour"), event.card, event.move),
            )
            if decided.result is not None:
                db.execute(
                    "UPDATE games SET turns = ?, result = ?, "
                    "finished = coalesce(finished, ?) WHERE id = ?",
                    (decided.turns, dump(result_json(decided.result)), _now(), game_id),
                )
            else:
                db.execute(
                    "UPDATE games SET turns = ?, result = NULL, finished = NULL WHERE id = ?",
                    (decided.turns, game_id),
                )
            # The store's own replay, if it has one, is behind now; it is rebuilt when needed.
            self._live = None
        return decided.seq

    def finish(self, game_id: int, result: Result) -> None:
        """Record how a game ended.  A game that is over already has its result (``append``
        stores it); this checks it agrees.  A game that is not over can only be ended early,
        with a result that has no winners (``Result((), reason="abandoned")``)."""
        with self._transaction() as db:
            stored = db.execute(
                "SELECT (SELECT max(seq) FROM events WHERE game_id = ?) FROM games WHERE id = ?",
                (game_id, game_id),
            ).fetchone()
            if stored is None:
                raise JournalError(f"no game {game_id} in the journal", game_id)
            game = _live_game(self, db, game_id, stored[0] or 0)
            if game.over:
                assert game.result is not None
                if not same_result(game.result, result):
                    raise GameError(
                        f"game {game_id} ended with {outcome(game.result)}, not {outcome(result)}"
                    )
                return
            if result.winners or result.scores or result.patience:
                raise GameError(
                    f"game {game_id} is not over: it can only be ended early, with no winners"
                )
            db.execute(
                "UPDATE games SET result = ?, finished = ? WHERE id = ?",
                (dump(result_json(result)), _now(), game_id),
            )

    def import_record(self, record: str | GameRecord) -> int:
        """Store a whole record (its text, or a parsed one) as a new game, in one transaction.

        The record must replay (RecordError / ReplayError otherwise).  A salvaged record is
        accepted; its damage note goes into ``meta["salvaged"]`` so it is not forgotten.
        """
        if isinstance(record, str):
            record = read_record(record)
        if record.damage:
            record = replace(record, meta={**record.meta, "salvaged": record.damage}, damage=None)
        game = replay_record(record)
        result = record.result if record.result is not None else game.result
        rows = [
            (seq, event.kind, event_json(event).get("colour"), event.card, event.move)
            for seq, event in enumerate(record.events, 1)
        ]
        header = header_json(record)

        def insert(db: sqlite3.Connection) -> int | None:
            cursor = db.execute(
                "INSERT INTO games (header, turns, result, finished) VALUES (?, ?, ?, ?)",
                (
                    dump(header),
                    len(game.history),
                    None if result is None else dump(result_json(result)),
                    None if record.finished is None else record.finished.isoformat(),
                ),
            )
            game_id = cursor.lastrowid
            assert game_id is not None
            db.executemany(
                "INSERT INTO events (game_id, seq, kind, colour, card, move) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(game_id, *row) for row in rows],
            )
            return game_id

        return self._store_game(header, insert)

    def _store_game(
        self, header: dict[str, object], insert: Callable[[sqlite3.Connection], int | None]
    ) -> int:
        """Store a new game (``insert`` writes it, returning its id) exactly once.

        A write whose COMMIT went through while the files were deleted or replaced, and whose
        rescue then failed, raised JournalError although the game is in the writer's files: the
        rescue will copy it.  Asked for again (the same header but for its start time), the
        game is that one once the rescue has put it in place, not a second copy."""
        key = dump({name: value for name, value in header.items() if name != "started"})
        pending = self._unconfirmed_game
        if pending is not None and pending[0] == key:
            self.heal()  # JournalError while the rescue still cannot be done
            db = self._writer
            assert db is not None
            if db.execute(
                "SELECT 1 FROM games WHERE id = ? AND header = ?", (pending[1], pending[2])
            ).fetchone():
                self._unconfirmed_game = None
                return pending[1]
        text = dump(header)
        game_id: int | None = None
        try:
            with self._transaction() as db:
                game_id = insert(db)
        except JournalError:
            if self._committed and game_id is not None:
                self._unconfirmed_game = (key, game_id, text)
            raise
        assert game_id is not None
        self._unconfirmed_game = None
        return game_id

    def delete(self, game_id: int) -> None:
        """Delete a game and its events (only ever on an explicit request)."""
        with self._transaction() as db:
            db.execute("DELETE FROM stories WHERE game_id = ?", (game_id,))
            db.execute("DELETE FROM events WHERE game_id = ?", (game_id,))
            if db.execute("DELETE FROM games WHERE id = ?", (game_id,)).rowcount == 0:
                raise JournalError(f"no game {game_id} in the journal", game_id)
            if self._live is not None and self._live[0] == game_id:
                self._live = None

    def remember(self, name: str, value: Mapping[str, object] | None) -> None:
        """Keep (or, with None, forget) a piece of the board's state that is not a game: the
        settings changed on the page, the leader draw in progress.  Durable on return."""
        with self._transaction() as db:
            if value is None:
                db.execute("DELETE FROM board_state WHERE name = ?", (name,))
            else:
                db.execute(
                    "INSERT OR REPLACE INTO board_state (name, value) VALUES (?, ?)",
                    (name, dump(value)),
                )

    # -- reading (any thread) ------------------------------------------------------------------

    def recall(self, name: str) -> dict[str, object] | None:
        """What :meth:`remember` kept under ``name``; None when nothing is (or it is damaged:
        JournalError)."""
        with self._reading() as db:
            row = db.execute("SELECT value FROM board_state WHERE name = ?", (name,)).fetchone()
        if row is None:
            return None
        try:
            return json_object(row[0])
        except (ValueError, TypeError) as error:
            raise JournalError(f"the journal's saved {name} are damaged: {error}") from None

    def unfinished(self) -> int | None:
        """The most recently started game that has not ended, if any (the one to resume)."""
        with self._reading() as db:
            row = db.execute(
                "SELECT id FROM games WHERE result IS NULL ORDER BY id DESC LIMIT 1"
            ).fetchone()
        return None if row is None else int(row[0])

    def load(self, game_id: int) -> GameRecord:
        """The game's record.  JournalError names a damaged event (``seq``) and keeps the events
        before it in ``intact``."""
        with self._reading() as db:
            return _load(db, game_id)

    def resume(self, game_id: int) -> Game:
        """The game replayed to where it stands.  ReplayError keeps the game up to the event
        that does not replay."""
        record = self.load(game_id)
        try:
            return replay_record(record)
        except ReplayError as error:
            raise ReplayError(f"game {game_id}, {error}", error.number, error.game) from None

    def export(self, game_id: int) -> str:
        """The game as record text (see docs/records.md)."""
        return write_record(self.load(game_id))

    def games(self) -> list[GameSummary]:
        """Every game, oldest first.  A game whose header or result is damaged is still listed,
        with ``damage`` saying so."""
        with self._reading() as db:
            rows = db.execute(
                "SELECT id, header, turns, result, "
                "(SELECT max(seq) FROM events WHERE game_id = games.id) FROM games ORDER BY id"
            ).fetchall()
        return [_summary(*row) for row in rows]

    def check(self) -> list[str]:
        """SQLite's full integrity check; an empty list when the file is sound."""
        return check_file(self.path)

    # -- inside ------------------------------------------------------------------------------

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction; COMMIT returns once the WAL is synced (synchronous=FULL)."""
        if threading.get_ident() != self._owner:
            raise JournalError("journal writes belong to the thread that opened it")
        if self._writer is None and self._unplaced is None:
            raise JournalError(f"the journal {self.path} is open read-only or closed")
        # Files deleted or replaced under the writer: nothing written to them would be found
        # after a restart, so what the writer holds goes to a fresh journal first.
        self._committed = False
        self.heal()
        db = self._writer
        assert db is not None
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
        except sqlite3.Error as error:
            raise _sqlite_error(self.path, error) from None
        # Deleted or replaced while this transaction ran: it is confirmed only once it is in
        # the files of the data folder (the rescue copies it there).
        self._committed = True
        self.heal()
        self._committed = False

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """A read-only connection of the caller's own, in one snapshot (BEGIN ... ROLLBACK)."""
        try:
            db = sqlite3.connect(
                self._reader_uri, uri=True, isolation_level=None, timeout=BUSY_TIMEOUT
            )
        except sqlite3.Error as error:
            raise JournalError(f"cannot read the journal {self.path}: {error}") from None
        try:
            db.execute("BEGIN")
            yield db
        except sqlite3.Error as error:
            raise _sqlite_error(self.path, error) from None
        finally:
            db.close()


def _stored_end(db: sqlite3.Connection, game_id: int) -> tuple[str | None, int]:
    """A game's stored result (None while it is not over) and its last event's number."""
    stored = db.execute(
        "SELECT result, (SELECT max(seq) FROM events WHERE game_id = ?) FROM games WHERE id = ?",
        (game_id, game_id),
    ).fetchone()
    if stored is None:
        raise JournalError(f"no game {game_id} in the journal", game_id)
    return stored[0], stored[1] or 0


def _stored_event(db: sqlite3.Connection, game_id: int, seq: int) -> tuple[object, ...] | None:
    row = db.execute(
        "SELECT kind, colour, card, move FROM events WHERE game_id = ? AND seq = ?",
        (game_id, seq),
    ).fetchone()
    return None if row is None else tuple(row)


def _ended_early(stored_result: str) -> bool:
    """A stored result with no winners, scores or patience outcome: the game was ended before
    it was over (``finish`` takes no other result for such a game); it takes no more events."""
    result = json.loads(stored_result)
    return not (result.get("winners") or result.get("scores") or result.get("patience"))


def check_file(path: str | os.PathLike[str]) -> list[str]:
    """SQLite's full integrity check of a journal file, read-only, even one too damaged to open:
    the problems SQLite finds, or an empty list when the file is sound.  A write-ahead log that
    went missing (now, or found missing earlier by the companion) is a problem too."""
    path = Path(path)
    lost = lost_wal_problems(path)
    if path.exists() and path.stat().st_size == 0:
        return [*lost, f"{path} is empty (0 bytes)"]
    if lost and not path.with_name(path.name + "-wal").exists():
        return lost  # connecting would rebuild the index and wipe the evidence
    uri = path.resolve().as_uri() + "?mode=ro"
    try:
        db = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=BUSY_TIMEOUT)
    except sqlite3.Error as error:
        return [f"cannot open {path}: {error}"]
    try:
        problems = [str(row[0]) for row in db.execute("PRAGMA integrity_check")]
    except sqlite3.Error as error:
        problems = [str(error)]
    finally:
        db.close()
    return lost + ([] if problems == ["ok"] else problems)


#: SQLite's largest INTEGER: a game id past it cannot be in the journal (and would overflow).
MAX_GAME_ID = 2**63 - 1


def _load(db: sqlite3.Connection, game_id: int) -> GameRecord:
    if not 1 <= game_id <= MAX_GAME_ID:
        raise JournalError(f"no game {game_id} in the journal", game_id)
    row = db.execute(
        "SELECT header, result, finished FROM games WHERE id = ?", (game_id,)
    ).fetchone()
    if row is None:
        raise JournalError(f"no game {game_id} in the journal", game_id)
    header, result, finished = row
    try:
        record = read_header(json_object(header))
    except (ValueError, TypeError) as error:
        raise JournalError(f"game {game_id}: its header is damaged: {error}", game_id) from None
    events: list[Event] = []
    for seq, kind, colour, card, move in db.execute(
        "SELECT seq, kind, colour, card, move FROM events WHERE game_id = ? ORDER BY seq",
        (game_id,),
    ):
        expected = len(events) + 1
        try:
            if seq != expected:
                raise ValueError(f"it is missing (the next stored event is number {seq})")
            events.append(make_event({"event": kind, "colour": colour, "card": card, "move": move}))
        except ValueError as error:
            message = f"game {game_id}, event {expected}: {error}"
            intact = replace(record, events=tuple(events), damage=message)
            raise JournalError(message, game_id, expected, intact) from None
    record = replace(record, events=tuple(events))
    if result is None:
        return record
    try:
        return replace(
            record,
            result=make_result(json_object(result)),
            finished=None if finished is None else datetime.fromisoformat(finished),
        )
    except (ValueError, TypeError) as error:
        message = f"game {game_id}: its stored result is damaged: {error}"
        raise JournalError(message, game_id, intact=replace(record, damage=message)) from None


def _summary(
    game_id: int, header: str, turns: int, result: str | None, events: int | None
) -> GameSummary:
    damage = None
    try:
        record = read_header(json_object(header))
    except (ValueError, TypeError) as error:
        damage = f"its header is damaged: {error}"
        record = None
    end = None
    if result is not None:
        try:
            end = make_result(json_object(result))
        except (ValueError, TypeError) as error:
            damage = f"its stored result is damaged: {error}"
    # outcome(None) is "in progress"; "?" for a result that cannot be read.
    ending = outcome(end) if end is not None or result is None else "?"
    return GameSummary(
        id=game_id,
        started=record.started.isoformat() if record else "?",
        edition=record.config.edition if record else "?",
        variant=record.config.variant if record else "?",
        players=tuple(record.config.players) if record else (),
        teams=record.config.teams if record else False,
        names=dict(record.names) if record else {},
        turns=turns,
        events=events or 0,
        finished=result is not None,
        winners=tuple(COLOURS[c] for c in end.winners) if end else (),
        outcome=ending,
        damage=damage,
    )


def _sqlite_error(path: Path, error: sqlite3.Error) -> JournalError:
    # SQLite raises the bare DatabaseError for a file that is not a database or is malformed;
    # its subclasses are everyday trouble (locked, disk full, read-only).
    if type(error) is sqlite3.DatabaseError:
        return JournalDamaged(
            f"the journal {path} is damaged: {error} (SQLite's words); it was left as it is: "
            "see docs/records.md, 'Damage'"
        )
    return JournalError(f"the journal {path}: {error}")


def _now() -> str:
    return now().isoformat()


def _live_game(journal: Journal, db: sqlite3.Connection, game_id: int, last: int) -> Game:
    live = journal._live
    if live is not None and live[0] == game_id and len(live[1].events) == last:
        return live[1]
    # First event of this session, or another process wrote to the game: replay it.
    record = _load(db, game_id)
    try:
        game = replay_events(record.config, record.events)
    except ReplayError as error:
        raise ReplayError(f"game {game_id}, {error}", error.number, error.game) from None
    journal._live = (game_id, game)
    return game

"""The journal's files and storage faults while the daemon runs (issue #33), on the full
simulated path in process: no confirmed turn is lost, and every fault heals without a restart."""

from __future__ import annotations

import os
import resource
import sqlite3
from pathlib import Path

import pytest

from pawnlight.companion.service import CommandRefused
from pawnlight.rules.game import Game, GameConfig
from pawnlight.runtime.config import Config
from pawnlight.runtime.daemon import Daemon
from pawnlight.runtime.owner import storage_advice
from pawnlight.store.errors import JournalError
from pawnlight.store.journal import Journal
from tests.store.randomplay import Player

from .test_evening_regressions import play_turns, start
from .test_owner_sim import wait_for

#: The real daemon, its journal damaged, killed and restarted.
pytestmark = pytest.mark.slow


def recorded_turns(tmp_path, game_id: int) -> int:
    with Journal.open(tmp_path / "journal.sqlite3", readonly=True) as journal:
        return len(journal.resume(game_id).history)


@pytest.mark.parametrize("suffixes", [("", "-wal", "-shm"), ("-wal",)])
def test_journal_files_deleted_during_play_lose_no_turn_after_a_restart(daemon, tmp_path, suffixes):
    owner = daemon.owner
    state = start(daemon, {"players": ["red", "blue"]})
    game_id = state["game_id"]
    state = play_turns(daemon, 2, seed=11)
    for suffix in suffixes:
        os.remove(tmp_path / f"journal.sqlite3{suffix}")
    state = play_turns(daemon, 4, seed=12)
    turns = len(state["history"])
    # The players were told (the page's warning lasts until the next turn; the errors stay).
    assert any("deleted or replaced while pawnlight was running" in e for e in owner.errors)
    state = owner.state()
    assert state["storage"]["ok"] and state["storage"]["saved_turns"] == turns
    # The restart: every confirmed turn is in the journal, and it resumes there.
    daemon.stop()
    assert recorded_turns(tmp_path, game_id) == turns
    again = Daemon(Config(data=tmp_path, sim=True, layout="presence", http_port=0, settle=0.1))
    again.start(web=False)
    try:
        assert again.owner is not None
        state = wait_for(again.owner, lambda s: s["game_id"] == game_id)
        assert len(state["history"]) == turns and not again.owner.errors
    finally:
        again.stop()


def test_journal_deleted_while_idle_is_rescued_by_the_periodic_check(daemon, tmp_path):
    owner = daemon.owner
    start(daemon, {"players": ["red", "blue"]})
    state = play_turns(daemon, 3, seed=13)
    for suffix in ("", "-wal", "-shm"):
        os.remove(tmp_path / f"journal.sqlite3{suffix}")
    wait_for(owner, lambda s: s["warning"] and "deleted or replaced" in s["warning"])
    # Without a further move: the journal is back in the folder with every turn.
    assert recorded_turns(tmp_path, state["game_id"]) == len(state["history"])


def sqlite_opens_read_only(monkeypatch) -> None:
    """The storage read-only: SQLite opens the journal as it does a file it cannot write (as
    root, no permission makes a file read-only; a remount needs more than a test may do)."""
    real = sqlite3.connect

    def read_only(database, *args, uri=False, **kwargs):
        if not uri:
            database = Path(database).resolve().as_uri() + "?mode=ro"
        return real(database, *args, uri=True, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", read_only)


def played_journal(tmp_path, turns: int) -> tuple[int, int]:
    """A data folder with an unfinished game of ``turns`` turns; its id and turns."""
    daemon = Daemon(Config(data=tmp_path, sim=True, layout="presence", http_port=0, settle=0.1))
    daemon.start(web=False)
    try:
        game_id = start(daemon, {"players": ["red", "blue"]})["game_id"]
        state = play_turns(daemon, turns, seed=21)
    finally:
        daemon.stop()
    assert recorded_turns(tmp_path, game_id) == len(state["history"])
    return game_id, len(state["history"])


def restarted(tmp_path) -> Daemon:
    daemon = Daemon(Config(data=tmp_path, sim=True, layout="presence", http_port=0, settle=0.1))
    daemon.start(web=False)
    return daemon


def test_a_journal_read_only_at_start_is_written_once_the_storage_is_writable(
    tmp_path, monkeypatch
):
    game_id, turns = played_journal(tmp_path, 2)
    sqlite_opens_read_only(monkeypatch)
    daemon = restarted(tmp_path)
    try:
        owner = daemon.owner
        assert owner is not None
        wait_for(owner, lambda s: s["game_id"] == game_id and s["phase"] == "draw")
        assert daemon.sim_board is not None
        daemon.sim_board.scan("1")  # a draw: an event to write
        state = wait_for(owner, lambda s: not s["storage"]["ok"])
        assert "is read-only" in state["warning"] and "remount it read-write" in state["warning"]
        monkeypatch.undo()  # remounted read-write
        state = wait_for(owner, lambda s: s["storage"]["ok"])
        assert state["storage"]["unsaved"] == 0
    finally:
        daemon.stop()
    with Journal.open(tmp_path / "journal.sqlite3", readonly=True) as journal:
        record = journal.load(game_id)
    assert record.events[-1].kind == "draw" and recorded_turns(tmp_path, game_id) == turns


def test_a_game_not_resumed_at_start_is_resumed_once_the_storage_allows(tmp_path, monkeypatch):
    from pawnlight.runtime import owner as owner_module

    game_id, turns = played_journal(tmp_path, 2)
    real = owner_module.open_for_play
    full = [True]

    def open_for_play(path):
        if full[0]:
            raise JournalError(f"the journal {path}: database or disk is full")
        return real(path)

    monkeypatch.setattr(owner_module, "open_for_play", open_for_play)
    daemon = restarted(tmp_path)
    try:
        owner = daemon.owner
        assert owner is not None
        state = wait_for(owner, lambda s: not s["storage"]["ok"])
        assert "is full" in state["warning"] and state["game_id"] is None
        # A new game would strand the unfinished one: refused while the journal cannot be read.
        with pytest.raises(CommandRefused, match="cannot be saved"):
            owner.command("new_game", {"players": ["red", "yellow"]})
        full[0] = False  # space freed
        state = wait_for(owner, lambda s: s["storage"]["ok"] and s["game_id"] == game_id)
        assert len(state["history"]) == turns
    finally:
        daemon.stop()
    with Journal.open(tmp_path / "journal.sqlite3", readonly=True) as journal:
        assert journal.unfinished() == game_id and len(journal.games()) == 1


def test_a_journal_cut_to_nothing_while_playing_is_kept_aside_and_the_game_rewritten(
    daemon, tmp_path
):
    owner = daemon.owner
    start(daemon, {"players": ["red", "blue"]})
    play_turns(daemon, 2, seed=31)
    os.truncate(tmp_path / "journal.sqlite3", 0)
    state = play_turns(daemon, 4, seed=32)
    state = wait_for(owner, lambda s: s["storage"]["ok"] and s["storage"]["unsaved"] == 0)
    turns = len(state["history"])
    assert any("cut short" in e and "kept aside" in e for e in owner.errors), owner.errors
    game_id = state["game_id"]
    daemon.stop()
    assert recorded_turns(tmp_path, game_id) == turns
    assert [p.name for p in tmp_path.glob("journal-damaged-*.sqlite3")]


def test_each_storage_fault_has_its_own_advice(tmp_path):
    journal = tmp_path / "journal.sqlite3"
    journal.write_bytes(b"")
    damaged = storage_advice(JournalError("disk I/O error"), journal)
    assert "is damaged or was cut short" in damaged and "free some space" not in damaged
    journal.write_bytes(b"x" * 4096)
    full = storage_advice(JournalError("database or disk is full"), journal)
    assert "is full" in full and "free some space" in full
    read_only = storage_advice(JournalError("attempt to write a readonly database"), journal)
    assert "is read-only" in read_only and "remount it read-write" in read_only
    io = storage_advice(JournalError("disk I/O error"), journal)
    assert "reports an error" in io and "free some space" not in io


def test_a_file_size_limit_is_named_as_such(tmp_path):
    path = tmp_path / "journal.sqlite3"
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    error = None
    with Journal.open(path) as journal:
        game = Game(GameConfig(players=("red", "blue")))
        game_id = journal.new_game(game.config)
        player = Player(game, 5)
        resource.setrlimit(resource.RLIMIT_FSIZE, (path.stat().st_size + 8192, hard))
        try:
            for _ in range(2000):
                if game.over:
                    break
                player.act()
                journal.append(game_id, game.events[-1])
        except JournalError as raised:
            error = raised
            advice = storage_advice(raised, path)
        finally:
            resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
    assert error is not None, "the limit was never reached"
    assert "a file-size limit" in advice and "LimitFSIZE" in advice


def told(owner) -> int:
    return sum("deleted or replaced while pawnlight was running" in e for e in owner.errors)


def test_journal_files_deleted_twice_hold_each_game_once_after_a_restart(daemon, tmp_path):
    owner = daemon.owner
    finished = start(daemon, {"players": ["red", "blue"]})["game_id"]
    play_turns(daemon, 1, seed=41)
    game_id = start(daemon, {"players": ["red", "yellow"]})["game_id"]  # ends the first early
    for rescues in (1, 2):
        play_turns(daemon, 2 * rescues, seed=41 + rescues)
        for suffix in ("", "-wal", "-shm"):
            os.remove(tmp_path / f"journal.sqlite3{suffix}")
        # Rescued by the periodic check (or the next write): the players are told each time.
        wait_for(owner, lambda s, n=rescues: told(owner) == n)
    state = play_turns(daemon, 6, seed=44)
    assert told(owner) == 2
    daemon.stop()
    with Journal.open(tmp_path / "journal.sqlite3", readonly=True) as journal:
        assert [g.id for g in journal.games()] == [finished, game_id]
        assert len(journal.resume(game_id).history) == len(state["history"])


def test_a_rewrite_from_memory_that_fails_half_way_is_tried_again_and_stored_once(
    daemon, tmp_path, monkeypatch
):
    # The journal cut short: the game in play is written to a fresh journal from memory.  When
    # that write failed (the disk full for a moment), the next try reopened the fresh journal
    # and went on without the game: its held turns found no game to go in.
    owner = daemon.owner
    start(daemon, {"players": ["red", "blue"]})
    play_turns(daemon, 2, seed=51)
    real = Journal.import_record
    fails = [1]

    def import_record(self, record):
        if fails:
            fails.pop()
            raise JournalError(f"the journal {self.path}: database or disk is full")
        return real(self, record)

    monkeypatch.setattr(Journal, "import_record", import_record)
    os.truncate(tmp_path / "journal.sqlite3", 0)
    state = play_turns(daemon, 3, seed=52)
    state = wait_for(owner, lambda s: s["storage"]["ok"] and s["storage"]["unsaved"] == 0)
    assert not fails, "the rewrite never failed"
    turns = len(state["history"])
    game_id = state["game_id"]
    daemon.stop()
    with Journal.open(tmp_path / "journal.sqlite3", readonly=True) as journal:
        assert [g.id for g in journal.games()] == [game_id]
    assert recorded_turns(tmp_path, game_id) == turns

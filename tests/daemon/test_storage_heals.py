"""The journal's files and storage faults while the daemon runs (issue #33), on the full
simulated path in process: no confirmed turn is lost, and every fault heals without a restart."""

from __future__ import annotations

import os

import pytest

from pawnlight.runtime.config import Config
from pawnlight.runtime.daemon import Daemon
from pawnlight.store.journal import Journal

from .test_evening_regressions import play_turns, start
from .test_owner_sim import wait_for


@pytest.fixture
def daemon(tmp_path):
    daemon = Daemon(Config(data=tmp_path, sim=True, layout="presence", http_port=0, settle=0.1))
    daemon.start(web=False)
    yield daemon
    daemon.stop()


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

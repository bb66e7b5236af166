"""Storage read-only when the daemon starts, made writable again with a real remount (issue
#44): the held move is recorded within a retry or two, and the advice names the journal's own
mount point.  A real tmpfs, mounted and remounted by the test: root only."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pawnlight.rules import Position
from pawnlight.rules.notation import parse_move
from pawnlight.runtime.config import Config
from pawnlight.runtime.daemon import Daemon
from pawnlight.store.journal import Journal

from .hands import make_move, read_by
from .test_owner_sim import wait_for

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0, reason="mounting and remounting a tmpfs needs root"
)

#: A journal left as a daemon killed mid-game leaves it: its -wal and -shm beside it.
KILLED = """
import os, sys
from pawnlight.rules.game import GameConfig
from pawnlight.store.journal import Journal
journal = Journal.open(sys.argv[1])
journal.new_game(GameConfig(players=("red", "blue")))
os.kill(os.getpid(), 9)
"""


def _mount(*args: str) -> None:
    done = subprocess.run(["mount", *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"mount {' '.join(args)}: {done.stderr.strip()}")


@pytest.fixture
def tmpfs(tmp_path: Path) -> Iterator[Path]:
    where = tmp_path / "storage"
    where.mkdir()
    try:
        _mount("-t", "tmpfs", "-o", "size=16m", "tmpfs", str(where))
    except RuntimeError as error:  # root without the right to mount (a container)
        pytest.skip(f"cannot mount a tmpfs here: {error}")
    try:
        yield where
    finally:
        subprocess.run(["mount", "-o", "remount,rw", str(where)], capture_output=True)
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def test_storage_read_only_at_start_heals_once_remounted_read_write(tmpfs: Path):
    journal = tmpfs / "journal.sqlite3"
    killed = subprocess.run([sys.executable, "-c", KILLED, str(journal)], capture_output=True)
    assert killed.returncode == -9, killed.stderr
    assert (tmpfs / "journal.sqlite3-shm").exists()
    _mount("-o", "remount,ro", str(tmpfs))
    daemon = Daemon(Config(data=tmpfs, sim=True, layout="presence", http_port=0, settle=0.1))
    daemon.start(web=False)
    try:
        owner, board = daemon.owner, daemon.sim_board
        assert owner is not None and board is not None
        # The game the killed daemon began, resumed (reading works on a read-only storage).
        state = wait_for(owner, lambda s: s["game_id"] is not None)
        game_id = state["game_id"]
        board.set_board(Position.from_json(state["pawns"]).to_json())
        wait_for(owner, lambda s: s["phase"] == "draw")
        board.scan("2")  # the card drawn: its event cannot be written, so it is held
        state = wait_for(owner, lambda s: not s["storage"]["ok"])
        problem = state["storage"]["problem"]
        assert f"mount -o remount,rw {tmpfs}" in problem, problem
        _mount("-o", "remount,rw", str(tmpfs))
        # Retried every half second: the next retry opens the journal read-write again and
        # writes what it held.
        state = wait_for(owner, lambda s: s["storage"]["ok"] and s["phase"] == "move", timeout=20)
        choice = state["legal"][0]["text"]
        move = parse_move(choice, Position.from_json(state["pawns"]), state["teams"])
        make_move(board, move, random.Random(5), seen=lambda: read_by(daemon))
        state = wait_for(owner, lambda s: len(s["turns"]) == 1 and s["storage"]["saved_turns"] == 1)
        assert state["storage"]["ok"] and state["warning"] is None
    finally:
        daemon.stop()
    with Journal.open(journal, readonly=True) as kept:
        assert len(kept.resume(game_id).history) == 1

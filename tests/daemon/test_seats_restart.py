"""A seat given to the computer during a game (POST /api/seat) survives a restart of the
daemon, and a new game forgets it (issue #34)."""

from pawnlight.runtime.config import Config
from pawnlight.runtime.daemon import Daemon
from pawnlight.runtime.owner import Owner
from pawnlight.store.journal import Journal

from .test_owner_sim import wait_for


def daemon(tmp_path) -> tuple[Daemon, Owner]:
    started = Daemon(Config(data=tmp_path, sim=True, layout="colour", http_port=0))
    started.start(web=False)
    assert started.owner is not None
    return started, started.owner


def test_a_seat_changed_during_a_game_comes_back_after_a_restart(tmp_path):
    first, owner = daemon(tmp_path)
    try:
        owner.command("new_game", {"players": ["red", "blue"], "computer": {"blue": "heuristic"}})
        game_id = wait_for(owner, lambda s: s["phase"] == "setup")["game_id"]
        owner.command("seat", {"colour": "red", "player": "heuristic"})
        owner.command("seat", {"colour": "blue", "player": None})
        wait_for(owner, lambda s: s["computer"] == {"red": "normal"})
    finally:
        first.stop()
    with Journal.open(tmp_path / "journal.sqlite3", readonly=True) as journal:
        assert journal.recall("seats") == {"computer": {"red": "normal"}}
    second, owner = daemon(tmp_path)
    try:
        state = wait_for(owner, lambda s: s.get("game_id") == game_id)
        assert state["computer"] == {"red": "normal"}
        # A new game has the seats its request names; the kept ones are forgotten.
        owner.command("new_game", {"players": ["red", "blue"]})
        state = wait_for(owner, lambda s: s.get("game_id") != game_id)
        assert state["computer"] == {}
    finally:
        second.stop()
    with Journal.open(tmp_path / "journal.sqlite3", readonly=True) as journal:
        assert journal.recall("seats") is None

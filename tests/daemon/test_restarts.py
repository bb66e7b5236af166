"""Restarts in the less common games (issue #22): the real daemon on the simulated board, driven
through the HTTP API as the page and the simulator do, stopped (SIGTERM) or killed (SIGKILL)
at the awkward moments, then started again on the same data folder."""

from __future__ import annotations

import json
import urllib.request

import pytest

from .process import DaemonProcess

#: Each restarts the real daemon several times.
pytestmark = pytest.mark.slow

POINTS = {"edition": "parker-1950", "variant": "points", "players": ["red", "yellow"]}


def restart(daemon: DaemonProcess, how: str) -> None:
    if how == "SIGKILL":
        daemon.kill()
    else:
        daemon.stop()
    daemon.start()


def post(daemon: DaemonProcess, path: str, body: dict | None = None) -> dict:
    return daemon.request("POST", path, body or {}, pin=True)


def new_game(daemon: DaemonProcess, config: dict) -> dict:
    post(daemon, "/api/game", config)
    if config.get("draw_leader"):
        return daemon.wait(lambda s: s["phase"] == "leader")
    return set_up(daemon)


def set_up(daemon: DaemonProcess) -> dict:
    """Put the simulated board as lit, wait until play can start."""
    state = daemon.wait(lambda s: s["phase"] not in ("idle", "over", "leader"))
    daemon.request("POST", "/api/sim/board", {"pawns": state["pawns"]})
    return daemon.wait(lambda s: s["phase"] in ("draw", "move", "double"))


def scan(daemon: DaemonProcess, card: str) -> None:
    daemon.request("POST", "/api/sim/scan", {"card": card})


@pytest.fixture
def daemon(tmp_path):
    daemon = DaemonProcess(tmp_path)
    daemon.start()
    yield daemon
    daemon.stop()


@pytest.mark.parametrize("how", ["SIGTERM", "SIGKILL"])
def test_a_double_accepted_after_a_restart_recognises_the_cards_move(daemon, how):
    """Issue #22, 1: red scans a 5 (T4-T9), yellow doubles, restart, red accepts, red on T9."""
    new_game(daemon, POINTS)
    scan(daemon, "5")
    state = daemon.wait(lambda s: s["phase"] == "move")
    assert [m["text"] for m in state["legal"]] == ["T4-T9"]
    post(daemon, "/api/double", {"colour": "yellow"})
    daemon.wait(lambda s: s["phase"] == "double")
    restart(daemon, how)
    daemon.wait(lambda s: s["phase"] == "double")  # the board still shows the position
    post(daemon, "/api/accept", {"colour": "red"})
    daemon.wait(lambda s: s["phase"] == "move" and s["doubled"] == 1)
    daemon.request("POST", "/api/sim/lift", {"square": "T4"})
    daemon.request("POST", "/api/sim/place", {"square": "T9", "colour": "red"})
    state = daemon.wait(lambda s: s["history"] == ["T4-T9"])
    assert state["phase"] == "draw" and state["turn"] == "yellow" and state["corrections"] == []


def test_a_match_goes_on_after_restarts_with_its_totals_and_leader(daemon):
    """Issue #22, 3: game 2 of a match, its totals and the winner-leads rule survive."""
    new_game(daemon, POINTS)
    post(daemon, "/api/double", {"colour": "yellow"})
    post(daemon, "/api/drop", {"colour": "red"})  # yellow wins the drop-out 25
    over = daemon.wait(lambda s: s["phase"] == "over")
    assert over["scores"] == {"red": 0, "yellow": 25}
    first_game = over["game_id"]
    post(daemon, "/api/next-game")
    state = set_up(daemon)
    assert state["match"]["game"] == 2 and state["match"]["totals"] == {"red": 0, "yellow": 25}
    assert state["players"] == ["yellow", "red"] and state["turn"] == "yellow"  # winner leads
    second_game = state["game_id"]
    # The next game took the new-game path: a record of its own naming the match's first game,
    # the first one finished with its result.
    games = {g["id"]: g for g in daemon.request("GET", "/api/games")["games"]}
    assert games[first_game]["finished"] and games[first_game]["winners"] == ["yellow"]
    assert second_game != first_game and not games[second_game]["finished"]
    with urllib.request.urlopen(f"{daemon.url}/api/games/{second_game}/record") as response:
        header = json.loads(response.read().decode().splitlines()[0])
    assert header["meta"]["match"] == {"games": [first_game]}
    restart(daemon, "SIGKILL")
    state = daemon.wait(lambda s: s["phase"] == "draw")
    assert state["game_id"] == second_game
    assert state["match"] == {
        "game": 2,
        "totals": {"red": 0, "yellow": 25},
        "wins": {"red": 0, "yellow": 1},
    }
    assert state["players"] == ["yellow", "red"] and state["turn"] == "yellow"
    # Game 2 ends the same way; a restart between games keeps the match, game 3 counts both.
    post(daemon, "/api/double", {"colour": "red"})
    post(daemon, "/api/drop", {"colour": "yellow"})
    daemon.wait(lambda s: s["phase"] == "over")
    restart(daemon, "SIGTERM")
    state = daemon.wait(lambda s: s["phase"] == "over")
    assert state["game_id"] == second_game and state["result"]["winners"] == ["red"]
    assert state["match"]["game"] == 2 and state["match"]["totals"] == {"red": 25, "yellow": 25}
    post(daemon, "/api/next-game")
    set_up(daemon)
    restart(daemon, "SIGTERM")
    state = daemon.wait(lambda s: s["phase"] == "draw")
    assert state["match"]["game"] == 3
    assert state["match"]["totals"] == {"red": 25, "yellow": 25}
    assert state["players"] == ["red", "yellow"]
    games = daemon.request("GET", "/api/games")
    assert first_game in [g["id"] for g in games["games"]]


def test_the_leader_draw_and_the_settings_survive_a_restart(daemon):
    """Issue #22, 4: a restart during the leader draw keeps the draw and the settings."""
    post(daemon, "/api/settings", {"brightness": 0.25, "settle": 0.15})
    new_game(daemon, {"players": ["red", "blue", "green"], "draw_leader": True})
    scan(daemon, "10")
    daemon.wait(lambda s: s["leader"]["drawing"] == ["blue", "green"])
    restart(daemon, "SIGKILL")
    state = daemon.wait(lambda s: s["phase"] == "leader")
    assert state["leader"] == {"drawing": ["blue", "green"], "draws": {"red": "10"}, "round": 1}
    assert state["settings"]["brightness"] == 0.25 and state["settings"]["settle"] == 0.15
    scan(daemon, "12")
    scan(daemon, "3")
    state = set_up(daemon)
    assert state["players"] == ["blue", "green", "red"] and state["turn"] == "blue"
    assert state["leader"] is None
    restart(daemon, "SIGTERM")
    state = daemon.wait(lambda s: s["phase"] == "draw")  # the game, not the finished draw
    assert state["players"] == ["blue", "green", "red"]
    assert state["settings"]["brightness"] == 0.25 and state["settings"]["settle"] == 0.15


def test_damaged_saved_settings_are_reported_and_the_game_still_resumes(tmp_path):
    import sqlite3

    from pawnlight.board.layout import Layout
    from pawnlight.companion.deck import CardDeck, simulated_uids
    from pawnlight.companion.machine import Companion
    from pawnlight.rules import GameConfig
    from pawnlight.runtime.owner import Owner
    from pawnlight.store.journal import Journal

    from .test_owner_sim import wait_for

    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as journal:
        game_id = journal.new_game(GameConfig(players=("red", "blue")))
    db = sqlite3.connect(path)
    db.execute("INSERT INTO board_state (name, value) VALUES ('settings', '{\"brightness\": ')")
    db.commit()
    db.close()
    owner = Owner(Companion(Layout.named("colour"), CardDeck(simulated_uids())), path)
    owner.start()
    try:
        state = wait_for(owner, lambda s: s["game_id"] == game_id)
        assert state["phase"] == "setup"
        assert "saved settings are damaged" in state["warning"]
    finally:
        owner.stop()


def test_the_led_patterns_and_the_night_level_survive_a_restart(tmp_path):
    """Issue #48: the colour-free patterns and the night level are kept like the brightness."""
    from pawnlight.board.layout import Layout
    from pawnlight.companion.deck import CardDeck, simulated_uids
    from pawnlight.companion.machine import Companion
    from pawnlight.runtime.owner import Owner

    from .test_owner_sim import wait_for

    path = tmp_path / "journal.sqlite3"
    changes = {"patterns": True, "night": True, "night_level": 0.2, "brightness": 0.9}

    def owner() -> Owner:
        return Owner(Companion(Layout.named("colour"), CardDeck(simulated_uids())), path)

    first = owner()
    first.start()
    try:
        first.command("settings", changes)
    finally:
        first.stop()
    second = owner()
    second.start()
    try:
        state = wait_for(second, lambda s: s["settings"]["patterns"])
        assert {name: state["settings"][name] for name in changes} == changes
        assert second.companion.settings.level == 0.2  # the LEDs at the night level
    finally:
        second.stop()

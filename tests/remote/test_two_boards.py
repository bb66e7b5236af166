"""Two real daemons on simulated boards in two "homes", one real Mosquitto between them: a
whole remote game played through their simulators (issue #36, docs/remote.md)."""

from __future__ import annotations

from typing import Any

import pytest

from pawnlight.rules.board import COLOURS
from pawnlight.store.journal import Journal, check_file

from .boards import BoardProcess, Table, all_online, shared


def journal_history(daemon: BoardProcess, game_id: int) -> list[str]:
    assert check_file(daemon.data / "journal.sqlite3") == []
    with Journal.open(daemon.data / "journal.sqlite3", readonly=True) as journal:
        return [turn.text for turn in journal.resume(game_id).history]


def start_game(boards, config, seats, seed=1) -> Table:
    table = Table(boards, config, seed)
    code = table.host("board-a", seats)
    reply = boards["board-b"].request("POST", "/api/remote/join", {"code": code}, pin=True)
    assert reply["host"] == "board-a"
    table.set_up()
    return table


#: The games played whole: every edition, each variant that seats people at boards (Patience
#: Sorry is one person's game); partnership play below, point play in test_point_play.py.
GAMES: dict[str, tuple[dict[str, Any], dict[str, str]]] = {
    "hasbro-2002": (
        {"edition": "hasbro-2002", "players": ["red", "blue"]},
        {"red": "board-a", "blue": "board-b"},
    ),
    "parker-1950-three": (  # yellow played by the host's computer, chosen at the start
        {
            "edition": "parker-1950",
            "players": ["red", "blue", "yellow"],
            "computer": {"yellow": "normal"},
        },
        {"red": "board-a", "blue": "board-b", "yellow": "board-a"},
    ),
    "parker-1939-quick": (
        {"edition": "parker-1939", "players": ["green", "yellow"], "variant": "quick"},
        {"green": "board-b", "yellow": "board-a"},
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_whole_remote_game_on_two_boards(boards, name):
    a, b = boards["board-a"], boards["board-b"]
    assert a.state()["remote"] is None  # outside a remote game
    config, seats = GAMES[name]
    table = start_game(boards, config, seats)
    remote = a.state()["remote"]
    assert remote["host"] == "board-a" and remote["copy"] is None
    assert remote["computer"] == sorted(config.get("computer", {}))
    assert sorted(a.state()["computer"]) == sorted(config.get("computer", {}))
    assert remote["boards"] == {
        board: {
            "online": True,
            "seats": [c for c in COLOURS if seats.get(c) == board],
            "offline_for": 0.0,
        }
        for board in ("board-a", "board-b")
    }
    assert b.state()["remote"]["game"] == remote["game"]
    final = table.play()
    other = b.wait(lambda s: s["phase"] == "over")
    assert final["result"]["winners"] == other["result"]["winners"]
    assert shared(final) == shared(other)
    # Each board journalled every turn it saw; the host's journal is the game's record.
    for daemon in (a, b):
        state = daemon.state()
        assert journal_history(daemon, state["game_id"]) == final["history"]


@pytest.mark.slow
def test_partnership_play_on_two_boards(boards):
    """Two partners a board, a whole game: a side moves the player's and the partner's pawns,
    and wins when both are home."""
    a, b = boards["board-a"], boards["board-b"]
    seats = {"red": "board-a", "yellow": "board-a", "blue": "board-b", "green": "board-b"}
    config = {"edition": "hasbro-2002", "players": list(COLOURS), "teams": True}
    table = start_game(boards, config, seats)
    final = table.play()
    assert final["teams"] and final["phase"] == "over"
    assert sorted(final["result"]["winners"]) in (["red", "yellow"], ["blue", "green"])
    other = b.wait(lambda s: s["phase"] == "over")
    assert shared(other) == shared(final)
    for daemon in (a, b):
        assert journal_history(daemon, daemon.state()["game_id"]) == final["history"]


@pytest.mark.slow
def test_a_card_scanned_at_the_wrong_board_is_refused_in_words(boards):
    a, b = boards["board-a"], boards["board-b"]
    start_game(boards, {"players": ["red", "blue"]}, {"red": "board-a", "blue": "board-b"})
    b.request("POST", "/api/sim/scan", {"card": "1"})  # red's turn: red plays at board-a
    state = b.wait(lambda s: s["warning"] is not None)
    assert "red plays at board board-a" in state["warning"]
    assert state["card"] is None and a.state()["card"] is None
    assert all_online(a.state())

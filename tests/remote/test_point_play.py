"""Point play on two boards (issue #36, docs/remote.md): a card played from a hand at its own
board, a double called at the caller's turn and answered at the other board, the scores alike
on both, and every board's journal holding the turns and the doubling."""

from __future__ import annotations

import pytest

from pawnlight.rules.board import COLOURS
from pawnlight.store.journal import Journal, check_file

from .boards import BoardProcess
from .test_two_boards import start_game

CONFIG = {"edition": "parker-1950", "players": ["red", "blue"], "variant": "points"}
SEATS = {"red": "board-a", "blue": "board-b"}


def journal_events(daemon: BoardProcess, game_id: int) -> list[tuple[str, int]]:
    """The doubling events (kind, colour) in the board's journal of that game."""
    assert check_file(daemon.data / "journal.sqlite3") == []
    with Journal.open(daemon.data / "journal.sqlite3", readonly=True) as journal:
        game = journal.resume(game_id)
    return [(str(e.kind), e.colour) for e in game.events if e.kind in ("double", "accept", "drop")]


def refused(daemon: BoardProcess, path: str, body: dict[str, str]) -> str:
    with pytest.raises(AssertionError) as caught:
        daemon.request("POST", path, body, pin=True)
    return str(caught.value)


def at_turn(table, colour: str) -> None:
    """Turns played until it is ``colour``'s turn to play a card (on every board)."""
    while table.boards["board-a"].state()["turn"] != colour or table.mirror.history == ():
        table.play_turn()
    for daemon in table.boards.values():
        daemon.wait(lambda s: s["phase"] == "draw" and s["turn"] == colour)


@pytest.mark.slow
def test_point_play_with_a_double_on_two_boards(boards):
    a, b = boards["board-a"], boards["board-b"]
    table = start_game(boards, CONFIG, SEATS)
    at_turn(table, "blue")
    # Blue plays at board-b: red's board cannot double for it, and red not out of its turn.
    assert "blue plays at board board-b" in refused(a, "/api/double", {"colour": "blue"})
    assert "at its own turn, before its card" in refused(a, "/api/double", {"colour": "red"})
    # The page offers board-b's people the double of blue (whose turn it is) and no other.
    page = b.request("GET", "/api/state")
    assert page["phase"] == "draw" and page["turn"] == "blue"
    b.request("POST", "/api/double", {"colour": "blue"}, pin=True)
    table.mirror.double("blue")
    asked = a.wait(lambda s: s["phase"] == "double")
    assert asked["waiting_for"] == ["red"] and "Blue (at board-b) doubles" in asked["news"]
    assert "red plays at board board-a" in refused(b, "/api/accept", {"colour": "red"})
    a.request("POST", "/api/accept", {"colour": "red"}, pin=True)
    table.mirror.accept("red")
    for daemon in (a, b):
        state = daemon.wait(lambda s: s["phase"] == "draw" and s["doubled"] == 1)
        assert state["turn"] == "blue"
    final = table.play()
    other = b.wait(lambda s: s["phase"] == "over")
    assert final["result"] == other["result"] and final["scores"] == other["scores"]
    winner = final["result"]["winners"][0]
    assert final["scores"][winner] > 0 and final["scores"][winner] % 2 == 0  # counted double
    assert final["doubled"] == other["doubled"] == 1
    assert final["history"] == other["history"]
    for daemon in (a, b):
        events = journal_events(daemon, daemon.state()["game_id"])
        assert events == [("double", COLOURS.index("blue")), ("accept", COLOURS.index("red"))]


@pytest.mark.slow
def test_a_double_every_other_player_drops_ends_the_game_on_both_boards(boards):
    a, b = boards["board-a"], boards["board-b"]
    table = start_game(boards, CONFIG, SEATS)
    at_turn(table, "red")
    a.request("POST", "/api/double", {"colour": "red"}, pin=True)
    b.wait(lambda s: s["phase"] == "double" and s["waiting_for"] == ["blue"])
    b.request("POST", "/api/drop", {"colour": "blue"}, pin=True)
    for daemon in (a, b):
        over = daemon.wait(lambda s: s["phase"] == "over")
        assert over["result"]["winners"] == ["red"]
        assert over["scores"]["red"] == 25  # the doubler's points when all drop


@pytest.mark.slow
def test_a_board_killed_while_a_double_waits_for_it_answers_once_back(boards):
    """The double is retained on the broker: the board that must answer is SIGKILLed, starts
    again, is handed the double, and its answer goes on the game on both boards."""
    a, b = boards["board-a"], boards["board-b"]
    table = start_game(boards, CONFIG, SEATS)
    at_turn(table, "red")
    played = a.state()["history"]
    b.kill()
    a.request("POST", "/api/double", {"colour": "red"}, pin=True)
    table.mirror.double("red")
    waiting = a.wait(lambda s: s["phase"] == "double")
    assert "board is offline" in waiting["warning"]
    b.start()
    back = b.wait(lambda s: s["remote"] is not None and s["phase"] in ("double", "setup"))
    b.request("POST", "/api/sim/board", {"pawns": back["pawns"]})
    back = b.wait(lambda s: s["phase"] == "double" and s["waiting_for"] == ["blue"])
    assert back["history"] == played
    b.request("POST", "/api/accept", {"colour": "blue"}, pin=True)
    table.mirror.accept("blue")
    for daemon in (a, b):
        daemon.wait(lambda s: s["phase"] == "draw" and s["doubled"] == 1 and s["turn"] == "red")
    for _ in range(3):
        table.play_turn()
    assert a.state()["history"] == b.wait(lambda s: len(s["history"]) == len(played) + 3)["history"]

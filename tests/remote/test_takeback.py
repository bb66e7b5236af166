"""A takeback across boards, with two real daemons and Mosquitto: asked on one board, agreed
on the other, undone on both (and withdrawn from the broker); a refusal changes nothing."""

from __future__ import annotations

import time
import urllib.request

import pytest

from pawnlight.remote.protocol import event_topic

from .boards import BoardProcess, shared
from .test_broker import connected
from .test_faults import journals_agree, settled_alike
from .test_two_boards import start_game

RED_AT_A = {"red": "board-a", "blue": "board-b"}


def retained_turns(broker, game: str) -> set[str]:
    """The turns the broker keeps for a board catching up."""
    got: set[str] = set()
    reader = connected(broker, "dashboard")
    reader.on_message = lambda c, u, m: got.add(m.topic) if m.payload else None
    reader.subscribe(event_topic("+", game, 0).rsplit("/", 1)[0] + "/+", qos=1)
    time.sleep(0.5)  # retained messages come at once after subscribing; none to wait for after
    reader.loop_stop()
    return got


def page_of(daemon: BoardProcess) -> str:
    with urllib.request.urlopen(daemon.url + "/", timeout=10) as response:
        return response.read().decode()


def take_back(asker: BoardProcess, other: BoardProcess, agree: bool) -> dict:
    turns = len(asker.state()["history"])
    reply = asker.request("POST", "/api/undo", {}, pin=True)
    assert reply["ok"] and reply["asked"]
    state = other.wait(lambda s: s["remote"]["takeback"] is not None)
    assert "asks to take back" in state["warning"]
    other.request("POST", "/api/remote/takeback", {"agree": agree}, pin=True)
    if agree:
        for daemon in (asker, other):
            # Back to before the turn: "setup" until the board is put back as lit (at once
            # when the turn moved no pawn).
            state = daemon.wait(lambda s: len(s["history"]) == turns - 1)
            assert state["phase"] in ("setup", "draw") and state["card"] is None
    else:
        asker.wait(lambda s: s["remote"]["takeback"] is None and "refused" in s["warning"])
    return asker.state()


@pytest.mark.slow
def test_a_takeback_agreed_by_the_other_board(boards, broker):
    a, b = boards["board-a"], boards["board-b"]
    table = start_game(boards, {"players": ["red", "blue"]}, RED_AT_A, seed=11)
    for _ in range(4):
        table.play_turn()
    settled_alike(a, b)
    before = a.state()
    game = before["remote"]["game"]
    refused = take_back(a, b, agree=False)
    assert refused["history"] == before["history"]
    state = take_back(a, b, agree=True)
    assert state["history"] == before["history"][:-1]
    # The turn taken back is withdrawn from the broker: a board catching up never sees it.
    last = len(before["history"]) - 1
    # (The withdrawal is published once the board has undone the turn: it reaches the broker
    # a moment after the state shows it.)
    deadline = time.monotonic() + 10
    while any(topic.endswith(f"/{last}") for topic in retained_turns(broker, game)):
        assert time.monotonic() < deadline, f"turn {last} still retained on the broker"
    # Both boards put back as lit; the mirror forgets the turn too; play goes on.
    for daemon in (a, b):
        daemon.request("POST", "/api/sim/board", {"pawns": daemon.state()["pawns"]})
        daemon.wait(lambda s: s["phase"] == "draw")
    table.mirror.undo()
    while table.mirror.card is not None or len(table.mirror.history) > last:
        table.mirror.undo()
    assert shared(a.state()) == shared(b.state())
    for _ in range(3):
        table.play_turn()
    settled_alike(a, b)
    journals_agree(a, b)


@pytest.mark.slow
def test_the_page_shows_the_boards_and_asks_for_the_takeback(boards):
    a, b = boards["board-a"], boards["board-b"]
    table = start_game(boards, {"players": ["red", "blue"]}, RED_AT_A, seed=13)
    table.play_turn()
    settled_alike(a, b)
    page = page_of(b)
    assert 'data-board="board-a" data-online="true"' in page
    assert "board-b (this board): Blue · online" in page
    assert 'id="remote-takeback"' not in page
    a.request("POST", "/api/undo", {}, pin=True)
    b.wait(lambda s: s["remote"]["takeback"] is not None)
    page = page_of(b)
    assert "Board board-a asks to take back turn 1" in page

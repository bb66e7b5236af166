"""A board offline for long (issue #36): after ``offline_grace`` (1 s here) the host may let
its computer play the away board's colours, published as the host's turns, and give them back
when the board returns; or adjourn the game on every board and resume it with its join code.
Two real daemons on one real Mosquitto; the away board is killed (SIGKILL) and started again."""

from __future__ import annotations

import http.cookiejar
import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from pawnlight.remote.protocol import decode_event, event_topic, parse_topic

from ..helpers import PIN
from .boards import BoardProcess, Table, all_online, running_boards
from .broker import Broker
from .test_faults import RED_AT_A, journals_agree, retained_event, settled_alike
from .test_two_boards import start_game


@pytest.fixture
def graceful(tmp_path: Path, broker: Broker) -> Iterator[dict[str, BoardProcess]]:
    """board-a (the host) and board-b, a keepalive of 2 s and an offline grace of 1 s."""
    with running_boards(tmp_path, broker, keepalive=2, extra="offline_grace = 1") as made:
        yield made


def refused(daemon: BoardProcess, path: str, body: dict, words: str) -> None:
    with pytest.raises(AssertionError, match=words):
        daemon.request("POST", path, body, pin=True)


def owner_page(daemon: BoardProcess) -> str:
    """The status page as its owner sees it (logged in with the PIN, as a browser is)."""
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )
    login = urllib.request.Request(
        daemon.url + "/api/login",
        json.dumps({"pin": PIN}).encode(),
        {"Content-Type": "application/json"},
    )
    with opener.open(login, timeout=10) as response:
        assert json.loads(response.read())["owner"]
    with opener.open(daemon.url + "/", timeout=10) as response:
        return response.read().decode()


def away_long(table: Table, a: BoardProcess, b: BoardProcess) -> None:
    """B's power goes; A shows it offline, then offline for the grace."""
    b.kill()
    a.wait(lambda s: not all_online(s))
    a.wait(lambda s: s["remote"]["away_long"] == ["board-b"])
    state = a.state()
    assert state["remote"]["boards"]["board-b"]["offline_for"] >= 1
    assert state["warning"] == (
        "Blue's board is offline (the game is paused): the owner may let the computer play "
        "its colours, or adjourn the game"
    )


def catch_up(table: Table, a: BoardProcess, b: BoardProcess) -> None:
    """B, started again, copies every turn it missed, in order."""
    b.start()
    b.wait(lambda s: s["remote"] is not None and all_online(s))
    b.request("POST", "/api/sim/board", {"pawns": b.state()["pawns"]})
    for seq in range(len(b.state()["history"]), len(a.state()["history"])):
        table.copy(b, seq, more=True)
    settled_alike(a, b)


@pytest.mark.slow
def test_the_host_lets_the_computer_play_an_away_board_and_gives_it_back(graceful, broker):
    a, b = graceful["board-a"], graceful["board-b"]
    table = start_game(graceful, {"players": ["red", "blue"]}, RED_AT_A, seed=17)
    for _ in range(3):
        table.play_turn()
    settled_alike(a, b)
    seat = {"colour": "blue", "computer": True}
    refused(a, "/api/remote/seat", seat, "board board-b is online")
    refused(b, "/api/remote/seat", seat, "only the host")
    refused(a, "/api/remote/adjourn", {}, "every board is online")
    assert "Let the computer play" not in owner_page(a)
    away_long(table, a, b)
    page = owner_page(a)
    assert "Let the computer play Blue</button>" in page and ">Adjourn</button>" in page
    reply = a.request("POST", "/api/remote/seat", seat, pin=True)
    assert reply["computer"] == ["blue"]
    state = a.wait(lambda s: s["warning"] is None)
    assert state["remote"]["computer"] == ["blue"]
    assert state["remote"]["boards"]["board-a"]["seats"] == ["red", "blue"]
    # The host plays on: blue's cards scanned at A, the computer's move lit and made there.
    handed_at = len(state["history"])
    table.boards = {"board-a": a}
    for _ in range(4):
        table.play_turn()
    played = a.state()
    blue = [
        seq
        for seq, turn in enumerate(played["turns"])
        if seq >= handed_at and turn["colour"] == "blue"
    ]
    assert blue, "no turn of blue's while the computer played it"
    game = played["remote"]["game"]
    topic = parse_topic(event_topic("board-a", game, blue[0]))
    event = decode_event(retained_event(broker, "board-a", game, blue[0]), topic)
    assert (event.board, event.colour) == ("board-a", 1)
    # B comes back: it catches up with every turn (blue's from A) and plays nothing meanwhile.
    table.boards = graceful
    catch_up(table, a, b)
    assert b.state()["remote"]["computer"] == ["blue"]
    assert b.state()["remote"]["boards"]["board-b"]["seats"] == []
    # The host gives blue back to B (online again); blue is scanned at B from then on.
    refused(a, "/api/remote/seat", {"colour": "red", "computer": False}, "does not play red")
    assert "Give Blue back to its board</button>" in owner_page(a)
    assert "Give blue back" not in owner_page(b)  # only the host's owner hands seats
    a.request("POST", "/api/remote/seat", {"colour": "blue", "computer": False}, pin=True)
    b.wait(lambda s: s["remote"]["computer"] == [] and s["remote"]["boards"]["board-b"]["seats"])
    assert a.state()["remote"]["computer"] == []
    for _ in range(4):
        table.play_turn()
    settled_alike(a, b)
    history = a.state()["turns"]
    assert any(t["colour"] == "blue" for t in history[len(played["turns"]) :])
    journals_agree(a, b)


@pytest.mark.slow
def test_the_host_adjourns_and_resumes_with_the_join_code(graceful):
    a, b = graceful["board-a"], graceful["board-b"]
    table = start_game(graceful, {"players": ["red", "blue"]}, RED_AT_A, seed=19)
    for _ in range(3):
        table.play_turn()
    settled_alike(a, b)
    code = a.state()["remote"]["code"]
    away_long(table, a, b)
    assert a.request("POST", "/api/remote/adjourn", {}, pin=True)["code"] == code
    adjourned = a.wait(lambda s: s["remote"]["adjourned"])
    assert adjourned["warning"].startswith("The game is adjourned")
    a.request("POST", "/api/sim/scan", {"card": "2"})
    a.wait(lambda s: "the host resumes it with its join code" in (s["warning"] or ""))
    assert a.state()["card"] is None
    # Saved as adjourned: the host restarted keeps it so.
    a.stop()
    a.start()
    a.wait(lambda s: s["remote"] is not None and s["remote"]["adjourned"])
    refused(a, "/api/remote/resume", {"code": code}, "board board-b is offline")
    page = owner_page(a)
    assert f"resumes it with the join code {code}" in page and ">Resume</button>" in page
    # B returns: it is told the game is adjourned (the host's retained seating).
    b.start()
    back = b.wait(lambda s: s["remote"] is not None and s["remote"]["adjourned"])
    assert back["warning"].startswith("The game is adjourned")
    a.wait(all_online)
    refused(a, "/api/remote/resume", {"code": "WRONG1"}, r"not this game.{1,3}s join code")
    a.request("POST", "/api/remote/resume", {"code": code.lower()}, pin=True)
    for daemon in (a, b):
        daemon.request("POST", "/api/sim/board", {"pawns": daemon.state()["pawns"]})
        daemon.wait(lambda s: not s["remote"]["adjourned"] and s["warning"] is None)
    for _ in range(3):
        table.play_turn()
    settled_alike(a, b)
    journals_agree(a, b)

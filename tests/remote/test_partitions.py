"""Network partitions (issue #36): a board hung mid-game (SIGSTOP) past its keepalive, and the
broker hung then resumed.  The boards use a keepalive of 2 s (``mqtt_keepalive``), so the broker
gives a silent board up after 3 s and a board gives a silent broker up after 2 to 4 s; every
wait is on what the boards show, none on the clock."""

from __future__ import annotations

import json
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pawnlight.remote.protocol import presence_payload, presence_topic

from .boards import BoardProcess, Table, all_online, running_boards
from .broker import Broker
from .test_broker import connected, publish
from .test_faults import RED_AT_A, journals_agree, settled_alike
from .test_two_boards import start_game

KEEPALIVE = 2


@pytest.fixture
def hasty(tmp_path: Path, broker: Broker) -> Iterator[dict[str, BoardProcess]]:
    """board-a and board-b with a keepalive of 2 s."""
    with running_boards(tmp_path, broker, keepalive=KEEPALIVE) as made:
        yield made


def retained_presence(broker: Broker, board: str) -> bool:
    """The presence the broker keeps for a board (what a board connecting later is told)."""
    got: list[bytes] = []
    reader = connected(broker, "dashboard")
    reader.on_message = lambda c, u, message: got.append(bytes(message.payload))
    reader.subscribe(presence_topic(board), qos=1)
    deadline = time.monotonic() + 5
    while not got and time.monotonic() < deadline:
        time.sleep(0.02)
    reader.loop_stop()
    assert got, f"no presence retained for {board}"
    return bool(json.loads(got[0])["online"])


def until_turn_at(table: Table, board: BoardProcess) -> None:
    """Turns are played until it is the turn of a colour seated at ``board``."""
    for _ in range(20):
        if table.seat_of(board.state()) is board:
            return
        table.play_turn()
    raise AssertionError("no turn at that board in 20 turns")


@pytest.mark.slow
def test_a_board_hung_past_its_keepalive_is_offline_then_catches_up(hasty):
    a, b = hasty["board-a"], hasty["board-b"]
    table = start_game(hasty, {"players": ["red", "blue"]}, RED_AT_A, seed=11)
    for _ in range(2):
        table.play_turn()
    until_turn_at(table, a)
    # Red's card is scanned at A (a card with a move), then B hangs; red's move is made at A
    # and published while B cannot hear it.
    while True:
        turns = len(a.state()["history"])
        card, wanted = table.pick()
        a.request("POST", "/api/sim/scan", {"card": card})
        state = a.wait(lambda s, n=turns: s["phase"] == "move" or len(s["history"]) > n)
        if state["phase"] == "move":
            break
        table.mirror_turn(a.state()["turns"][turns])
        table.copy(b, turns)
        until_turn_at(table, a)
    b.pause()
    choice = next((c for c in state["legal"] if c["text"] == wanted), None)
    table.move(a, choice or table.choose(state, card), turns)
    table.mirror_turn(a.state()["turns"][turns])
    # The broker gives B up (its keepalive lapsed) and sends its last will: A shows it offline
    # and takes no card.
    paused = a.wait(lambda s: not all_online(s))
    assert not paused["remote"]["boards"]["board-b"]["online"]
    assert paused["warning"] == "Blue's board is offline (the game is paused)"
    a.request("POST", "/api/sim/scan", {"card": "2"})
    refused = a.wait(lambda s: "the game waits for it" in (s["warning"] or ""))
    assert refused["card"] is None and len(refused["history"]) == turns + 1
    # B resumes: it reconnects, is handed red's move (retained) and lights it to copy.
    b.resume()
    lit = b.wait(lambda s: all_online(s) and s["remote"]["copy"] is not None)
    assert len(lit["history"]) == turns
    table.copy(b, turns)
    a.wait(lambda s: all_online(s) and s["warning"] is None)
    for _ in range(3):
        table.play_turn()
    settled_alike(a, b)
    journals_agree(a, b)


@pytest.mark.slow
def test_the_broker_hung_then_resumed(hasty, broker):
    a, b = hasty["board-a"], hasty["board-b"]
    table = start_game(hasty, {"players": ["red", "blue"]}, RED_AT_A, seed=13)
    for _ in range(3):
        table.play_turn()
    assert broker.process is not None
    broker.process.send_signal(signal.SIGSTOP)
    try:
        # Each board's pings go unanswered: it leaves the broker and pauses the game.
        for daemon in (a, b):
            state = daemon.wait(lambda s: not all_online(s))
            assert state["warning"] == (
                "This board is not connected to the other boards (the game is paused)"
            )
        turn_at = table.seat_of(a.state())
        turn_at.request("POST", "/api/sim/scan", {"card": "2"})
        refused = turn_at.wait(lambda s: "the game waits for it" in (s["warning"] or ""))
        assert refused["card"] is None
    finally:
        broker.process.send_signal(signal.SIGCONT)
    # The broker resumes: it drops the boards' old connections (sending their last wills, late)
    # and takes the new ones; both boards are online again, and stay so.
    for daemon in (a, b):
        daemon.wait(lambda s: all_online(s) and s["warning"] is None)
    for board in ("board-a", "board-b"):
        assert retained_presence(broker, board), f"{board} left marked offline on the broker"
    for _ in range(4):
        table.play_turn()
    settled_alike(a, b)
    for daemon in (a, b):
        assert all_online(daemon.state())
    journals_agree(a, b)


def test_a_late_last_will_of_its_own_is_answered(hasty, broker):
    """A board's last will can reach the broker after the board's new connection began (the
    broker gives the old one up late): the board, hearing itself called offline while it is
    connected, says it is online again, and the broker keeps that."""
    assert retained_presence(broker, "board-a")
    late = connected(broker, "board-a")  # board-a's credentials, as the broker sends its will
    publish(late, presence_topic("board-a"), presence_payload(False), retain=True)
    late.loop_stop()
    deadline = time.monotonic() + 10
    while not retained_presence(broker, "board-a"):
        assert time.monotonic() < deadline, "board-a left marked offline on the broker"
    assert hasty["board-b"].state()["link"]["up"]

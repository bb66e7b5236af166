"""A board's link to a real Mosquitto when other users misbehave (issue #44): poisoned messages
stop nothing, a second board under one id is refused, the dashboard reads no join code, and a
retained flood does not cost a board catching up any of its turns.  The links here are the
daemon's own (remote.link.board_link), without a daemon behind them: what they hand on is kept."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from pawnlight.companion.signals import RemoteBoard, RemoteTurn, Trouble
from pawnlight.remote.link.board_link import RemoteLink, parse_remote
from pawnlight.remote.protocol import (
    Setup,
    TurnEvent,
    code_topic,
    event_topic,
    presence_payload,
    presence_topic,
    read_presence,
)

from .broker import Broker, password_of
from .test_broker import client, connected, listen, publish

GAME = "g0001"


def until(condition: Callable[[], Any], timeout: float = 15.0, what: str = "") -> Any:
    """Wait for ``condition`` to be true (polled; bounded)."""
    deadline = time.monotonic() + timeout
    while not (found := condition()):
        assert time.monotonic() < deadline, f"timed out waiting for {what or condition}"
        time.sleep(0.02)
    return found


@contextmanager
def link(broker: Broker, board: str, game: str | None = GAME) -> Iterator[tuple[RemoteLink, list]]:
    """A board's link, started, with the list of what it handed on."""
    posted: list[Any] = []
    made = RemoteLink(
        parse_remote(broker.url),
        board,
        posted.append,
        lambda name, args: {},
        lambda: game,
        user=board,
        password=password_of(board),
    )
    made.start()
    try:
        yield made, posted
    finally:
        made.stop()


def heard_online(posted: list[Any], board: str) -> bool:
    return any(isinstance(p, RemoteBoard) and p.board == board and p.online for p in posted)


#: `{"v":1,"x":` + 5,000 `[` + 5,000 `]` + `}`: Python's parser recursed once a bracket.
DEEP = b'{"v":1,"x":' + b"[" * 5000 + b"]" * 5000 + b"}"


def reads_on_after(broker: Broker, as_b: Any, poisoned: int) -> None:
    """A board's link started, ignores the poison, and still reads what comes next."""
    with link(broker, "board-a") as (board_a, posted):
        until(lambda: board_a.ignored >= poisoned, what="the poison ignored")
        publish(as_b, presence_topic("board-b"), presence_payload(True))
        until(lambda: heard_online(posted, "board-b"), what="board-b's presence")
        thread = board_a.client._thread
        assert board_a.connected and thread is not None and thread.is_alive()
        publish(as_b, presence_topic("board-b"), DEEP, retain=True)


def test_poisoned_messages_neither_stop_the_link_nor_its_next_start(broker):
    """A board's own user published a nesting 5,000 deep, a topic ending in a non-ASCII digit
    and a 5,000-digit turn number, retained: each board's MQTT thread died at every start."""
    as_b = connected(broker, "board-b")
    poison = {
        presence_topic("board-b"): DEEP,
        event_topic("board-b", GAME, 0): DEEP,
        f"pawnlight/boards/board-b/games/{GAME}/events/\u00b2": b'{"v":1}',
        f"pawnlight/boards/board-b/games/{GAME}/events/{'9' * 5000}": b'{"v":1}',
        f"pawnlight/boards/board-b/games/{GAME}/takeback/1": b'{"v":1,"seq":' + b"9" * 5000 + b"}",
    }
    try:
        for topic, payload in poison.items():
            publish(as_b, topic, payload, retain=True)
        reads_on_after(broker, as_b, len(poison))
        reads_on_after(broker, as_b, len(poison))  # the next start: the poison still retained
    finally:
        as_b.loop_stop()


def test_a_second_board_under_the_same_id_is_refused_and_both_are_told(broker):
    with link(broker, "board-a") as (first, first_posted):
        until(lambda: first.connected, what="the first board connected")
        with link(broker, "board-a") as (second, second_posted):
            until(lambda: second.refused is not None, what="the newcomer refused")
            assert not second.connected
            said = until(
                lambda: [p.text for p in first_posted if isinstance(p, Trouble)],
                what="the first board told",
            )
            assert "another board connected to the remote broker as board-a" in said[0]
            assert [p.text for p in second_posted if isinstance(p, Trouble)] == [second.refused]
            assert "another board is connected to the remote broker as board-a" in str(
                second.refused
            )
        # The first stays connected, and the broker keeps it online under its own nonce.
        assert first.connected
        listener, got = listen(broker, presence_topic("board-a"))
        try:
            _, payload = got.get(timeout=5)
            assert read_presence(payload).online and read_presence(payload).nonce == first.nonce
        finally:
            listener.loop_stop()


def test_the_dashboard_reads_no_join_code(broker):
    listener, got = listen(broker, "pawnlight/#")
    as_a = connected(broker, "board-a")
    setup = Setup(GAME, "board-a", "K7PQ3X", {"players": ["red", "blue"]}, {"red": "board-a"})
    try:
        publish(as_a, code_topic("board-a", "K7PQ3X"), setup.encode(), retain=True)
        publish(as_a, presence_topic("board-a"), presence_payload(True))
        assert got.get(timeout=5)[0] == presence_topic("board-a")
        assert got.empty()
        # A board's user reads it (a board joins with it).
        board_b, seen = listen_as(broker, "board-b", code_topic("board-a", "K7PQ3X"))
        try:
            assert seen.get(timeout=5)[1] == setup.encode()
        finally:
            board_b.loop_stop()
    finally:
        as_a.loop_stop()
        listener.loop_stop()


def listen_as(broker: Broker, user: str, topic: str) -> Any:
    got: queue.Queue[tuple[str, bytes]] = queue.Queue()
    made = client(broker, user)
    made.on_message = lambda c, u, message: got.put((message.topic, bytes(message.payload)))
    made.on_connect = lambda c, *args: c.subscribe(topic, qos=1)
    made.connect(broker.host, broker.port)
    made.loop_start()
    return made, got


FLOOD = 20_000
TURNS = 19


@pytest.mark.slow
def test_a_retained_flood_does_not_cost_a_board_catching_up_its_turns(broker):
    """20,000 retained messages from one board's user under the game's topics: the broker's
    queue for a board catching up dropped its outgoing messages, and the board stopped at 14 of
    19 turns.  The generated configuration's queue holds a flood's worth."""
    as_a, as_b = connected(broker, "board-a"), client(broker, "board-b")
    as_b.max_inflight_messages_set(1000)
    as_b.connect(broker.host, broker.port)
    as_b.loop_start()
    try:
        started = time.monotonic()
        infos = [
            as_b.publish(f"pawnlight/boards/board-b/games/{GAME}/events/{1000 + n}", b"x", 1, True)
            for n in range(FLOOD)
        ]
        infos[-1].wait_for_publish(timeout=120)
        flooded = time.monotonic() - started
        # The game's turns, retained after the flood (the broker hands retained messages over
        # in the order they were first kept: the flood first).
        for seq in range(TURNS):
            event = TurnEvent(GAME, seq, "board-a", 0, "1", "forfeit", f"{seq:016x}")
            publish(as_a, event_topic("board-a", GAME, seq), event.encode(), retain=True)
        with link(broker, "board-b") as (board_b, posted):
            turns = until(
                lambda: sorted({p.event.seq for p in posted if isinstance(p, RemoteTurn)}),
                what="the turns",
            )
            until(
                lambda: (
                    board_b.ignored >= FLOOD
                    and len({p.event.seq for p in posted if isinstance(p, RemoteTurn)}) == TURNS
                ),
                timeout=60,
                what=f"every turn and the flood read (turns so far {turns})",
            )
        print(f"flood of {FLOOD} published in {flooded:.1f} s")
    finally:
        as_a.loop_stop()
        as_b.loop_stop()

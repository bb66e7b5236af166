"""A turn the journal cannot write is not published to the other boards until it is saved
(nothing is shown, here or elsewhere, as done before it is durable); then it goes out."""

from __future__ import annotations

import queue
from typing import Any

import pytest

from pawnlight.remote.protocol import event_topic, presence_payload, presence_topic
from pawnlight.runtime.config import Config
from pawnlight.runtime.daemon import Daemon

from ..daemon.hands import read_by
from ..daemon.test_owner_sim import wait_for
from ..web.test_unsaved_browser import MoveWritesFail
from .broker import password_of
from .test_broker import client, connected, publish


def retained(broker, topic: str, marker_topic: str) -> bytes | None:
    """The retained message on ``topic``, or None: the broker hands retained messages over on
    subscribing, before a marker published afterwards, so the marker's arrival settles it."""
    got: queue.Queue[tuple[str, bytes]] = queue.Queue()
    subscribed: queue.Queue[bool] = queue.Queue()
    reader = client(broker, "dashboard")
    reader.on_message = lambda c, u, m: got.put((m.topic, bytes(m.payload)))
    reader.on_subscribe = lambda *args: subscribed.put(True)
    reader.on_connect = lambda c, *args: c.subscribe([(topic, 1), (marker_topic, 1)])
    reader.connect(broker.host, broker.port)
    reader.loop_start()
    try:
        subscribed.get(timeout=5)
        marker = connected(broker, "board-b")
        publish(marker, marker_topic, b"marker")
        marker.loop_stop()
        found = None
        while True:
            name, payload = got.get(timeout=5)
            if name == marker_topic and payload == b"marker":
                return found
            if name == topic and payload:
                found = payload
    finally:
        reader.loop_stop()


@pytest.mark.slow
def test_a_turn_not_saved_is_published_once_it_is(tmp_path, broker):
    # board-b is a stand-in that says it is online; board-a is a real daemon in this process.
    stand_in = connected(broker, "board-b")
    publish(stand_in, presence_topic("board-b"), presence_payload(True), retain=True)
    stand_in.loop_stop()
    daemon = Daemon(
        Config(
            data=tmp_path / "a",
            sim=True,
            layout="colour",
            http_port=0,
            settle=0.1,
            remote=broker.url,
            board_id="board-a",
            mqtt_user="board-a",
            mqtt_password=password_of("board-a"),
        )
    )
    daemon.start(web=False)
    try:
        owner: Any = daemon.owner  # its journal is swapped for one that fails
        board = daemon.sim_board
        assert owner is not None and board is not None
        wait_for(owner, lambda s: s["link"]["up"])
        reply = owner.command(
            "remote_host",
            {"game": {"players": ["red", "blue"]}, "seats": {"red": "board-a", "blue": "board-b"}},
        )
        board.set_board(owner.state()["pawns"])
        wait_for(owner, lambda s: s["phase"] == "draw" and s["warning"] is None)
        failing = MoveWritesFail(owner._journal)
        owner._journal = failing
        failing.failing = True
        board.scan("1")
        wait_for(owner, lambda s: s["phase"] == "move")
        board.lift("start:red")
        read_by(daemon)
        board.place("T4", "red")
        wait_for(owner, lambda s: not s["storage"]["ok"] and len(s["history"]) == 1)
        topic = event_topic("board-a", reply["game"], 0)
        marker = "pawnlight/boards/board-b/games/test-marker"  # a topic the dashboard reads
        assert retained(broker, topic, marker) is None  # not saved: not published
        failing.failing = False
        wait_for(owner, lambda s: s["storage"]["ok"])
        published = None
        for _ in range(50):  # the link publishes on its own thread
            published = retained(broker, topic, marker)
            if published is not None:
                break
        assert published is not None and b'"move":"R:start-T4"' in published
    finally:
        daemon.stop()

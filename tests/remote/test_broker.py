"""The broker's generated configuration does what remote play relies on: passwords, each
board writing only its own topics, a dashboard that only reads, retained messages kept."""

from __future__ import annotations

import queue
import uuid

import paho.mqtt.client as mqtt
import pytest

from .broker import DASHBOARD, Broker, password_of


def client(broker: Broker, user: str, password: str | None = None) -> mqtt.Client:
    made = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"test-{uuid.uuid4().hex}")
    made.username_pw_set(user, password_of(user) if password is None else password)
    return made


def connected(broker: Broker, user: str) -> mqtt.Client:
    made = client(broker, user)
    made.connect(broker.host, broker.port)
    made.loop_start()
    return made


def listen(broker: Broker, topic: str) -> tuple[mqtt.Client, queue.Queue[tuple[str, bytes]]]:
    got: queue.Queue[tuple[str, bytes]] = queue.Queue()
    subscribed: queue.Queue[bool] = queue.Queue()
    listener = client(broker, DASHBOARD)
    listener.on_message = lambda c, u, message: got.put((message.topic, bytes(message.payload)))
    listener.on_subscribe = lambda *args: subscribed.put(True)
    listener.on_connect = lambda c, *args: c.subscribe(topic, qos=1)
    listener.connect(broker.host, broker.port)
    listener.loop_start()
    subscribed.get(timeout=5)
    return listener, got


def publish(made: mqtt.Client, topic: str, payload: bytes, retain: bool = False) -> None:
    info = made.publish(topic, payload, qos=1, retain=retain)
    info.wait_for_publish(timeout=5)
    assert info.is_published()


def test_a_wrong_password_is_refused(broker):
    made = client(broker, "board-a", password="guessed")
    codes: queue.Queue[mqtt.ReasonCode] = queue.Queue()
    made.on_connect = lambda c, u, flags, reason, props: codes.put(reason)
    made.connect(broker.host, broker.port)
    made.loop_start()
    try:
        reason = codes.get(timeout=5)
        assert reason.is_failure
    finally:
        made.loop_stop()


def test_a_board_writes_only_its_own_topics(broker):
    listener, got = listen(broker, "pawnlight/#")
    board_b = connected(broker, "board-b")
    try:
        # board-b forges an event on board-a's topic, then writes its own: the broker drops
        # the forgery (QoS 1 is still acknowledged), delivers its own.
        publish(board_b, "pawnlight/boards/board-a/games/g1/events/0", b"forged")
        publish(board_b, "pawnlight/boards/board-b/games/g1/events/0", b"own")
        topic, payload = got.get(timeout=5)
        assert (topic, payload) == ("pawnlight/boards/board-b/games/g1/events/0", b"own")
        assert got.empty()
    finally:
        board_b.loop_stop()
        listener.loop_stop()


def test_the_dashboard_only_reads(broker):
    listener, got = listen(broker, "pawnlight/#")
    dashboard = connected(broker, DASHBOARD)
    board_a = connected(broker, "board-a")
    try:
        publish(dashboard, "pawnlight/boards/dashboard/presence", b"forged")
        publish(board_a, "pawnlight/boards/board-a/presence", b"online")
        assert got.get(timeout=5) == ("pawnlight/boards/board-a/presence", b"online")
        assert got.empty()
    finally:
        dashboard.loop_stop()
        board_a.loop_stop()
        listener.loop_stop()


@pytest.mark.slow
def test_retained_messages_outlive_a_broker_restart(broker):
    board_a = connected(broker, "board-a")
    publish(board_a, "pawnlight/boards/board-a/presence", b"online", retain=True)
    board_a.loop_stop()
    board_a.disconnect()
    broker.restart()
    listener, got = listen(broker, "pawnlight/boards/+/presence")
    try:
        assert got.get(timeout=5) == ("pawnlight/boards/board-a/presence", b"online")
    finally:
        listener.loop_stop()

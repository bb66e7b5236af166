"""The one MQTT client module (remote.link.mqtt): every paho client of pawnlight is made there,
with the user, the will and the reconnect delays, and it speaks to a real Mosquitto."""

from __future__ import annotations

import ast
import queue
import socket
from pathlib import Path

from pawnlight.remote.link import mqtt
from pawnlight.remote.protocol import presence_payload, presence_topic

from .broker import DASHBOARD, password_of

ROOT = Path(__file__).resolve().parents[2]


def _makes_a_paho_client(path: Path) -> bool:
    """The module calls paho's ``Client(...)`` (as ``mqtt.Client`` or ``Client``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    uses_paho = any(
        (
            isinstance(node, ast.Import | ast.ImportFrom)
            and any("paho" in (alias.name or "") for alias in node.names)
        )
        or (isinstance(node, ast.ImportFrom) and (node.module or "").startswith("paho"))
        for node in ast.walk(tree)
    )
    if not uses_paho:
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name == "Client":
                return True
    return False


def test_one_module_makes_every_paho_client():
    makers = sorted(
        path.relative_to(ROOT).as_posix()
        for folder in ("pi/pawnlight", "web")
        for path in (ROOT / folder).rglob("*.py")
        if _makes_a_paho_client(path)
    )
    assert makers == ["pi/pawnlight/remote/link/mqtt.py"]


def test_the_client_carries_the_user_and_the_will():
    address = mqtt.parse_remote("mqtt://127.0.0.1:1883")
    will = mqtt.Will(presence_topic("board-a"), presence_payload(False))
    client = mqtt.new_client(address, "board-a", user="board-a", password="pw", will=will)
    assert (client.username, client.password) == ("board-a", "pw")
    assert (client.will_topic, client.will_payload) == (will.topic, will.payload)
    anonymous = mqtt.new_client(address, "club")
    assert anonymous.username is None and not anonymous.will_topic


def test_a_client_that_vanishes_leaves_its_will(broker):
    """Made and connected here, against a real Mosquitto: the broker takes the user and, when
    the connection drops without a goodbye, publishes the will (retained) for the others."""
    address = mqtt.parse_remote(broker.url)
    seen: queue.Queue[tuple[str, bytes]] = queue.Queue()
    watcher = mqtt.new_client(
        address, "club", user=DASHBOARD, password=password_of(DASHBOARD), max_delay=1
    )
    watcher.on_connect = lambda client, *_: client.subscribe(presence_topic("board-a"), qos=1)
    watcher.on_message = lambda _c, _u, message: seen.put((message.topic, bytes(message.payload)))
    connected: queue.Queue[bool] = queue.Queue()
    board = mqtt.new_client(
        address,
        "board-a",
        user="board-a",
        password=password_of("board-a"),
        will=mqtt.Will(presence_topic("board-a"), presence_payload(False)),
    )
    board.on_connect = lambda _c, _u, _f, reason, _p: connected.put(not reason.is_failure)
    mqtt.connect(board, address, keepalive=10)
    try:
        assert connected.get(timeout=10) is True
        board.loop_stop()  # the board's thread is gone; now its connection drops, no goodbye
        sock = board.socket()
        assert isinstance(sock, socket.socket)
        sock.shutdown(socket.SHUT_RDWR)
        mqtt.connect(watcher, address, keepalive=10)
        topic, payload = seen.get(timeout=10)
        assert (topic, payload) == (presence_topic("board-a"), presence_payload(False))
    finally:
        mqtt.disconnect(watcher)
        board.loop_stop()

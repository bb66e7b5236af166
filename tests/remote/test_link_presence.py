"""The board's own presence as its link keeps it: a stale last will is answered, its own goodbye is
not (no broker needed: the link's message handler is called as paho calls it)."""

from __future__ import annotations

import threading
from types import SimpleNamespace
from typing import Any

import pytest

from pawnlight.companion.service import CommandRefused
from pawnlight.remote.link import board_link as remote_link
from pawnlight.remote.link.board_link import RemoteLink, parse_remote
from pawnlight.remote.protocol import presence_payload, presence_topic


class RecordingClient:
    def __init__(self) -> None:
        self.published: list[tuple[str, bytes]] = []

    def publish(self, topic: str, payload: bytes, **_: Any) -> Any:
        self.published.append((topic, payload))
        return SimpleNamespace(wait_for_publish=lambda timeout=None: None)

    def disconnect(self) -> None: ...

    def loop_stop(self) -> None: ...


def link_and_client() -> tuple[RemoteLink, RecordingClient]:
    posted: list[object] = []
    link = RemoteLink(
        parse_remote("mqtt://127.0.0.1:1883"),
        "kitchen",
        posted.append,
        lambda name, args: {},
        lambda: None,
    )
    client = RecordingClient()
    link.client = client  # type: ignore[assignment]
    link.connected = True
    return link, client


def own_offline() -> Any:
    return SimpleNamespace(topic=presence_topic("kitchen"), payload=presence_payload(False))


def test_a_stale_will_of_this_board_is_answered_with_online():
    link, client = link_and_client()
    link._on_message(client, None, own_offline())  # type: ignore[arg-type]
    assert client.published == [(presence_topic("kitchen"), presence_payload(True, link.nonce))]


def test_its_own_goodbye_coming_back_while_it_stops_is_left_alone():
    """Issue #36 (CI): stopping, the board says "offline"; that message came back while still
    connected and was taken for a stale will, so the board said "online" again and a club showed
    a stopped board online forever."""
    link, client = link_and_client()
    link.stop()
    client.published.clear()
    link.connected = True  # the goodbye arrives before the disconnect is through
    link._on_message(client, None, own_offline())  # type: ignore[arg-type]
    assert client.published == []


class ConnectingClient(RecordingClient):
    def subscribe(self, *args: Any, **kwargs: Any) -> None: ...


def test_hosting_as_the_board_starts_waits_for_the_broker_instead_of_refusing():
    """CI: a game hosted in the moment between the daemon starting and its link reaching the
    broker was refused "not connected"; it now waits a few seconds for the connection."""
    link, _ = link_and_client()
    client = ConnectingClient()
    link.client = client  # type: ignore[assignment]
    link.connected = False
    started: list[dict[str, Any]] = []

    def start(name: str, args: dict[str, Any]) -> dict[str, Any]:
        started.append(args)
        return {}

    link._command = start
    replies: list[dict[str, Any]] = []
    hosting = threading.Thread(
        target=lambda: replies.append(
            link.command(
                "remote_host",
                {"game": {"players": ["red", "blue"]}, "seats": {"red": "kitchen", "blue": "b"}},
            )
        )
    )
    hosting.start()
    hosting.join(timeout=0.5)
    assert hosting.is_alive() and not replies  # waiting for the broker, not refused
    reason = SimpleNamespace(is_failure=False)
    link._on_connect(client, None, None, reason, None)  # type: ignore[arg-type]
    hosting.join(timeout=10)
    assert replies and replies[0]["code"] and started[0]["me"] == "kitchen"


def test_hosting_with_no_broker_is_refused_in_words(monkeypatch):
    link, _ = link_and_client()
    link.connected = False
    monkeypatch.setattr(remote_link, "CONNECT_WAIT", 0.01)
    with pytest.raises(CommandRefused, match="not connected to the remote broker"):
        link.command(
            "remote_host",
            {"game": {"players": ["red", "blue"]}, "seats": {"red": "kitchen", "blue": "b"}},
        )

"""The board's own presence as its link keeps it: a stale last will is answered, its own goodbye is
not (no broker needed: the link's message handler is called as paho calls it)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from pawnlight.remote.protocol import presence_payload, presence_topic
from pawnlight.runtime.remote_link import RemoteLink, parse_remote


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
    assert client.published == [(presence_topic("kitchen"), presence_payload(True))]


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

"""``pawnlight club``: a club's live games, one page for every board on a broker.

A subscriber (paho-mqtt, normally as the broker's read-only ``dashboard`` user) to every board's
live game and presence (``pawnlight/boards/+/live``, ``.../presence``), kept in a
pawnlight.remote.club_view.ClubModel and served by the web package's server (web/club_page.py).
docs/remote.md, "A club's live games".
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
from typing import Any

import paho.mqtt.client as mqtt

from pawnlight.remote.club_view import ClubModel
from pawnlight.remote.live import LIVE_ALL
from pawnlight.remote.protocol import PRESENCE_ALL

from .mqtt import BrokerAddress, RemoteUrlError, connect, disconnect, new_client, parse_remote

log = logging.getLogger("pawnlight.club")


class ClubListener:
    """The club's MQTT client: every message of the two subscriptions goes to the model."""

    def __init__(
        self,
        address: BrokerAddress,
        model: ClubModel,
        user: str | None = None,
        password: str | None = None,
        ca_file: str | None = None,
    ) -> None:
        self.address = address
        self.model = model
        client = new_client(address, "club", user=user, password=password, ca_file=ca_file)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_connect_fail = self._on_connect_fail
        client.on_message = self._on_message
        self.client = client

    def start(self) -> None:
        connect(self.client, self.address, keepalive=30)

    def stop(self) -> None:
        disconnect(self.client)

    def _on_connect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any
    ) -> None:
        if reason.is_failure:
            detail = f"the broker refused the club's user ({reason})"
            log.error("%s", detail)
            self.model.connection(False, detail)
            return
        client.subscribe([(LIVE_ALL, 1), (PRESENCE_ALL, 1)])
        self.model.connection(True, "connected")
        log.info("connected to the broker %s:%s", self.address.host, self.address.port)

    def _on_connect_fail(self, client: mqtt.Client, userdata: Any) -> None:
        where = f"{self.address.host}:{self.address.port}"
        self.model.connection(False, f"the broker at {where} cannot be reached (trying again)")

    def _on_disconnect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any
    ) -> None:
        self.model.connection(False, f"the broker went away ({reason})")
        log.warning("disconnected from the broker: %s", reason)

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        ignored = self.model.ignored
        self.model.receive(message.topic, bytes(message.payload))
        if self.model.ignored != ignored:
            log.debug("ignored %s", self.model.problem)


def run_club(
    remote: str,
    http_host: str = "127.0.0.1",
    http_port: int = 8090,
    ca_file: str | None = None,
    allowed_hosts: tuple[str, ...] = (),
) -> int:
    """Serve the club's page until SIGTERM or SIGINT; 2 with one line for bad options."""
    from pawnlight.web.club_page import ClubFeed, create_club_app
    from pawnlight.web.server import WebServer

    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s", stream=sys.stderr
    )
    try:
        address = parse_remote(remote)
    except RemoteUrlError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if not 0 <= http_port <= 65535:
        print(f"error: --http-port must be 0 to 65535, not {http_port}", file=sys.stderr)
        return 2
    user = os.environ.get("PAWNLIGHT_MQTT_USER") or None
    password = os.environ.get("PAWNLIGHT_MQTT_PASSWORD") or None
    if user is None:
        log.warning("no PAWNLIGHT_MQTT_USER: connecting without a user (the dashboard's is usual)")
    model = ClubModel()
    feed = ClubFeed(model)
    app = create_club_app(feed, allowed_hosts=allowed_hosts)
    server = WebServer(app, http_host, http_port)
    try:
        server.start()
    except OSError as error:
        print(f"error: cannot serve on {http_host}:{http_port}: {error.strerror}", file=sys.stderr)
        return 2
    listener = ClubListener(address, model, user, password, ca_file)
    feed.start()
    listener.start()
    log.info("the club's page: %s", server.share_url or server.url)
    stopped = threading.Event()
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, lambda *_: stopped.set())
    while not stopped.wait(1.0):
        pass
    listener.stop()
    server.stop()
    feed.stop()
    return 0

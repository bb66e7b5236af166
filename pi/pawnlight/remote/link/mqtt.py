"""The one place a paho MQTT client is made and connected: the broker's address, the user and
password, TLS, the will and the reconnect delays.  The board's link (``board_link``) and the
club's subscriber (``club_client``) both get their client here, so both speak to a broker the
same way; each then sets its own callbacks.
"""

from __future__ import annotations

import ssl
import uuid
from dataclasses import dataclass
from urllib.parse import urlsplit

import paho.mqtt.client as mqtt

from pawnlight.errors import PawnlightError


class RemoteUrlError(PawnlightError, ValueError):
    """A ``--remote`` address that cannot be used (in words)."""


@dataclass(frozen=True)
class BrokerAddress:
    host: str
    port: int
    tls: bool


def parse_remote(url: str) -> BrokerAddress:
    """``mqtt://HOST:PORT`` or ``mqtts://HOST:PORT`` (TLS); the port defaults to 1883 / 8883."""
    parts = urlsplit(url)
    if parts.scheme not in ("mqtt", "mqtts"):
        raise RemoteUrlError(
            f"the remote broker must be mqtt://HOST:PORT or mqtts://..., not {url!r}"
        )
    try:
        port = parts.port
    except ValueError:
        raise RemoteUrlError(f"the remote broker's port is not a number: {url!r}") from None
    if not parts.hostname or parts.path not in ("", "/") or parts.username or parts.query:
        raise RemoteUrlError(
            f"the remote broker is given as mqtt://HOST:PORT (the user and password come from "
            f"PAWNLIGHT_MQTT_USER and PAWNLIGHT_MQTT_PASSWORD), not {url!r}"
        )
    tls = parts.scheme == "mqtts"
    return BrokerAddress(parts.hostname, port or (8883 if tls else 1883), tls)


@dataclass(frozen=True)
class Will:
    """What the broker publishes for a client that vanished without saying goodbye."""

    topic: str
    payload: bytes
    qos: int = 1
    retain: bool = True


def new_client(
    address: BrokerAddress,
    name: str,
    *,
    user: str | None = None,
    password: str | None = None,
    ca_file: str | None = None,
    will: Will | None = None,
    max_delay: int = 5,
) -> mqtt.Client:
    """A paho client (callback API 2) named ``pawnlight-NAME-<8 random hex>``, with the user
    and password when given, TLS verified against ``ca_file`` (or the system's CAs) for an
    ``mqtts://`` address, the will, and reconnect attempts 1 to ``max_delay`` seconds apart.
    Not yet connected: set the callbacks, then ``connect``."""
    client = mqtt.Client(
        mqtt.CallbackAPIVersion.VERSION2, client_id=f"pawnlight-{name}-{uuid.uuid4().hex[:8]}"
    )
    if user is not None:
        client.username_pw_set(user, password)
    if address.tls:
        client.tls_set_context(ssl.create_default_context(cafile=ca_file))
    if will is not None:
        client.will_set(will.topic, will.payload, qos=will.qos, retain=will.retain)
    client.reconnect_delay_set(min_delay=1, max_delay=max_delay)
    return client


def connect(client: mqtt.Client, address: BrokerAddress, keepalive: int) -> None:
    """Connect in the background and start the client's thread; paho reconnects by itself."""
    client.connect_async(address.host, address.port, keepalive=keepalive)
    client.loop_start()


def disconnect(client: mqtt.Client) -> None:
    """Say goodbye to the broker (no will is sent) and end the client's thread."""
    client.disconnect()
    client.loop_stop()

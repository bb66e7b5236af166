"""Which names the page may be reached by: the allowlist of ``Host`` headers (DNS rebinding).

A rebinding attack points a name the attacker owns at the Pi's address; the victim's browser
then treats the Pi as that name's site and lets the attacker's page read it and post to it.
The browser still sends the attacker's name as ``Host``, so answering only to the Pi's own
names closes it: localhost, the machine's host name (and ``.local``), the public URL's host,
any name configured, and addresses literally (an address cannot be rebound; those of the
machine itself and loopback are allowed, as is the address the connection came in on).
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
from collections.abc import Iterable
from urllib.parse import urlsplit


def split_host(value: str) -> tuple[str, int | None] | None:
    """``name[:port]`` or ``[v6]:port`` as (lower-case name, port); None when malformed."""
    value = value.strip()
    if not value or len(value) > 255:
        return None
    try:
        parts = urlsplit(f"//{value}")
        port = parts.port
    except ValueError:
        return None
    name = parts.hostname
    if not name or parts.username or parts.password or parts.path or parts.query:
        return None
    return name.lower().rstrip("."), port


def _address(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(name)
    except ValueError:
        return None


def machine_names() -> set[str]:
    """This machine's host name (short, ``.local`` and fully qualified) and its addresses."""
    names = {"localhost"}
    host = socket.gethostname().lower()
    if host:
        names |= {host, f"{host}.local"}
        with contextlib.suppress(OSError):
            names.add(socket.getfqdn(host).lower())
        try:
            for info in socket.getaddrinfo(host, None):
                names.add(str(info[4][0]).split("%")[0])
        except OSError:
            pass
    return names


class HostPolicy:
    """``allows(host_header, local_address)``: whether a request to this Host is answered."""

    def __init__(self, extra: Iterable[str] = (), public_url: str | None = None) -> None:
        self.names = machine_names()
        for name in extra:
            split = split_host(name)
            if split is not None:
                self.names.add(split[0])
        if public_url:
            host = urlsplit(public_url).hostname
            if host:
                self.names.add(host.lower())

    def allows(self, host: str | None, local: str | None = None) -> bool:
        if host is None:
            return False
        split = split_host(host)
        if split is None:
            return False
        name = split[0]
        if name in self.names:
            return True
        address = _address(name)
        if address is None:
            return False
        if address.is_loopback:
            return True
        return local is not None and _address(local.split("%")[0]) == address

"""Which names the page may be reached by: the allowlist of ``Host`` headers (DNS rebinding).

A rebinding attack points a name the attacker owns at the Pi's address; the victim's browser
then treats the Pi as that name's site and lets the attacker's page read it and post to it.
The browser still sends the attacker's name as ``Host``, so answering only to the Pi's own
names closes it: localhost, the machine's host name (and ``.local``), the public URL's host,
any name configured, and addresses literally (an address cannot be rebound; those of the
machine itself and loopback are allowed, as is the address the connection came in on).

Serving on every interface (``./run`` does, ``--http-host 0.0.0.0``), the server adds the
machine's network addresses, found without sending anything (:func:`lan_addresses`), and
:func:`share_host` picks the one other phones are shown in the QR code.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import struct
import sys
from collections.abc import Callable, Iterable, Sequence
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


#: The addresses that, given to bind(), listen on every interface.
ALL_INTERFACES = frozenset({"", "0.0.0.0", "::"})
#: An address from TEST-NET-1 (RFC 5737), which no network routes: connect() on a UDP socket
#: only picks the route and the source address for it; no packet is sent.
_PROBE = ("192.0.2.1", 9)
#: Linux's ioctl asking an interface's IPv4 address.
_SIOCGIFADDR = 0x8915


def serves_everywhere(host: str) -> bool:
    """Whether a server bound to ``host`` can be reached from other machines by any address."""
    return host in ALL_INTERFACES


def routed_address(open_socket: Callable[[int, int], socket.socket] = socket.socket) -> str | None:
    """The address this machine sends from to the rest of its network, or None (no network).

    A UDP socket's connect() sends nothing: the kernel only looks the route up and fixes the
    socket's source address, which is read back."""
    try:
        with open_socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.connect(_PROBE)
            address = str(sock.getsockname()[0])
    except OSError:
        return None
    parsed = _address(address)
    if parsed is None or parsed.is_loopback or parsed.is_unspecified:
        return None
    return address


def interface_addresses() -> list[str]:
    """The IPv4 addresses of this machine's interfaces other than loopback, read from the
    kernel (Linux); empty where they cannot be read."""
    if not sys.platform.startswith("linux"):
        return []
    import fcntl

    found: list[str] = []
    try:
        names = socket.if_nameindex()
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    except OSError:
        return found
    with sock:
        for _, name in names:
            asked = struct.pack("256s", name.encode()[:15])
            try:
                answer = fcntl.ioctl(sock.fileno(), _SIOCGIFADDR, asked)
            except OSError:
                continue  # no IPv4 address, or down
            address = socket.inet_ntoa(answer[20:24])
            parsed = _address(address)
            if parsed is not None and not parsed.is_loopback and address not in found:
                found.append(address)
    return found


def lan_addresses() -> list[str]:
    """This machine's network addresses, the one its traffic leaves by first; no traffic sent."""
    routed = routed_address()
    found = [routed] if routed else []
    found.extend(address for address in interface_addresses() if address not in found)
    return found


def share_host(addresses: Sequence[str]) -> str | None:
    """The name other phones on the network open this machine by: its first network address,
    else its host name (``name.local`` for a bare name, as phones find a Pi by mDNS)."""
    if addresses:
        return addresses[0]
    host = socket.gethostname().lower().rstrip(".")
    if not host or host == "localhost":
        return None
    return host if "." in host else f"{host}.local"


def network_url(port: int) -> str | None:
    """The page's address for other phones when served on every interface at ``port``."""
    host = share_host(lan_addresses())
    return url_of(host, port) if host else None


def url_of(host: str, port: int | None, scheme: str = "http") -> str:
    """``http://host:port/``, with an IPv6 address in brackets."""
    shown = f"[{host}]" if ":" in host else host
    return f"{scheme}://{shown}{f':{port}' if port else ''}/"


class HostPolicy:
    """``allows(host_header, local_address)``: whether a request to this Host is answered."""

    def __init__(self, extra: Iterable[str] = (), public_url: str | None = None) -> None:
        self.names = machine_names()
        self.add(extra)
        if public_url:
            host = urlsplit(public_url).hostname
            if host:
                self.names.add(host.lower())

    def add(self, names: Iterable[str]) -> None:
        """Answer to these names (or addresses) too."""
        for name in names:
            split = split_host(name)
            if split is not None:
                self.names.add(split[0])

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

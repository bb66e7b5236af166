"""Other phones join: served on every interface, the page answers to the machine's network
addresses and its QR code and share link carry one of them (issue #34).

Every connection here goes to loopback.  The machine's network addresses are made up (from the
documentation ranges of RFC 5737) and handed to the server; what other phones would open is
checked by its text, the QR code's encoded address and the link's href, never by connecting.
"""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator
from typing import ClassVar

import pytest
from flask import Flask

from pawnlight.web import hosts, qr
from pawnlight.web.app import create_app
from pawnlight.web.server import WebServer

from .helpers import PIN, SECRET

LAN = "203.0.113.20"  # the machine's (made-up) network address
OTHER_NIC = "203.0.113.77"  # a second interface of it
STRANGER = "198.51.100.7"  # an address that is not the machine's


def fetch(port: int, path: str, host: str) -> tuple[int, str]:
    """GET ``path`` over loopback, naming ``host`` in the Host header: (status, body)."""
    request = f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    answer = b"".join(chunks).decode("utf-8", "replace")
    head, _, body = answer.partition("\r\n\r\n")
    return int(head.split()[1]), body


def shared_address(html: str) -> tuple[str, str]:
    """The share section's link (its href) and the address its QR code encodes."""
    section = html[html.index('id="share"') :]
    section = section[: section.index("</details>")]
    href = re.search(r'<p class="url"><a href="([^"]+)"', section)
    svg = re.search(r'<div class="qr">(.*?)</div>', section, re.S)
    assert href and svg, section[:400]
    encoded = re.search(r"<title>QR code of ([^<]+)</title>", svg.group(1))
    assert encoded, svg.group(1)[:200]
    # The drawing is exactly the QR code of that text, not only titled with it.
    assert svg.group(1) == qr.svg(encoded.group(1))
    return href.group(1), encoded.group(1)


@pytest.fixture
def everywhere(app: Flask) -> Iterator[WebServer]:
    """The app served on every interface, the machine having two made-up network addresses."""
    server = WebServer(app, "0.0.0.0", 0, lan_addresses=lambda: [LAN, OTHER_NIC])
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_served_everywhere_the_qr_code_and_link_carry_the_network_address(everywhere):
    port = everywhere.port
    assert everywhere.share_url == f"http://{LAN}:{port}/"
    # Opened on the machine itself, at an address no other phone can open ...
    for opened_at in (f"127.0.0.1:{port}", f"localhost:{port}"):
        status, html = fetch(port, "/", opened_at)
        assert status == 200
        # ... the code and the link carry the network address, at the same port.
        assert shared_address(html) == (f"http://{LAN}:{port}/", f"http://{LAN}:{port}/")
        assert "only works on this machine" not in html
        assert "only someone with the owner’s PIN can change anything" in html
    # The owner's standalone QR code says the same.
    status, svg = fetch(port, "/api/qr.svg", f"127.0.0.1:{port}")
    assert status == 200 and f"QR code of http://{LAN}:{port}/" in svg
    # A phone that opened it by the network address shares that one.
    status, html = fetch(port, "/", f"{OTHER_NIC}:{port}")
    assert status == 200 and shared_address(html)[0] == f"http://{OTHER_NIC}:{port}/"


def test_served_everywhere_the_machines_addresses_and_name_are_answered_and_no_other(everywhere):
    """DNS rebinding stays closed: only the machine's own names and addresses are answered."""
    port = everywhere.port
    name = socket.gethostname().lower()
    for host in (LAN, f"{LAN}:{port}", OTHER_NIC, name, f"{name}.local:{port}", "localhost"):
        assert fetch(port, "/api/state", host)[0] == 200, host
    for host in (STRANGER, f"{STRANGER}:{port}", "evil.example", f"{LAN}.evil.example"):
        assert fetch(port, "/api/state", host)[0] == 421, host


def test_served_on_loopback_only_the_page_says_how_to_share(served):
    port = served.port
    assert served.share_url is None
    status, html = fetch(port, "/", f"127.0.0.1:{port}")
    assert status == 200
    assert shared_address(html) == (f"http://127.0.0.1:{port}/", f"http://127.0.0.1:{port}/")
    assert "only works on this machine" in html and "--http-host 0.0.0.0" in html
    # The network addresses are not answered when the server does not serve the network.
    assert fetch(port, "/api/state", LAN)[0] == 421


def test_with_no_network_address_the_host_name_is_shared(app, monkeypatch):
    monkeypatch.setattr(socket, "gethostname", lambda: "boardpi")
    with WebServer(app, "0.0.0.0", 0, lan_addresses=list) as server:
        port = server.port
        assert server.share_url == f"http://boardpi.local:{port}/"
        status, html = fetch(port, "/", f"127.0.0.1:{port}")
        assert status == 200 and shared_address(html)[1] == f"http://boardpi.local:{port}/"


def test_a_configured_public_address_is_shared_as_it_is(service, clock):
    app = create_app(
        service, pin=PIN, secret_key=SECRET, clock=clock, public_url="http://board.lan/"
    )
    with WebServer(app, "0.0.0.0", 0, lan_addresses=lambda: [LAN]) as server:
        status, html = fetch(server.port, "/", f"127.0.0.1:{server.port}")
        assert status == 200 and shared_address(html)[1] == "http://board.lan/"


def test_the_share_host_prefers_an_address_then_the_mdns_name(monkeypatch):
    assert hosts.share_host([LAN, OTHER_NIC]) == LAN
    monkeypatch.setattr(socket, "gethostname", lambda: "boardpi")
    assert hosts.share_host([]) == "boardpi.local"
    monkeypatch.setattr(socket, "gethostname", lambda: "boardpi.home.lan")
    assert hosts.share_host([]) == "boardpi.home.lan"
    monkeypatch.setattr(socket, "gethostname", lambda: "localhost")
    assert hosts.share_host([]) is None
    assert hosts.url_of("fe80::1", 8080) == "http://[fe80::1]:8080/"


class RecordingSocket:
    """Stands in for a socket: records what is asked of it and sends nothing anywhere."""

    made: ClassVar[list[RecordingSocket]] = []

    def __init__(self, family: int, kind: int) -> None:
        self.family, self.kind = family, kind
        self.calls: list[tuple[str, object]] = []
        RecordingSocket.made.append(self)

    def connect(self, address: tuple[str, int]) -> None:
        self.calls.append(("connect", address))
        self.connected = address

    def getsockname(self) -> tuple[str, int]:
        return (LAN, 40000)

    def __getattr__(self, name: str):
        def record(*args: object) -> None:
            self.calls.append((name, args))

        return record

    def __enter__(self) -> RecordingSocket:
        return self

    def __exit__(self, *exc: object) -> None:
        self.calls.append(("close", ()))


def test_the_network_address_is_found_without_sending_anything():
    """A UDP socket's connect() picks a route and a source address; it sends no packet."""
    RecordingSocket.made.clear()
    assert hosts.routed_address(RecordingSocket) == LAN  # type: ignore[arg-type]
    (sock,) = RecordingSocket.made
    assert sock.family == socket.AF_INET and sock.kind == socket.SOCK_DGRAM
    assert [call[0] for call in sock.calls] == ["connect", "close"]
    # The address asked about is one no network routes (RFC 5737, TEST-NET-1).
    assert sock.connected[0].startswith("192.0.2.")


def test_a_machine_without_a_network_has_no_routed_address():
    class Unreachable(RecordingSocket):
        def connect(self, address: tuple[str, int]) -> None:
            raise OSError(101, "Network is unreachable")

    assert hosts.routed_address(Unreachable) is None  # type: ignore[arg-type]


def test_the_interfaces_addresses_leave_out_loopback():
    """Read from the kernel with no traffic at all: whatever this machine has, never 127.x."""
    for address in hosts.interface_addresses():
        assert not address.startswith("127.")
        socket.inet_aton(address)


def test_lan_addresses_put_the_routed_one_first_without_repeats(monkeypatch):
    monkeypatch.setattr(hosts, "routed_address", lambda: OTHER_NIC)
    monkeypatch.setattr(hosts, "interface_addresses", lambda: [LAN, OTHER_NIC])
    assert hosts.lan_addresses() == [OTHER_NIC, LAN]
    monkeypatch.setattr(hosts, "routed_address", lambda: None)
    assert hosts.lan_addresses() == [LAN, OTHER_NIC]

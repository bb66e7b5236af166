"""Serving with uvicorn: started and stopped from another thread, port 0 for a free port."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
import urllib.error
import urllib.request

import pytest

from pawnlight.web.guard import ConnectionLimits
from pawnlight.web.server import WebServer


def get(url: str):
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.status, response.headers, response.read()


def test_start_returns_listening_on_a_free_port_and_stop_closes_it(app):
    server = WebServer(app, "127.0.0.1", 0)
    server.start()
    try:
        assert server.port > 0 and server.url == f"http://127.0.0.1:{server.port}/"
        status, headers, body = get(server.url)
        assert status == 200 and headers["Content-Type"].startswith("text/html")
        assert b"pawnlight" in body
        status, _, body = get(server.url + "api/state")
        assert json.loads(body)["phase"] == "idle"
    finally:
        server.stop()
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", server.port), timeout=2):
        pass


def test_errors_come_back_as_json_through_the_server(served):
    with pytest.raises(urllib.error.HTTPError) as caught:
        get(served.url + "api/nothing")
    assert caught.value.code == 404
    assert json.loads(caught.value.read())["error"].startswith("no such route")


def test_a_port_in_use_fails_in_the_callers_thread(app, served):
    other = WebServer(app, "127.0.0.1", served.port)
    with pytest.raises(OSError):
        other.start()


def test_starting_twice_is_a_mistake_and_stopping_twice_is_harmless(app):
    server = WebServer(app, "127.0.0.1", 0)
    server.start()
    with pytest.raises(RuntimeError):
        server.start()
    server.stop()
    server.stop()


def raw(port: int, data: bytes, timeout: float = 5.0) -> bytes:
    """Send ``data`` on a fresh connection and read until the server closes it."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(data)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
        return b"".join(chunks)


def test_slow_header_connections_hold_no_thread_and_are_closed_in_time(app):
    limits = ConnectionLimits(per_address=100, header_timeout=1.0)
    with WebServer(app, "127.0.0.1", 0, threads=1, limits=limits) as server:
        slow = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(30)]
        for sock in slow:
            sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: loc")  # and nothing more
        # With one thread for the app and thirty unfinished requests, the state still comes.
        status, _, body = get(server.url + "api/state")
        assert status == 200 and json.loads(body)["phase"] == "idle"
        for sock in slow:
            sock.settimeout(5)
            assert sock.recv(100) == b""  # closed by the server once the header time is up
            sock.close()


def test_connections_past_the_per_address_cap_are_refused(app):
    limits = ConnectionLimits(per_address=3)
    with WebServer(app, "127.0.0.1", 0, limits=limits) as server:
        held = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(3)]
        try:
            with pytest.raises((ConnectionError, OSError)):
                raw(server.port, b"GET /api/state HTTP/1.1\r\nHost: localhost\r\n\r\n")
                raise ConnectionError("answered")  # an empty answer counts as refused too
        except AssertionError:
            raise
        finally:
            for sock in held:
                sock.close()
        assert limits.refused >= 1


def test_a_chunked_body_past_the_limit_gets_413(served):
    chunk = b"x" * 8192
    body = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(10)) + b"0\r\n\r\n"
    head = (
        b"POST /api/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    )
    answer = raw(served.port, head + body)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:80]


def test_a_large_declared_length_gets_413_before_any_body(served):
    head = (
        b"POST /api/login HTTP/1.1\r\nHost: localhost\r\nContent-Length: 10000000\r\n"
        b"Connection: close\r\n\r\n"
    )
    assert raw(served.port, head).startswith(b"HTTP/1.1 413")


def test_another_host_name_is_refused_on_every_route(served):
    for path in (b"/", b"/api/state", b"/api/events", b"/static/live.js"):
        answer = raw(
            served.port,
            b"GET %s HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n" % path,
        )
        assert answer.startswith(b"HTTP/1.1 421"), (path, answer[:80])


def test_a_phones_fragment_comes_from_the_cache_the_same_as_flasks(app, served, service):
    import http.client

    service.start(("red", "blue"))
    flask_html = app.test_client().get("/partial/live").get_data()
    deadline = __import__("time").monotonic() + 10
    while True:  # the server's broadcaster has built this version's fragment by now
        connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
        connection.request("GET", "/partial/live", headers={"Accept-Encoding": "gzip"})
        response = connection.getresponse()
        body = response.read()
        if response.getheader("Content-Encoding") == "gzip":
            import gzip

            body = gzip.decompress(body)
        if body == flask_html or __import__("time").monotonic() > deadline:
            break
    assert response.status == 200 and body == flask_html
    etag = response.getheader("ETag")
    assert etag is not None
    connection.request("GET", "/partial/live", headers={"If-None-Match": etag})
    again = connection.getresponse()
    again.read()
    assert again.status == 304
    connection.close()


def test_the_listening_socket_is_tcp_without_nagle(app):
    """asyncio turns Nagle off only on sockets that name TCP; with it on, an answer written
    as headers then body waited 40 ms for the client's delayed ACK."""
    with WebServer(app, "127.0.0.1", 0) as server:
        sock = server._socket
        assert sock is not None and sock.proto == socket.IPPROTO_TCP
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)


def test_the_state_through_the_server_is_the_services_with_an_etag(served, service):
    import http.client

    service.start(("red", "blue"))
    for _ in range(2):  # the second time from the per-version cache, if not the first
        connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
        connection.request("GET", "/api/state")
        response = connection.getresponse()
        assert response.status == 200 and json.loads(response.read()) == service.state()
        assert response.getheader("Content-Type") == "application/json"
        etag = response.getheader("ETag")
        assert etag is not None
        connection.request("GET", "/api/state", headers={"If-None-Match": etag})
        again = connection.getresponse()
        again.read()
        assert again.status == 304
        connection.close()


def slow_clients(port: int, addresses: int, each: int) -> list[socket.socket]:
    """``addresses`` x ``each`` connections from 127.0.0.2, .3, ... (all loopback), each having
    sent half a request line and nothing more (under the per-address cap of 16)."""
    held = []
    for host in range(2, 2 + addresses):
        for _ in range(each):
            sock = socket.create_connection(
                ("127.0.0.1", port), timeout=5, source_address=(f"127.0.0.{host}", 0)
            )
            with contextlib.suppress(OSError):  # closed already to make room
                sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: loc")
            held.append(sock)
    return held


def eventually(predicate, what: str) -> None:
    """The server takes connections on its own loop: wait (10 s at most) until it has."""
    deadline = time.monotonic() + 10
    while not predicate():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


def closed_by_server(sock: socket.socket) -> bool:
    """Whether the server closed this connection: an end of stream, or a reset when it closed
    with the client's unread bytes still waiting (the kernel then answers with RST)."""
    try:
        return sock.recv(100) == b""
    except ConnectionResetError:
        return True


def test_a_slow_header_flood_leaves_room_for_the_phones(app):
    # Issue #33: 300 slow connections from 30 addresses filled the cap of 256, and every
    # phone request was refused for as long as they were held.
    limits = ConnectionLimits(header_timeout=60.0)
    with WebServer(app, "127.0.0.1", 0, threads=1, limits=limits) as server:
        held = slow_clients(server.port, 30, 10)
        try:
            for _ in range(20):  # a phone polling, each request on a new connection
                status, _, body = get(server.url + "api/state")
                assert status == 200 and json.loads(body)["phase"] == "idle"
            # The slow ones are capped as a group; the oldest were closed to make room.
            eventually(lambda: limits.evicted >= 300 - limits.slow_total, "not all seen")
            assert len(limits.waiting) <= limits.slow_total < limits.total
            assert closed_by_server(held[0])  # the first of them
        finally:
            for sock in held:
                sock.close()


def test_a_phone_with_a_request_under_way_is_not_closed_to_make_room(app):
    limits = ConnectionLimits(slow_total=4, header_timeout=60.0)
    with WebServer(app, "127.0.0.1", 0, limits=limits) as server:
        phone = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        phone.sendall(b"GET /api/state HTTP/1.1\r\nHost: localhost\r\n\r\n")
        assert phone.recv(12) == b"HTTP/1.1 200"
        held = slow_clients(server.port, 2, 4)
        try:
            eventually(lambda: limits.evicted >= 4, "the slow connections were not all seen")
            # The kept-alive phone was idle, not sending headers: it still has its connection.
            phone.sendall(b"GET /api/state HTTP/1.1\r\nHost: localhost\r\n\r\n")
            answer = b""
            while b"HTTP/1.1 200" not in answer:
                chunk = phone.recv(65536)
                assert chunk, "the phone's connection was closed"
                answer += chunk
        finally:
            phone.close()
            for sock in held:
                sock.close()


def room_for_sockets(needed: int) -> None:
    """Raise this process's soft limit of open files to ``needed`` (skip when the hard limit
    is lower: then the flood cannot be made here)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= needed:
        return
    if hard != resource.RLIM_INFINITY and hard < needed:
        pytest.skip(f"the flood needs {needed} open files, the hard limit is {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))


def test_a_flood_of_a_thousand_slow_connections_from_a_hundred_addresses_serves_the_phone(app):
    # Issue #33: 1,000 slow connections from 100 addresses while a phone polls the state:
    # every one of its requests is answered, during the flood as after it.
    room_for_sockets(4096)  # the thousand held here, the server's side of them, the phone's
    limits = ConnectionLimits(header_timeout=60.0)
    answered: list[int] = []
    failed: list[str] = []
    flooding = threading.Event()
    flooding.set()
    during = [0]
    stop = threading.Event()

    def phone(url: str) -> None:
        while not stop.is_set():
            started_during = flooding.is_set()
            try:
                status, _, body = get(url + "api/state")
                assert json.loads(body)["phase"] == "idle"
                answered.append(status)
                during[0] += started_during
            except (OSError, AssertionError) as error:
                failed.append(repr(error))

    with WebServer(app, "127.0.0.1", 0, threads=1, limits=limits) as server:
        polling = threading.Thread(target=phone, args=(server.url,), daemon=True)
        polling.start()
        try:
            held = slow_clients(server.port, 100, 10)
        finally:
            flooding.clear()
        try:
            eventually(lambda: limits.evicted >= 1000 - limits.slow_total, "not all seen")
            count = len(answered)
            eventually(lambda: len(answered) >= count + 20, "the phone after the flood")
        finally:
            stop.set()
            polling.join(15)
            for sock in held:
                sock.close()
        assert failed == []
        assert during[0] >= 1 and all(status == 200 for status in answered)
        assert len(limits.waiting) <= limits.slow_total < limits.total


class Waiting:
    """A connection waiting for its request's headers, as the limits see one."""

    def __init__(self, arrived: bool) -> None:
        self.arrived, self.evicted = arrived, False

    def request_arrived(self) -> bool:
        return self.arrived

    def evict(self) -> None:
        self.evicted = True


def test_a_connection_whose_request_is_in_its_socket_is_not_closed_to_make_room():
    # Issue #33: accepted in one batch with a flood's connections, a phone's connection had
    # its whole request unread when newer ones needed room, and was closed as the oldest.
    limits = ConnectionLimits(slow_total=2)
    phone, slow, slower = Waiting(arrived=True), Waiting(False), Waiting(False)
    for address, connection in (("127.0.0.1", phone), ("10.0.0.2", slow), ("10.0.0.3", slower)):
        assert limits.take(address, connection)  # type: ignore[arg-type]
    assert slow.evicted and not phone.evicted and not slower.evicted
    assert list(limits.waiting) == [phone, slower]
    assert limits.take("10.0.0.4", Waiting(False))  # type: ignore[arg-type]
    assert not phone.evicted and slower.evicted
    # When every waiting one has its request in, the oldest still makes room.
    others = [Waiting(True), Waiting(True)]
    limits = ConnectionLimits(slow_total=2)
    for n, connection in enumerate(others):
        limits.take(f"10.0.1.{n}", connection)
    limits.take("10.0.1.9", Waiting(True))
    assert others[0].evicted and not others[1].evicted


class Transport:
    def abort(self) -> None:
        self.aborted = True


def test_a_connection_closed_to_make_room_leaves_uvicorns_count_at_once():
    # Issue #33: a flood reopening every connection the server closed left thousands closed but
    # not yet lost in uvicorn's count, past its limit_concurrency: phones were answered 503.
    from pawnlight.web.guard import protocol

    limits = ConnectionLimits()
    connection = object.__new__(protocol(limits))
    connection.connections = {connection}
    connection.transport = Transport()  # type: ignore[assignment]
    connection._header_timer = None
    connection._address = "10.0.0.2"
    limits.open["10.0.0.2"] = 1
    connection.evict()
    assert connection.connections == set() and limits.open == {}

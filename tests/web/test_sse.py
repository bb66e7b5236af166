"""Live updates by Server-Sent Events: the state on connect, every new snapshot, heartbeats,
and streams that end when the phone goes or the server stops."""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from pawnlight.web.app import create_app
from pawnlight.web.context import context_of
from pawnlight.web.events import stream
from pawnlight.web.guard import ConnectionLimits
from pawnlight.web.server import WebServer

from ..helpers import ManualClock
from .fakes import FakeService
from .helpers import PIN, SECRET, json_of
from .sse import EventReader

CLIENTS = 20
#: A guard against a hang, not a speed goal: how fast twenty phones are served is measured in
#: benchmarks/web_load.py, where a busy CI machine cannot fail it.
WAIT = 30.0


class ScriptedSubscription:
    """Hands out the given snapshots, then None (a quiet wait) at once, without waiting."""

    def __init__(self, snapshots):
        self.snapshots = list(snapshots)
        self.closed = False

    def get(self, timeout):
        return self.snapshots.pop(0) if self.snapshots else None

    def close(self):
        self.closed = True


class ScriptedService:
    def __init__(self, state, later=()):
        self.current = state
        self.subscription = ScriptedSubscription(later)

    def state(self):
        return self.current

    def subscribe(self):
        return self.subscription


def data_of(chunk: str) -> dict:
    line = next(line for line in chunk.splitlines() if line.startswith("data: "))
    return json.loads(line[len("data: ") :])


# -- the stream itself ----------------------------------------------------------------------------


def test_the_stream_replays_the_state_then_sends_each_newer_snapshot():
    later = [{"version": 3}, {"version": 4}, {"version": 4}, {"version": 5}]
    service = ScriptedService({"version": 3, "phase": "draw"}, later)
    stop = threading.Event()
    events = stream(service, stop.is_set)
    assert next(events) == "retry: 2000\n\n"
    first = next(events)
    assert first.startswith("id: 3\nevent: state\n") and data_of(first)["phase"] == "draw"
    assert data_of(next(events)) == {"version": 4}  # 3 was the replay; the second 4 is skipped
    assert data_of(next(events)) == {"version": 5}
    stop.set()
    assert list(events) == []
    assert service.subscription.closed


def test_a_quiet_stream_sends_a_heartbeat_comment():
    clock = ManualClock()
    service = ScriptedService({"version": 1})
    heartbeats = iter(range(10))

    def stopping():
        clock.advance(5)
        return next(heartbeats) >= 9

    chunks = list(stream(service, stopping, heartbeat=15.0, clock=clock))
    # 45 quiet seconds: a comment after 15, 30 and 45.
    assert chunks[2:] == [": heartbeat\n\n"] * 3


def test_closing_the_stream_closes_the_subscription():
    service = ScriptedService({"version": 1})
    events = stream(service, lambda: False)
    next(events)
    next(events)
    events.close()  # what the server does when the phone has gone
    assert service.subscription.closed


def test_snapshots_without_a_version_are_all_sent():
    service = ScriptedService({"phase": "idle"}, [{"phase": "draw"}, {"phase": "move"}])
    events = stream(service, lambda: not service.subscription.snapshots)
    assert [data_of(c)["phase"] for c in list(events)[1:]] == ["idle", "draw", "move"]


# -- through Flask --------------------------------------------------------------------------------


def test_the_events_route_streams_state_events(app, client, service):
    response = client.get("/api/events", buffered=False)
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-store"
    chunks = iter(response.response)
    assert next(chunks) == b"retry: 2000\n\n"
    assert data_of(next(chunks).decode())["phase"] == "idle"
    service.command("new_game", {"players": ["red", "blue"]})
    assert data_of(next(chunks).decode())["phase"] == "setup"
    ctx = context_of(app)
    assert ctx is not None
    ctx.stopping.set()
    assert list(chunks) == []
    response.close()
    assert service.subscribers == []


def test_streams_past_the_limit_are_told_to_poll(service):
    app = create_app(service, pin=PIN, secret_key=SECRET, max_streams=1)
    client = app.test_client()
    first = client.get("/api/events", buffered=False)
    assert first.status_code == 200
    refused = client.get("/api/events")
    assert refused.status_code == 503 and "poll GET /api/state" in json_of(refused)["error"]
    assert refused.headers["Retry-After"] == "30"
    first.close()  # never iterated: the slot still comes back
    again = client.get("/api/events", buffered=False)
    assert again.status_code == 200
    again.close()


# -- through the real server ----------------------------------------------------------------------


@pytest.fixture
def roomy(service):
    """A server that lets twenty phones on one address (they all come from 127.0.0.1 here)."""
    app = create_app(service, pin=PIN, secret_key=SECRET, streams_per_address=CLIENTS)
    with WebServer(app, "127.0.0.1", 0, limits=ConnectionLimits(per_address=4 * CLIENTS)) as server:
        yield server


def test_twenty_phones_each_get_the_state_and_the_next_update(roomy, service):
    served = roomy
    connected = threading.Barrier(CLIENTS + 1, timeout=WAIT)
    start_version = service.state()["version"]

    def phone(_: int) -> tuple[dict, dict]:
        reader = EventReader(served.port, timeout=WAIT)
        try:
            assert reader.status == 200
            first = reader.next_state()
            connected.wait()
            second = reader.next_state()
            return first, second
        finally:
            reader.close()

    with ThreadPoolExecutor(CLIENTS) as pool:
        results = [pool.submit(phone, n) for n in range(CLIENTS)]
        connected.wait()  # every phone has its first state: now the game changes
        service.command("new_game", {"players": ["red", "blue"]})
        pairs = [future.result(timeout=WAIT) for future in results]
    for first, second in pairs:
        assert first["version"] == start_version and first["phase"] == "idle"
        assert second["version"] > start_version and second["phase"] == "setup"


def test_stopping_the_server_ends_open_streams_promptly(app, service):
    # uvicorn would wait a minute for streams still open (its graceful shutdown), longer than
    # stop() waits for the serving thread (10 s): had the streams not ended at once, the thread
    # would still be serving when stop() returns.  No clock is read, so a slow machine passes.
    server = WebServer(app, "127.0.0.1", 0, shutdown_timeout=60.0)
    server.start()
    readers = [EventReader(server.port) for _ in range(3)]
    for reader in readers:
        reader.next_state()
    serving = server._thread
    assert serving is not None and serving.is_alive()
    server.stop()
    assert not serving.is_alive(), "the open streams held the server's shutdown up"
    for reader in readers:
        try:
            while True:
                reader.next_state()
        except (EOFError, OSError):
            pass
        reader.close()
    assert service.subscribers == []


def test_a_page_request_is_served_while_streams_hold_threads(service):
    app = create_app(service, pin=PIN, secret_key=SECRET)
    with WebServer(app, "127.0.0.1", 0, threads=2) as server:
        readers = [EventReader(server.port) for _ in range(4)]
        for reader in readers:
            reader.next_state()
        import urllib.request

        with urllib.request.urlopen(server.url + "api/state", timeout=WAIT) as response:
            assert json.load(response)["phase"] == "idle"
        for reader in readers:
            reader.close()


def test_streams_past_the_per_address_cap_are_refused_while_others_are_not(service):
    app = create_app(service, pin=PIN, secret_key=SECRET, max_streams=10, streams_per_address=2)
    with WebServer(app, "127.0.0.1", 0) as server:
        readers = [EventReader(server.port) for _ in range(2)]
        for reader in readers:
            assert reader.status == 200
            reader.next_state()
        refused = EventReader(server.port)
        assert refused.status == 503 and refused.response.headers["Retry-After"] == "30"
        assert "poll GET /api/state" in json.loads(refused.response.read())["error"]
        refused.close()
        readers[0].close()
        ctx = context_of(app)
        assert ctx is not None
        deadline = time.monotonic() + WAIT
        while ctx.streams.open > 1 and time.monotonic() < deadline:
            time.sleep(0.02)  # the server sees the phone go
        again = EventReader(server.port)
        assert again.status == 200 and again.next_state()["phase"] == "idle"
        again.close()
        readers[1].close()


def test_streams_hold_no_thread_of_the_app(service):
    app = create_app(service, pin=PIN, secret_key=SECRET, streams_per_address=12)
    with WebServer(app, "127.0.0.1", 0, threads=1) as server:
        readers = [EventReader(server.port) for _ in range(12)]
        for reader in readers:
            reader.next_state()
        import urllib.request

        with urllib.request.urlopen(server.url + "api/state", timeout=WAIT) as response:
            assert json.load(response)["phase"] == "idle"
        service.command("new_game", {"players": ["red", "blue"]})
        for reader in readers:
            event = reader.next_state()
            assert event["phase"] == "setup" and "turns" not in event
            assert event["history_length"] == 0
            reader.close()


def test_the_fake_service_counts_its_subscriptions():
    service = FakeService()
    subscription = service.subscribe()
    service.command("settings", {"brightness": 0.1})
    snapshot = subscription.get(1.0)
    assert snapshot is not None and snapshot["settings"]["brightness"] == 0.1
    subscription.close()
    assert service.subscribers == [] and service.closed == 1


def test_a_phone_that_takes_gzip_gets_the_stream_gzipped_event_by_event(service):
    import http.client
    import zlib

    app = create_app(service, pin=PIN, secret_key=SECRET)
    with WebServer(app, "127.0.0.1", 0) as server:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=WAIT)
        connection.request("GET", "/api/events", headers={"Accept-Encoding": "gzip"})
        response = connection.getresponse()
        assert response.getheader("Content-Encoding") == "gzip"
        unpack = zlib.decompressobj(31)
        text = b""

        def next_state() -> dict:
            nonlocal text
            while True:
                while b"\n\n" in text:
                    block, text = text.split(b"\n\n", 1)
                    for line in block.split(b"\n"):
                        if line.startswith(b"data: "):
                            return json.loads(line[6:])
                text += unpack.decompress(response.read1(65536))  # each event is flushed

        assert next_state()["phase"] == "idle"
        service.command("new_game", {"players": ["red", "blue"]})
        assert next_state()["phase"] == "setup"
        connection.close()

"""Serving with cheroot: started and stopped from another thread, port 0 for a free port."""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request

import pytest
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


def test_the_pool_is_far_larger_than_a_table_of_phones(app):
    server = WebServer(app, "127.0.0.1", 0)
    assert server._server.requests.min == 40

"""Fixtures for the web tests alone: a fake service, the app, a served app."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from pawnlight.web.app import create_app
from pawnlight.web.server import WebServer

from ..helpers import ManualClock
from .fakes import FakeService
from .helpers import PIN, SECRET


@pytest.fixture
def service() -> FakeService:
    return FakeService()


@pytest.fixture
def app(service: FakeService, clock: ManualClock) -> Flask:
    return create_app(service, pin=PIN, secret_key=SECRET, clock=clock)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def served(app: Flask) -> Iterator[WebServer]:
    server = WebServer(app, "127.0.0.1", 0)
    server.start()
    try:
        yield server
    finally:
        server.stop()

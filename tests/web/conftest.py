"""Fixtures for the web tests: a fake service, the app, a served app, a phone-sized browser."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from pawnlight.web.app import create_app
from pawnlight.web.server import WebServer

from .fakes import FakeService

PIN = "2468"
OWNER = {"X-Pawnlight-Pin": PIN}
SECRET = b"pawnlight-test-secret-key-000000"
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "web"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}


class FakeClock:
    """Time for the PIN limiter, moved by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def service() -> FakeService:
    return FakeService()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def app(service: FakeService, clock: FakeClock) -> Flask:
    return create_app(service, pin=PIN, secret_key=SECRET, clock=clock)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def login(client: FlaskClient) -> str:
    """Log in through the page's route; returns the CSRF token for changing requests."""
    response = client.post("/api/login", json={"pin": PIN})
    assert response.status_code == 200, response.json
    return response.json["csrf"]


@pytest.fixture
def served(app: Flask) -> Iterator[WebServer]:
    server = WebServer(app, "127.0.0.1", 0)
    server.start()
    try:
        yield server
    finally:
        server.stop()


# -- the browser --------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is missing (./test installs Debian's chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def phone(browser, request) -> Iterator:
    """A fresh phone-sized page; fails the test if the page's script throws."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield page
    finally:
        context.close()
    assert not errors, f"errors in the page's script: {errors}"


def screenshot(page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.evaluate("window.scrollTo(0, 0)")  # the sticky top bar stays at the top of the picture
    page.screenshot(path=str(path), full_page=True)
    return path

"""Helpers for the web tests: the owner's PIN and a login through the page's route."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from ..helpers import PIN

OWNER = {"X-Pawnlight-Pin": PIN}
#: What a browser on the page sends with every POST: its own origin (the test client's host).
THIS_PAGE = {"Origin": "http://localhost"}
SECRET = b"pawnlight-test-secret-key-000000"


def login(client: FlaskClient) -> str:
    """Log in through the page's route; returns the CSRF token for changing requests."""
    response = client.post("/api/login", json={"pin": PIN})
    assert response.status_code == 200, response.json
    return json_of(response)["csrf"]


def json_of(response: TestResponse) -> Any:
    """The response's JSON body, which must be there (``response.json`` is None without one)."""
    body = response.json
    assert body is not None, (response.status_code, response.data[:300])
    return body


def start_game(page, colours: tuple[str, ...] = ("red", "blue")) -> None:
    """The owner logs in on the status page and starts a game for ``colours``."""
    from playwright.sync_api import expect

    page.locator("#pin").fill(PIN)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("#owner-tools")).to_be_visible()
    for colour in ("red", "blue", "yellow", "green"):
        box = page.locator(f'input[name="players"][value="{colour}"]')
        box.check() if colour in colours else box.uncheck()
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#phase")).to_have_text("Set up the board")

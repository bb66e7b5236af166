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


#: The page's width in CSS pixels. Not compared with the window's: a phone's browser widens its
#: window to a page wider than the screen (and shrinks it all), so the two would always agree.
PAGE_WIDTH = "Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
#: The widths every family page must fit (issue #47): a small phone, a common one, a desktop.
WIDTHS = (320, 390, 1280)


def fits(page, where: str, widths: tuple[int, ...] = WIDTHS) -> None:
    """The page is no wider than the window at each of ``widths`` (resized in place, no
    reload), then back at its own size."""
    size = page.viewport_size or {"width": 390, "height": 844}
    try:
        for width in widths:
            page.set_viewport_size({"width": width, "height": size["height"]})
            wider = int(page.evaluate(PAGE_WIDTH)) - width
            assert wider <= 0, f"{where} at {width} px wide is {wider} px wider than the window"
    finally:
        page.set_viewport_size(size)

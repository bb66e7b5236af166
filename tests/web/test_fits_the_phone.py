"""No page wider than the phone (issue #47, 1): the end of a game, with its figures and a long
history, at 320 and 390 px wide, on the status page (the owner's and a guest's) and the
simulator. Debian's chromium through Playwright, the app served with the fake service."""

from __future__ import annotations

import pytest

from ..helpers import screenshot
from .helpers import PAGE_WIDTH, PIN

pytestmark = pytest.mark.browser


FIGURES = {
    "turns": 141,
    "bumps": 17,
    "swept": 4,
    "slides": 12,
    "switches": 3,
    "sorries": 9,
    "forfeits": 32,
    "forfeits_by_card": {"sorry": 2, "10": 1, "11": 4, "4": 3, "7": 2},
    "colours": {
        colour: {
            "turns": 36,
            "forfeits": 8,
            "bumps_made": 4,
            "bumped": 5,
            "slides": 3,
            "pawns_home": 3,
        }
        for colour in ("red", "blue", "yellow", "green")
    },
}


def overflow(page, width: int) -> int:
    """How much wider than the phone the page is (0 or less when it fits)."""
    return int(page.evaluate(PAGE_WIDTH)) - width


def the_end(service) -> None:
    """A four-player game played to its end, as its snapshot would say."""
    service.start(("red", "blue", "yellow", "green"))
    service.scan("1")
    service.play("R:start-T4")
    service.patch(
        phase="over",
        result={"winners": ["yellow"], "double_game": False, "patience": None, "reason": ""},
        statistics=FIGURES,
    )


@pytest.mark.parametrize("width", [320, 390])
def test_the_end_of_a_game_fits_the_phone(browser, served, service, width):
    from playwright.sync_api import expect

    the_end(service)
    context = browser.new_context(viewport={"width": width, "height": 844}, is_mobile=True)
    try:
        page = context.new_page()
        for path, who in (("/", "guest"), ("/sim", "guest"), ("/", "owner"), ("/sim", "owner")):
            if who == "owner" and path == "/":
                page.goto(served.url)
                page.locator("#pin").fill(PIN)
                page.get_by_role("button", name="Log in").click()
                expect(page.locator("#owner-tools")).to_be_visible()
            page.goto(served.url + path)
            expect(page.locator("#statistics")).to_be_visible(timeout=10_000)
            screenshot(page, f"fits-end-{who}-{path.strip('/') or 'status'}-{width}")
            wider = overflow(page, width)
            assert wider <= 0, f"{path} ({who}) at {width} px is {wider} px wider than the phone"
    finally:
        context.close()

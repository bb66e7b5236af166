"""The owner's unlock on a phone (issue #33): Debian's chromium at 390x844, driven by Playwright,
on the app served with the fake service.  Locked out, the login says why and how to get in; the
board's Hint and Undo held for 3 s put the words on the page, and the PIN logs in."""

from __future__ import annotations

import pytest

from pawnlight.companion.board_buttons import UNLOCKED
from pawnlight.web.ratelimit import GLOBAL_FAILURES

from ..helpers import screenshot
from .helpers import PIN
from .test_unlock import WRONG, address, hold_the_unlock

pytestmark = pytest.mark.browser


def test_the_page_says_the_board_lifted_the_lock_and_the_login_works(phone, served, service, app):
    from playwright.sync_api import expect

    expect.set_options(timeout=10_000)
    phone.goto(served.url)
    expect(phone.locator("#conn")).to_have_attribute("data-state", "live")
    # Wrong PINs from many addresses (sent to the same app): everyone is locked out.
    client = app.test_client()
    for n in range(GLOBAL_FAILURES):
        client.post("/api/settings", json={}, headers=WRONG, environ_base=address(n))
    expect(phone.locator("#warning")).to_contain_text("hold Hint and Undo")
    phone.locator("#pin").fill(PIN)
    phone.get_by_role("button", name="Log in").click()
    expect(phone.locator("#owner-status")).to_contain_text("locked for everyone")
    expect(phone.locator("#owner-unlock")).to_have_count(0)

    hold_the_unlock(service)
    expect(phone.locator("#owner-unlock")).to_have_text(UNLOCKED)
    expect(phone.locator("#warning")).to_have_count(0)  # the lockout warning is gone
    # The words fit the phone: nothing is wider than its screen.
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot = screenshot(phone, "owner-unlock")
    phone.screenshot(path="/tmp/owner-unlock-phone.png")
    assert shot.exists()

    phone.locator("#pin").fill(PIN)
    phone.get_by_role("button", name="Log in").click()
    expect(phone.locator("#owner-tools")).to_be_visible()
    expect(phone.locator("#owner-status")).to_have_text("Logged in as the owner.")

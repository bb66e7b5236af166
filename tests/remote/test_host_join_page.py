"""Hosting and joining a game on two boards from the phones' pages (no curl): the host's owner
names the other home's board beside a colour and starts; the other owner types the join code
(issue #36, docs/remote.md). Two real daemons, real Mosquitto, Debian's chromium."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from ..daemon.process import PIN
from .boards import all_online


def log_in(page, url: str) -> None:
    page.goto(url + "/")
    page.locator("#pin").fill(PIN)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("#owner-tools")).to_be_visible()


@pytest.mark.slow
def test_a_game_is_hosted_and_joined_from_the_phones(boards, browser):
    a, b = boards["board-a"], boards["board-b"]
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    context.set_default_timeout(15_000)
    errors: list[str] = []
    try:
        host = context.new_page()
        host.on("pageerror", lambda error: errors.append(str(error)))
        log_in(host, a.url)
        for colour in ("red", "blue", "yellow", "green"):
            box = host.locator(f'input[name="players"][value="{colour}"]')
            box.check() if colour in ("red", "blue") else box.uncheck()
        assert host.locator("#seat-red").input_value() == "board-a"  # this board by default
        host.locator("#seat-blue").fill("board-b")
        host.get_by_role("button", name="Start the game").click()
        said = host.locator("#owner-status")
        expect(said).to_contain_text("join with the code")
        found = re.search(r"the code ([A-Z0-9]+)", said.inner_text())
        assert found is not None
        code = found.group(1)
        expect(host.locator("#remote-code")).to_have_text(code)

        guest = context.new_page()
        guest.on("pageerror", lambda error: errors.append(str(error)))
        log_in(guest, b.url)
        guest.get_by_text("Join a game from another home").click()
        guest.locator("#join-code").fill(code.lower())  # typed as heard: any case
        guest.get_by_role("button", name="Join the game").click()
        # The join goes through the broker and the host: bounded, not a pause (CI, loaded).
        expect(guest.get_by_text("Joined the game hosted by board-a")).to_be_visible(timeout=45_000)
        expect(guest.locator("#remote")).to_contain_text("board-b (this board): Blue")
        for daemon in (a, b):
            state = daemon.wait(lambda s: s["remote"] is not None and all_online(s))
            assert state["remote"]["boards"]["board-b"]["seats"] == ["blue"]
        # A wrong code is refused in words on the page.
        guest.locator("#join-code").fill("ZZZZZZ")
        guest.get_by_role("button", name="Join the game").click()
        guest.get_by_role("button", name="End it and join").click()
        refused = guest.get_by_text("no game with the join code ZZZZZZ")
        expect(refused).to_be_visible(timeout=15_000)  # the broker is asked for 5 s
    finally:
        context.close()
    assert not errors, errors

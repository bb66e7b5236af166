"""The pages in a real browser: Debian's chromium at a phone's size, driven by Playwright.

The app is served by WebServer on 127.0.0.1 with the fake service; the tests change the game
through the service (as the board would) and wait for the page to follow.  Every wait is
Playwright's own (expect ... to_have_..., with a timeout) and ends as soon as the page is right;
screenshots go to test-artifacts/web/.
"""

from __future__ import annotations

import pytest

from pawnlight.companion.config import new_game

from ..helpers import PHONE, screenshot
from .helpers import PIN

pytestmark = pytest.mark.browser
WAIT = 10_000  # milliseconds: generous, the waits end as soon as the page is right


@pytest.fixture
def expect():
    from playwright.sync_api import expect

    expect.set_options(timeout=WAIT)
    return expect


def open_live(page, served, expect, path=""):
    page.goto(served.url + path)
    expect(page.locator("#conn")).to_have_attribute("data-state", "live")


def test_the_status_page_draws_the_board_and_follows_the_game_by_its_event_stream(
    phone, served, service, expect
):
    open_live(phone, served, expect)
    expect(phone.locator("#phase")).to_have_text("No game")
    expect(phone.locator("#board svg [data-place]")).to_have_count(88)
    # Polling (every 2 s, when the stream fails) is cut off: the page can only follow the game
    # through the event stream, at once, whatever the machine's load.
    phone.route("**/api/state*", lambda route: route.fulfill(status=503, body="no"))
    service.start(("red", "blue", "yellow"), edition="parker-1950")
    expect(phone.locator("#phase")).to_have_text("Draw a card")
    expect(phone.locator("#conn")).to_have_attribute("data-state", "live")
    expect(phone.locator("#turn")).to_have_text("Red’s turn")
    expect(phone.locator("#board [data-diamond]")).to_have_count(4)
    service.scan("1")
    expect(phone.locator("#card")).to_have_attribute("data-card", "1")
    expect(phone.locator('#board [data-lit="T4"]')).to_have_count(1)
    expect(phone.locator("#phase-text")).to_have_text(
        "Red plays a 1: make the move lit on the board"
    )
    screenshot(phone, "status-move")
    service.play("R:start-T4")
    expect(phone.locator('#board .pawn[data-pawn="red"][data-at="T4"]')).to_have_count(1)
    expect(phone.locator(".history-line")).to_have_count(1)
    expect(phone.locator("#turn")).to_have_text("Blue’s turn")


def test_a_history_line_replays_that_turn_before_and_after(phone, served, service, expect):
    service.start(("red", "blue"))
    service.scan("1")
    service.play("R:start-T4")
    service.scan("2")
    service.play("B:start-T19")
    open_live(phone, served, expect)
    line = phone.locator('.history-line[data-turn="1"]')
    expect(line).to_have_text("1Red, 1: a red pawn leaves START for red's start circle")
    line.click()
    bar = phone.locator("#replay-bar")
    expect(bar).to_be_visible()
    expect(phone.locator("#replay-label")).to_have_text(
        "Turn 1, after: Red, 1: a red pawn leaves START for red's start circle"
    )
    expect(phone.locator("#board")).to_have_class("board-wrap replaying")
    expect(phone.locator('#board .pawn[data-at="T4"]')).to_have_count(1)
    expect(phone.locator('#board .pawn[data-at="T19"]')).to_have_count(0)  # blue not out yet
    expect(line).to_have_attribute("aria-current", "true")
    expect(phone).to_have_url(served.url + "?turn=1&when=after")
    # Issue #47, 7: the legend names only the marks this turn has (no slide, nobody sent back).
    legend = phone.locator("#replay-legend")
    expect(legend.locator('[data-mark="data-dest"]')).to_be_visible()
    expect(legend.locator('[data-mark="data-slide"]')).to_be_hidden()
    expect(legend.locator('[data-mark="data-bump"]')).to_be_hidden()
    bar.get_by_role("link", name="Before").click()
    expect(phone.locator("#replay-label")).to_have_text(
        "Turn 1, before: Red, 1: a red pawn leaves START for red's start circle"
    )
    expect(phone.locator('#board .pawn[data-at="T4"]')).to_have_count(0)
    expect(phone.locator('#board [data-dest="T4"]')).to_have_count(1)  # the turn's move
    screenshot(phone, "status-replay")
    # A new snapshot does not take the replayed board away.
    service.scan("1")
    expect(phone.locator("#card")).to_have_attribute("data-card", "1")
    expect(phone.locator("#replay-label")).to_have_text(
        "Turn 1, before: Red, 1: a red pawn leaves START for red's start circle"
    )
    bar.get_by_role("link", name="Back to live").click()
    expect(bar).to_be_hidden()
    expect(phone.locator('#board .pawn[data-at="T19"]')).to_have_count(1)
    expect(phone).to_have_url(served.url)


def test_the_owner_logs_in_and_starts_a_game(phone, served, service, expect):
    open_live(phone, served, expect)
    phone.get_by_label("Owner PIN").fill("0000")
    phone.get_by_role("button", name="Log in").click()
    expect(phone.locator("#owner-status")).to_have_text("wrong PIN")
    phone.get_by_label("Owner PIN").fill(PIN)
    phone.get_by_role("button", name="Log in").click()
    expect(phone.locator("#owner-tools")).to_be_visible()
    # Issue #48: one tap dims the LEDs to the night level; the patterns are a Board setting.
    phone.get_by_role("button", name="Night level for the LEDs").click()
    expect(phone.locator("#night-toggle")).to_have_attribute("aria-pressed", "true")
    assert service.commands[-1] == ("settings", {"night": True})
    phone.locator("#settings summary").click()
    phone.locator("#patterns").check()
    phone.get_by_role("button", name="Save settings").click()
    expect(phone.locator("#owner-status")).to_have_text("Settings saved.")
    name, sent = service.commands[-1]
    assert name == "settings" and sent["patterns"] is True and sent["night"] is True
    assert sent["night_level"] == 0.12
    screenshot(phone, "owner-board-settings")
    phone.locator("#settings summary").click()
    phone.get_by_label("Rule book").select_option("parker-1950")
    phone.get_by_label("Game", exact=True).select_option("points")
    phone.locator('input[name="players"][value="blue"]').uncheck()
    phone.locator('input[name="players"][value="green"]').uncheck()
    phone.get_by_label("Who starts", exact=True).select_option("yellow")
    screenshot(phone, "owner-new-game")
    phone.get_by_role("button", name="Start the game").click()
    expect(phone.locator("#phase")).to_have_text("Set up the board")
    sent = {
        "edition": "parker-1950",
        "variant": "points",
        "players": ["yellow", "red"],
        "teams": False,
        "draw_leader": False,
        "extra_one": False,
    }
    assert service.commands[-1] == ("new_game", {"game": new_game(sent)})
    expect(phone.locator("#corrections li").first).to_contain_text("Put")
    # The owner's buttons follow the state: a double in classic point play.
    service.sim.set_board(service.state()["pawns"])
    phone.get_by_role("button", name="Red doubles").click()
    expect(phone.locator("#phase")).to_have_text("A double was called")
    phone.get_by_role("button", name="Yellow accepts").click()
    expect(phone.locator("#phase")).to_have_text("Draw a card")
    expect(phone.locator("#scores")).to_contain_text("Scores")


def test_the_simulator_lifts_places_and_scans(phone, served, service, expect):
    service.start(("red", "blue"))
    open_live(phone, served, expect, "sim")
    expect(phone.locator("#phase")).to_have_text("Draw a card")
    phone.locator('[data-card="1"]').click()
    expect(phone.locator("#phase")).to_have_text("Make the move")
    # The LEDs light red's destination, T4, in red: drawn from the state's lit.
    expect(phone.locator('#simboard [data-lit="T4"]')).to_have_attribute("data-role", "destination")
    expect(phone.locator('#simboard [data-lit="T4"]')).to_have_attribute("stroke", "#d7263d")
    phone.locator('#simboard [data-place="start:red"]').click()
    expect(phone.locator("#sim-feedback")).to_have_text(
        "Lifted the red pawn from red START: it is in your hand, tap where to put it."
    )
    expect(phone.locator('[data-hand="red"]')).to_have_attribute("aria-pressed", "true")
    expect(phone.locator('[data-hand="red"]')).to_have_attribute("data-count", "1")
    screenshot(phone, "sim-holding")
    # Issue #34, 6: following the hand's words (a colour, then a square) keeps the pawn picked.
    phone.locator('[data-hand="red"]').click()
    expect(phone.locator('[data-hand="red"]')).to_have_attribute("aria-pressed", "true")
    expect(phone.locator("#sim-feedback")).to_have_text("Holding a red pawn: tap where to put it.")
    phone.locator('#simboard [data-place="T4"]').click()
    expect(phone.locator("#sim-feedback")).to_have_text("Put a red pawn on red's start circle.")
    expect(phone.locator(".history-line")).to_have_count(1)
    expect(phone.locator(".history-line .line-text")).to_have_text(
        "Red, 1: a red pawn leaves START for red's start circle"
    )
    expect(phone.locator("#turn")).to_have_text("Blue’s turn")
    expect(phone.locator('#simboard .pawn[data-at="T4"]')).to_have_count(1)
    # A mistake is explained, not swallowed.
    phone.locator('#simboard [data-place="T30"]').click()
    expect(phone.locator("#sim-feedback")).to_have_text(
        "Pick a pawn first: tap one on the board, or a colour in your hand."
    )
    phone.get_by_role("button", name="Confirm", exact=True).click()
    expect(phone.locator("#warning")).to_have_text("nothing to confirm now")
    screenshot(phone, "sim-after-move")


def test_the_simulator_sets_up_the_board_for_a_new_game(phone, served, service, expect):
    service.command("new_game", {"players": ["red", "green"]})
    open_live(phone, served, expect, "sim")
    expect(phone.locator("#phase")).to_have_text("Set up the board")
    phone.get_by_role("button", name="Put every pawn where the game has it").click()
    expect(phone.locator("#phase")).to_have_text("Draw a card")
    expect(phone.locator('#simboard .pawn[data-at="start:green"]')).to_have_count(4)


def test_setting_up_by_tapping_keeps_the_colour_picked_for_its_start(
    phone, served, service, expect
):
    """Issue #47, 7: red picked from the hand, each tap on red START puts another red pawn in
    (not Red, START, Red, START); once the hand has no red left, the pick goes."""
    service.command("new_game", {"players": ["red", "green"]})
    open_live(phone, served, expect, "sim")
    expect(phone.locator('[data-hand="red"]')).to_have_attribute("data-count", "4")
    phone.locator('[data-hand="red"]').click()
    start = phone.locator('#simboard [data-place="start:red"]')
    for left in (3, 2, 1, 0):
        start.click()
        expect(phone.locator('[data-hand="red"]')).to_have_attribute("data-count", str(left))
    expect(phone.locator('#simboard .pawn[data-at="start:red"]')).to_have_count(4)
    expect(phone.locator('[data-hand="red"]')).to_have_attribute("aria-pressed", "false")


def test_the_page_polls_when_the_event_stream_is_blocked(browser, served, service, expect):
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.route("**/api/events", lambda route: route.fulfill(status=503, body="no"))
        page.goto(served.url)
        expect(page.locator("#conn")).to_have_attribute("data-state", "polling")
        service.start(("red", "blue"))
        expect(page.locator("#phase")).to_have_text("Draw a card")
    finally:
        context.close()


def test_without_javascript_the_page_still_shows_the_game(browser, served, service, expect):
    service.start(("red", "blue"))
    service.scan("1")
    service.play("R:start-T4")
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(served.url)
        expect(page.locator("#phase")).to_have_text("Draw a card")
        expect(page.locator('#board .pawn[data-at="T4"]')).to_have_count(1)
        page.locator(".history-line").first.click()  # a plain link: the server draws the turn
        expect(page.locator("#replay-label")).to_have_text(
            "Turn 1, after: Red, 1: a red pawn leaves START for red's start circle"
        )
        screenshot(page, "status-no-script")
    finally:
        context.close()


def test_dark_mode_and_a_wide_screen(browser, served, service, expect):
    service.start(("red", "blue", "yellow", "green"))
    service.scan("2")
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="dark")
    try:
        page = context.new_page()
        page.goto(served.url)
        expect(page.locator("#conn")).to_have_attribute("data-state", "live")
        screenshot(page, "status-wide-dark")
    finally:
        context.close()


def test_a_game_the_rule_book_has_not_says_why_it_is_greyed_out(phone, served, expect):
    """Issue #47, 7: Quick game greyed out for Hasbro said nothing of why."""
    open_live(phone, served, expect)
    phone.locator("#pin").fill(PIN)
    phone.get_by_role("button", name="Log in").click()
    expect(phone.locator("#owner-tools")).to_be_visible()
    phone.locator("#edition").select_option("hasbro-2002")
    quick = phone.locator('#variant option[value="quick"]')
    expect(quick).to_be_disabled()
    expect(quick).to_have_text("Quick game (3 pawns each) (not in this rule book)")
    expect(phone.locator("#variant-why")).to_contain_text(
        "Quick game (3 pawns each): in the Parker Brothers, 1939"
    )
    screenshot(phone, "new-game-why")
    phone.locator("#edition").select_option("parker-1939")
    expect(quick).to_be_enabled()
    expect(quick).to_have_text("Quick game (3 pawns each)")
    expect(phone.locator("#variant-why")).to_be_hidden()  # the 1939 book has every game

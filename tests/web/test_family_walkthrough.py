"""A family's game on phones (390 x 844), on the real daemon (`pawnlight run --sim`):

a forfeit, a wrong move put right, the 2's draw again, a switch by tapping, a bump, an undo, a
new game with its confirmation, and the server stopped and started again. Every text a person
reads is checked, and none of them has a square code (T12, S3) in it.

Screenshots of every step go to test-artifacts/web/; with PAWNLIGHT_DOC_SHOTS=1 also to docs/img/
(the pictures in docs/web.md): ``PAWNLIGHT_DOC_SHOTS=1 .venv/bin/python -m pytest
tests/web/test_family_walkthrough.py``.
"""

from __future__ import annotations

import os
import shutil

import pytest

from ..daemon.process import PIN, DaemonProcess
from ..helpers import PHONE, ROOT, SQUARE_CODE, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.slow]

DOCS = ROOT / "docs" / "img"


@pytest.fixture
def daemon(tmp_path):
    process = DaemonProcess(tmp_path, layout="colour", settle=0.2)
    process.start()
    yield process
    process.stop()


def shot(page, name: str, show: str | None = None) -> None:
    """The screen as the person sees it (not the whole page): what fits on the phone, from the
    top, or scrolled to the element ``show``."""
    path = screenshot(page, name)  # the whole page, for the test's artifacts
    if show is not None:
        page.locator(show).first.scroll_into_view_if_needed()
    page.screenshot(path=str(path))
    if os.environ.get("PAWNLIGHT_DOC_SHOTS"):
        DOCS.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, DOCS / f"{name}.png")


def box_of(page, selector: str) -> dict[str, float]:
    """The element's box on the screen, measured in one step once it is laid out: the pages
    replace their fragments as the state changes, so an element found and then measured may be
    gone by then (Playwright's bounding_box() is None for it)."""
    found = page.wait_for_function(
        """selector => {
            const element = document.querySelector(selector);
            const box = element && element.getBoundingClientRect();
            return box && box.width > 0
                ? {x: box.x, y: box.y, width: box.width, height: box.height} : null;
        }""",
        arg=selector,
    )
    return found.json_value()


def no_codes(page, daemon) -> None:
    """No square code in what the page says, nor in the state's message, corrections, choices."""
    for selector in ("#phase-text", "#corrections", "#choices .choice-button", "#warning"):
        for text in page.locator(selector).all_inner_texts():
            assert not SQUARE_CODE.search(text), f"{selector}: {text!r}"
    # Issue #34, 5: nothing a person reads on the page, the owner's panel included.
    for selector in ("#summary", "#details", "#owner", "#more", "#replay-bar"):
        for text in page.locator(selector).all_inner_texts():
            found = SQUARE_CODE.search(text)
            assert not found and "squares" not in text, f"{selector}: {found} in {text!r}"
    state = daemon.state()
    for text in [state["message"], *state["corrections"]]:
        assert not SQUARE_CODE.search(text), text
    for choice in state["choices"]:
        assert not SQUARE_CODE.search(choice["words"]), choice


def test_a_family_plays_a_game_on_their_phones(browser, daemon):
    from playwright.sync_api import expect

    expect.set_options(timeout=15_000)
    context = browser.new_context(viewport=PHONE, is_mobile=True)
    hands = browser.new_context(viewport=PHONE, is_mobile=True)
    desktop = browser.new_context(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    try:
        page = context.new_page()
        sim = hands.new_page()
        for p in (page, sim):
            p.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(daemon.url)
        expect(page.locator("#conn")).to_have_attribute("data-state", "live")

        # -- the owner starts a game for red and blue --------------------------------------------
        page.locator("#pin").fill(PIN)
        page.get_by_role("button", name="Log in").click()
        for colour in ("yellow", "green"):
            page.locator(f'input[name="players"][value="{colour}"]').uncheck()
        page.get_by_role("button", name="Start the game").click()  # no game yet: no question
        expect(page.locator("#phase")).to_have_text("Set up the board")
        # Set-up in one glance, and the board in sight without scrolling.
        expect(page.locator("#corrections li")).to_have_count(1)
        expect(page.locator("#corrections")).to_contain_text("Put 4 pawns in each START: red, blue")
        page.evaluate("window.scrollTo(0, 0)")
        expect(page.locator("#board svg")).to_be_visible()
        box = box_of(page, "#board svg")
        assert box["y"] + box["height"] <= PHONE["height"], box
        no_codes(page, daemon)
        shot(page, "walk-01-set-up")

        sim.goto(daemon.url + "/sim")
        # The simulator draws its board after its first poll, and again with every fragment.
        square = box_of(sim, '#simboard [data-place="T4"]')
        assert min(square["width"], square["height"]) >= 44, square
        # The whole board fits the phone on request, and back to finger-wide squares.
        sim.locator("#sim-zoom").click()
        expect(sim.locator("#sim-zoom")).to_have_attribute("aria-pressed", "true")
        sim.wait_for_function(
            "w => document.querySelector('#simboard svg').getBoundingClientRect().width <= w",
            arg=PHONE["width"],
        )
        shot(sim, "walk-01-simulator-whole-board")
        sim.locator("#sim-zoom").click()
        expect(sim.locator("#sim-zoom")).to_have_text("Show the whole board")
        square = box_of(sim, '#simboard [data-place="T4"]')
        assert min(square["width"], square["height"]) >= 44, square
        shot(sim, "walk-01-simulator-set-up")
        sim.locator("#sim-setup").click()
        expect(page.locator("#phase")).to_have_text("Draw a card")
        expect(page.locator("#phase-text")).to_have_text("Red: draw a card and scan it")
        expect(page.locator("#legend")).to_contain_text("whose turn it is")

        def scan(card: str) -> None:
            sim.locator(f'button[data-card="{card}"]').click()

        def standing() -> dict[str, int]:
            pawns = daemon.request("GET", "/api/sim/board")["pawns"]
            return {colour: len(pawns.get(colour, [])) for colour in ("red", "blue")}

        def hand_shows(holding: str | None) -> None:
            """Wait until the simulator page shows the pawns off the board as the board has
            them, and ``holding`` picked up: its next tap acts on what the page shows (a tap
            before the fragment shows the pawn in hand would find an empty hand)."""
            for colour, count in standing().items():
                hand = sim.locator(f'[data-hand="{colour}"]')
                expect(hand).to_have_attribute("data-count", str(4 - count))
                pressed = "true" if colour == holding else "false"
                expect(hand).to_have_attribute("aria-pressed", pressed)

        def tap(place: str) -> None:
            before = standing()
            sim.locator(f'#simboard [data-place="{place}"]').click()
            daemon.wait_for(lambda: standing() != before)
            lifted = [c for c, n in standing().items() if n < before[c]]
            hand_shows(lifted[0] if lifted else None)

        # -- red draws a 5 with every pawn in START: a forfeit that says why ----------------------
        scan("5")
        expect(page.locator("#phase-text")).to_have_text(
            "Red drew a 5: no pawn can go forward 5. Blue: draw a card and scan it"
        )
        expect(page.locator(".history-line").first).to_contain_text(
            "Red, 5: no move, no pawn can go forward 5"
        )
        no_codes(page, daemon)
        shot(page, "walk-02-forfeit")

        # -- blue draws a 1 and puts the pawn one square too far: guidance on the phone -----------
        scan("1")
        expect(page.locator("#phase")).to_have_text("Make the move")
        expect(page.locator("#moves")).to_contain_text(
            "A blue pawn leaves START for blue's start circle"
        )
        expect(page.locator('#board [data-lit="T19"][data-role="destination"]')).to_have_count(1)
        shot(page, "walk-03-move-lit")
        desk = desktop.new_page()  # the simulator on a laptop: board and set-up button in view
        desk.goto(daemon.url + "/sim")
        expect(desk.locator("#sim-setup")).to_be_in_viewport()
        shot(desk, "walk-03-simulator-desktop")
        desk.close()
        tap("start:blue")  # a blue pawn into the hand
        sim.wait_for_timeout(300)  # a hand takes a moment
        tap("T20")
        # Until a move fits, the board is guided back to where the game stands.
        expect(page.locator("#corrections li .fix-text").first).to_have_text(
            "Move the blue pawn from the 1st square after blue's start circle to blue START"
        )
        # Drawn on the board: the misplaced pawn ringed, an arrow to where it belongs, pulsing.
        expect(page.locator('#board .guide.first [data-misplaced="T20"]')).to_have_count(1)
        expect(page.locator('#board .guide.first [data-arrow="T20>start:blue"]')).to_have_count(1)
        expect(page.locator("#legend")).to_contain_text("follow the arrows, 1 first")
        no_codes(page, daemon)
        shot(page, "walk-04-wrong-move")
        desk = desktop.new_page()  # the same moment on a laptop: the board beside the words
        desk.goto(daemon.url)
        expect(desk.locator('#board .guide.first [data-misplaced="T20"]')).to_have_count(1)
        shot(desk, "walk-04-wrong-move-desktop")
        desk.close()
        tap("T20")
        sim.wait_for_timeout(300)
        tap("T19")
        expect(page.locator("#phase-text")).to_contain_text(
            "Blue: a blue pawn leaves START for blue's start circle. Red: draw a card"
        )

        # -- red draws a 2: out of START, and the 2 says draw again -------------------------------
        scan("2")
        tap("start:red")
        sim.wait_for_timeout(300)
        tap("T4")
        expect(page.locator("#phase-text")).to_contain_text("The 2 says red draws again")
        no_codes(page, daemon)
        shot(page, "walk-05-draw-again")

        # -- red draws an 11 and switches by tapping: the pawn in hand, tap the other pawn --------
        scan("11")
        expect(page.locator("#phase")).to_have_text("Make the move")
        expect(page.locator('#board [data-lit="T19"][data-role="switch"]')).to_have_count(1)
        tap("T4")  # the red pawn up
        sim.locator('#simboard [data-place="T19"]').click()  # blue lifted, a pause, red down
        expect(sim.locator("#sim-feedback")).to_contain_text("Put a red pawn on blue's start")
        hand_shows("blue")
        tap("T4")  # blue down where red was
        expect(page.locator("#phase-text")).to_contain_text(
            "switches places with the blue pawn on blue's start circle"
        )
        no_codes(page, daemon)
        shot(page, "walk-06-switch")

        # -- blue draws a Sorry!: a bump that says who went back to START -------------------------
        scan("sorry")
        expect(page.locator('#board [data-lit="T19"][data-role="bump"]')).to_have_count(1)
        expect(page.locator("#legend")).to_contain_text("a pawn that would go back to START")
        shot(page, "walk-07-sorry-lit")
        tap("start:blue")
        sim.locator('#simboard [data-place="T19"]').click()  # red lifted, blue put down
        expect(sim.locator("#sim-feedback")).to_contain_text("Put a blue pawn on")
        hand_shows("red")
        tap("start:red")  # the red pawn goes home to START
        expect(page.locator("#phase-text")).to_contain_text("(red back to START)")
        expect(page.locator(".history-line").first).to_contain_text("(red back to START)")
        no_codes(page, daemon)
        shot(page, "walk-08-bump")

        # -- the owner undoes the Sorry!; undoing further asks first ------------------------------
        page.get_by_role("button", name="Undo the last move").click()
        expect(page.locator("#phase")).to_have_text("Set up the board")
        expect(page.locator("#phase-text")).to_contain_text("Undone: Blue's move")
        no_codes(page, daemon)
        shot(page, "walk-09-undo")
        page.get_by_role("button", name="Undo one more").click()
        expect(page.get_by_role("alertdialog")).to_contain_text("Undo one more?")
        shot(page, "walk-10-undo-asks", show="[role=alertdialog]")
        page.get_by_role("button", name="No", exact=True).click()
        expect(page.get_by_role("alertdialog")).to_have_count(0)
        sim.locator("#sim-setup").click()
        expect(page.locator("#phase")).to_have_text("Make the move")

        # -- a history line replays the past, without the live moves ------------------------------
        page.locator('.history-line[data-turn="2"]').click()
        expect(page.locator("#replay-bar")).to_be_visible()
        expect(page.locator("#replay-label")).to_contain_text("Blue, 1: a blue pawn leaves START")
        expect(page.locator("#replay-label")).not_to_contain_text("T19")  # no code on the page
        expect(page.locator("#moves")).to_be_hidden()
        shot(page, "walk-11-replay")
        page.locator('[data-replay="live"]').click()
        expect(page.locator("#moves")).to_be_visible()

        # -- a new game during this one asks first ------------------------------------------------
        page.get_by_role("button", name="Start the game").click()
        expect(page.get_by_role("alertdialog")).to_contain_text("End the game being played?")
        shot(page, "walk-12-new-game-asks", show="[role=alertdialog]")
        assert daemon.state()["phase"] == "move"  # nothing ended yet
        page.get_by_role("button", name="End it and start the new game").click()
        expect(page.locator("#phase")).to_have_text("Set up the board")
        expect(page.locator("#warning")).to_have_count(0)  # the old game kept, no error
        assert daemon.state()["turns"] == []
        games = daemon.request("GET", "/api/games")["games"]
        assert any("abandoned" in g["outcome"] for g in games), games

        # -- the Pi goes away and comes back: the page says so within 5 s -------------------------
        daemon.stop()
        expect(page.locator("#stale-note")).to_be_visible(timeout=5_000)
        expect(page.locator("#link")).to_have_text(
            "No connection to the Pi: the board’s state is unknown"
        )
        page.evaluate("window.scrollTo(0, 0)")
        shot(page, "walk-13-offline")
        daemon.start()
        expect(page.locator("#stale-note")).to_be_hidden(timeout=15_000)
        expect(page.locator("#link")).to_contain_text("Board connected")
        expect(page.locator("#owner-status")).to_have_text("")  # no stale "done" or error
        shot(page, "walk-14-back-online")
    finally:
        context.close()
        hands.close()
        desktop.close()
    assert not errors, f"errors in the pages' scripts: {errors}"

"""A family's whole game to its end on a presence board (issue #34), on the real daemon
(`pawnlight run --sim` serving the network as ./run does): the owner starts a quick game on
their phone, a second phone joins by the address the share panel and its QR code give, the
players make every move with their hands on the simulated board, an 11's switch (which a
presence board cannot see) is settled with the board's own Confirm button, and both phones
show the end of the game with its result and what to do next. No page shows a square code.

The moves are chosen to end the game soon (the card that takes a pawn furthest), not to play
well: what is tested is the companion and its pages, from the first card to the last.
"""

from __future__ import annotations

import random
from typing import Any
from urllib.parse import urlsplit

import pytest

from pawnlight.players.evaluation import TOGO
from pawnlight.rules.board import parse_colour
from pawnlight.rules.cards import CARDS
from pawnlight.rules.editions import get_edition
from pawnlight.rules.moves import Move, legal_options
from pawnlight.rules.position import Position
from pawnlight.web import hosts

from ..daemon.hands import actions_for
from ..daemon.process import PIN, DaemonProcess
from ..helpers import PHONE, SQUARE_CODE
from .helpers import fits
from .story_checks import check_the_story
from .test_family_walkthrough import no_codes, shot

pytestmark = [pytest.mark.browser, pytest.mark.slow]

EDITION = "parker-1939"  # its quick game: three pawns each


@pytest.fixture
def daemon(tmp_path):
    process = DaemonProcess(tmp_path, layout="presence", settle=0.2, http_host="0.0.0.0")
    process.start()
    yield process
    process.stop()


def progress(position: Position, colour: int) -> int:
    return sum(65 - TOGO[colour][place] for place in position.pawns(colour))


def quickest(state: dict[str, Any], switch_wanted: bool) -> tuple[str, Move]:
    """The card, and its move, that take the player's pawns furthest (a switch by 11 first
    when one is wanted and possible)."""
    position = Position.from_json(state["pawns"])
    player = parse_colour(state["turn"])
    edition = get_edition(EDITION)
    best: tuple[int, str, Move] | None = None
    for card in CARDS[:-1]:  # no Sorry!: two players bumping each other back never end
        for move in legal_options(position, player, card, edition).moves:
            switch = any(step.swapped >= 0 for step in move.steps)
            if switch and switch_wanted:
                return card, move
            gain = progress(move.after, player) - progress(position, player)
            if best is None or gain > best[0]:
                best = (gain, card, move)
    assert best is not None, f"no card moves any of {state['turn']}'s pawns"
    return best[1], best[2]


def test_a_family_plays_a_whole_game_on_a_presence_board(browser, daemon):
    from playwright.sync_api import expect

    expect.set_options(timeout=15_000)
    owner = browser.new_context(viewport=PHONE, is_mobile=True)
    second = browser.new_context(viewport=PHONE, is_mobile=True)
    hands = browser.new_context(viewport=PHONE, is_mobile=True)
    desktop = browser.new_context(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    try:
        page, sim = owner.new_page(), hands.new_page()
        for p in (page, sim):
            p.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(daemon.url)
        expect(page.locator("#conn")).to_have_attribute("data-state", "live")

        # -- the owner starts a quick game for red and blue --------------------------------------
        page.locator("#pin").fill(PIN)
        page.get_by_role("button", name="Log in").click()
        page.locator("#edition").select_option(EDITION)
        page.locator("#variant").select_option("quick")
        for colour in ("yellow", "green"):
            page.locator(f'input[name="players"][value="{colour}"]').uncheck()
        page.get_by_role("button", name="Start the game").click()
        expect(page.locator("#phase")).to_have_text("Set up the board")
        fits(page, "the owner's status page, setting up")

        # -- a second phone joins by the shared address ------------------------------------------
        # Its text is checked, never connected to (tests talk to loopback only): the machine's
        # network address at the daemon's port, the same address in the QR code's title.
        page.locator("#share summary").click()
        shared = page.locator("#share .url a").inner_text()
        wanted = hosts.share_host(hosts.lan_addresses())
        if wanted is None:  # a machine with no network: the page says why it cannot share
            expect(page.locator("#share-how")).to_contain_text("only works on this machine")
        else:
            assert shared == hosts.url_of(wanted, daemon.port), shared
            assert urlsplit(shared).hostname not in ("127.0.0.1", "localhost")
            title = page.locator("#share .qr svg title").text_content()
            assert title == f"QR code of {shared}"
            expect(page.locator("#share-pin")).to_contain_text("only someone with the owner")
        shot(page, "whole-01-share")
        phone = second.new_page()
        phone.on("pageerror", lambda error: errors.append(str(error)))
        phone.goto(f"http://127.0.0.1:{daemon.port}{urlsplit(shared).path or '/'}")
        expect(phone.locator("#phase")).to_have_text("Set up the board")
        expect(phone.locator("#pin")).to_be_visible()  # a guest: watching, not changing
        fits(phone, "the guest's status page, setting up")

        sim.goto(daemon.url + "/sim")
        fits(sim, "the simulator, setting up")
        sim.locator("#sim-setup").click()
        expect(page.locator("#phase")).to_have_text("Draw a card")
        expect(phone.locator("#phase")).to_have_text("Draw a card")
        # Issue #47: no page wider than the window in any phase, at 320, 390 and 1280 px.
        every = {"owner": page, "guest": phone, "simulator": sim}
        seen: set[str] = set()

        # -- every turn to the end: cards scanned, moves made by hand ----------------------------
        rng = random.Random(34)
        switched = False
        turns = 0
        state = daemon.state()
        while state["phase"] != "over":
            turns += 1
            assert turns < 200, "the game did not end"
            card, move = quickest(state, switch_wanted=not switched)
            switch = any(step.swapped >= 0 for step in move.steps)
            before = len(state["history"])
            daemon.request("POST", "/api/sim/scan", {"card": card})
            daemon.wait(lambda s, c=card: s["phase"] == "move" and s["card"] == c)
            if "move" not in seen:
                seen.add("move")
                expect(page.locator("#phase")).to_have_text("Make the move")
                for who, p in every.items():
                    fits(p, f"the {who}'s page, making a move")
            for action, square, held in actions_for(move, rng):
                daemon.touch(action, square, held)
            if switch:
                # A presence board sees the two pawns back where they were: only the board's
                # own Confirm button (on the simulator) settles it, and every phone says so.
                for p in (page, phone):
                    expect(p.locator("#choices")).to_contain_text("Press Confirm on the board")
                    expect(p.locator("#phase-text")).to_contain_text("press Confirm on the board")
                expect(phone.locator("#choices .choice-button")).to_have_count(0)
                expect(page.locator("#choices .choice-button")).not_to_have_count(0)
                no_codes(page, daemon)
                for who, p in every.items():
                    fits(p, f"the {who}'s page, asking which move")
                shot(phone, "whole-02-switch-asks")
                sim.locator('button[data-button="confirm"]').click()
                switched = True
            state = daemon.wait(
                lambda s, n=before: len(s["history"]) > n and s["phase"] != "move" and s["settled"]
            )
            if switch:
                assert "<>" in state["history"][before], state["history"][before:]
            if turns % 10 == 0:
                no_codes(page, daemon)
            if turns == 1:
                expect(page.locator("#phase")).not_to_have_text("Make the move")
                for who, p in every.items():
                    fits(p, f"the {who}'s page, drawing")
        assert switched, "no 11 switch came up in the whole game"

        # -- the end: the result, the scores, what next, on both phones --------------------------
        result = state["result"]
        winner = result["winners"][0].capitalize()
        for p in (page, phone):
            expect(p.locator("#phase")).to_contain_text("Game over")
            expect(p.locator("#summary")).to_contain_text(f"{winner} won")
            expect(p.locator("#next")).to_contain_text("press Confirm on the board")
            for text in p.locator("#summary").all_inner_texts():
                assert not SQUARE_CODE.search(text), text
        no_codes(page, daemon)
        expect(sim.locator("#phase")).to_contain_text("Game over")
        for who, p in every.items():  # the figures, the scores and the whole history
            fits(p, f"the {who}'s page at the end")
        shot(page, "whole-03-the-end-owner")
        shot(phone, "whole-03-the-end-guest")
        desk = desktop.new_page()
        desk.goto(daemon.url)
        expect(desk.locator("#summary")).to_contain_text(f"{winner} won")
        shot(desk, "whole-03-the-end-desktop")
        desk.close()
        games = daemon.request("GET", "/api/games")["games"]
        assert games[0]["turns"] == len(state["history"]), games[0]
        check_the_story(browser, page, daemon, players=2)

        # -- every page the family sees, at phone and desktop size: no square code, and (issue
        # #47) none wider than the window at 320, 390 or 1280 px, the owner's and a guest's ----
        for size, context in (("phone", owner), ("guest", second), ("desktop", desktop)):
            view = context.new_page()
            view.on("pageerror", lambda error: errors.append(str(error)))
            pages = [("/", "status"), ("/sim", "sim"), ("/games", "games")]
            if context is owner:  # logged in: the owner's health page too
                pages.append(("/diagnostics", "health"))
            if context is not desktop:  # a turn of the history replayed
                pages.append(("/?turn=1&when=after", "replay"))
            for path, name in pages:
                view.goto(daemon.url + path)
                expect(view.locator("main")).to_be_visible()
                text = view.locator("body").inner_text()
                found = SQUARE_CODE.search(text)
                assert not found, f"{path} at {size}: {found} in {text!r}"
                if context is not desktop:
                    fits(view, f"{path} ({size})")
                shot(view, f"whole-04-{name}-{size}")
            view.close()
    finally:
        owner.close()
        second.close()
        hands.close()
        desktop.close()
    assert not errors, f"errors in the pages' scripts: {errors}"

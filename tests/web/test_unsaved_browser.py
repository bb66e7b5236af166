"""The phone page never shows as done a turn the journal could not write.

The real daemon in process (the simulated board, the journal, the web server) with its journal
made to refuse exactly the move's write, as a disk that fills up at that moment would: the page
says what is wrong, marks the turn "not saved yet", and drops the mark once the write succeeds.
"""

from __future__ import annotations

import pytest

from pawnlight.runtime.config import Config
from pawnlight.runtime.daemon import Daemon
from pawnlight.store.errors import JournalError

from ..daemon.hands import read_by
from ..daemon.test_owner_sim import wait_for
from ..helpers import PHONE, screenshot

pytestmark = [pytest.mark.browser]


class MoveWritesFail:
    """The journal, except that appending a move fails while ``failing`` is set."""

    def __init__(self, journal) -> None:
        self.journal = journal
        self.failing = False

    def __getattr__(self, name):
        attribute = getattr(self.journal, name)
        if name != "append":
            return attribute

        def append(game_id, event, *args, **kwargs):
            if self.failing and event.kind == "move":
                raise JournalError(f"the journal {self.journal.path}: database or disk is full")
            return attribute(game_id, event, *args, **kwargs)

        return append


@pytest.fixture
def daemon(tmp_path):
    daemon = Daemon(
        Config(data=tmp_path, sim=True, layout="colour", http_host="127.0.0.1", http_port=0)
    )
    daemon.start()
    yield daemon
    daemon.stop()


def play_one(daemon, card: str, origin: str, target: str, colour: str) -> None:
    board = daemon.sim_board
    board.scan(card)
    wait_for(daemon.owner, lambda s: s["phase"] == "move")
    board.lift(origin)
    read_by(daemon)
    board.place(target, colour)


def test_a_turn_the_journal_could_not_write_is_marked_not_saved_until_it_is(browser, daemon):
    from playwright.sync_api import expect

    owner = daemon.owner
    wait_for(owner, lambda s: s["link"]["up"])
    owner.command("new_game", {"players": ["red", "blue"]})
    daemon.sim_board.set_board(owner.state()["pawns"])
    wait_for(owner, lambda s: s["phase"] == "draw")

    context = browser.new_context(viewport=PHONE, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{daemon.server.port}/")
        play_one(daemon, "1", "start:red", "T4", "red")
        line = page.locator('.history-line[data-turn="1"]')
        expect(line).to_be_visible()
        expect(line).not_to_have_class("history-line unsaved")

        failing = MoveWritesFail(owner._journal)
        owner._journal = failing
        failing.failing = True
        play_one(daemon, "1", "start:blue", "T19", "blue")
        state = wait_for(owner, lambda s: not s["storage"]["ok"])
        assert state["storage"]["saved_turns"] == 1 and len(state["history"]) == 2

        held = page.locator('.history-line[data-turn="2"]')
        expect(held).to_have_class("history-line unsaved")
        expect(held).to_have_attribute("aria-description", "not saved yet")
        expect(page.locator("#warning")).to_contain_text("cannot be saved")
        # The page does not invite the next card while the game is held.
        expect(page.locator("#phase")).to_have_text("On hold: not saved")
        expect(page.locator("#phase-text")).to_contain_text("Wait before the next card")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the page is {width} px wide on a phone"
        expect(line).not_to_have_class("history-line unsaved")  # turn 1 is durable
        screenshot(page, "unsaved-turn")

        failing.failing = False
        wait_for(owner, lambda s: s["storage"]["ok"])
        expect(held).not_to_have_class("history-line unsaved")
        expect(held).not_to_have_attribute("aria-description", "not saved yet")
        expect(page.locator("#warning")).to_have_count(0)
        expect(page.locator("#phase")).to_have_text("Draw a card")
    finally:
        context.close()

"""A game played in the browser on the real daemon (`pawnlight run --sim` in its own process):
the owner starts it on the status page, the players play on the simulator page by clicking,
and a second phone watching the status page follows every move."""

from __future__ import annotations

import pytest

from pawnlight.rules import Position
from pawnlight.rules.board import COLOURS, START, Place
from pawnlight.rules.notation import parse_move

from ..daemon.process import DaemonProcess
from ..helpers import PHONE, screenshot
from .helpers import start_game

pytestmark = [pytest.mark.browser, pytest.mark.slow]
CARDS = ["1", "1", "2", "4", "sorry", "5", "11", "3", "7", "10", "12", "8"]


@pytest.fixture
def daemon(tmp_path):
    process = DaemonProcess(tmp_path, layout="colour", settle=0.2)
    process.start()
    yield process
    process.stop()


def click_move(player, daemon, move) -> bool:
    """Make a move by tapping the simulator's board as a player does: tap the pawn (it goes into
    the hand), tap where it goes (a pawn standing there is lifted into the hand: a bump), tap
    the bumped pawn's START. Each tap changes the physical board; wait for that and for the
    page's hand to show it before the next tap. Returns False for moves with switches or slides,
    which the caller makes through the simulator's API instead."""
    from playwright.sync_api import expect

    if any(step.swapped >= 0 or step.slide is not None for step in move.steps):
        return False

    def tap(place: str, holding: str | None) -> None:
        before = daemon.request("GET", "/api/sim/board")
        player.locator(f'#simboard [data-place="{place}"]').click()
        daemon.wait_for(lambda: daemon.request("GET", "/api/sim/board") != before)
        for colour in daemon.state()["players"]:  # the hand shows the game's colours
            pressed = "true" if colour == holding else "false"
            expect(player.locator(f'[data-hand="{colour}"]')).to_have_attribute(
                "aria-pressed", pressed
            )

    for step in move.steps:
        colour = COLOURS[step.colour]
        tap(Place(step.origin, step.colour).key, colour)
        bumped = [c for c, square in step.bumped if square == step.final]
        tap(Place(step.final, step.colour).key, COLOURS[bumped[0]] if bumped else None)
        if bumped:
            tap(Place(START, bumped[0]).key, None)
    return True


def test_a_game_in_the_browser_on_the_simulated_board(browser, daemon):
    from playwright.sync_api import expect

    expect.set_options(timeout=15_000)
    watcher_context = browser.new_context(viewport=PHONE, is_mobile=True)
    player_context = browser.new_context(viewport={"width": 900, "height": 1000})
    try:
        watcher = watcher_context.new_page()
        player = player_context.new_page()
        watcher.goto(daemon.url)
        expect(watcher.locator("#conn")).to_have_attribute("data-state", "live")
        start_game(watcher, ("red", "yellow"))  # the owner logs in and starts a game

        player.goto(daemon.url + "/sim")
        player.locator("#sim-setup").click()
        expect(player.locator("#phase")).to_have_text("Draw a card")
        expect(watcher.locator("#phase")).to_have_text("Draw a card")

        for number, card in enumerate(CARDS, 1):
            state = daemon.state()
            turns = len(state["turns"])
            player.locator(f'button[data-card="{card}"]').click()
            try:
                state = daemon.wait(lambda s, n=turns: s["phase"] == "move" or len(s["turns"]) > n)
            except AssertionError as error:
                feedback = player.locator("#sim-feedback").text_content()
                log = (daemon.data / "daemon.log").read_text(errors="replace")[-2000:]
                message = f"{error}; card {card}; page said {feedback!r}; {log}"
                raise AssertionError(message) from None
            if state["phase"] == "move":
                choice = state["legal"][0]
                move = parse_move(choice["text"], Position.from_json(state["pawns"]), False)
                if not click_move(player, daemon, move):
                    daemon.request("POST", "/api/sim/board", {"pawns": choice["pawns"]})
                state = daemon.wait(
                    lambda s, n=turns: len(s["turns"]) > n or s["phase"] == "choose"
                )
                assert state["phase"] != "choose", "a colour board sees every move"
            # The watching phone follows the game.
            expect(watcher.locator(".history-line")).to_have_count(len(state["turns"]))
            if number == 5:
                screenshot(player, "daemon-sim-page")
                screenshot(watcher, "daemon-status-page")
        final = daemon.state()
        assert len(final["history"]) >= 8
        assert final["pawns"] == {
            k: v for k, v in Position.from_json(final["pawns"]).to_json().items()
        }
    finally:
        watcher_context.close()
        player_context.close()

"""What the family sees of a finished game's story (issue #49), checked on the real daemon at the
end of a whole game: the chart, the turning points that open the history, a past game's page."""

from __future__ import annotations

import re

from ..helpers import SQUARE_CODE
from .test_family_walkthrough import shot


def within_width(page) -> None:
    """The story block fits the phone's width and nothing in it sticks out (the rest of the end
    screen is issue #47's)."""
    width = page.viewport_size["width"]
    for selector in ("#story", "#story .story-chart", "#story .story-legend", "#story-points"):
        box = page.locator(selector).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, (
            selector,
            box,
            page.evaluate(
                "[...document.querySelectorAll('#details, #details > *, .layout, main')]"
                ".map(e => (e.id || e.className) + ':' + e.getBoundingClientRect().width)"
            ),
        )
    inside = page.locator("#story").evaluate("block => block.scrollWidth <= block.clientWidth")
    assert inside, "something in the story block is wider than the block"


def said_in_words(page) -> None:
    text = page.locator("#story").inner_text()
    found = SQUARE_CODE.search(text)
    assert not found and "squares" not in text, f"{found} in {text!r}"


def check_the_story(browser, page, daemon, players: int) -> None:
    from playwright.sync_api import expect

    # told in the background once the game is over, then swapped into the end screen
    expect(page.locator("#story-points li")).to_have_count(3, timeout=60_000)
    expect(page.locator("#story .story-chart polyline.story-line")).to_have_count(players)
    expect(page.locator("#story .story-legend li")).to_have_count(players)
    expect(page.locator("#story")).to_contain_text("The three moves that cost most")
    said_in_words(page)
    within_width(page)
    shot(page, "story-01-end-screen", show="#story")
    narrow = browser.new_context(viewport={"width": 320, "height": 640}, is_mobile=True)
    try:
        small = narrow.new_page()
        small.goto(daemon.url)
        expect(small.locator("#story-points li")).to_have_count(3)
        within_width(small)
        shot(small, "story-02-end-screen-320", show="#story")
    finally:
        narrow.close()

    # a turning point opens the history at that turn
    link = page.locator("#story-points a").first
    turn = link.get_attribute("data-turn")
    link.click()
    expect(page).to_have_url(re.compile(rf"\?turn={turn}$"))
    expect(page.locator("#replay-label")).to_contain_text(f"Turn {turn}")

    # a past game's page: the same story, its turns in words, a turning point marked
    page.goto(daemon.url + "/games")
    page.get_by_role("link", name="how it went").first.click()
    expect(page.locator("#story-points li")).to_have_count(3)
    within_width(page)
    said_in_words(page)
    shot(page, "story-03-past-game", show="#story")
    link = page.locator("#story-points a").first
    turn = link.get_attribute("data-turn")
    link.click()
    marked = page.locator(f"#turn-{turn}")
    expect(marked).to_have_attribute("aria-current", "true")
    expect(marked).to_be_in_viewport()
    assert not SQUARE_CODE.search(page.locator("#past-history").inner_text())
    shot(page, "story-04-past-game-turn", show=f"#turn-{turn}")

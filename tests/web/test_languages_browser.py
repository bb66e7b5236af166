"""Each page in each language fits the phone (issue #48: German words are long): the status
page at the end of a four-player game (its widest tables), past games, the simulator and an
error page, 320 px wide, in Debian's chromium.  A real game's pages in each language, at 390 and
320 px with their pictures, are test_whole_game_languages.py's (one daemon for both widths)."""

from __future__ import annotations

import pytest

from .helpers import PAGE_WIDTH
from .test_fits_the_phone import the_end

pytestmark = pytest.mark.browser

PAGES = ("/", "/games", "/sim", "/no-such-page")
#: Words of each language that must be on its status page (and none of the English ones).
WORDS = {
    "de": ("Frühere Spiele", "Sprache"),
    "fr": ("Parties précédentes", "Langue"),
    "es": ("Partidas anteriores", "Idioma"),
}


@pytest.mark.parametrize("language", sorted(WORDS))
def test_each_page_in_each_language_fits_the_phone(browser, served, service, language):
    the_end(service)
    for width in (320,):
        context = browser.new_context(
            viewport={"width": width, "height": 844}, is_mobile=True, locale=language
        )
        try:
            page = context.new_page()
            for path in PAGES:
                page.goto(served.url + path)
                assert page.locator("html").get_attribute("lang") == language
                wider = int(page.evaluate(PAGE_WIDTH)) - width
                assert wider <= 0, f"{path} in {language} at {width} px is {wider} px too wide"
            page.goto(served.url + "/")
            if language == "fr":  # the script's own words: the connection chip
                from playwright.sync_api import expect

                expect(page.locator("#conn")).to_have_text("En direct", timeout=10_000)
            text = page.locator("body").inner_text()
            for words in WORDS[language]:
                assert words in text
            assert "Past games" not in text
        finally:
            context.close()


def test_the_chooser_switches_the_page_and_keeps_it(browser, served):
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    try:
        page = context.new_page()
        page.goto(served.url + "/games")
        page.locator("#language-choice").select_option("de")
        page.get_by_role("button", name="Choose").click()
        page.wait_for_url("**/games")
        assert page.locator("h1").inner_text() == "Frühere Spiele"
        page.goto(served.url + "/")
        assert page.locator("html").get_attribute("lang") == "de"
    finally:
        context.close()

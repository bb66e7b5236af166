"""A whole game in German, and every page in French and Spanish, with no English word a family
would see (issue #48).

On the real daemon (`pawnlight run --sim`, a presence board): the owner's phone and the
simulator in German play a quick game to its end with the players' hands on the simulated
board (an 11's switch settled with the board's Confirm, as in test_family_whole_game.py); a
French and a Spanish phone watch it live.  At each phase every page is read as the family
sees it (the text on the screen, the board picture's words, the options of the forms, every
``<details>`` opened) and each word is checked: a word of the page's English messages that
the language's own catalog never uses is English left on the page.  At the end every page the
whole-game test reaches (status, simulator, past games, a past game and its story, a turn
replayed, an error page) is visited once more in each language, logged in as the owner, fits
a phone 390 and 320 px wide, and is photographed in test-artifacts/web/.

One daemon and one browser for the whole module (CI time: docs/testing.md).
"""

from __future__ import annotations

import random
import re
from functools import cache

import pytest

from pawnlight.i18n import LANGUAGE_NAMES, translations
from pawnlight.i18n.catalog import po_path, read_po

from ..daemon.hands import actions_for
from ..daemon.process import PIN, DaemonProcess
from ..helpers import PHONE, screenshot
from .helpers import fits
from .test_family_whole_game import EDITION, quickest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LANGUAGES = ("de", "fr", "es")
#: Words a family may read in every language (kept short; each is why it is no translation):
#: each language's own name in the chooser at the foot of every page.  The project's name
#: (the logo, ``.brand``) and commands to type (``<code>``) are not read as words at all.
ALLOWED = frozenset(w for name in LANGUAGE_NAMES.values() for w in name.lower().split())
#: Where the companion's sentences are shown (helper 48a translates them, companion/ and
#: rules/words.py): a leak there is reported apart from the page's own.  ``announce`` is what a
#: screen reader hears of #phase-text; the replay bar's label ends with the turn's move words.
COMPANION = frozenset(
    {"phase-text", "warning", "corrections", "choices", "moves", "history", "announce"}
    | {"replay-label"}
)

#: Every text a person sees on the page, with where it is: each text node that is rendered
#: (``<details>`` opened first: what is inside is one tap away), the options of the forms,
#: the words drawn on the board pictures, and the window's title.
COLLECT = """() => {
  document.querySelectorAll("details").forEach((d) => { d.open = true; });
  const out = [["title", document.title]];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const el = node.parentElement;
    if (!text || !el || el.closest("script, style, noscript, template, title")) continue;
    if (el.closest("code, .brand")) continue;
    if (el.tagName !== "OPTION" && !el.getClientRects().length) continue;
    if (el.closest("[hidden]")) continue;
    const where = el.closest("[id]");
    out.push([(where ? where.id : "") + " " + el.tagName.toLowerCase(), text]);
  }
  return out;
}"""

WORD = re.compile(r"[^\W\d_]{2,}")


def words_of(text: str) -> set[str]:
    return set(WORD.findall(re.sub(r"%\(\w+\)s", " ", text).lower()))


@cache
def english() -> frozenset[str]:
    """The words of the page's English messages (the catalogs' msgids)."""
    found: set[str] = set()
    for message in read_po(po_path("de")):
        found |= words_of(message)
    return frozenset(found)


@cache
def own_words(language: str) -> frozenset[str]:
    """Every word the language's catalog uses (its translations): a word in here is the
    language's own, even where English spells it the same ("Start", "normal", "Total")."""
    found: set[str] = set()
    for translated in read_po(po_path(language)).values():
        found |= words_of(translated)
    return frozenset(found)


def english_on(page, language: str, seen: str) -> list[str]:
    """Each text on the page with English words in it, as ``seen: #where: [words] in 'text'``."""
    leaks = []
    for where, text in page.evaluate(COLLECT):
        left = sorted(words_of(text) & english() - own_words(language) - ALLOWED)
        if left:
            leaks.append(f"{seen}: #{where}: {left} in {text[:140]!r}")
    return leaks


def say(language: str, message: str) -> str:
    return translations(language).gettext(message)


def log_in(page) -> None:
    from playwright.sync_api import expect

    page.locator("#pin").fill(PIN)
    page.locator("#login-form button[type=submit]").click()
    expect(page.locator("#owner-tools")).to_be_visible()


@pytest.fixture(scope="module")
def daemon(tmp_path_factory):
    process = DaemonProcess(tmp_path_factory.mktemp("languages"), layout="presence", settle=0.2)
    process.start()
    yield process
    process.stop()


def test_a_whole_game_in_german_and_every_page_in_french_and_spanish(browser, daemon):
    from playwright.sync_api import expect

    expect.set_options(timeout=15_000)
    contexts = {
        language: browser.new_context(viewport=PHONE, is_mobile=True, locale=language)
        for language in LANGUAGES
    }
    leaks: list[str] = []
    errors: list[str] = []
    try:
        pages = {}
        for language, context in contexts.items():
            pages[language] = context.new_page()
            pages[language].on("pageerror", lambda error: errors.append(str(error)))
            pages[language].goto(daemon.url)
        owner, sim = pages["de"], contexts["de"].new_page()
        sim.on("pageerror", lambda error: errors.append(str(error)))
        # Every phone gets its own words: the French and Spanish ones watch the German game.
        watching = {"de owner": owner, "de simulator": sim, "fr": pages["fr"], "es": pages["es"]}

        def check(moment: str) -> None:
            """Every page now: no English, and fits the narrowest phone (at the end, each page
            is checked at 390 px too)."""
            for who, page in watching.items():
                leaks.extend(english_on(page, who[:2], f"{who}, {moment}"))
                fits(page, f"{who}, {moment}", widths=(320,))

        # -- the owner starts a quick game in German --------------------------------------------
        expect(owner.locator("#conn")).to_have_attribute("data-state", "live")
        log_in(owner)  # the owner's tools (New game open) are checked at the end, as here
        sim.goto(daemon.url + "/sim")
        owner.locator("#edition").select_option(EDITION)
        owner.locator("#variant").select_option("quick")
        for colour in ("yellow", "green"):
            owner.locator(f'input[name="players"][value="{colour}"]').uncheck()
        owner.locator("#new-game-form button[type=submit]").click()
        for language, page in pages.items():
            expect(page.locator("#phase")).to_have_text(say(language, "Set up the board"))
        check("setting up")
        sim.locator("#sim-setup").click()
        expect(owner.locator("#phase")).to_have_text(say("de", "Draw a card"))

        # -- every turn to the end, the cards scanned and the moves made by hand ----------------
        rng = random.Random(48)
        switched, turns, state = False, 0, daemon.state()
        moments = {"draw", "move"}
        while state["phase"] != "over":
            turns += 1
            assert turns < 200, "the game did not end"
            if "draw" in moments:
                moments.discard("draw")
                check("drawing")
            card, move = quickest(state, switch_wanted=not switched)
            switch = any(step.swapped >= 0 for step in move.steps)
            before = len(state["history"])
            daemon.request("POST", "/api/sim/scan", {"card": card})
            daemon.wait(lambda s, c=card: s["phase"] == "move" and s["card"] == c)
            if "move" in moments:
                moments.discard("move")
                expect(owner.locator("#phase")).to_have_text(say("de", "Make the move"))
                check("making a move")
            for action, square, held in actions_for(move, rng):
                daemon.touch(action, square, held)
            if switch:
                expect(owner.locator("#choices")).to_be_visible()
                expect(pages["fr"].locator("#choices")).to_be_visible()
                check("asking which move")
                shot_all(pages, "asks")
                sim.locator('button[data-button="confirm"]').click()
                switched = True
            state = daemon.wait(
                lambda s, n=before: len(s["history"]) > n and s["phase"] != "move" and s["settled"]
            )
        assert switched, "no 11 switch came up in the whole game"

        # -- the end, then every page once more in each language, as the owner ------------------
        for language, page in pages.items():
            expect(page.locator("#phase")).to_have_text(say(language, "Game over"))
            expect(page.locator("#story-points li")).not_to_have_count(0, timeout=60_000)
        check("the end")
        game = daemon.request("GET", "/api/games")["games"][0]["id"]
        sim.close()
        for language, page in pages.items():
            if language != "de":
                log_in(page)
            for path, name in (
                ("/", "status"),
                ("/sim", "sim"),
                ("/games", "games"),
                (f"/games/{game}", "game"),
                ("/?turn=1&when=after", "replay"),
                ("/no-such-page", "error"),
            ):
                page.goto(daemon.url + path)
                expect(page.locator("main")).to_be_visible()
                assert page.locator("html").get_attribute("lang") == language
                leaks.extend(english_on(page, language, f"{language} {path}"))
                fits(page, f"{path} in {language}", widths=(320, 390))
                screenshot(page, f"whole-{language}-{name}-390")
                if name in ("status", "sim"):
                    page.set_viewport_size({"width": 320, "height": 844})
                    screenshot(page, f"whole-{language}-{name}-320")
                    page.set_viewport_size(PHONE)
    finally:
        for context in contexts.values():
            context.close()
    assert not errors, f"errors in the pages' scripts: {errors}"
    ours = [leak for leak in dict.fromkeys(leaks) if not companion(leak)]
    theirs = [leak for leak in dict.fromkeys(leaks) if companion(leak)]
    assert not ours, "English on the page:\n" + "\n".join(ours)
    assert not theirs, "English in the companion's sentences:\n" + "\n".join(theirs)


def companion(leak: str) -> bool:
    where = leak.split(": #", 1)[1].split(" ", 1)[0]
    return where in COMPANION


def shot_all(pages, name: str) -> None:
    for language, page in pages.items():
        screenshot(page, f"whole-{language}-{name}-390")

"""The owner's board-health page: words a builder reads on a phone."""

from __future__ import annotations

import shutil

import pytest

from pawnlight.board.cells import CELLS, parse_cell_name
from pawnlight.board.layout import Layout

from ..helpers import PHONE, ROOT, screenshot
from .helpers import PIN

PRESENCE = Layout.named("presence")


def health(connected: bool = True) -> dict:
    """A presence board's diagnostics: two pawns down, two counters that need a look."""
    sensors = [0] * CELLS
    for place in ("T12", "red-start-1"):
        sensors[PRESENCE.channel_of[parse_cell_name(place)]] = 1
    return {
        "sim": False,
        "layout": "presence",
        "calibrated": False,
        "link": {
            "connected": connected,
            "frames_in": 812,
            "frames_out": 40,
            "crc_failures": 3,
            "reconnects": 1,
            "board_uptime_ms": 361500,
        },
        "board": {
            "firmware": "1.0.0",
            "protocol": [1, 0],
            "kind": "presence",
            "channels": 112,
            "leds": 132,
            "card_reader": True,
        },
        "sensors": sensors,
        "last_uid": "04A1B2C3D4E5F6",
        "errors": [],
        "stuck": [],
        "game_id": None,
    }


@pytest.fixture
def board_health(service, monkeypatch):
    report = health()
    monkeypatch.setattr(service, "diagnostics", lambda: report)
    return report


def test_the_health_page_asks_for_the_owner(client):
    page = client.get("/diagnostics")
    assert page.status_code == 200
    assert b"Log in as the owner" in page.data
    assert b'id="diag-sensors"' not in page.data


def test_the_owner_reads_places_counters_with_hints_and_connected_in_words(client, board_health):
    assert client.post("/api/login", json={"pin": PIN}).status_code == 200
    page = client.get("/diagnostics").get_data(as_text=True)
    assert 'class="card' not in page  # not the playing card's style
    assert "True" not in page and "False" not in page
    assert '<dd id="diag-link" data-up="true" class="ok">' in page and ">\n      yes" in page
    # Counters in words, with what a non-zero one means.
    assert "CRC failures" in page and "a long or poor USB cable" in page
    assert "reconnects" in page and "a loose cable, or the Pico resetting" in page
    assert "connected</span>" not in page  # said once, in words, not as a counter
    # Every sensor by its place, with the chip pin; the pawns first.
    assert page.count('data-place="') == CELLS
    assert page.index('data-place="T12"') < page.index('data-place="T0"')
    assert (
        'data-place="T12" data-pawn="true" '
        'title="the 3rd square of red&#39;s long slide; channel 12, U2 D4, pin 3"'
    ) in page
    # In words where a family may look; the wiring labels only in the folded list.
    assert "Reading a pawn: <b>the 3rd square of red&#39;s long slide</b>, " in page
    assert "<b>red START, spot 1</b>." in page
    assert 'href="/diagnostics"' in page  # the owner's pages link to it


def test_a_board_that_is_not_connected_says_no_and_where_to_look(client, service, monkeypatch):
    monkeypatch.setattr(service, "diagnostics", lambda: health(connected=False))
    client.post("/api/login", json={"pin": PIN})
    page = client.get("/diagnostics").get_data(as_text=True)
    assert 'data-up="false" class="bad"' in page
    assert "no: check the Pico's USB cable" in page


@pytest.mark.browser
def test_the_health_page_fits_a_phone(phone, served, board_health):
    """390 px wide: nothing scrolls sideways.  The picture is docs/img/diagnostics-phone.png."""
    from playwright.sync_api import expect

    answer = phone.request.post(served.url + "api/login", data={"pin": PIN})
    assert answer.ok
    phone.goto(served.url + "diagnostics")
    expect(phone.locator("#diag-link")).to_contain_text("yes")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide on a {PHONE['width']} px phone"
    sections = phone.locator("#diagnostics h2")
    tops = [sections.nth(i).bounding_box()["y"] for i in range(sections.count())]
    assert tops == sorted(tops) and len(set(tops)) == len(tops)  # stacked, not side by side
    # The wiring labels are a builder's: folded away until asked for.
    expect(phone.locator('#diag-sensors [data-place="T12"]')).to_be_hidden()
    phone.locator("#diag-sensors-all summary").click()
    expect(phone.locator('#diag-sensors [data-place="T12"]')).to_be_visible()
    box = phone.locator('#diag-sensors [data-place="T12"]').bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    path = screenshot(phone, "diagnostics-phone")
    # The docs' picture: one phone screen from the counters down, sensors by place included.
    phone.locator("#diag-counters").evaluate(
        "list => window.scrollTo(0, list.getBoundingClientRect().top + window.scrollY - 140)"
    )
    phone.screenshot(path=str(path.with_name("diagnostics-phone-view.png")))
    docs = ROOT / "docs" / "img" / "diagnostics-phone.png"
    if not docs.exists():  # the committed picture: regenerate by deleting it and running this
        shutil.copy(path.with_name("diagnostics-phone-view.png"), docs)

"""The phone page on `pawnlight run --sim-pico`: the firmware on an emulated RP2040.

The whole chain a family would have, with the Pico emulated: the status page on a phone, the
simulator page's taps turned into 74HC165 bits by the emulated chip, the firmware's reports
over the emulated USB serial and pyserial, the LEDs decoded from its WS2812 pulses. Skipped
unless PAWNLIGHT_RP2040_DIR names the folder with MicroPython's UF2 (docs/firmware.md).
"""

from __future__ import annotations

import pytest

from pawnlight.devices.sim.emulated_pico import missing

from ..daemon.process import DaemonProcess
from ..helpers import PHONE, firmware_version, screenshot
from .helpers import start_game

REASON = missing()
#: Seconds any step may take on the emulated chip (see the test).
WAIT = 180.0

pytestmark = [
    pytest.mark.emulated_chip,  # one at a time across the workers (tests/conftest.py)
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(REASON is not None, reason=f"no emulated Pico: {REASON}"),
]


@pytest.fixture
def daemon(tmp_path):
    process = DaemonProcess(tmp_path, layout="presence", settle=0.2, sim_pico=True)
    process.start(timeout=120.0)  # the emulated chip boots MicroPython several times slower
    yield process
    process.stop()


def test_a_move_on_the_emulated_pico_shows_on_the_phone(browser, daemon):
    from playwright.sync_api import expect

    # The emulated chip runs many times slower than a Pico, and slower still beside CI's other
    # emulated-Pico tests on two cores (it once needed over 60 s to read the set-up board):
    # the waits are for what happens, bounded only so a hang still fails.
    expect.set_options(timeout=WAIT * 1000)
    phone = browser.new_context(viewport=PHONE, is_mobile=True)
    hands = browser.new_context(viewport={"width": 900, "height": 1000})
    try:
        page, sim = phone.new_page(), hands.new_page()
        page.goto(daemon.url)
        expect(page.locator("#conn")).to_have_attribute("data-state", "live")
        start_game(page, ("red", "blue"))

        sim.goto(daemon.url + "/sim")
        sim.locator("#sim-setup").click()
        expect(page.locator("#phase")).to_have_text("Draw a card")
        assert firmware_version() in daemon.state()["link"]["firmware"]  # on the emulated chip

        # Red scans a 1 (read by the emulated MFRC522) and moves a pawn out of START by hand.
        sim.locator('button[data-card="1"]').click()
        expect(page.locator("#phase-text")).to_contain_text("Red")
        daemon.wait(lambda s: s["phase"] == "move", timeout=WAIT)
        for place in ("start:red", "T4"):
            before = daemon.request("GET", "/api/sim/board")
            sim.locator(f'#simboard [data-place="{place}"]').click()
            daemon.wait_for(lambda b=before: daemon.request("GET", "/api/sim/board") != b, WAIT)
        expect(page.locator(".history-line")).to_have_count(1)
        expect(page.locator("#phase-text")).to_contain_text("Blue")
        # The board lights blue's turn: its START spots breathe, drawn by the emulated Pico.
        daemon.wait_for(
            lambda: any(
                colour != "#000000"
                for key, colour in daemon.request("GET", "/api/sim/leds").items()
                if key.startswith("start:blue")
            ),
            timeout=WAIT,
        )
        screenshot(page, "emulated-pico-phone")
    finally:
        phone.close()
        hands.close()

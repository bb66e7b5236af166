"""The LED test finds every injected dead, misplaced and cut-off LED, and nothing else."""

from __future__ import annotations

import re

import pytest

from pawnlight.board.cells import LEDS
from pawnlight.board.health import led_test
from pawnlight.board.health.board_words import led_place_names
from pawnlight.board.health.led_test import (
    ChainBreak,
    DarkLastLed,
    DeadLed,
    LedLook,
    MisplacedLed,
    analyse,
)
from pawnlight.board.layout import Layout
from pawnlight.diagnostics.procedures import run_led_test
from pawnlight.diagnostics.simulated import LedFaults

from .harness import FakeRig, expected_led_findings, firmware_rig, random_led_faults

LAYOUT = Layout.named("presence")
PLACES = led_place_names(LAYOUT)


def test_a_healthy_chain_reports_nothing_and_ends_dark():
    rig = FakeRig(LAYOUT)
    report = run_led_test(rig.link.send_leds, rig.eye, LAYOUT)
    assert report.tested == tuple(range(LEDS))
    assert report.ok
    assert rig.link.leds == [(0, 0, 0)] * LEDS
    assert len(rig.link.frames) == LEDS + 1


@pytest.mark.parametrize("seed", range(5))
def test_every_injected_fault_is_found_and_nothing_else(seed):
    faults = random_led_faults(seed)
    rig = FakeRig(LAYOUT, leds=faults)
    report = run_led_test(rig.link.send_leds, rig.eye, LAYOUT)
    assert set(report.findings) == expected_led_findings(LAYOUT, faults)
    assert len(report.findings) == len(set(report.findings))


def test_through_the_real_firmware_reading_back_its_leds():
    faults = LedFaults(frozenset({7, 100}), ((40, 41), (60, 112)), 125)
    with firmware_rig(LAYOUT, leds=faults) as (_view, link, _hand, eye):
        report = run_led_test(link.send_leds, eye, LAYOUT)
    assert set(report.findings) == expected_led_findings(LAYOUT, faults)


def test_the_colour_layout_has_the_same_chain():
    faults = LedFaults(frozenset({3}), ((80, 90),))
    layout = Layout.named("colour")
    rig = FakeRig(layout, leds=faults)
    report = run_led_test(rig.link.send_leds, rig.eye, layout)
    assert set(report.findings) == expected_led_findings(layout, faults)


def look(led: int, *seen: str) -> LedLook:
    return LedLook(led, frozenset(seen))


def test_a_short_dark_tail_is_a_break_not_dead_leds():
    looks = [look(i, PLACES[i]) for i in range(LEDS - 2)]
    looks += [look(LEDS - 2), look(LEDS - 1)]
    (finding,) = analyse(LAYOUT, looks).findings
    assert finding == ChainBreak(LEDS - 2, PLACES[LEDS - 2], LEDS - 1, LEDS - 3)
    text = led_test.describe(finding)
    assert "not dead LEDs" in text
    assert f"into LED {LEDS - 2}'s DIN from LED {LEDS - 3}'s DOUT" in text


def test_the_last_led_alone_dark_names_both_causes():
    looks = [look(i, PLACES[i]) for i in range(LEDS - 1)] + [look(LEDS - 1)]
    (finding,) = analyse(LAYOUT, looks).findings
    assert finding == DarkLastLed(LEDS - 1, PLACES[LEDS - 1], LEDS - 2)
    text = led_test.describe(finding)
    assert "dead LED or a broken data wire" in text and "though" not in text
    assert f"from LED {LEDS - 2}'s DOUT" in text


def test_a_dead_led_is_one_a_later_led_lit_past():
    looks = [look(i, PLACES[i]) for i in range(LEDS)]
    looks[7] = look(7)
    assert analyse(LAYOUT, looks).findings == (DeadLed(7, PLACES[7]),)


def test_nothing_lit_at_all_is_a_break_at_led_0():
    report = analyse(LAYOUT, [look(i) for i in range(LEDS)])
    assert report.findings == (ChainBreak(0, "T0", LEDS - 1, None),)
    text = led_test.describe(report.findings[0])
    assert "no LED lights" in text and "GP22, pin 29" in text


def test_a_dark_part_of_the_chain_tested_alone_is_no_verdict_on_single_leds():
    report = analyse(LAYOUT, [look(i) for i in range(10, 20)])
    assert report.findings == (ChainBreak(10, PLACES[10], 19, None),)
    assert "Test from LED 0" in led_test.describe(report.findings[0])


def test_a_break_inside_a_tested_subrange_is_one_finding():
    """``--leds 0..9`` with the data line cut into LED 5: one break, not five dead LEDs."""
    looks = [look(i, PLACES[i]) for i in range(5)] + [look(i) for i in range(5, 10)]
    (finding,) = analyse(LAYOUT, looks).findings
    assert finding == ChainBreak(5, PLACES[5], 9, 4)
    assert "LEDs 5..9" in led_test.describe(finding)


def test_untested_leds_before_the_break_are_said():
    looks = [look(i, PLACES[i]) for i in range(10)] + [look(i) for i in range(20, 25)]
    text = led_test.describe(analyse(LAYOUT, looks).findings[0])
    assert "LEDs 10..19 were not tested" in text and "from LED 9's DOUT" in text


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--fault", "break-led:130"], "chain break at LED 130 at slide-T56 (the slide channel"),
        (
            ["--fault", "break-led:131"],
            "LED 131 at slide-T57 (the slide channel by the 3rd square of green's long slide) "
            "never lit",
        ),
        (["--leds", "0..9", "--fault", "break-led:5"], "LEDs 5..9 all stay dark"),
    ],
)
def test_the_command_reports_one_break_through_the_simulated_firmware(argv, expected, capsys):
    from pawnlight.cli import main

    assert main(["led-test", "--sim", *argv]) == 1
    out = capsys.readouterr().out
    assert expected in " ".join(out.split())
    assert not re.search(r"dead LED \d", out)  # no LED is called dead
    assert max(len(line) for line in out.splitlines()) <= 80


def test_descriptions_name_the_place():
    assert "LED 40" in led_test.describe(MisplacedLed(40, "T40", "T41"))
    assert "LED 124's DOUT" in led_test.describe(ChainBreak(125, "slide-T41", LEDS - 1, 124))

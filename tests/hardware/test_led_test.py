"""The LED test finds every injected dead, misplaced and cut-off LED, and nothing else."""

from __future__ import annotations

import pytest

from pawnlight.board.cells import LEDS
from pawnlight.board.layout import Layout
from pawnlight.diagnostics import led_test
from pawnlight.diagnostics.led_test import ChainBreak, DeadLed, LedLook, MisplacedLed, analyse
from pawnlight.diagnostics.procedures import run_led_test
from pawnlight.diagnostics.simulated import LedFaults
from pawnlight.diagnostics.wiring import led_place_names

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


def test_a_short_dark_tail_is_dead_leds_not_a_break():
    looks = [look(i, PLACES[i]) for i in range(LEDS - 2)]
    looks += [look(LEDS - 2), look(LEDS - 1)]
    assert analyse(LAYOUT, looks).findings == (
        DeadLed(LEDS - 2, PLACES[LEDS - 2]),
        DeadLed(LEDS - 1, PLACES[LEDS - 1]),
    )


def test_nothing_lit_at_all_is_a_break_at_led_0():
    report = analyse(LAYOUT, [look(i) for i in range(LEDS)])
    assert report.findings == (ChainBreak(0, "T0"),)
    assert "no LED lights" in led_test.describe(report.findings[0])


def test_testing_part_of_the_chain_reports_no_break():
    report = analyse(LAYOUT, [look(i) for i in range(10, 20)])
    assert {type(f) for f in report.findings} == {DeadLed}


def test_descriptions_name_the_place():
    assert "LED 40" in led_test.describe(MisplacedLed(40, "T40", "T41"))
    assert "LED 124's DOUT" in led_test.describe(ChainBreak(125, "slide-T41"))

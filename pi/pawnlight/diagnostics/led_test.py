"""The LED test, as pure logic: which LEDs are dead, in the wrong place, or cut off.

The test lights one LED at a time and asks where the light shows (a person looks; on the
simulated board the firmware's readback answers).  ``LedLook`` records the places seen lit.
``analyse`` compares them with the layout:

* **dead** - nothing lit: a dead LED, or one soldered the wrong way round;
* **misplaced** - the light showed at another place: LEDs (or the layout) out of order, so
  two of them are usually reported, each where the other should be;
* **chain break** - from some LED to the end of the chain nothing lights: a WS2812B passes the
  data on to the next one, so a dead LED or a broken data wire darkens everything after it.
  Reported once, naming the first dark LED, instead of every LED after it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pawnlight.board.cells import LEDS
from pawnlight.board.layout import Layout

from .wiring import led_place_names

#: Fewer dark LEDs than this at the end of the chain are reported one by one.
MIN_BREAK = 3


@dataclass(frozen=True)
class LedLook:
    led: int
    seen: frozenset[str]  # places (layout names, "slide-T2") where light showed


@dataclass(frozen=True)
class DeadLed:
    led: int
    place: str


@dataclass(frozen=True)
class MisplacedLed:
    led: int
    place: str  # where the layout puts it
    seen: str  # where it lit


@dataclass(frozen=True)
class ChainBreak:
    first_dark: int  # this LED and all after it never lit
    place: str


LedFinding = DeadLed | MisplacedLed | ChainBreak


@dataclass(frozen=True)
class LedReport:
    tested: tuple[int, ...]
    findings: tuple[LedFinding, ...]

    @property
    def ok(self) -> bool:
        return not self.findings


def analyse(layout: Layout, looks: Iterable[LedLook]) -> LedReport:
    places = led_place_names(layout)
    looks = sorted(looks, key=lambda look: look.led)
    findings: list[LedFinding] = []
    dark = [look.led for look in looks if not look.seen]
    tail_start = None
    if dark and dark[-1] == LEDS - 1 and looks[-1].led == LEDS - 1:
        # The longest run of dark LEDs that reaches the end of the chain.
        start = len(dark) - 1
        while start > 0 and dark[start - 1] == dark[start] - 1:
            start -= 1
        if len(dark) - start >= MIN_BREAK:
            tail_start = dark[start]
    for look in looks:
        expected = places[look.led]
        if not look.seen:
            if tail_start is None or look.led < tail_start:
                findings.append(DeadLed(look.led, expected))
        elif expected not in look.seen:
            findings.append(MisplacedLed(look.led, expected, sorted(look.seen)[0]))
    if tail_start is not None:
        findings.append(ChainBreak(tail_start, places[tail_start]))
    return LedReport(tuple(look.led for look in looks), tuple(findings))


def describe(finding: LedFinding) -> str:
    if isinstance(finding, DeadLed):
        return (
            f"dead LED {finding.led} ({finding.place}): never lit, though the LEDs after it do. "
            "Check its 5 V and GND, or replace it."
        )
    if isinstance(finding, MisplacedLed):
        return (
            f"misplaced LED {finding.led}: should light {finding.place}, lit {finding.seen}. "
            "LEDs soldered out of order (or the layout file disagrees)."
        )
    if finding.first_dark == 0:
        return (
            "no LED lights: check the data line from the Pico (GP22, the 74AHCT125 and its 5 V, "
            "the series resistor, LED 0's DIN) and the LEDs' 5 V supply."
        )
    return (
        f"chain break at LED {finding.first_dark} ({finding.place}): it and every LED after it "
        f"stay dark. Check the data wire from LED {finding.first_dark - 1}'s DOUT to its DIN, "
        "its power, or replace it."
    )

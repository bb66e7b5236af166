"""The LED test, as pure logic: which LEDs are dead, in the wrong place, or cut off.

The test lights one LED at a time and asks where the light shows (a person looks; on the
simulated board the firmware's readback answers).  ``LedLook`` records the places seen lit.
``analyse`` compares them with the layout:

* **dead** - nothing lit: a dead LED, or one soldered the wrong way round;
* **misplaced** - the light showed at another place: LEDs (or the layout) out of order, so
  two of them are usually reported, each where the other should be;
* **chain break** - from some LED to the last one tested nothing lights: a WS2812B passes the
  data on to the next one, so a broken data wire (or an LED that no longer passes it on)
  darkens everything after it.  Reported once, naming the data wire into the first dark LED,
  instead of calling every LED after it dead;
* **dark last LED** - only the last LED tested stays dark: nothing after it was tested, so a
  dead LED and a broken data wire into it look the same; both are named.

A dark LED is called dead only when a later LED tested lit: the data got past it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pawnlight.board.cells import LEDS
from pawnlight.board.layout import Layout

from .board_words import led_place, led_place_names


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
    first_dark: int  # this LED and every one tested after it never lit
    place: str
    last_dark: int = LEDS - 1  # the last LED tested
    lit_before: int | None = None  # the last LED tested before first_dark that lit


@dataclass(frozen=True)
class DarkLastLed:
    led: int  # the last LED tested: dark, though the one tested before it lit
    place: str
    lit_before: int | None = None


LedFinding = DeadLed | MisplacedLed | ChainBreak | DarkLastLed


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
    lit = [look.led for look in looks if look.seen]
    # The dark tail: every LED tested after the last one that lit.
    tail = [look.led for look in looks if not lit or look.led > lit[-1]]
    lit_before = lit[-1] if lit else None
    for look in looks:
        expected = places[look.led]
        if not look.seen:
            if look.led not in tail:
                findings.append(DeadLed(look.led, expected))
        elif expected not in look.seen:
            findings.append(MisplacedLed(look.led, expected, sorted(look.seen)[0]))
    if len(tail) == 1 and lit:
        findings.append(DarkLastLed(tail[0], places[tail[0]], lit_before))
    elif tail:
        findings.append(ChainBreak(tail[0], places[tail[0]], tail[-1], lit_before))
    return LedReport(tuple(look.led for look in looks), tuple(findings))


def _wire_into(led: int, lit_before: int | None) -> str:
    """Where the data for ``led`` comes from, as a builder traces it."""
    if led == 0:
        return (
            "the data line from the Pico (GP22, pin 29, through the 74AHCT125 and its 5 V, "
            "the series resistor) into LED 0's DIN"
        )
    wire = f"the data wire into LED {led}'s DIN from LED {led - 1}'s DOUT"
    if lit_before is not None and lit_before < led - 1:
        wire += (
            f" (LEDs {lit_before + 1}..{led - 1} were not tested: the break is somewhere "
            f"from LED {lit_before}'s DOUT on)"
        )
    return wire


def describe(finding: LedFinding) -> str:
    if isinstance(finding, DeadLed):
        return (
            f"dead LED {finding.led} at {led_place(finding.place)}: never lit, though a later "
            "LED did, so the data passes it. Check its 5 V and GND, or replace it."
        )
    if isinstance(finding, MisplacedLed):
        return (
            f"misplaced LED {finding.led}: should light {led_place(finding.place)}, lit "
            f"{finding.seen}. "
            "LEDs soldered out of order (or the layout file disagrees)."
        )
    if isinstance(finding, DarkLastLed):
        return (
            f"LED {finding.led} at {led_place(finding.place)} never lit, and nothing after it was "
            "tested: "
            f"a dead LED or a broken data wire. Check {_wire_into(finding.led, finding.lit_before)}"
            f", then its 5 V and GND; replace it if those are good."
        )
    if finding.lit_before is None and finding.first_dark == 0:
        return (
            "no LED lights: a broken data line, not dead LEDs. Check "
            f"{_wire_into(0, None)}, and the LEDs' 5 V supply."
        )
    span = f"LEDs {finding.first_dark}..{finding.last_dark}"
    if finding.lit_before is None:
        return (
            f"no LED tested lit ({span}, from {led_place(finding.place)}): a broken data line "
            f"before LED {finding.first_dark}, or the LEDs' 5 V supply. Test from LED 0 to find "
            "where."
        )
    return (
        f"chain break at LED {finding.first_dark} at {led_place(finding.place)}: {span} all stay "
        "dark, "
        "a broken data line, not dead LEDs. "
        f"Check {_wire_into(finding.first_dark, finding.lit_before)}, "
        f"and LED {finding.first_dark}'s 5 V and GND."
    )

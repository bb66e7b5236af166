"""A simulated board with faults built in, on the in-process fake link or the real firmware.

The faults (dead, stuck and swapped sensors; dead, swapped and cut-off LEDs) live in
pawnlight.diagnostics.simulated; these helpers wire them to a board and say what the
diagnostics must report for them, nothing more and nothing less.
"""

from __future__ import annotations

import random
from contextlib import contextmanager

from pawnlight.board.cells import CELLS, LEDS
from pawnlight.board.health import led_test, sensor_test
from pawnlight.board.health.board_words import led_place_names
from pawnlight.board.layout import Layout
from pawnlight.devices.serial_link import SerialBoardLink
from pawnlight.devices.sim.board import NoisyBoard, SensorFaults
from pawnlight.devices.sim.fake_link import FakeBoardLink
from pawnlight.devices.sim.firmware import SimulatedFirmware
from pawnlight.diagnostics.board_view import BoardView
from pawnlight.diagnostics.connect import default_tolerance
from pawnlight.diagnostics.simulated import LedFaults, ScriptedEye, ScriptedHand

WAIT = 10.0


def random_sensor_faults(seed: int, count: int = 2) -> SensorFaults:
    """``count`` dead, ``count`` stuck and ``count`` swapped pairs, on distinct cells."""
    cells = random.Random(seed).sample(range(CELLS), 4 * count)
    pairs = tuple((cells[i], cells[i + 1]) for i in range(2 * count, 4 * count, 2))
    return SensorFaults(frozenset(cells[:count]), frozenset(cells[count : 2 * count]), pairs)


def random_led_faults(seed: int) -> LedFaults:
    """Two dead LEDs, two swapped pairs and a chain break, none touching another."""
    rng = random.Random(seed)
    chain_break = rng.randrange(60, LEDS - 5)
    leds = rng.sample(range(chain_break - 1), 6)
    return LedFaults(frozenset(leds[:2]), ((leds[2], leds[3]), (leds[4], leds[5])), chain_break)


def expected_sensor_findings(layout: Layout, faults: SensorFaults) -> set[sensor_test.Finding]:
    def stuck_value(cell: int) -> int:
        return layout.bands[cell].typical(0) if layout.colour_sensing else layout.active

    expected: set[sensor_test.Finding] = {sensor_test.Dead(cell) for cell in faults.dead}
    expected |= {sensor_test.Stuck(cell, stuck_value(cell)) for cell in faults.stuck}
    for a, b in faults.swapped:
        expected |= {sensor_test.Swapped(a, b), sensor_test.Swapped(b, a)}
    return expected


def expected_led_findings(layout: Layout, faults: LedFaults) -> set[led_test.LedFinding]:
    places = led_place_names(layout)
    expected: set[led_test.LedFinding] = {led_test.DeadLed(led, places[led]) for led in faults.dead}
    for a, b in faults.swapped:
        expected.add(led_test.MisplacedLed(a, places[a], places[b]))
        expected.add(led_test.MisplacedLed(b, places[b], places[a]))
    cut = faults.chain_break
    if cut is not None and cut == LEDS - 1:
        expected.add(led_test.DarkLastLed(cut, places[cut], cut - 1))
    elif cut is not None:
        lit_before = cut - 1 if cut else None
        expected.add(led_test.ChainBreak(cut, places[cut], LEDS - 1, lit_before))
    return expected


class FakeRig:
    """A fake link (in process, synchronous) with a physical board and a scripted person."""

    def __init__(self, layout: Layout, sensors=None, leds=None, seed=0):
        self.layout = layout
        self.view = BoardView()
        self.board = NoisyBoard(layout, sensors or SensorFaults(), seed=seed)
        self.link = FakeBoardLink(self.view, kind=layout.sensing, initial=self.board.reading())
        self.link.start()
        self.hand = ScriptedHand(self.board, self.link.set_sensors, self.view)
        self.eye = ScriptedEye(layout, lambda frame: list(self.link.leds), leds or LedFaults())


@contextmanager
def firmware_rig(layout: Layout, sensors=None, leds=None, seed=0):
    """The real firmware under MicroPython, behind a pty, through the real serial driver."""
    view = BoardView()
    firmware = SimulatedFirmware(layout.sensing)
    with firmware, SerialBoardLink(view, firmware.port) as link:
        link.wait_connected(WAIT)
        assert view.wait_for(lambda values: True, WAIT) is not None
        board = NoisyBoard(layout, sensors or SensorFaults(), seed=seed)
        hand = ScriptedHand(
            board, firmware.set_sensors, view, tolerance=default_tolerance(layout.sensing)
        )

        def readback(frame):
            wanted = [tuple(colour) for colour in frame]
            return firmware.wait_for_leds(lambda shown: shown == wanted, WAIT)

        eye = ScriptedEye(layout, readback, leds or LedFaults())
        yield view, link, hand, eye

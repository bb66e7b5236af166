"""The physical world of a simulated test: pawns, magnets, faulty sensors, misplaced LEDs.

On a real board a person puts pawns down and looks at the LEDs.  On a simulated board (the
real firmware under MicroPython, or the in-process fake link) these classes play that person:

* ``NoisyBoard`` (devices/sim/board.py, the one model of pawns on a board) knows where pawns
  stand and turns that into what every channel's sensor reads, through ``SensorFaults``: dead
  sensors, stuck sensors, crossed and broken wires;
* ``ScriptedHand`` moves pawns on it, writes the readings to the simulated board, and returns
  once the board link has reported them (waiting for the event, never for a guessed time);
* ``ScriptedEye`` looks at the LEDs the firmware shows and says where light appears, through
  ``LedFaults``: dead LEDs, LEDs soldered in each other's places, a broken data line.

The faults are the test harness's: the diagnostics must find each of them and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pawnlight.board.cells import LEDS, PAWN
from pawnlight.board.health.board_words import led_place_names
from pawnlight.board.layout import Layout
from pawnlight.board.leds import OFF, RGB
from pawnlight.devices.sim.board import NoisyBoard, SensorFaults

from .board_view import BoardView


@dataclass(frozen=True)
class LedFaults:
    dead: frozenset[int] = frozenset()  # LEDs that never light (but pass the data on)
    swapped: tuple[tuple[int, int], ...] = ()  # LED pairs soldered in each other's place
    chain_break: int | None = None  # this LED and all after it get no data


class ScriptedHand:
    """Plays the person of the sensor test and of calibration on a simulated board."""

    def __init__(
        self,
        board: NoisyBoard,
        write: Callable[[Sequence[int]], None],
        view: BoardView,
        *,
        tolerance: int = 0,
        timeout: float = 10.0,
    ) -> None:
        """``write`` sends every channel's value to the simulated board; ``tolerance`` is the
        firmware's (a change smaller than that is never reported)."""
        self.board = board
        self._write = write
        self._view = view
        self._tolerance = tolerance
        self._timeout = timeout

    def clear(self) -> None:
        self.board.clear()
        self._apply()

    def place(
        self, cells: Sequence[int], colour: int | None = None, off_centre: bool = False
    ) -> None:
        self.board.put(cells, PAWN if colour is None else colour, off_centre)
        self._apply()

    def lift(self, cells: Sequence[int]) -> None:
        self.board.take(cells)
        self._apply()

    def _apply(self) -> None:
        values = self.board.reading()
        self._write(values)
        tolerance = self._tolerance

        def shown(seen: Sequence[int]) -> bool:
            return all(abs(a - b) <= tolerance for a, b in zip(seen, values, strict=True))

        if self._view.wait_for(shown, self._timeout) is None:
            raise TimeoutError("the simulated board did not report what the hand did")


class ScriptedEye:
    """Plays the person who looks at the LEDs, reading back what the firmware shows."""

    def __init__(
        self,
        layout: Layout,
        readback: Callable[[Sequence[RGB]], Sequence[RGB]],
        faults: LedFaults = LedFaults(),
    ) -> None:
        """``readback(frame)`` returns the strip once it shows ``frame`` (the simulated
        firmware waits for it; the fake link has it at once)."""
        self._readback = readback
        self.faults = faults
        places = list(led_place_names(layout))
        for a, b in faults.swapped:
            places[a], places[b] = places[b], places[a]
        self.places = tuple(places)  # where each strip LED physically sits

    def look(self, led: int, frame: Sequence[RGB]) -> frozenset[str]:
        strip = self._readback(frame)
        cut = self.faults.chain_break if self.faults.chain_break is not None else LEDS
        return frozenset(
            self.places[index]
            for index, colour in enumerate(strip[:cut])
            if colour != OFF and index not in self.faults.dead
        )


def parse_faults(specs: Sequence[str]) -> tuple[SensorFaults, LedFaults]:
    """``dead:T5``, ``stuck:red-S2``, ``swap:T20/T21``, ``broken:red-start-1``, ``dead-led:7``,
    ``swap-led:40/41``, ``break-led:125`` -> the faults to build into a simulated board."""
    from pawnlight.board.cells import parse_cell_name

    dead: set[int] = set()
    stuck: set[int] = set()
    broken: set[int] = set()
    swapped: list[tuple[int, int]] = []
    dead_leds: set[int] = set()
    swapped_leds: list[tuple[int, int]] = []
    chain_break = None

    def led(text: str) -> int:
        number = int(text)
        if not 0 <= number < LEDS:
            raise ValueError(f"LED {number} is not 0..{LEDS - 1}")
        return number

    for spec in specs:
        kind, _, what = spec.partition(":")
        try:
            if kind == "dead":
                dead.add(parse_cell_name(what))
            elif kind == "stuck":
                stuck.add(parse_cell_name(what))
            elif kind == "broken":
                broken.add(parse_cell_name(what))
            elif kind == "swap":
                a, b = what.split("/")
                swapped.append((parse_cell_name(a), parse_cell_name(b)))
            elif kind == "dead-led":
                dead_leds.add(led(what))
            elif kind == "swap-led":
                a, b = what.split("/")
                swapped_leds.append((led(a), led(b)))
            elif kind == "break-led":
                chain_break = led(what)
            else:
                raise ValueError("unknown kind")
        except ValueError as error:
            raise ValueError(
                f"bad fault {spec!r} ({error}): use dead:T5, stuck:red-S2, swap:T20/T21, "
                "broken:red-start-1, dead-led:7, swap-led:40/41 or break-led:125"
            ) from None
    return (
        SensorFaults(frozenset(dead), frozenset(stuck), tuple(swapped), frozenset(broken)),
        LedFaults(frozenset(dead_leds), tuple(swapped_leds), chain_break),
    )

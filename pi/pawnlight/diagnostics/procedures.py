"""The tests and the calibration, run against a board: a hand, an eye, and the board's view.

The pure logic (sensor_test, led_test, calibration) decides; these drivers only ask for each
step and record what the board reported.  The hand and the eye are a person at a terminal
(people.py) or the simulated world (simulated.py): the drivers cannot tell the difference.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

from pawnlight.board.cells import CELL_NAMES, CELLS, EMPTY, LEDS
from pawnlight.board.health import calibration, led_test, sensor_test
from pawnlight.board.health.board_words import led_place_names
from pawnlight.board.health.sensing import Sensing
from pawnlight.board.layout import Layout
from pawnlight.board.leds import OFF, RGB, WHITE

from .board_view import BoardView

Progress = Callable[[str], None]


class Hand(Protocol):
    """Moves pawns; each call returns once the board has had its chance to see it."""

    def clear(self) -> None: ...

    def place(
        self, cells: Sequence[int], colour: int | None = None, off_centre: bool = False
    ) -> None: ...

    def lift(self, cells: Sequence[int]) -> None: ...


class Eye(Protocol):
    """Says where light shows while ``frame`` (with LED ``led`` lit) is on the board."""

    def look(self, led: int, frame: Sequence[RGB]) -> frozenset[str]: ...


def _values(view: BoardView) -> tuple[int, ...]:
    values = view.values()
    if values is None:
        raise RuntimeError("the board has sent no sensor values yet")
    return values


def _quiet(_: str) -> None:
    pass


def run_sensor_test(
    view: BoardView,
    hand: Hand,
    layout: Layout,
    cells: Iterable[int] = range(CELLS),
    progress: Progress = _quiet,
) -> sensor_test.SensorReport:
    """Place a pawn on each cell and lift it, then analyse what the board reported."""
    sensing = Sensing(layout)
    hand.clear()
    baseline = _values(view)
    placements = []
    cells = list(cells)
    for number, cell in enumerate(cells, start=1):
        progress(f"[{number}/{len(cells)}] {CELL_NAMES[cell]}")
        before = _values(view)
        hand.place([cell])
        placed = _values(view)
        hand.lift([cell])
        placements.append(sensor_test.Placement(cell, before, placed, _values(view)))
    return sensor_test.analyse(sensing, baseline, placements)


def run_led_test(
    show: Callable[[Sequence[RGB]], None],
    eye: Eye,
    layout: Layout,
    leds: Iterable[int] = range(LEDS),
    colour: RGB = WHITE,
    progress: Progress = _quiet,
) -> led_test.LedReport:
    """Light each LED alone in turn, ask the eye where it shows, then analyse."""
    places = led_place_names(layout)
    looks = []
    leds = list(leds)
    for number, led in enumerate(leds, start=1):
        progress(f"[{number}/{len(leds)}] LED {led} ({places[led]})")
        frame = [OFF] * LEDS
        frame[led] = colour
        show(frame)
        looks.append(led_test.LedLook(led, eye.look(led, frame)))
    show([OFF] * LEDS)
    return led_test.analyse(layout, looks)


def run_calibration(
    view: BoardView,
    hand: Hand,
    layout: Layout,
    plan: Sequence[calibration.Step],
    tolerance: int,
    progress: Progress = _quiet,
) -> calibration.Calibration:
    """Record the empty board, then each step's pawns and the empty cells after them."""
    channel_of = layout.channel_of
    hand.clear()
    empty = _values(view)
    samples = [calibration.Sample(cell, EMPTY, empty[channel_of[cell]]) for cell in range(CELLS)]
    for number, step in enumerate(plan, start=1):
        progress(f"[{number}/{len(plan)}] {calibration.class_name(step.colour)}")
        hand.place(step.cells, step.colour, step.off_centre)
        placed = _values(view)
        samples += [
            calibration.Sample(cell, step.colour, placed[channel_of[cell]], step.off_centre)
            for cell in step.cells
        ]
        hand.lift(step.cells)
        lifted = _values(view)
        samples += [
            calibration.Sample(cell, EMPTY, lifted[channel_of[cell]]) for cell in step.cells
        ]
    return calibration.calibrate(samples, layout.bits, tolerance)

"""The person at the terminal: a hand that moves real pawns and an eye that looks at real LEDs.

The hand says what to do, lights the place on the board so it is easy to find, and goes on by
itself as soon as the board has seen the pawn arrive (or leave) and settle; when nothing
happens - a dead sensor - the person presses Enter.  Putting several pawns down always ends
with Enter, since the board cannot know when the last one is down.
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import TextIO

from pawnlight.board.cells import CELL_NAMES, LEDS, parse_cell_name
from pawnlight.board.layout import Layout
from pawnlight.board.leds import OFF, RGB
from pawnlight.rules.board import COLOURS
from pawnlight.terminal_text import wrap

from .board_view import BoardView

HINT: RGB = (90, 90, 90)  # the place to put a pawn on, lit softly
SETTLE = 0.4  # seconds the board must be still after a change
PATIENCE = 120.0  # seconds to wait for a person before asking again


class Console:
    """Lines to the person, and the person's lines back, read on a thread of their own so the
    board can answer first."""

    def __init__(self, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> None:
        self._stdin = stdin
        self._stdout = stdout
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._reader: threading.Thread | None = None

    def say(self, text: str) -> None:
        self._stdout.write("\n".join(wrap(text)) + "\n")  # 80 columns, like every report
        self._stdout.flush()

    def _read(self) -> None:
        while True:
            line = self._stdin.readline()
            self._lines.put(line.rstrip("\n") if line else None)
            if not line:
                return

    def _start(self) -> None:
        if self._reader is None:
            self._reader = threading.Thread(target=self._read, name="console", daemon=True)
            self._reader.start()

    def line(self, timeout: float) -> str | None:
        """The person's next line, or None if none came within ``timeout`` seconds."""
        self._start()
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            return None
        if line is None:
            raise EOFError("no more input")
        return line

    def drain(self) -> None:
        """Forget lines typed ahead (an Enter meant for an earlier step), but not the end of
        the input."""
        while True:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                return
            if line is None:
                self._lines.put(None)
                return

    def ask(self, prompt: str) -> str:
        # Wrapped to 80 columns; the answer is typed after the last line's trailing space.
        self._stdout.write("\n".join(wrap(prompt)) + (" " if prompt.endswith(" ") else ""))
        self._stdout.flush()
        while True:
            line = self.line(PATIENCE)
            if line is not None:
                return line


class PersonHand:
    """Asks a person to move pawns on a real board."""

    def __init__(
        self,
        console: Console,
        view: BoardView,
        layout: Layout,
        show: Callable[[Sequence[RGB]], None] | None = None,
    ) -> None:
        self.console = console
        self.view = view
        self.layout = layout
        self._show = show

    def _light(self, cells: Sequence[int]) -> None:
        if self._show is None:
            return
        frame = [OFF] * LEDS
        for cell in cells:
            frame[self.layout.led_of[cell]] = HINT
        self._show(frame)

    def _ready(self) -> int:
        """Before a prompt: forget keys pressed ahead, note the board's version."""
        self.console.drain()
        return self.view.version

    def _wait(self, by_itself: bool, start: int) -> None:
        """Until Enter, or (``by_itself``) until the board changed after ``start`` and
        settled."""
        while True:
            if self.console.line(0.05) is not None:
                return
            if by_itself and self.view.version > start:
                settled = self.view.wait_settled(SETTLE, timeout=10)
                if settled is not None:
                    return

    def clear(self) -> None:
        self._light([])
        self.console.drain()
        self.console.ask("Take every pawn off the board, then press Enter. ")
        time.sleep(SETTLE)  # the last pawn's change has to reach the Pi

    def place(
        self, cells: Sequence[int], colour: int | None = None, off_centre: bool = False
    ) -> None:
        self._light(cells)
        start = self._ready()
        what = "a pawn" if colour is None else f"a {COLOURS[colour]} pawn"
        if len(cells) == 1:
            self.console.say(
                f"Put {what} on {CELL_NAMES[cells[0]]} (it is lit). Nothing happens? Press Enter."
            )
            self._wait(True, start)
        else:
            names = ", ".join(CELL_NAMES[c] for c in cells)
            pawns = "pawns" if colour is None else f"{COLOURS[colour]} pawns"
            how = (
                ", each pushed to one side of its place as far as it goes (against its "
                "centring cup)"
                if off_centre
                else ""
            )
            self.console.say(f"Put {pawns} on {names} (they are lit){how}, then press Enter.")
            self._wait(False, start)
            time.sleep(SETTLE)  # the last pawn's change has to reach the Pi

    def lift(self, cells: Sequence[int]) -> None:
        self._light([])
        start = self._ready()
        if len(cells) == 1:
            self.console.say("Lift it. Nothing happens? Press Enter.")
            self._wait(True, start)
        else:
            self.console.say("Lift them all, then press Enter.")
            self._wait(False, start)
            time.sleep(SETTLE)


class PersonEye:
    """Asks a person where an LED lit."""

    def __init__(self, console: Console, places: Sequence[str]) -> None:
        self.console = console
        self.places = places

    def look(self, led: int, frame: Sequence[RGB]) -> frozenset[str]:
        expected = self.places[led]
        while True:
            answer = self.console.ask(
                f"LED {led} should light {expected}. Enter if it does, n if nothing lit, "
                "or the place that lit (e.g. T12, red-S3, slide-T2): "
            ).strip()
            if not answer:
                return frozenset({expected})
            if answer.lower() in ("n", "no", "none"):
                return frozenset()
            if answer.lower().startswith("slide-t") and answer[7:].isdigit():
                return frozenset({f"slide-T{int(answer[7:])}"})
            try:
                return frozenset({CELL_NAMES[parse_cell_name(answer)]})
            except ValueError as error:
                self.console.say(str(error))

"""The person at the terminal: prompts, answers, and going on once the board has seen a pawn."""

from __future__ import annotations

import io
import os

from pawnlight.board.cells import LEDS, parse_cell_name
from pawnlight.board.health.board_words import led_place_names
from pawnlight.board.layout import Layout
from pawnlight.devices.sim.fake_link import FakeBoardLink
from pawnlight.diagnostics.board_view import BoardView
from pawnlight.diagnostics.people import HINT, Console, PersonEye, PersonHand

LAYOUT = Layout.named("presence")


def test_the_eye_understands_enter_no_and_a_place():
    answers = io.StringIO("\nn\nT41\nT99\nslide-t2\n")
    out = io.StringIO()
    eye = PersonEye(Console(answers, out), led_place_names(LAYOUT))
    frame = [(0, 0, 0)] * LEDS
    assert eye.look(5, frame) == {"T5"}
    assert eye.look(6, frame) == frozenset()
    assert eye.look(40, frame) == {"T41"}
    assert eye.look(112, frame) == {"slide-T2"}  # after "T99" was refused
    assert "unknown place 'T99'" in out.getvalue()
    assert "LED 40 should light T40" in out.getvalue()


class _Table(io.StringIO):
    """The terminal's screen; when asked to put a pawn on a place, the pawn arrives."""

    def __init__(self, link: FakeBoardLink) -> None:
        super().__init__()
        self.link = link

    def write(self, text: str) -> int:
        if text.startswith("Put a pawn on T7"):
            self.link.set_sensor(LAYOUT.channel_of[parse_cell_name("T7")], 1)
        return super().write(text)


def test_the_hand_lights_the_place_and_goes_on_when_the_board_sees_the_pawn():
    view = BoardView()
    link = FakeBoardLink(view)
    link.start()
    read, write = os.pipe()  # a keyboard nobody types on
    keyboard = os.fdopen(read)
    try:
        hand = PersonHand(Console(keyboard, _Table(link)), view, LAYOUT, link.send_leds)
        hand.place([parse_cell_name("T7")])
    finally:
        os.close(write)  # the console's reader sees the end of input and lets go
        keyboard.close()
    values = view.values()
    assert values is not None and values[LAYOUT.channel_of[parse_cell_name("T7")]] == 1
    assert link.frames[-1][LAYOUT.led_of[parse_cell_name("T7")]] == HINT


class _Person(io.StringIO):
    """Reads the screen and presses Enter whenever asked to."""

    def __init__(self, keys: int) -> None:
        super().__init__()
        self.keys = keys

    def write(self, text: str) -> int:
        if "press Enter" in text:
            os.write(self.keys, b"\n")
        return super().write(text)


def test_several_pawns_wait_for_enter():
    view = BoardView()
    link = FakeBoardLink(view)
    link.start()
    read, write = os.pipe()
    out = _Person(write)
    keyboard = os.fdopen(read)
    try:
        hand = PersonHand(Console(keyboard, out), view, LAYOUT, link.send_leds)
        hand.place([0, 15, 30], colour=2)
        hand.lift([0, 15, 30])
    finally:
        os.close(write)
        keyboard.close()
    text = out.getvalue()
    assert "Put yellow pawns on T0, T15, T30 (they are lit), then press Enter." in text
    assert "Lift them all, then press Enter." in text
    assert link.frames[-1] == tuple([(0, 0, 0)] * LEDS)


def test_prompts_and_lines_fit_80_columns():
    out = io.StringIO()
    console = Console(io.StringIO("\n"), out)
    console.say("Put red pawns on " + ", ".join(f"T{n}" for n in range(40)) + " (they are lit).")
    PersonEye(console, led_place_names(LAYOUT)).look(131, [(0, 0, 0)] * LEDS)
    lines = out.getvalue().split("\n")
    assert max(len(line) for line in lines) <= 80
    assert lines[-1].endswith(": ")  # the answer is typed on the prompt's last line

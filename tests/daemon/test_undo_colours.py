"""Undo after a bump on the real daemon and the simulated board (issue #16): the guidance puts
the right colour on each square, on a presence board as on a colour board."""

from __future__ import annotations

import pytest

from pawnlight.board.guidance import Correction, Fix
from pawnlight.rules.board import START, Place, parse_colour

from .process import DaemonProcess

RED, BLUE = parse_colour("red"), parse_colour("blue")
BLUE_BACK = Correction(Fix.MOVE, Place(4), Place(START, BLUE), BLUE).text
RED_OUT_OF_BLUE_START = Correction(Fix.LIFT, Place(START, BLUE), None, RED).text


def pawns(board: dict) -> dict:
    return {colour: sorted(places) for colour, places in board.items()}


def red_out_then_blues_sorry(daemon: DaemonProcess) -> None:
    """A game for red and blue set up; red's 1 leaves START for T4, blue's Sorry! replaces it."""
    daemon.request("POST", "/api/game", {"players": ["red", "blue"]}, pin=True)
    state = daemon.wait(lambda s: s["phase"] == "setup")
    daemon.request("POST", "/api/sim/board", {"pawns": state["pawns"]})
    daemon.wait(lambda s: s["phase"] == "draw")
    daemon.request("POST", "/api/sim/scan", {"card": "1"})
    daemon.wait(lambda s: s["phase"] == "move")
    daemon.touch("lift", "start:red")
    daemon.touch("place", "T4", "red")
    daemon.wait(lambda s: s["history"] == ["R:start-T4"])
    daemon.request("POST", "/api/sim/scan", {"card": "sorry"})
    daemon.wait(lambda s: s["phase"] == "move")
    daemon.touch("lift", "T4")
    daemon.touch("place", "start:red", "red")
    daemon.touch("lift", "start:blue")
    daemon.touch("place", "T4", "blue")
    daemon.wait(lambda s: len(s["history"]) == 2)


@pytest.mark.parametrize("restart", [False, True], ids=["", "killed-after-undo"])
@pytest.mark.parametrize("layout", ["presence", "colour"])
def test_undo_after_a_bump_puts_each_colour_back(tmp_path, layout, restart):
    daemon = DaemonProcess(tmp_path, layout=layout)
    daemon.start()
    try:
        red_out_then_blues_sorry(daemon)

        daemon.request("POST", "/api/undo", {}, pin=True)
        if restart:  # the Pi restarts before anyone touches the board
            daemon.wait(lambda s: s["phase"] == "setup")
            daemon.kill()
            daemon.start()
        state = daemon.wait(lambda s: s["phase"] == "setup" and s["corrections"])
        assert state["corrections"][0] == BLUE_BACK
        # The old, misleading way: a red pawn from red START into blue START. Presence alone
        # reads the board as right; the daemon knows better and asks for a swap.
        daemon.touch("lift", "start:red")
        daemon.touch("place", "start:blue", "red")
        state = daemon.wait(lambda s: s["corrections"][:1] == [RED_OUT_OF_BLUE_START])
        assert state["phase"] == "setup"
        assert daemon.touch("lift", "start:blue")["lifted"] == "red"
        assert daemon.touch("lift", "T4")["lifted"] == "blue"
        daemon.touch("place", "start:blue", "blue")
        daemon.touch("place", "T4", "red")
        state = daemon.wait(lambda s: s["phase"] == "move")
        assert state["card"] == "sorry" and state["corrections"] == []
        board = daemon.request("GET", "/api/sim/board")["pawns"]
        assert pawns(board) == pawns(state["pawns"])  # colours included
    finally:
        daemon.stop()


def test_the_simulators_set_up_swaps_a_pawn_a_presence_board_cannot_see(tmp_path):
    """Issue #34: "Put every pawn where the game has it" set the whole board at once, so a blue
    pawn replaced by a red one on the same square never left the sensor: the daemon, which knew
    the pawn there was blue, kept asking for the swap.  Hands lift before they place."""
    daemon = DaemonProcess(tmp_path, layout="presence")
    daemon.start()
    try:
        red_out_then_blues_sorry(daemon)
        daemon.request("POST", "/api/undo", {}, pin=True)
        state = daemon.wait(lambda s: s["phase"] == "setup" and s["corrections"])
        assert state["corrections"][0] == BLUE_BACK  # blue on T4 must go, red must come back

        reply = daemon.request("POST", "/api/sim/board", {"pawns": state["pawns"]})
        # Blue off T4 and a red out of red START; red onto T4 and blue into blue START.
        assert (reply["lifted"], reply["placed"]) == (2, 2)
        state = daemon.wait(lambda s: s["phase"] == "move")
        assert state["card"] == "sorry" and state["corrections"] == []
        assert pawns(reply["pawns"]) == pawns(state["pawns"])
    finally:
        daemon.stop()

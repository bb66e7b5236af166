"""SIGTERM stops the daemon within its documented time (docs/daemon.md, "The daemon"), even
while a computer seat is deciding, and loses no confirmed move."""

from __future__ import annotations

import signal
import threading
import time

import pytest

from pawnlight.players.registry import DECISION_TIME_LIMIT
from pawnlight.store.journal import Journal

from .process import DaemonProcess

#: docs/daemon.md: SIGTERM stops the daemon, exit status 0, within this many seconds.
STOP_DEADLINE = 10.0
#: Never done before the decision's time limit: as wide and deep as its settings go.
THINKER = "strong:budget=20000,width=16,depth=40"
CHOOSING = f"Blue (computer, {THINKER}) is choosing its move for an 11".encode()

pytestmark = pytest.mark.slow


def test_sigterm_while_a_computer_seat_decides_stops_in_time_and_keeps_every_move(tmp_path):
    assert DECISION_TIME_LIMIT < STOP_DEADLINE
    daemon = DaemonProcess(tmp_path)
    daemon.start()
    try:
        config = {"players": ["red", "blue"], "computer": {"blue": THINKER}}
        daemon.request("POST", "/api/game", config, pin=True)
        game_id = daemon.state()["game_id"]
        daemon.request("POST", "/api/sim/board", {"pawns": daemon.state()["pawns"]})
        for card in ("1", "2"):  # red out of START; blue out (its only move), then again
            state = daemon.wait(lambda s: s["phase"] == "draw")
            turns = len(state["turns"])
            daemon.request("POST", "/api/sim/scan", {"card": card})
            state = daemon.wait(lambda s: s["phase"] == "move")
            daemon.request("POST", "/api/sim/board", {"pawns": state["legal"][0]["pawns"]})
            daemon.wait(lambda s, n=turns: len(s["turns"]) > n)
        before = daemon.wait(lambda s: s["phase"] == "draw" and s["turn"] == "blue")
        # Blue's 11: eleven on or a switch with red's pawn, a real decision.  The simulator's
        # scan answers once the card is taken in, after the decision: it is sent aside.
        scan = threading.Thread(
            target=lambda: daemon.request("POST", "/api/sim/scan", {"card": "11"}), daemon=True
        )
        scan.start()
        log = tmp_path / "daemon.log"
        daemon.wait_for(lambda: CHOOSING in log.read_bytes(), timeout=15)
        assert daemon.process is not None
        daemon.process.send_signal(signal.SIGTERM)
        sent = time.monotonic()
        assert daemon.process.wait(timeout=STOP_DEADLINE) == 0
        stopped = time.monotonic() - sent
        # The signal came while it was choosing: the daemon said it was stopping before the
        # computer had its move.
        written = log.read_bytes().decode()
        choosing = written.index(CHOOSING.decode())
        assert choosing < written.index("INFO stopping") < written.rindex("Blue (computer) chose")
    finally:
        daemon.stop()
    print(f"stopped {stopped:.2f} s after SIGTERM")
    with Journal.open(tmp_path / "journal.sqlite3", readonly=True) as journal:
        game = journal.resume(game_id)
    assert [turn.text for turn in game.history] == before["history"]
    daemon.start()
    try:
        after = daemon.wait(lambda s: s["game_id"] == game_id and s["phase"] != "idle")
        assert after["history"] == before["history"]
    finally:
        daemon.stop()

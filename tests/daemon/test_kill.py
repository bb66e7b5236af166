"""SIGKILL the daemon mid-game, start it again: the game resumes exactly where it was."""

import random

import pytest

from pawnlight.rules import Deck, Position
from pawnlight.rules.notation import parse_move
from pawnlight.store.journal import check_file

from .hands import actions_for
from .process import DaemonProcess


def play_turn(daemon: DaemonProcess, deck: Deck, rng: random.Random, stop_after_touches=None):
    """One turn by HTTP, as the simulator page does it. Returns the state after it, or None when
    stopped part-way (after ``stop_after_touches`` touches of the board)."""
    state = daemon.state()
    turns = len(state["turns"])
    daemon.request("POST", "/api/sim/scan", {"card": deck.draw()})
    state = daemon.wait(lambda s: s["phase"] == "move" or len(s["turns"]) > turns)
    if state["phase"] != "move":
        return state
    choice = rng.choice(state["legal"])
    move = parse_move(choice["text"], Position.from_json(state["pawns"]), state["teams"])
    for touches, (action, square, colour) in enumerate(actions_for(move, rng)):
        if stop_after_touches is not None and touches == stop_after_touches:
            return None
        daemon.touch(action, square, colour)  # read by the daemon, then a hand's pace
    state = daemon.wait(lambda s: len(s["turns"]) > turns or s["phase"] == "choose")
    if state["phase"] == "choose":
        daemon.request("POST", "/api/resolve", {"move": choice["text"]}, pin=True)
        state = daemon.wait(lambda s: len(s["turns"]) > turns)
    return state


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2])
def test_sigkill_then_restart_resumes_exactly(tmp_path, seed):
    rng = random.Random(seed)
    deck = Deck(rng)
    daemon = DaemonProcess(tmp_path)
    daemon.start()
    try:
        daemon.request(
            "POST",
            "/api/game",
            {
                "edition": "parker-1950",
                "players": ["red", "blue", "yellow"],
                "teams": False,
                "variant": "standard",
            },
            pin=True,
        )
        pawns = daemon.state()["pawns"]
        daemon.request("POST", "/api/sim/board", {"pawns": pawns})
        daemon.wait(lambda s: s["phase"] == "draw")
        for _ in range(rng.randint(4, 10)):
            play_turn(daemon, deck, rng)
        # Kill mid-move: a card drawn and some pawns already lifted or put down.
        while play_turn(daemon, deck, rng, stop_after_touches=1) is not None:
            pass  # that card had no move: the next player draws
        before = daemon.state()
        assert before["phase"] == "move"
        daemon.kill()

        assert check_file(tmp_path / "journal.sqlite3") == []
        daemon.start()
        # The guidance comes once the board's first reading has arrived.
        after = daemon.wait(lambda s: s["phase"] not in ("idle", "setup") or s["corrections"])
        assert after["game_id"] == before["game_id"]
        assert after["history"] == before["history"]
        assert after["turn"] == before["turn"] and after["card"] == before["card"]
        assert after["pawns"] == before["pawns"]
        # The board still has the half-made move on it: guidance back to the position first.
        assert after["phase"] == "setup" and after["corrections"]
        daemon.request("POST", "/api/sim/board", {"pawns": after["pawns"]})
        resumed = daemon.wait(lambda s: s["phase"] in ("draw", "move"))
        assert resumed["phase"] == before["phase"] and resumed["card"] == before["card"]
        # And play goes on.
        if resumed["phase"] == "move":
            choice = resumed["legal"][0]
            daemon.request("POST", "/api/sim/board", {"pawns": choice["pawns"]})
            daemon.wait(lambda s: len(s["turns"]) > len(before["turns"]) or s["phase"] == "choose")
    finally:
        daemon.stop()

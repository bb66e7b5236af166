"""Whole games through the simulated hardware: the test acts as the players."""

import random
import time

import pytest

from pawnlight.config import Config
from pawnlight.daemon import Daemon
from pawnlight.rules import Deck, Position
from pawnlight.rules.notation import parse
from pawnlight.store.journal import Journal

from .hands import actions_for
from .test_owner_sim import wait_for

HAND = 0.07  # seconds between a hand's touches: longer than sensor flicker (0.05 s)


def play_game(daemon, config: dict, seed: int, max_turns: int = 2000) -> dict:
    owner, board = daemon.owner, daemon.sim_board
    rng = random.Random(seed)
    deck = Deck(rng)
    wait_for(owner, lambda s: s["link"]["up"])
    owner.command("new_game", config)
    state = owner.state()
    board.set_board(Position.from_json(state["pawns"]).to_json())
    state = wait_for(owner, lambda s: s["phase"] == "draw")
    for _ in range(max_turns):
        if state["phase"] == "over":
            return state
        if state["phase"] == "double":  # not used here
            raise AssertionError("unexpected double")
        events = len(state["turns"])
        board.scan(deck.draw())
        state = wait_for(owner, lambda s, n=events: s["phase"] == "move" or len(s["turns"]) > n)
        if state["phase"] == "move":
            choice = rng.choice(state["legal"])
            move = parse(choice["text"], Position.from_json(state["pawns"]), state["teams"])
            for action, square, colour in actions_for(move, rng):
                if action == "lift":
                    board.lift(square)
                else:
                    board.place(square, colour)
                # A hand takes a moment between touches; the board ignores shorter flicker.
                time.sleep(HAND)
            state = wait_for(
                owner, lambda s, n=events: len(s["turns"]) > n or s["phase"] == "choose"
            )
            if state["phase"] == "choose":
                owner.command("resolve", {"move": choice["text"]})
                state = wait_for(owner, lambda s, n=events: len(s["turns"]) > n)
            assert state["turns"][-1]["after"] == choice["pawns"] or state["history"][-1]
    raise AssertionError("the game did not end")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("layout", "config"),
    [
        ("presence", {"players": ["red", "blue", "yellow"], "edition": "hasbro-2002"}),
    ],
)
def test_a_whole_game(tmp_path, layout, config):
    daemon = Daemon(Config(data=tmp_path, sim=True, layout=layout, settle=0.1))
    daemon.start(web=False)
    try:
        started = time.monotonic()
        state = play_game(daemon, config, seed=1)
        print(f"{len(state['turns'])} turns in {time.monotonic() - started:.1f} s")
        assert state["result"]["winners"]
        with Journal.open(tmp_path / "journal.sqlite3", readonly=True) as journal:
            game = journal.resume(state["game_id"])
        assert [t.text for t in game.history] == state["history"]
    finally:
        daemon.stop()

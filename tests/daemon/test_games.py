"""Whole games through the simulated hardware: the test acts as the players."""

import random
import time
from functools import partial

import pytest

from pawnlight.players import HeuristicPlayer, view_of
from pawnlight.rules import Deck, Position
from pawnlight.rules.notation import move_text, parse_move
from pawnlight.runtime.config import Config
from pawnlight.runtime.daemon import Daemon
from pawnlight.store.journal import Journal

from .hands import HAND, make_move, read_by
from .test_owner_sim import wait_for as wait_for_state


def check_leds(daemon, state: dict, timeout: float = 5.0) -> None:
    """The board lights every legal destination on the track (in the mover's colour, or
    blinking when a pawn there would be bumped): wait until the firmware shows them."""
    layout = daemon.layout
    finals = set()
    for choice in state["legal"]:
        move = parse_move(choice["text"], Position.from_json(state["pawns"]), state["teams"])
        finals |= {step.final for step in move.steps if step.final < 60}
    wanted = [layout.led_of[square] for square in finals]
    seen: set[int] = set()

    def lit(leds) -> bool:
        seen.update(i for i in wanted if any(leds[i]))
        return seen >= set(wanted)

    daemon.firmware.wait_for_leds(lit, timeout=timeout)


#: How often the players make a random legal move rather than a good one.
WANDER = 0.15


def choose(daemon, state: dict, rng: random.Random) -> dict:
    """The players' choice among ``state["legal"]``: mostly the heuristic player's move, so a game
    ends in about half the turns of random play (a four-player partnership game in ~200 turns
    instead of ~400), and a random one ``WANDER`` of the time, so every kind of move still comes
    up.  The heuristic reads the daemon's game while it waits for the move (nothing changes it)."""
    legal = state["legal"]
    if rng.random() < WANDER:
        return rng.choice(legal)
    game = daemon.owner.companion.game
    options = game.options
    move = HeuristicPlayer().choose(view_of(game), state["card"], options) if options else None
    text = move_text(move) if move is not None else None
    return next((choice for choice in legal if choice["text"] == text), rng.choice(legal))


def play_game(
    daemon, config: dict, seed: int, max_turns: int = 2000, stop_after: int | None = None
) -> dict:
    """Play until the game is over, or until ``stop_after`` turns are recorded."""
    owner, board = daemon.owner, daemon.sim_board
    # A board slower than real time (the emulated Pico) gets as much longer to answer.
    patience = daemon.slowdown
    # Only a hang guard: a move is recognised within a second; 30 s covers CI's busiest minute.
    wait_for = partial(wait_for_state, timeout=30.0 * patience)
    rng = random.Random(seed)
    deck = Deck(rng)
    log: list = []
    wait_for(owner, lambda s: s["link"]["up"])
    owner.command("new_game", config)
    state = owner.state()
    board.set_board(Position.from_json(state["pawns"]).to_json())
    state = wait_for(owner, lambda s: s["phase"] == "draw")
    for _ in range(max_turns):
        if state["phase"] == "over" or (stop_after and len(state["turns"]) >= stop_after):
            return state
        if state["phase"] == "double":  # not used here
            raise AssertionError("unexpected double")
        events = len(state["turns"])
        card = deck.draw()
        log.append((state["turn"], state["phase"], card))
        board.scan(card)
        state = wait_for(owner, lambda s, n=events: s["phase"] == "move" or len(s["turns"]) > n)
        if state["phase"] == "move":
            check_leds(daemon, state, timeout=5.0 * patience)
            choice = choose(daemon, state, rng)
            log.append((state["turn"], state["card"], choice["text"]))
            move = parse_move(choice["text"], Position.from_json(state["pawns"]), state["teams"])
            make_move(
                board,
                move,
                rng,
                pause=HAND * patience,
                seen=partial(read_by, daemon, 10.0 * patience),
            )
            try:
                state = wait_for(
                    owner, lambda s, n=events: len(s["turns"]) > n or s["phase"] == "choose"
                )
            except AssertionError:
                state = owner.state()
                raise AssertionError(
                    f"{choice['text']} by {state['turn']} not recognised: board "
                    f"{board.board()}, corrections {state['corrections']}, "
                    f"in progress {state['in_progress']}, log {log[-6:]}"
                ) from None
            if state["phase"] == "choose":
                owner.command("resolve", {"move": choice["text"]})
                state = wait_for(owner, lambda s, n=events: len(s["turns"]) > n)
            assert state["turns"][-1]["after"] == choice["pawns"] or state["history"][-1]
    raise AssertionError("the game did not end")


GAMES = [
    ("presence", {"players": ["red", "blue", "yellow"], "edition": "hasbro-2002"}),
    ("colour", {"players": ["blue", "green"], "edition": "parker-1939", "variant": "quick"}),
    ("colour", {"players": ["red", "yellow"], "edition": "parker-1939", "variant": "patience"}),
    ("presence", {"players": ["green", "yellow"], "edition": "parker-1950", "variant": "points"}),
    (
        "colour",
        {"players": ["red", "blue", "yellow", "green"], "edition": "hasbro-2002", "teams": True},
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize(("layout", "config"), GAMES)
def test_a_whole_game(tmp_path, layout, config):
    daemon = Daemon(Config(data=tmp_path, sim=True, layout=layout, settle=0.1))
    daemon.start(web=False)
    try:
        started = time.monotonic()
        state = play_game(daemon, config, seed=1)
        print(f"{len(state['turns'])} turns in {time.monotonic() - started:.1f} s")
        result = state["result"]
        assert result["winners"] or result["patience"]
        if config.get("variant") == "points":
            assert state["scores"][result["winners"][0]] > 0
        with Journal.open(tmp_path / "journal.sqlite3", readonly=True) as journal:
            game = journal.resume(state["game_id"])
            summary = next(g for g in journal.games() if g.id == state["game_id"])
        assert [t.text for t in game.history] == state["history"]
        assert summary.finished
    finally:
        daemon.stop()

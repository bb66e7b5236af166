"""Latency and memory of the whole daemon on the simulated board.

Runs the daemon (owner thread, companion, journal, serial driver, the real firmware under
MicroPython over a pty, the simulated board) in this process, plays a whole game as the players,
and measures:

* card to LEDs: from the card's UID arriving at the Pi (the firmware's CardRead event) to the LED
  frame lighting that card's moves being sent to the board; and from the card being laid on the
  simulated reader (this adds the firmware's reader poll, every 100 ms);
* move to confirmation: from the last sensor change of a move to the LED frame that confirms it,
  less the settle time the board must stay still (the rule, not a delay of the software);
* resident memory of the process after the game.

    .venv/bin/python benchmarks/daemon_latency.py [--games N] [--settle S]
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from daemon.hands import HAND, make_move, read_by
from pawnlight.board.leds import RGB, Scene
from pawnlight.devices.events import CardRead, SensorChanged
from pawnlight.rules import Deck, Position
from pawnlight.rules.notation import parse_move
from pawnlight.runtime.config import Config
from pawnlight.runtime.daemon import Daemon


class Probe:
    """Timestamps what goes in and out of the owner."""

    def __init__(self, daemon: Daemon) -> None:
        owner = daemon.owner
        assert owner is not None
        self.owner = owner
        self.lock = threading.Lock()
        self.card_at: float | None = None
        self.change_at: float | None = None
        self.sends: list[tuple[float, str, int]] = []
        post = owner.post

        def noted() -> None:
            game = owner.companion.game
            turns = len(game.history) if game else 0
            with self.lock:
                self.sends.append((time.perf_counter(), owner.companion.phase, turns))

        def posting(item: object) -> None:
            now = time.perf_counter()
            with self.lock:
                if isinstance(item, CardRead):
                    self.card_at = now
                elif isinstance(item, SensorChanged):
                    self.change_at = now
            post(item)

        # The owner lights the board one of two ways: a frame (firmware 1.0) or a scene the
        # board animates itself (1.1 on); whichever it takes, its moment is the LEDs' moment.
        lights = owner.lights  # runtime/held_lights.py sends what the owner shows
        send_leds, send_scene = lights._send_leds, lights._send_scene

        def sending_frame(frame: Sequence[RGB]) -> None:
            noted()
            send_leds(frame)

        def sending_scene(scene: Scene, phase_ms: int) -> bool:
            noted()
            return send_scene(scene, phase_ms) if send_scene is not None else False

        owner.post = posting  # type: ignore[method-assign]
        lights._send_leds = sending_frame
        lights._send_scene = sending_scene if send_scene is not None else None
        link = daemon.link
        assert link is not None
        link._emit = posting

    def first_send(self, after: float, predicate, timeout: float = 10.0) -> float:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                for at, phase, turns in self.sends:
                    if at >= after and predicate(phase, turns):
                        return at
            time.sleep(0.001)
        raise TimeoutError("no LED frame")


def wait_state(owner, predicate, timeout=15.0):
    subscription = owner.subscribe()
    try:
        state = owner.state()
        deadline = time.monotonic() + timeout
        while not predicate(state):
            state = subscription.get(max(0.0, deadline - time.monotonic())) or state
            if time.monotonic() > deadline:
                raise TimeoutError(state["message"])
        return state
    finally:
        subscription.close()


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--settle", type=float, default=0.3)
    parser.add_argument("--layout", default="presence")
    parser.add_argument("--turns", type=int, default=0, help="stop each game after N turns")
    parser.add_argument(
        "--sim-pico",
        action="store_true",
        help="the firmware on an emulated RP2040 (needs PAWNLIGHT_RP2040_DIR, docs/firmware.md)",
    )
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a few seconds' run that checks the benchmark still produces its figures (./test)",
    )
    args = parser.parse_args()
    if args.smoke:
        args.games, args.turns = 1, 8

    card_to_leds: list[float] = []
    reader_to_leds: list[float] = []
    move_to_confirm: list[float] = []
    turns_played = 0
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as data:
        config = Config(
            data=Path(data),
            sim=True,
            sim_pico=args.sim_pico,
            layout=args.layout,
            settle=args.settle,
        )
        daemon = Daemon(config)
        daemon.start(web=False)
        try:
            probe = Probe(daemon)
            owner, board = daemon.owner, daemon.sim_board
            assert owner is not None and board is not None
            # The emulated Pico runs slower than a real one: every wait is as much longer.
            patience = daemon.slowdown
            wait = partial(wait_state, timeout=15.0 * patience)
            wait(owner, lambda s: s["link"]["up"])
            rng = random.Random(7)
            for _ in range(args.games):
                deck = Deck(rng)
                owner.command("new_game", {"players": ["red", "blue", "yellow", "green"]})
                board.set_board(Position.from_json(owner.state()["pawns"]).to_json())
                state = wait(owner, lambda s: s["phase"] == "draw")
                while state["phase"] != "over" and not (
                    args.turns and len(state["turns"]) >= args.turns
                ):
                    turns = len(state["turns"])
                    laid = time.perf_counter()
                    board.scan(deck.draw())
                    state = wait(
                        owner, lambda s, n=turns: s["phase"] == "move" or len(s["turns"]) > n
                    )
                    if state["phase"] != "move":
                        continue
                    with probe.lock:
                        card_at = probe.card_at
                    assert card_at is not None, "the card reached the owner unseen"
                    lit = probe.first_send(card_at, lambda phase, t: phase == "move", 10 * patience)
                    card_to_leds.append(lit - card_at)
                    reader_to_leds.append(lit - laid)
                    choice = rng.choice(state["legal"])
                    move = parse_move(choice["text"], Position.from_json(state["pawns"]), False)
                    seen = partial(read_by, daemon, 10.0 * patience)
                    make_move(board, move, rng, pause=HAND * patience, seen=seen)
                    state = wait(
                        owner, lambda s, n=turns: len(s["turns"]) > n or s["phase"] == "choose"
                    )
                    if state["phase"] == "choose":
                        owner.command("resolve", {"move": choice["text"]})
                        state = wait(owner, lambda s, n=turns: len(s["turns"]) > n)
                        continue
                    with probe.lock:
                        change_at = probe.change_at
                    assert change_at is not None, "the move's changes reached the owner unseen"
                    confirmed = probe.first_send(
                        change_at, lambda phase, t, n=turns: t > n, 10 * patience
                    )
                    move_to_confirm.append(confirmed - change_at - args.settle)
                turns_played += len(state["turns"])
        finally:
            daemon.stop()
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    elapsed = time.monotonic() - started

    if not (card_to_leds and move_to_confirm):
        print("daemon_latency: no card or no move was measured", file=sys.stderr)
        return 1

    def line(name: str, values: list[float]) -> str:
        ms = [v * 1000 for v in values]
        return (
            f"  {name:<44} median {statistics.median(ms):6.1f} ms   "
            f"p99 {percentile(ms, 99):6.1f} ms   (n={len(ms)})"
        )

    print(
        f"daemon on the {'emulated Pico' if args.sim_pico else 'simulated'} {args.layout} "
        f"board: {args.games} game(s), "
        f"{turns_played} turns, {elapsed:.0f} s"
    )
    print(line("card UID at the Pi -> LEDs sent", card_to_leds))
    print(line("card laid on the reader -> LEDs sent", reader_to_leds))
    print(line(f"last sensor change -> confirmation (- {args.settle} s settle)", move_to_confirm))
    print(f"  peak resident memory of the process: {rss_mb:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())

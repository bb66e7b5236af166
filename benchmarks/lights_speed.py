"""How long the lights take: an LED frame (painted up to 25 times a second) and the state's
``lit`` with the state it is part of, in a busy moment (four players, a split 7: 21 moves).

    .venv/bin/python benchmarks/lights_speed.py [--repeat N]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from companion.bench import Bench
from pawnlight.companion.lights import frame_for, picture_for
from pawnlight.rules import Position
from pawnlight.rules.game import Game, GameConfig

PAWNS = {
    "red": ["T5", "T20", "T40", "start"],
    "blue": ["T10", "T30", "start", "start"],
    "yellow": ["T45", "T50", "start", "start"],
    "green": ["T55", "T1", "start", "start"],
}


def per_call_ms(call: Callable[[int], object], repeat: int) -> float:
    """CPU milliseconds a call (the process's own time: a shared machine disturbs it less)."""
    start = time.process_time()
    for index in range(repeat):
        call(index)
    return (time.process_time() - start) / repeat * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2000)
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a short run that checks the benchmark still produces its figures (./test)",
    )
    args = parser.parse_args()
    repeat = 20 if args.smoke else args.repeat
    bench = Bench()
    position = Position.from_json(PAWNS)
    players = ("red", "blue", "yellow", "green")
    bench.companion.resume(Game(GameConfig(players=players), position))
    bench.show(position)
    bench.scan("7")
    companion = bench.companion
    print(f"{companion.phase}: {len(bench.game.legal)} legal moves of a 7, four players")
    frame = per_call_ms(lambda i: frame_for(companion, i * 0.04), repeat)
    lit = per_call_ms(lambda i: picture_for(companion, i * 0.04), repeat)
    typed = per_call_ms(lambda i: companion.state(), repeat)
    state = per_call_ms(lambda i: companion.state().to_json(), max(repeat // 4, 1))
    print(f"LED frame (painted up to 25 times a second): {frame:.3f} ms")
    print(f"lit (what every lit place means):            {lit:.3f} ms")
    print(f"the typed state, lit included (every input): {typed:.3f} ms")
    print(f"its JSON too (once per published change):    {state:.3f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

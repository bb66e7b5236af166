"""How long the journal takes to write down a move late in a long game, two ways: the event
with what the companion decided (the daemon's way: the rules run once, in the companion), and
the event alone, checked by the store's own replay (imports and tools; the daemon's way before).

    .venv/bin/python benchmarks/journal_append.py [--games 3]

Each append is a durable SQLite transaction (WAL, synchronous=FULL): its wall time is mostly the
disk's sync, its CPU time is what the store itself does.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from pawnlight.rules.game import Game, GameConfig
from pawnlight.store.journal import Decided, Journal
from store.randomplay import Player

LATE = 100  # the last this many appends of each game are timed


def long_game(seed: int) -> list[tuple[object, Decided]]:
    """A 4-player game at random (with undos), each event with what the game decided."""
    game = Game(GameConfig())
    player = Player(game, seed, undo=0.04, double=0.0)
    played = []
    while not game.over:
        player.act()
        result = game.result if game.over else None
        played.append((game.events[-1], Decided(len(game.events), len(game.history), result)))
    return played


def timed(played, decided: bool) -> tuple[list[float], list[float]]:
    """Wall and CPU milliseconds of each of the late appends."""
    walls, cpus = [], []
    with tempfile.TemporaryDirectory() as folder, Journal.open(Path(folder) / "j.sqlite3") as j:
        game_id = j.new_game(GameConfig())
        for index, (event, told) in enumerate(played):
            wall, cpu = time.perf_counter(), time.process_time()
            j.append(game_id, event, told if decided else None)
            if index >= len(played) - LATE:
                walls.append((time.perf_counter() - wall) * 1000)
                cpus.append((time.process_time() - cpu) * 1000)
    return walls, cpus


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a few seconds' run that checks the benchmark still produces its figures (./test)",
    )
    args = parser.parse_args()
    if args.smoke:
        args.games = 1
    games = [long_game(seed) for seed in range(1, args.games + 1)]
    events = sum(len(g) for g in games) / len(games)
    print(f"{args.games} four-player games, {events:.0f} events on average; last {LATE} timed")
    for label, decided in (("decided by the companion", True), ("replayed by the store", False)):
        walls, cpus = [], []
        for played in games:
            wall, cpu = timed(played, decided)
            walls += wall
            cpus += cpu
        print(
            f"  {label:26s} wall median {statistics.median(walls):6.2f} ms, "
            f"CPU median {statistics.median(cpus):5.3f} ms, "
            f"CPU p99 {sorted(cpus)[int(len(cpus) * 0.99) - 1]:5.3f} ms"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

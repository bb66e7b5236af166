"""How long does a computer player think? Seconds per decision, over real game positions.

Collects the decisions of a few seeded 4-player games (every turn that had more than one legal
move), then times each player on exactly those decisions and prints the median, the 90th
percentile and the slowest, with decisions per second.  The strong player's work is a fixed
number of simulated turns (its ``budget``), so on a Raspberry Pi the same moves come out, only
later: multiply by the Pi's slowdown (docs/players.md).

    .venv/bin/python benchmarks/player_speed.py [--games N] [--players heuristic,strong,...]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

from pawnlight.players import HeuristicPlayer, make_player, play_game
from pawnlight.players.base import distinct_moves
from pawnlight.players.registry import split_specs
from pawnlight.rules import GameConfig, compiled


class Recorder(HeuristicPlayer):
    """Plays as the heuristic and keeps every decision that had more than one move."""

    def __init__(self, found: list) -> None:
        super().__init__()
        self.found = found

    def choose(self, view, card, options):
        if len(distinct_moves(options.moves)) > 1:
            self.found.append((view, card, options))
        return super().choose(view, card, options)


#: The colours at the table for each number of players (two sit opposite each other).
TABLES = {2: ("red", "yellow"), 3: ("red", "blue", "yellow"), 4: ("red", "blue", "yellow", "green")}


def decisions(games: int, edition: str, seats: int = 4) -> list:
    """(view, card, options) for every turn of ``games`` heuristic games that had a choice."""
    found: list = []
    config = GameConfig(edition=edition, players=TABLES[seats])
    recorder = Recorder(found)
    for seed in range(games):
        play_game(config, dict.fromkeys(config.turn_order, recorder), seed)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--edition", default="hasbro-2002")
    parser.add_argument(
        "--players", default="heuristic,learned,strong:budget=400,strong,strong:leaf=chance"
    )
    parser.add_argument("--seats", type=int, default=4, choices=sorted(TABLES))
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a few seconds' run that checks the benchmark still produces its figures (./test)",
    )
    args = parser.parse_args()
    if args.smoke:
        args.games, args.players = 1, "heuristic,learned,strong:budget=50"
    points = decisions(args.games, args.edition, args.seats)
    print(f"{platform.python_implementation()} {platform.python_version()} on {platform.machine()}")
    print(compiled.describe())
    print(
        f"{len(points)} decisions with a choice, from {args.games} {args.seats}-player "
        f"{args.edition} games"
    )
    print(f"{'player':<24}{'median ms':>10}{'p90 ms':>10}{'max ms':>10}{'decisions/s':>13}")
    for spec in split_specs(args.players):
        player = make_player(spec, seed=1, time_limit=None)
        times = []
        for view, card, options in points:
            # CPU time of this process: on a shared machine, waiting for a core is not thinking.
            start = time.process_time()
            player.choose(view, card, options)
            times.append(time.process_time() - start)
        times.sort()
        p90 = times[int(0.9 * (len(times) - 1))]
        print(
            f"{spec:<24}{1000 * statistics.median(times):>10.2f}{1000 * p90:>10.2f}"
            f"{1000 * times[-1]:>10.2f}{len(times) / sum(times):>13.0f}"
        )


if __name__ == "__main__":
    main()

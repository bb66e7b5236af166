"""How well the game's story estimates the chances: of the positions given about 70%, how many
were won?  Seeded self-play games between heuristic players (tables of two, three and four in
turn), each told as a story; every colour's chance after every turn but the last is put in a
band of ten points, and each band's mean chance is set against the share of those positions
whose colour went on to win (docs/players.md, "The game's story")::

    python -m pawnlight_lab.story_calibration --games 1000 --jobs 2

The largest gap over the bands holding at least 1% of the chances is the error the story states
(:data:`pawnlight.players.story.ERROR`).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass

from pawnlight.players.heuristic import HeuristicPlayer
from pawnlight.players.parallel import default_jobs, run_all
from pawnlight.players.story import Judge, seen_since_shuffle, tell
from pawnlight.players.table import play_game
from pawnlight.players.tournament import TABLE_COLOURS
from pawnlight.rules.game import GameConfig

EDITION = "hasbro-2002"
BANDS = 10


@dataclass(frozen=True)
class Told:
    """One game's story in brief: its chances (band sums and counts, per band how many won)."""

    turns: int
    seconds: float
    sums: tuple[float, ...]
    counts: tuple[int, ...]
    wins: tuple[int, ...]


def play_and_tell(job: tuple[int, int]) -> Told:
    seed, number = job
    size = (2, 3, 4)[number % 3]
    config = GameConfig(edition=EDITION, players=TABLE_COLOURS[size])
    players = {colour: HeuristicPlayer() for colour in config.turn_order}
    game = play_game(config, players, f"{seed}:story:{number}")
    began = time.perf_counter()
    story = tell(game, number)
    seconds = time.perf_counter() - began
    won = {c for c, p in story["turns"][-1]["chances"].items() if p == 1.0}
    sums = [0.0] * BANDS
    counts = [0] * BANDS
    wins = [0] * BANDS
    for turn in story["turns"][:-1]:
        for colour, chance in turn["chances"].items():
            band = min(BANDS - 1, int(chance * BANDS))
            sums[band] += chance
            counts[band] += 1
            wins[band] += colour in won
    return Told(len(story["turns"]), seconds, tuple(sums), tuple(counts), tuple(wins))


def utilities_of(job: tuple[int, int]) -> tuple[int, list[tuple[list[float], int]]]:
    """One self-play game's moments for the fit: per turn but the last, each colour's utility
    (in the game's order) and which of them won; and the table's size."""
    seed, number = job
    size = (2, 3, 4)[number % 3]
    config = GameConfig(edition=EDITION, players=TABLE_COLOURS[size])
    order = config.turn_order
    players = {colour: HeuristicPlayer() for colour in order}
    game = play_game(config, players, f"{seed}:fit:{number}")
    assert game.result is not None
    winner = order.index(game.result.winners[0])
    judge = Judge(order, False, False)
    history = game.history
    cards = [turn.card for turn in history]
    moments = []
    for index, turn in enumerate(history[:-1]):
        unseen = seen_since_shuffle(cards[: index + 1], False)
        utility = judge.utilities(turn.after, history[index + 1].colour, unseen)
        moments.append(([utility[c] for c in order], winner))
    return size, moments


def fit_temperatures(games: int, seed: int, jobs: int) -> dict[int, float]:
    """Per table size, the temperature that gives the winners the most likelihood."""
    found: dict[int, list[tuple[list[float], int]]] = {}
    for size, moments in run_all(utilities_of, [(seed, g) for g in range(games)], jobs):
        found.setdefault(size, []).extend(moments)
    best = {}
    for size, moments in sorted(found.items()):

        def likelihood(t: float, moments: list[tuple[list[float], int]] = moments) -> float:
            total = 0.0
            for utility, winner in moments:
                top = max(utility)
                total += (utility[winner] - top) / t - math.log(
                    sum(math.exp((u - top) / t) for u in utility)
                )
            return total / len(moments)

        low, high = 0.5, 3.0
        for _ in range(40):  # golden-section search: the likelihood has one peak in t
            a, b = high - (high - low) / 1.618, low + (high - low) / 1.618
            if likelihood(a) > likelihood(b):
                high = b
            else:
                low = a
        best[size] = round((low + high) / 2, 3)
        print(f"table of {size}: {len(moments)} moments, temperature {best[size]}")
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pawnlight_lab.story_calibration")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=49)
    parser.add_argument("--jobs", type=int, default=default_jobs())
    parser.add_argument(
        "--fit",
        action="store_true",
        help="fit the temperatures per table size (story.TEMPERATURE) on these games instead",
    )
    args = parser.parse_args(argv)
    if args.games < 1:
        print("error: --games must be at least 1", file=sys.stderr)
        return 2
    if args.fit:
        fit_temperatures(args.games, args.seed, args.jobs)
        return 0
    told = list(run_all(play_and_tell, [(args.seed, g) for g in range(args.games)], args.jobs))
    sums = [sum(t.sums[b] for t in told) for b in range(BANDS)]
    counts = [sum(t.counts[b] for t in told) for b in range(BANDS)]
    wins = [sum(t.wins[b] for t in told) for b in range(BANDS)]
    total = sum(counts)
    print(f"{args.games} games (seed {args.seed}), {total} chances told")
    print(" band      chances  mean given  share won   gap")
    worst = 0.0
    for band in range(BANDS):
        if not counts[band]:
            continue
        given, share = sums[band] / counts[band], wins[band] / counts[band]
        gap = share - given
        counted = counts[band] >= total / 100
        if counted:
            worst = max(worst, abs(gap))
        low, high = band * 100 // BANDS, (band + 1) * 100 // BANDS
        note = "" if counted else "  (under 1% of the chances: not counted)"
        print(f" {low:>3}-{high:<3}%  {counts[band]:>8}  {given:>9.1%}  {share:>9.1%}  "
              f"{gap:+.1%}{note}")  # fmt: skip
    turns = [t.turns for t in told]
    seconds = [t.seconds for t in told]
    per_turn = sum(seconds) / sum(turns)
    print(f"largest gap {worst:.1%}; a story took {sum(seconds) / len(told) * 1000:.0f} ms on "
          f"average ({per_turn * 1000:.2f} ms a turn, longest game {max(turns)} turns, "
          f"{max(seconds) * 1000:.0f} ms)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())

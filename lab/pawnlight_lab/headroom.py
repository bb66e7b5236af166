"""How much could a player gain on the heuristic by judging each move by whole games?

Issue #37 asks for a player that beats the heuristic head-to-head by a clear margin.  Every
player tried so far improves on the heuristic one decision at a time (look at each of the
heuristic's best moves, play the one whose futures look best), so this measures the room that
way of playing has, with as few assumptions as possible:

* decisions are sampled from two-player games between heuristics (``every``-th decision with a
  choice, so neighbouring decisions do not repeat each other);
* each of the heuristic's best ``width`` moves (and declining, where an 11 may be declined) is
  played on to the end of the game in the same ``futures`` shuffles of the unseen cards (common
  random numbers), every seat played by the heuristic, which is exactly the opponent a
  head-to-head game has.  A future scores 1 if the deciding colour wins it, else 0;
* :func:`gain_curve` then asks what a player choosing on ``k`` of those futures would gain: it
  chooses on one half of the futures and is judged on the other half, which it never saw
  (and the other way round), so its luck in choosing does not flatter it.

The answer, per decision, times the decisions a side makes in a game, is what such a player
would win more than the heuristic (docs/players.md, "How much room there is")::

    python -m pawnlight_lab.headroom --games 120 --futures 600 --jobs 2

``--judge SPEC`` then asks a player to choose in each measured decision and judges its choice by
all the futures: a cheap way to screen a slow player before a tournament.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from pawnlight.players.base import Player, distinct_moves
from pawnlight.players.evaluation import WIN
from pawnlight.players.heuristic import HeuristicPlayer, rank_moves
from pawnlight.players.parallel import default_jobs, run_all
from pawnlight.players.registry import make_player
from pawnlight.players.rollout import Future, Rollouts, card_stream
from pawnlight.players.table import play_game
from pawnlight.players.tournament import TABLE_COLOURS
from pawnlight.players.view import GameView
from pawnlight.rules.game import GameConfig
from pawnlight.rules.moves import Move, Options
from pawnlight.rules.position import Position

#: The edition the head-to-head tournaments of docs/players.md play.
EDITION = "hasbro-2002"
#: Turns after which a future is cut off (no game between heuristics lasts this long).
MAX_TURNS = 1000


@dataclass(frozen=True)
class Decision:
    """One sampled decision: its candidates' heuristic scores and their futures' results."""

    game: int
    card: str
    #: The heuristic's score of each candidate, best first: candidate 0 is the heuristic's move.
    scores: tuple[float, ...]
    #: Per candidate, one character per future: "1" if the deciding colour won it, else "0".
    #: Future ``i`` is the same shuffle for every candidate.
    wins: tuple[str, ...]

    @property
    def futures(self) -> int:
        return len(self.wins[0])

    def results(self, candidate: int, futures: range) -> list[int]:
        line = self.wins[candidate]
        return [1 if line[i] == "1" else 0 for i in futures]

    def differences(self, candidate: int, futures: range) -> list[int]:
        """Per future: what ``candidate`` won less what the heuristic's move won (-1, 0, 1)."""
        base = self.results(0, futures)
        return [a - b for a, b in zip(self.results(candidate, futures), base, strict=True)]


class _Recorder(HeuristicPlayer):
    """The heuristic, noting every decision where it had a choice."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[GameView, str, Options]] = []

    def choose(self, view: GameView, card: str, options: Options) -> Move | None:
        if len(distinct_moves(options.moves)) + bool(options.forfeit) >= 2:
            self.seen.append((view, card, options))
        return super().choose(view, card, options)


def sampled_decisions(seed: int, game: int, every: int) -> list[tuple[GameView, str, Options]]:
    """Every ``every``-th decision with a choice of one side in game ``game`` of heuristics.

    The recorded side alternates with the game number (so it moves first in half the games),
    and so does where in the game the sampling starts.
    """
    config = GameConfig(edition=EDITION, players=TABLE_COLOURS[2])
    order = config.turn_order
    recorder = _Recorder()
    seats = {order[game % 2]: recorder, order[1 - game % 2]: HeuristicPlayer()}
    play_game(config, seats, f"{seed}:headroom:{game}")
    return recorder.seen[game % every :: every]


def candidates(
    rollouts: Rollouts, view: GameView, options: Options, width: int
) -> list[tuple[float, Position]]:
    """The heuristic's best ``width`` moves (declining among them), best first, with scores.

    Ties keep the move generator's order, as the heuristic's own choice does, so candidate 0
    is always the move the heuristic plays.
    """
    ranked = [
        (score, move.after)
        for score, move in rank_moves(rollouts.root, distinct_moves(options.moves))
    ]
    if options.forfeit:
        # Declining is appended last and the sort is stable: it comes first only when it scores
        # strictly higher, just as HeuristicPlayer.choose declines.
        ranked.append((rollouts.root.score(view.position), view.position))
        ranked.sort(key=lambda item: -item[0])
    return ranked[:width]


def measure_decision(
    view: GameView, options: Options, width: int, futures: int, rng: random.Random
) -> tuple[tuple[float, ...], tuple[str, ...]] | None:
    """Scores and whole-game results of the candidates; None if the heuristic's move wins."""
    rollouts = Rollouts(view)
    ranked = candidates(rollouts, view, options, width)
    if ranked[0][0] >= WIN:
        return None  # a move that wins at once: nothing to improve on
    colour = rollouts.next_colour(view.colour, options.again)
    lines: list[list[str]] = [[] for _ in ranked]
    for _ in range(futures):
        future = Future(card_stream(view.unseen, rng, view.extra_one))
        for line, (_, position) in zip(lines, ranked, strict=True):
            value = rollouts.play_out(position, colour, future.cards(), MAX_TURNS)
            line.append("1" if value > 0 else "0")
    return tuple(score for score, _ in ranked), tuple("".join(line) for line in lines)


@dataclass(frozen=True)
class GameJob:
    seed: int
    game: int
    futures: int
    every: int
    width: int


def measure_game(job: GameJob) -> list[Decision]:
    """The decisions sampled from one game, each measured (seeded by game and decision)."""
    found = []
    for index, (view, card, options) in enumerate(sampled_decisions(job.seed, job.game, job.every)):
        rng = random.Random(f"{job.seed}:headroom:{job.game}:{index}")
        measured = measure_decision(view, options, job.width, job.futures, rng)
        if measured is not None:
            found.append(Decision(job.game, card, *measured))
    return found


def choice(decision: Decision, futures: range, z: float) -> int:
    """The candidate a player judging by ``futures`` plays: the heuristic's, unless another did
    better in those futures by more than ``z`` standard errors of the paired difference."""
    best, best_gain = 0, 0.0
    for candidate in range(1, len(decision.wins)):
        diffs = decision.differences(candidate, futures)
        gain = statistics.fmean(diffs)
        spread = statistics.pstdev(diffs) / math.sqrt(len(diffs))
        if gain > 0 and gain > z * spread and gain > best_gain:
            best, best_gain = candidate, gain
    return best


def held_out_gain(decision: Decision, size: int, z: float) -> float:
    """What choosing on ``size`` futures of one half gains, judged on the other half (both ways)."""
    half = decision.futures // 2
    halves = (range(0, half), range(half, 2 * half))
    total = 0.0
    for seen, unseen in (halves, halves[::-1]):
        picked = choice(decision, range(seen.start, seen.start + min(size, half)), z)
        total += statistics.fmean(decision.differences(picked, unseen))
    return total / 2


@dataclass(frozen=True)
class Estimate:
    mean: float
    error: float  # one standard error

    def times(self, factor: float) -> Estimate:
        return Estimate(self.mean * factor, self.error * factor)

    def __str__(self) -> str:
        return f"{self.mean:+.4f} ± {self.error:.4f}"


def estimate(values: Sequence[float]) -> Estimate:
    if len(values) < 2:
        return Estimate(statistics.fmean(values) if values else 0.0, math.inf)
    return Estimate(statistics.fmean(values), statistics.stdev(values) / math.sqrt(len(values)))


def gain_curve(
    decisions: Sequence[Decision], sizes: Iterable[int], z: float
) -> list[tuple[int, Estimate]]:
    """(futures, gain per decision) for a player choosing on that many futures per candidate."""
    return [(size, estimate([held_out_gain(d, size, z) for d in decisions])) for size in sizes]


@dataclass(frozen=True)
class Spread:
    """How far the heuristic's second choice is from its first, in chance to win."""

    mean: float  # the average difference (second less first)
    true_sd: float  # the spread of the true differences, the futures' noise taken out
    noise_sd: float  # one decision's standard error of the difference


def second_choice_spread(decisions: Sequence[Decision]) -> Spread:
    means, noise = [], []
    for d in decisions:
        diffs = d.differences(1, range(d.futures))
        means.append(statistics.fmean(diffs))
        noise.append(statistics.pvariance(diffs) / len(diffs))
    true_variance = statistics.pvariance(means) - statistics.fmean(noise)
    return Spread(
        statistics.fmean(means),
        math.sqrt(max(0.0, true_variance)),
        math.sqrt(statistics.fmean(noise)),
    )


def decisions_per_game(seed: int, games: int) -> float:
    """Decisions with a choice one side makes in a game between heuristics, on average."""
    return statistics.fmean(len(sampled_decisions(seed, game, 1)) for game in range(games))


@dataclass(frozen=True)
class Judgement:
    """A player's choices on the measured decisions, judged by their futures."""

    gain: Estimate  # per decision, in chance to win
    judged: int  # decisions whose choice was one of the measured candidates
    outside: int  # decisions where it chose a move that was not measured
    seconds: float  # the player's thinking, in all


@dataclass(frozen=True)
class Moment:
    """A measured decision with what it was made in, for a player to choose again."""

    decision: Decision
    view: GameView
    card: str
    options: Options
    positions: tuple[Position, ...]  # the candidates' positions, in the decision's order


def replayed(decisions: Sequence[Decision], seed: int, every: int, width: int) -> list[Moment]:
    """Each measured decision with the view it was made in, found again by replaying its game.

    ValueError when the decisions were measured with another seed, spacing or width.
    """
    by_game: dict[int, list[Decision]] = {}
    for d in decisions:
        by_game.setdefault(d.game, []).append(d)
    found = []
    for game, measured in sorted(by_game.items()):
        moments = []
        for view, card, options in sampled_decisions(seed, game, every):
            ranked = candidates(Rollouts(view), view, options, width)
            if ranked[0][0] < WIN:
                moments.append((tuple(score for score, _ in ranked), view, card, options, ranked))
        if len(moments) < len(measured):
            raise ValueError(f"game {game} has fewer decisions than were measured")
        for d, (scores, view, card, options, ranked) in zip(measured, moments, strict=False):
            if (card, scores) != (d.card, d.scores):
                raise ValueError(
                    f"game {game}: the decisions were measured with another --seed, "
                    "--every or --width"
                )
            found.append(Moment(d, view, card, options, tuple(p for _, p in ranked)))
    return found


def judge(player: Player | str, moments: Sequence[Moment]) -> Judgement:
    """What ``player``'s choices gain on the heuristic's, judged by all the measured futures.

    The player never sees those futures (it samples its own, if any), so no half need be kept
    back: a decision costs one of its choices, not a game, which makes a slow player cheap to
    judge (a 2,000-game tournament asks it some 54,000 times).
    """
    if isinstance(player, str):
        player = make_player(player, seed=1, time_limit=None)
    gains, outside, thinking = [], 0, 0.0
    for m in moments:
        started = time.perf_counter()
        move = player.choose(m.view, m.card, m.options)
        thinking += time.perf_counter() - started
        chosen = m.view.position if move is None else move.after
        if chosen not in m.positions:
            outside += 1
            continue
        d = m.decision
        gains.append(statistics.fmean(d.differences(m.positions.index(chosen), range(d.futures))))
    return Judgement(estimate(gains), len(gains), outside, thinking)


def report(decisions: Sequence[Decision], per_game: float, sizes: Sequence[int]) -> str:
    lines = [
        f"{len(decisions)} decisions from {len({d.game for d in decisions})} games; "
        f"{per_game:.1f} decisions with a choice per side per game",
    ]
    spread = second_choice_spread(decisions)
    lines.append(
        f"heuristic's second choice less its first: {spread.mean:+.4f} on average, true spread "
        f"{spread.true_sd:.4f}, one decision's noise {spread.noise_sd:.4f} "
        f"({decisions[0].futures} futures)"
    )
    lines.append(
        "futures per candidate | margin | gain per decision | per game (head-to-head points)"
    )
    for z in (0.0, 1.0, 2.0):
        for size, gain in gain_curve(decisions, sizes, z):
            game = gain.times(per_game * 100)
            lines.append(f"{size:>21} | {z:>6.0f} | {gain} | {game.mean:+.1f} ± {game.error:.1f}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m pawnlight_lab.headroom",
        description="How much a player choosing each move by whole-game futures could gain "
        "on the heuristic, head-to-head.",
    )
    parser.add_argument("--games", type=int, default=120, help="games of heuristics to sample from")
    parser.add_argument("--futures", type=int, default=600, help="whole-game futures per candidate")
    parser.add_argument("--every", type=int, default=2, help="sample every n-th decision")
    parser.add_argument("--width", type=int, default=6, help="the heuristic's best n moves")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=default_jobs())
    parser.add_argument("--out", type=Path, help="write the measured decisions here (JSON lines)")
    parser.add_argument("--load", type=Path, help="report on decisions written before, not measure")
    parser.add_argument(
        "--judge",
        action="append",
        default=[],
        metavar="SPEC",
        help="judge this player's choices by the measured futures (repeatable)",
    )
    args = parser.parse_args(argv)
    for name in ("games", "futures", "every", "width", "jobs"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    if args.futures < 4:
        parser.error("--futures must be at least 4 (two halves of two)")
    started = time.monotonic()
    if args.load is not None:
        try:
            decisions = [
                _decision(json.loads(line)) for line in args.load.read_text().splitlines() if line
            ]
        except (OSError, ValueError, KeyError, TypeError) as error:
            parser.error(f"{args.load}: not a file of measured decisions ({error})")
    else:
        jobs = [
            GameJob(args.seed, g, args.futures, args.every, args.width) for g in range(args.games)
        ]
        decisions = []
        out = args.out.open("w", encoding="utf-8") if args.out else None
        try:
            for done, found in enumerate(run_all(measure_game, jobs, args.jobs), 1):
                decisions.extend(found)
                if out is not None:
                    out.writelines(json.dumps(asdict(d)) + "\n" for d in found)
                    out.flush()
                print(
                    f"game {done}/{args.games}: {len(decisions)} decisions, "
                    f"{time.monotonic() - started:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )
        finally:
            if out is not None:
                out.close()
    if not decisions:
        parser.error("no decisions to report on")
    futures = min(d.futures for d in decisions)
    sizes = sorted({s for s in (25, 50, 100, 200, futures // 2) if s <= futures // 2})
    per_game = decisions_per_game(args.seed, 100)
    print(report(decisions, per_game, sizes))
    if args.judge:
        try:
            moments = replayed(decisions, args.seed, args.every, args.width)
        except ValueError as error:
            parser.error(str(error))
        print("player | per game (head-to-head points) | decisions judged, not measured | thinking")
        for spec in args.judge:
            try:
                verdict = judge(spec, moments)
            except ValueError as error:
                parser.error(f"--judge {spec}: {error}")
            game = verdict.gain.times(per_game * 100)
            print(
                f"{spec} | {game.mean:+.1f} ± {game.error:.1f} | {verdict.judged}, "
                f"{verdict.outside} | {verdict.seconds:.1f} s"
            )
    print(f"{time.monotonic() - started:.0f} s")
    return 0


def _decision(data: object) -> Decision:
    """A decision as written by ``--out``; ValueError names what is wrong."""
    if not isinstance(data, dict):
        raise ValueError("a decision is a JSON object")
    wins, scores, game, card = data["wins"], data["scores"], data["game"], data["card"]
    if not (isinstance(wins, list) and isinstance(scores, list) and isinstance(game, int)):
        raise ValueError("wins and scores are lists, game a number")
    if len(wins) < 2 or len(wins) != len(scores) or len({len(str(w)) for w in wins}) != 1:
        raise ValueError("each decision needs two or more candidates with equally many futures")
    if any(set(str(w)) - {"0", "1"} for w in wins):
        raise ValueError("a future's result is 0 or 1")
    return Decision(game, str(card), tuple(float(s) for s in scores), tuple(map(str, wins)))


if __name__ == "__main__":
    sys.exit(main())

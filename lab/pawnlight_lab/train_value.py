"""Learns the learned player's weights by self-play: TD(lambda) on the positions after each move.

Every seat is a :class:`~.learned.LearnedPlayer` with the current weights; it plays the game
greedily (the cards are chance enough).  For each colour the positions just after its moves form
a sequence; when the game ends each position's target is its lambda-return (the next position's
value, mixed with the targets further on, down to the result: 1 for the winner, 0 otherwise),
and the weights move towards it by the gradient of the log-loss, ``alpha * (target - value) * x``.
The weights change only between games, so a game is played with one set of weights.

Everything comes from the seed: game ``g`` of a table of ``n`` is dealt from
``"{seed}:train:{n}:{g}"``.  The value is computed by the player (plain Python, summed in a
fixed order) and the updates are element-wise numpy operations, so the same settings give the
same weights bit for bit; the file keeps the weights after the first few games (``check``) so
that a test can replay them.

    python -m pawnlight_lab.train_value --out pi/pawnlight/players/learned_value.json

needs numpy (the ``tune`` extra).  docs/players.md gives the measured times.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pawnlight.players.base import Player
from pawnlight.players.heuristic import HeuristicPlayer
from pawnlight.players.learned import FEATURES, SIDE_FEATURES, LearnedPlayer, dot, squash
from pawnlight.players.table import play_game
from pawnlight.players.tournament import TABLE_COLOURS
from pawnlight.players.view import GameView
from pawnlight.rules.game import GameConfig
from pawnlight.rules.moves import Move, Options

#: What the weights file records and what the test replays.
FORMAT = 1
#: The heuristic input's weight before any learning.
INITIAL_HEURISTIC = 1.0


@dataclass(frozen=True)
class TrainSettings:
    """One table size's training run."""

    players: int
    games: int
    alpha: float = 0.005
    #: alpha falls linearly to this share of itself by the last game.
    alpha_end: float = 0.2
    lam: float = 0.5
    seed: int = 1
    #: The weights kept are the average of those after each game from this share of the run
    #: on (the last games' noise averages out).
    average_from: float = 0.5
    #: Who sits at the other seats: the learner itself ("self") or the heuristic, whose
    #: positions are then not learned from ("heuristic"; the learner's seat rotates).
    opponents: str = "self"


def initial_weights() -> list[float]:
    """Where learning starts: the heuristic's judgement alone (so the first games are played as
    the heuristic plays), about one unit of log-odds per pawn's worth of lead."""
    w = [0.0] * len(FEATURES)
    w[FEATURES.index("heuristic")] = INITIAL_HEURISTIC
    return w


class _Recorder(LearnedPlayer):
    """Plays as the learned player and keeps, per colour, each position after its move with
    its features and value."""

    def __init__(self, tables: Mapping[int, Sequence[float]]) -> None:
        super().__init__(tables)
        self.trail: dict[int, list[tuple[list[float], float]]] = {}

    def choose(self, view: GameView, card: str, options: Options) -> Move | None:
        move = super().choose(view, card, options)
        after = view.position if move is None else move.after
        if not after.all_home(view.colour):
            x = self.features(view).of(after)
            value = value_of(self.tables[len(view.active)], x)
            self.trail.setdefault(view.colour, []).append((x, value))
        return move


def lambda_returns(values: list[float], outcome: float, lam: float) -> list[float]:
    """Each position's target: G_t = (1 - lam) V_{t+1} + lam G_{t+1}, the last one's the result."""
    targets = [0.0] * len(values)
    following = outcome
    for t in range(len(values) - 1, -1, -1):
        targets[t] = following
        following = (1.0 - lam) * values[t] + lam * following
    return targets


def train(
    settings: TrainSettings,
    stop_after: int | None = None,
    progress: Callable[[int, list[float]], None] | None = None,
) -> list[float]:
    """The weights after ``settings.games`` games (or the first ``stop_after`` of them)."""
    import numpy as np

    if settings.opponents not in ("self", "heuristic"):
        raise ValueError("opponents are the learner itself or the heuristic")
    if settings.players not in TABLE_COLOURS:
        raise ValueError("a table has 2 to 4 players")
    if settings.games < 1:
        raise ValueError("training needs at least one game")
    config = GameConfig(players=TABLE_COLOURS[settings.players])
    w = np.array(initial_weights(), dtype=np.float64)
    games = settings.games if stop_after is None else min(stop_after, settings.games)
    first_averaged = int(settings.games * settings.average_from)
    total = np.zeros_like(w)
    averaged = 0
    for g in range(games):
        recorder = _Recorder({settings.players: w.tolist()})
        seats: dict[int, Player] = dict.fromkeys(config.turn_order, recorder)
        if settings.opponents == "heuristic":
            seats = dict.fromkeys(config.turn_order, HeuristicPlayer())
            seats[config.turn_order[g % settings.players]] = recorder
        game = play_game(config, seats, f"{settings.seed}:train:{settings.players}:{g}")
        assert game.result is not None
        winners = set(game.result.winners)
        share = 1.0 - (1.0 - settings.alpha_end) * g / max(1, settings.games - 1)
        alpha = settings.alpha * share
        step = np.zeros_like(w)
        for colour in config.turn_order:
            trail = recorder.trail.get(colour, [])
            if not trail:
                continue
            values = [v for _, v in trail]
            targets = lambda_returns(values, 1.0 if colour in winners else 0.0, settings.lam)
            xs = np.array([x for x, _ in trail], dtype=np.float64)
            errors = np.array(targets, dtype=np.float64) - np.array(values, dtype=np.float64)
            # Summed over the rows one after another (axis 0): element-wise, the same bits
            # on every machine.
            step = step + (errors[:, None] * xs).sum(axis=0)
        w = w + alpha * step
        if g >= first_averaged:
            total = total + w
            averaged += 1
        if progress is not None:
            progress(g + 1, w.tolist())
    kept = total / averaged if averaged else w
    return [float(v) for v in kept]


def weights_document(runs: list[TrainSettings], check_games: int) -> dict[str, Any]:
    """The whole weights file: the weights per table size, the settings that made them and the
    weights after the first ``check_games`` games of each run (for the reproduction test)."""
    tables = {}
    check = {}
    for run in runs:
        started = time.perf_counter()
        tables[str(run.players)] = train(run, progress=_progress(run))
        check[str(run.players)] = train(run, stop_after=check_games)
        print(
            f"{run.players} players: {run.games} games in {time.perf_counter() - started:.0f} s",
            file=sys.stderr,
        )
    return {
        "format": FORMAT,
        "features": list(FEATURES),
        "side_features": list(SIDE_FEATURES),
        "runs": [asdict(run) for run in runs],
        "tables": tables,
        "check": {"games": check_games, "tables": check},
    }


def value_of(weights: Sequence[float], x: Sequence[float]) -> float:
    return squash(dot(weights, x))


def _progress(run: TrainSettings) -> Callable[[int, list[float]], None] | None:
    if not sys.stderr.isatty():
        return None

    def show(done: int, _: list[float]) -> None:
        end = "\n" if done == run.games else ""
        print(f"\r{run.players} players: {done}/{run.games} games", end=end, file=sys.stderr)

    return show


def reproduces(document: Mapping[str, Any]) -> bool:
    """Whether training again with the document's settings gives its check weights exactly."""
    games = int(document["check"]["games"])
    for run in document["runs"]:
        settings = TrainSettings(**run)
        again = train(settings, stop_after=games)
        if again != document["check"]["tables"][str(settings.players)]:
            return False
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m pawnlight_lab.train_value",
        description="Learn the learned player's weights by self-play (needs numpy).",
    )
    parser.add_argument("--out", required=True, metavar="FILE", help="where to write the JSON")
    parser.add_argument(
        "--games",
        default="2=16000,4=3000",
        help="games per table size, e.g. 2=16000,4=3000 (default: %(default)s)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--alpha", type=float, default=TrainSettings.alpha)
    parser.add_argument("--lam", type=float, default=TrainSettings.lam)
    parser.add_argument(
        "--check-games", type=int, default=20, help="games replayed by the reproduction test"
    )
    args = parser.parse_args(argv)
    try:
        import numpy  # noqa: F401
    except ImportError:
        print("error: training needs numpy (pip install -e 'lab[tune]')", file=sys.stderr)
        return 2
    try:
        runs = [
            TrainSettings(
                players=int(size), games=int(count), alpha=args.alpha, lam=args.lam, seed=args.seed
            )
            for size, _, count in (part.partition("=") for part in args.games.split(","))
        ]
        for run in runs:
            if run.players not in TABLE_COLOURS or run.games < 1 or args.check_games < 1:
                raise ValueError
    except ValueError:
        print(
            "error: --games takes table sizes 2 to 4 with a game count each, like 2=16000,4=3000",
            file=sys.stderr,
        )
        return 2
    document = weights_document(runs, args.check_games)
    try:
        Path(args.out).write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    except OSError as error:
        print(f"error: {args.out}: {error.strerror}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

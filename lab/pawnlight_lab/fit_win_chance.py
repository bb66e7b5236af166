"""Fit the win-chance model (win_chance.py) on seeded games of four heuristic players.

    python -m pawnlight_lab.fit_win_chance --games 8000 --jobs 2

Every moment of every game (after each turn) gives each colour's figures and, at the end, who
won.  The weights maximise the likelihood of the winners under the softmax (a conditional logit,
solved by Newton's method with a touch of ridge so that figures that overlap, such as the steps
to go and the values, keep finite weights).  One
game in five is held out: the printed log-likelihoods show the fit predicts games it never saw.
The result is written as JSON with how it was made; the one shipped is ``win_chance.json``.

Needs numpy (the ``tune`` extra); playing the games needs nothing more than pawnlight.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pawnlight.players import win_chance as win_chance_module
from pawnlight.players.evaluation import Evaluator
from pawnlight.players.game_stats import game_statistics
from pawnlight.players.heuristic import HeuristicPlayer
from pawnlight.players.parallel import default_jobs, run_all
from pawnlight.players.table import play_game
from pawnlight.players.tournament import TABLE_COLOURS
from pawnlight.players.view import card_probabilities, view_of
from pawnlight.players.win_chance import FEATURES, MODEL_FILE, WinChance, WinModel
from pawnlight.rules.game import Game, GameConfig

EDITION = "hasbro-2002"
#: Where the Pi's package reads its model (pawnlight/players/win_chance.json), written by default.
SHIPPED_MODEL = Path(win_chance_module.__file__).with_name(MODEL_FILE)
_ZERO = WinModel((0.0,) * len(FEATURES))


@dataclass(frozen=True)
class Sample:
    """One game's moments: per moment, each colour's figures; and which colours won."""

    number: int
    moments: list[list[list[float]]]
    won: list[float]


def play_sample(job: tuple[int, int]) -> Sample:
    """Play game ``number`` of the seeded self-play and record every moment's figures."""
    seed, number = job
    config = GameConfig(edition=EDITION, players=TABLE_COLOURS[4])
    order = config.turn_order
    moments: list[list[list[float]]] = []

    def record(game: Game, _move: object) -> None:
        if game.over:
            return
        view = view_of(game)
        evaluator = Evaluator((order[0],), order[1:], card_probabilities(view.unseen))
        figures = WinChance(evaluator, (order[0],), order, _ZERO).features(game.position, game.turn)
        moments.append([figures[c] for c in order])

    players = {colour: HeuristicPlayer() for colour in order}
    game = play_game(config, players, f"{seed}:game:{number}", on_turn=record)
    winners = game_statistics(game).winners
    return Sample(number, moments, [1.0 if c in winners else 0.0 for c in order])


def fit(features: Any, won: Any, ridge: float = 1e-3, steps: int = 50) -> Any:
    """The conditional-logit weights for ``features`` (moments x colours x figures)."""
    import numpy as np

    count, _, size = features.shape
    theta = np.zeros(size)
    for _ in range(steps):
        utility = features @ theta
        utility -= utility.max(axis=1, keepdims=True)
        chance = np.exp(utility)
        chance /= chance.sum(axis=1, keepdims=True)
        gradient = np.einsum("nc,nck->k", won - chance, features) - ridge * count * theta
        mean = np.einsum("nc,nck->nk", chance, features)
        hessian = (
            np.einsum("nc,nck,ncj->kj", chance, features, features)
            - mean.T @ mean
            + ridge * count * np.eye(size)
        )
        step = np.linalg.solve(hessian, gradient)
        theta += step
        if np.abs(step).max() < 1e-9:
            break
    return theta


def log_likelihood(features: Any, won: Any, theta: Any) -> float:
    """Mean log-chance given to the actual winner, per moment (uniform over 4: -1.386)."""
    import numpy as np

    utility = features @ theta
    utility -= utility.max(axis=1, keepdims=True)
    log_chance = utility - np.log(np.exp(utility).sum(axis=1, keepdims=True))
    return float((won * log_chance).sum(axis=1).mean())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pawnlight_lab.fit_win_chance")
    parser.add_argument("--games", type=int, default=8000)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--jobs", type=int, default=default_jobs())
    parser.add_argument("--ridge", type=float, default=1e-3)
    parser.add_argument("--out", type=Path, default=SHIPPED_MODEL, help="JSON to write")
    args = parser.parse_args(argv)
    try:
        import numpy as np
    except ImportError:
        needs = "fit_win_chance needs numpy (the tune extra): pip install 'numpy>=1.26'"
        print(needs, file=sys.stderr)
        return 2
    if args.games < 5:
        print("fit_win_chance needs at least 5 games", file=sys.stderr)
        return 2
    began = time.monotonic()
    samples = list(run_all(play_sample, [(args.seed, g) for g in range(args.games)], args.jobs))
    features = np.array([m for s in samples for m in s.moments])
    won = np.array([s.won for s in samples for _ in s.moments])
    held_out = np.array([s.number % 5 == 0 for s in samples for _ in s.moments])
    theta = fit(features[~held_out], won[~held_out], args.ridge)
    train = log_likelihood(features[~held_out], won[~held_out], theta)
    test = log_likelihood(features[held_out], won[held_out], theta)
    theta_value = fit(features[~held_out][:, :, :1], won[~held_out], args.ridge)
    test_value = log_likelihood(features[held_out][:, :, :1], won[held_out], theta_value)
    model = WinModel(tuple(float(x) for x in theta))
    report = {
        "about": "pawnlight win-chance model: see pawnlight/players/win_chance.py",
        "made_by": f"python -m pawnlight_lab.fit_win_chance --games {args.games} "
        f"--seed {args.seed} --ridge {args.ridge}",
        "edition": EDITION,
        "games": args.games,
        "moments": len(features),
        "log_likelihood": {
            "uniform": round(-math.log(4), 5),
            "heuristic_value_only_held_out": round(test_value, 5),
            "train": round(train, 5),
            "held_out": round(test, 5),
        },
        "weights": model.to_json(),
    }
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(
        f"{args.games} games, {len(features)} moments, {time.monotonic() - began:.0f} s; "
        f"held-out log-likelihood {test:.5f} (value alone {test_value:.5f}, "
        f"uniform {-math.log(4):.5f}); wrote {args.out}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

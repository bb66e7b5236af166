"""Each colour's chance to win from a position, fitted on games of four heuristic players.

The heuristic's score says how far ahead a side is; the strong player needs what that lead is
worth at the end, when a future it samples stops after a round.  A colour's chance is a softmax
over the colours of a linear *utility* of a few figures about it (a conditional logit): the
heuristic's colour value with its risks and without them (so the fit weighs risk apart from
progress), the steps its pawns still have to go (all of them, the last pawn's and the first's),
how many are home, in START and in the safety zone, and whose turn it is (:data:`FEATURES`).
The race's end is where the heuristic's straight sum is most wrong: a colour with three pawns
home and its last one near is far likelier to win than the squares alone say.

The weights come from ``python -m pawnlight_lab.fit_win_chance`` (docs/players.md) and live
in ``win_chance.json`` beside this file.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from ..rules.board import START, TRACK_SQUARES
from ..rules.position import Position
from .evaluation import TOGO, Evaluator

#: The figures of a colour the utility weighs, in order (see :meth:`WinChance.features`).
FEATURES: tuple[str, ...] = (
    "value",  # the heuristic's colour value, risks included (squares' worth)
    "static",  # the same without the risks
    "home_1",  # exactly one pawn home (1 or 0)
    "home_2",
    "home_3",
    "moves_now",  # this colour plays next (1 or 0)
    "moves_second",
    "moves_third",
    "remaining",  # steps still to go, all pawns, / 100
    "remaining_squared",
    "last_pawn",  # steps to go of the pawn farthest from HOME, / 65
    "first_pawn",  # steps to go of the nearest pawn not yet HOME, / 65
    "value_squared",  # (value / 100) squared: a lead counts more as it grows
    "in_start",  # pawns in START
    "in_safety",  # pawns in the safety zone
)
MODEL_FILE = "win_chance.json"


@dataclass(frozen=True)
class WinModel:
    """The fitted weights of the utility, one per name in :data:`FEATURES`."""

    weights: tuple[float, ...]

    def __post_init__(self) -> None:
        if len(self.weights) != len(FEATURES):
            raise ValueError(f"win chance model: {len(FEATURES)} weights expected")

    @classmethod
    def from_json(cls, data: dict) -> WinModel:
        weights = data["weights"]
        missing = [name for name in FEATURES if name not in weights]
        if missing:
            raise ValueError(f"win chance model: no weight for {', '.join(missing)}")
        return cls(tuple(float(weights[name]) for name in FEATURES))

    def to_json(self) -> dict[str, float]:
        return dict(zip(FEATURES, self.weights, strict=True))


@cache
def default_model() -> WinModel:
    """The model shipped with pawnlight (python -m pawnlight_lab.fit_win_chance made it)."""
    text = files(__package__).joinpath(MODEL_FILE).read_text(encoding="utf-8")
    return WinModel.from_json(json.loads(text))


class WinChance:
    """The chance that ``team`` wins from a position, given whose turn it is."""

    def __init__(
        self,
        evaluator: Evaluator,
        team: Sequence[int],
        order: Sequence[int],
        model: WinModel | None = None,
    ) -> None:
        self.evaluator = evaluator
        self.team = tuple(team)
        self.order = tuple(order)
        self.model = model or default_model()
        self._static = evaluator.static

    def features(self, position: Position, to_move: int) -> dict[int, list[float]]:
        """Each playing colour's figures, in the order of :data:`FEATURES`."""
        values = self.evaluator.colour_values(position)
        playing = [c for c in self.order if position[c] is not None]
        now = playing.index(to_move) if to_move in playing else 0
        found = {}
        for index, colour in enumerate(playing):
            pawns: tuple[int, ...] = position[colour]  # type: ignore[assignment]
            togo_of = TOGO[colour]
            static_of = self._static[colour]
            static = 0.0
            home = in_start = in_safety = remaining = last = 0
            first = 99
            for place in pawns:
                static += static_of[place]
                togo = togo_of[place]
                if togo == 0:
                    home += 1
                    continue
                remaining += togo
                last = max(last, togo)
                first = min(first, togo)
                if place == START:
                    in_start += 1
                elif place >= TRACK_SQUARES:
                    in_safety += 1
            wait = (index - now) % len(playing)
            value = values[colour]
            found[colour] = [
                value,
                static,
                float(home == 1),
                float(home == 2),
                float(home == 3),
                float(wait == 0),
                float(wait == 1),
                float(wait == 2),
                remaining / 100,
                (remaining / 100) ** 2,
                last / 65,
                (first if first < 99 else 0) / 65,
                (value / 100) ** 2,
                float(in_start),
                float(in_safety),
            ]
        return found

    def chances(self, position: Position, to_move: int) -> dict[int, float]:
        """Each playing colour's chance to win; they add up to 1."""
        weights = self.model.weights
        utilities = {
            colour: sum(w * x for w, x in zip(weights, figures, strict=True))
            for colour, figures in self.features(position, to_move).items()
        }
        top = max(utilities.values())
        exp = {c: math.exp(u - top) for c, u in utilities.items()}
        total = sum(exp.values())
        return {c: e / total for c, e in exp.items()}

    def value(self, position: Position, to_move: int) -> float:
        """The team's chance to win: 1 when it has won."""
        if all(position.all_home(c) for c in self.team):
            return 1.0
        chances = self.chances(position, to_move)
        return sum(chances.get(c, 0.0) for c in self.team)

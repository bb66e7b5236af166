"""The learned player: one look ahead, judged by a value learned in self-play.

For the card drawn, every distinct legal move is made on paper and the position it leaves is
scored by a linear value of the position's features, squashed into a chance to win
(``1 / (1 + exp(-w·x))``); the move with the highest chance is played.  The weights ``w`` were
learned by temporal-difference learning (TD(lambda)) in games the player played against itself
(the player lab's ``pawnlight_lab.train_value`` makes them, learned_value.json keeps them with
the seed and settings that made them).  At play time this module needs only the standard library.

The features of one side (a colour) in a position, given the chances of the next card drawn
(the cards not seen since the last shuffle):

* where its pawns stand: each pawn's distance to HOME spread over a few knots (so the learned
  worth of a pawn is piecewise linear in its distance), how many are in START and how many are
  in the safety zone;
* what it stands to lose: the chance that an opponent's next card bumps (or sweeps) each of its
  pawns on the track, alone and times the pawn's progress, and a Sorry!'s threat to its most
  advanced pawn;
* the promise of a 4 (or a 10 played backward) for pawns just past their START, and the chance
  of the 1 or 2 that brings a pawn out of START;
* an own pawn on the start circle blocking the next one out, and how many pawns are on the track.

A position's input is the deciding side's features, its leading opponent's (by distance to
HOME) and the sum of the other opponents' (none at a two-player table), the heuristic's score of
the position, and a constant.  Two and four players have weights of their own (a table of three
uses the four's).  Partnership, point play, the quick game and Patience Sorry! are not
learned: there the player plays as the heuristic (docs/players.md).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from importlib import resources

from ..rules.board import HOME, PLACE_COUNT, START, START_CIRCLES, TRACK_SQUARES
from ..rules.editions import Variant
from ..rules.moves import Move, Options
from ..rules.position import Position
from .base import Player, distinct_moves
from .evaluation import BACKWARD_GAIN, HITS, TOGO, WIN, Evaluator, in_order
from .heuristic import HeuristicPlayer
from .view import GameView, card_probabilities

#: Distances to HOME where a pawn's worth is learned; between two knots it is interpolated.
#: START is 65 (one more than the start circle), HOME 0.
KNOTS: tuple[int, ...] = (0, 5, 10, 20, 30, 40, 50, 58, 65)
#: The features of one side, in order (``side_features``).
SIDE_FEATURES: tuple[str, ...] = (
    *(f"togo{k}" for k in KNOTS),
    "in_start",
    "in_safety",
    "risk",
    "risk_loss",
    "sorry_loss",
    "backward",
    "exit_chance",
    "blocked_circle",
    "on_track",
)
SIDE = len(SIDE_FEATURES)
#: The whole input: the decider's features, its leading opponent's, the others' summed, and 1.
FEATURES: tuple[str, ...] = (
    *(f"me.{n}" for n in SIDE_FEATURES),
    *(f"lead.{n}" for n in SIDE_FEATURES),
    *(f"rest.{n}" for n in SIDE_FEATURES),
    "heuristic",
    "bias",
)
#: The heuristic's score is one input, in pawns' worth (a pawn home from START is about 64).
HEURISTIC_SCALE = 64.0
#: The file the learned weights are kept in (inside the package).
WEIGHTS_FILE = "learned_value.json"
#: The chance to win given to a move that wins at once.
WON = 1.0


def _tents() -> tuple[tuple[tuple[tuple[int, float], ...], ...], ...]:
    """TENTS[colour][place]: (knot index, share) pairs that spread a pawn over the knots."""
    table = []
    for colour in range(4):
        row = []
        for place in range(PLACE_COUNT):
            togo = min(TOGO[colour][place], KNOTS[-1])
            for i in range(len(KNOTS) - 1):
                low, high = KNOTS[i], KNOTS[i + 1]
                if low <= togo <= high:
                    share = (togo - low) / (high - low)
                    pairs = [(i, 1.0 - share), (i + 1, share)]
                    row.append(tuple((k, s) for k, s in pairs if s > 0.0))
                    break
        table.append(tuple(row))
    return tuple(table)


TENTS = _tents()
#: A pawn's progress from START (0) to HOME (1).
PROGRESS = tuple(
    tuple((KNOTS[-1] - min(TOGO[c][p], KNOTS[-1])) / KNOTS[-1] for p in range(PLACE_COUNT))
    for c in range(4)
)
_IN_START, _IN_SAFETY, _RISK, _RISK_LOSS, _SORRY, _BACKWARD, _EXIT, _BLOCKED, _ON_TRACK = range(
    len(KNOTS), SIDE
)


@lru_cache(maxsize=8192)  # the chances change every turn: keep only recent ones
def _threats(chances: tuple[tuple[str, float], ...], colour: int, place: int) -> dict[int, float]:
    """Square -> chance that the pawn of ``colour`` on ``place`` hits it with the next card."""
    chance = dict(chances)
    return {
        square: min(1.0, in_order(chance.get(c, 0.0) for c in cards))
        for square, cards in HITS[colour][place]
    }


class Features:
    """Works out the input of the value for positions seen with one set of card chances."""

    def __init__(
        self, probabilities: Mapping[str, float], colour: int, opponents: Sequence[int]
    ) -> None:
        self.colour = colour
        self.opponents = tuple(opponents)
        self.evaluator = Evaluator((colour,), self.opponents, probabilities)
        self.key = tuple(sorted(probabilities.items()))
        self.sorry = probabilities.get("sorry", 0.0)
        self.start_chance = min(1.0, probabilities.get("1", 0.0) + probabilities.get("2", 0.0))
        self.backward_chance = min(1.0, probabilities.get("4", 0.0) + probabilities.get("10", 0.0))

    def side(self, position: Position, colour: int, enemies: Sequence[int]) -> list[float]:
        """The features of ``colour`` (SIDE_FEATURES) with ``enemies`` to fear."""
        f = [0.0] * SIDE
        pawns = position[colour] or ()
        tents = TENTS[colour]
        progress = PROGRESS[colour]
        gain = BACKWARD_GAIN[colour]
        in_start = 0
        track = []
        for place in pawns:
            for knot, share in tents[place]:
                f[knot] += share
            if place == START:
                in_start += 1
            elif place < TRACK_SQUARES:
                track.append(place)
            elif place != HOME:
                f[_IN_SAFETY] += 1.0
        f[_IN_START] = in_start
        f[_ON_TRACK] = len(track)
        if in_start:
            f[_EXIT] = self.start_chance
            if START_CIRCLES[colour] in pawns:
                f[_BLOCKED] = 1.0
        if track:
            key = self.key
            attackers = []
            sorry_enemies = 0
            for enemy in enemies:
                enemy_pawns = position[enemy] or ()
                for place in enemy_pawns:
                    if place < TRACK_SQUARES:
                        attackers.append(_threats(key, enemy, place))
                if enemy_pawns and enemy_pawns[-1] == START:  # sorted: START is the largest
                    sorry_enemies += 1
                    attackers.append({START_CIRCLES[enemy]: self.start_chance})
            best = 0.0
            backward = 0.0
            for place in track:
                risk = 0.0
                for threats in attackers:
                    risk += threats.get(place, 0.0)
                if risk > 1.0:
                    risk = 1.0
                f[_RISK] += risk
                f[_RISK_LOSS] += risk * progress[place]
                if progress[place] > best:
                    best = progress[place]
                backward += gain[place]
            f[_BACKWARD] = backward * self.backward_chance / KNOTS[-1]
            if sorry_enemies:
                f[_SORRY] = min(1.0, self.sorry * sorry_enemies) * best
        return f

    def of(self, position: Position) -> list[float]:
        """The value's input (FEATURES) for the colour against its opponents."""
        colour, opponents = self.colour, self.opponents
        mine = self.side(position, colour, opponents)
        others = [
            self.side(position, o, [c for c in (colour, *opponents) if c != o]) for o in opponents
        ]
        x = mine
        if others:
            # The leading opponent: the one with the least distance to go.
            lead = min(range(len(opponents)), key=lambda i: _distance(position, opponents[i]))
            x = x + others[lead]
            rest = [0.0] * SIDE
            for i, other in enumerate(others):
                if i != lead:
                    rest = [a + b for a, b in zip(rest, other, strict=True)]
            x = x + rest
        else:
            x = x + [0.0] * (2 * SIDE)
        x.append(min(WIN, self.evaluator.score(position)) / HEURISTIC_SCALE)
        x.append(1.0)
        return x


def _distance(position: Position, colour: int) -> int:
    togo = TOGO[colour]
    return sum(togo[p] for p in position[colour] or ())


def dot(weights: Sequence[float], x: Sequence[float]) -> float:
    """``w·x`` summed left to right (the same bits wherever it runs)."""
    total = 0.0
    for w, v in zip(weights, x, strict=True):
        total += w * v
    return total


def squash(z: float) -> float:
    """The logistic function, safe for any z."""
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def load_tables(text: str | None = None) -> dict[int, list[float]]:
    """The weights per table size from learned_value.json (or ``text`` in its format)."""
    if text is None:
        text = resources.files(__package__).joinpath(WEIGHTS_FILE).read_text(encoding="utf-8")
    data = json.loads(text)
    if list(data.get("features", ())) != list(FEATURES):
        raise ValueError(f"{WEIGHTS_FILE} was made for other features: retrain (train_value.py)")
    tables = {int(k): [float(v) for v in w] for k, w in data["tables"].items()}
    for size, weights in tables.items():
        if len(weights) != len(FEATURES):
            raise ValueError(f"{WEIGHTS_FILE}: {size}-player weights have the wrong length")
    return tables


@cache
def default_tables() -> dict[int, list[float]]:
    return load_tables()


def weights_for(tables: Mapping[int, Sequence[float]], players: int) -> Sequence[float]:
    """The weights for a table of ``players`` (the nearest larger table's when not learned)."""
    if players in tables:
        return tables[players]
    larger = [size for size in tables if size >= players]
    return tables[min(larger)] if larger else tables[max(tables)]


class LearnedPlayer(Player):
    """Plays the move after which the learned value gives the best chance to win."""

    name = "learned"

    def __init__(
        self,
        tables: Mapping[int, Sequence[float]] | None = None,
        time_limit: float | None = None,
    ) -> None:
        self.tables = dict(tables) if tables is not None else default_tables()
        #: Seconds one decision may take (None: no limit); past it the best move so far is
        #: played (the first move is always scored).
        self.time_limit = time_limit
        self._fallback = HeuristicPlayer()

    def learned_for(self, view: GameView) -> bool:
        """Whether this game is one the value was learned for (else the heuristic plays)."""
        return view.variant == Variant.STANDARD and not view.teams and bool(view.opponents)

    @staticmethod
    def features(view: GameView) -> Features:
        """The feature maker for ``view``'s colour and the cards it has not seen."""
        return Features(card_probabilities(view.unseen), view.colour, view.opponents)

    def _value(
        self, weights: Sequence[float], features: Features, view: GameView, position: Position
    ) -> float:
        if position.all_home(view.colour):
            return WON
        return squash(dot(weights, features.of(position)))

    def choose(self, view: GameView, card: str, options: Options) -> Move | None:
        if not self.learned_for(view):
            return self._fallback.choose(view, card, options)
        moves = distinct_moves(options.moves)
        if not moves:
            return None
        if len(moves) == 1 and not options.forfeit:
            return moves[0]
        deadline = None if self.time_limit is None else time.monotonic() + self.time_limit
        weights = weights_for(self.tables, len(view.active))
        features = self.features(view)
        best: Move | None = None
        best_value = -1.0
        for move in moves:
            value = self._value(weights, features, view, move.after)
            if value > best_value:
                best, best_value = move, value
            if deadline is not None and time.monotonic() > deadline:
                return best  # out of time: the best of the moves scored so far
        if options.forfeit and self._value(weights, features, view, view.position) > best_value:
            return None  # an 11 whose every switch would hurt: decline it
        return best

    def choose_card(self, view: GameView) -> str:
        return self._fallback.choose_card(view)

    def wants_double(self, view: GameView) -> bool:
        return self._fallback.wants_double(view)

    def accepts_double(self, view: GameView) -> bool:
        return self._fallback.accepts_double(view)

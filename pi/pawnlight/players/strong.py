"""The strong player: the heuristic's best few moves, each tried in many sampled futures.

For every candidate the same sampled futures are played (common random numbers), so the
comparison between two moves is not drowned by the luck of the cards.  A future is a shuffle of
the cards not yet seen since the last shuffle, played for a round or so by every seat with the
greedy heuristic, then scored by the heuristic.  The work per decision is a fixed number of
simulated turns (``budget``), not a time: on a Raspberry Pi Zero 2 W the same decision comes
out, only later.  Randomness comes from a generator keyed on the seed and the moment of the
game, so the same seed gives the same move whatever was asked before.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass

from ..rules.editions import Variant
from ..rules.moves import Move, Options
from ..rules.position import Position
from .base import Player, card_options, distinct_moves, least_useful
from .evaluation import WIN, Weights
from .heuristic import DOUBLE_LEAD, DROP_LAG, hand_bonus, lead, rank_moves
from .rollout import Future, Rollouts, card_stream
from .view import HAND_SIZE, GameView

#: Simulated turns per decision.  About 0.1 s on the development machine; the Pi Zero 2 W is
#: roughly ten times slower (docs/players.md).
DEFAULT_BUDGET = 1200
#: Candidates kept from the heuristic's ranking: the rest are rarely better and cost as much.
DEFAULT_WIDTH = 4
#: How clearly (in standard errors) a move must beat the heuristic's choice in the sampled
#: futures before the strong player plays it instead.
DEFAULT_MARGIN = 1.0
#: What a future is worth where it stops: the heuristic's score, or the chance to win from there
#: (win_chance.py).  The score is the default: the chance measured no stronger and costs about
#: a quarter more time (docs/players.md).
LEAVES = ("score", "chance")
#: Sampled futures per decision however small the budget: one alone would be a coin toss.
MIN_FUTURES = 2


@dataclass(frozen=True)
class _Candidate:
    card: str
    move: Move | None  # None: decline (or a dead hand's discard)
    after: Position
    prior: float  # the heuristic's score, which also breaks ties


class StrongPlayer(Player):
    """Monte Carlo over the unseen cards, with the heuristic as the playout policy."""

    name = "strong"

    def __init__(
        self,
        seed: int | str = 0,
        budget: int = DEFAULT_BUDGET,
        width: int = DEFAULT_WIDTH,
        depth: int | None = None,
        weights: Weights | None = None,
        margin: float = DEFAULT_MARGIN,
        leaf: str = "score",
        time_limit: float | None = None,
    ) -> None:
        if leaf not in LEAVES:
            raise ValueError(f"unknown leaf {leaf!r} (expected {', '.join(LEAVES)})")
        self.seed = seed
        self.budget = budget
        self.width = width
        self.depth = depth
        self.weights = weights
        self.margin = margin
        self.leaf = leaf
        #: Seconds one decision may take (None: the budget alone decides, as reproducible runs
        #: want); past it no new future is sampled and the best move so far is played.
        self.time_limit = time_limit
        # choose_card decides card and move together; choose then returns the move it found.
        self._planned: tuple[tuple, Move | None] | None = None

    # -- the interface ------------------------------------------------------------------------

    def choose(self, view: GameView, card: str, options: Options) -> Move | None:
        key = (view.position, view.colour, card, view.turn_number)
        if self._planned is not None and self._planned[0] == key:
            planned = self._planned[1]
            if (planned is None and options.forfeit) or planned in options.moves:
                return planned
        moves = distinct_moves(options.moves)
        if not moves:
            return None
        if len(moves) == 1 and not options.forfeit:
            return moves[0]
        rollouts = self._rollouts(view)
        candidates = [
            _Candidate(card, move, move.after, score)
            for score, move in rank_moves(rollouts.root, moves)
        ]
        if options.forfeit:
            stay = rollouts.root.score(view.position)
            candidates.append(_Candidate(card, None, view.position, stay))
            candidates.sort(key=lambda c: -c.prior)
        best = self._decide(view, rollouts, candidates, options.again, card)
        return best.move

    def choose_card(self, view: GameView) -> str:
        rollouts = self._rollouts(view)
        candidates = []
        again = {}
        for card in dict.fromkeys(view.hand):
            options = card_options(view, card)
            again[card] = options.again
            for score, move in rank_moves(rollouts.root, distinct_moves(options.moves)):
                candidates.append(_Candidate(card, move, move.after, score + hand_bonus(card)))
        if not candidates:
            return least_useful(view.hand)
        candidates.sort(key=lambda c: -c.prior)
        best = self._decide(view, rollouts, candidates, again[candidates[0].card], None, again)
        self._planned = ((view.position, view.colour, best.card, view.turn_number), best.move)
        return best.card

    def wants_double(self, view: GameView) -> bool:
        return lead(view, self.weights) > DOUBLE_LEAD

    def accepts_double(self, view: GameView) -> bool:
        return lead(view, self.weights) > -DROP_LAG

    # -- deciding ----------------------------------------------------------------------------

    def _rollouts(self, view: GameView) -> Rollouts:
        return Rollouts(view, self.weights, chance_leaf=self.leaf == "chance")

    def _decide(
        self,
        view: GameView,
        rollouts: Rollouts,
        candidates: Sequence[_Candidate],
        again: bool,
        card: str | None,
        again_by_card: dict[str, bool] | None = None,
    ) -> _Candidate:
        if candidates[0].prior >= WIN or len(candidates) == 1:
            return candidates[0]
        candidates = candidates[: self.width]
        depth = self.depth or len(view.active) + 1
        rng = random.Random(f"{self.seed}:{view.turn_number}:{view.colour}:{card}:{view.hand}")
        values: list[list[float]] = [[] for _ in candidates]
        worlds = 0
        deadline = None if self.time_limit is None else time.monotonic() + self.time_limit
        # Whole futures until the budget (or the time) is spent, so every candidate meets the
        # same ones.
        while worlds < MIN_FUTURES or (
            rollouts.evaluations < self.budget and (deadline is None or time.monotonic() < deadline)
        ):
            worlds += 1
            # One sampled future, replayed identically for every candidate.  Its first cards
            # are dealt at once, as they always were, so a seed samples the same futures.
            future = Future(
                card_stream(view.unseen, rng, view.extra_one), _cards_needed(view, depth)
            )
            for index, candidate in enumerate(candidates):
                cards = future.cards()
                plays_again = again_by_card[candidate.card] if again_by_card else again
                colour = rollouts.next_colour(view.colour, plays_again)
                hands = None
                if view.variant == Variant.POINTS:
                    own = list(view.hand)
                    if again_by_card is not None:  # choosing from the hand: the card leaves it
                        own.remove(candidate.card)
                    own.append(next(cards))
                    hands = rollouts.deal(cards, own)
                values[index].append(
                    rollouts.play_out(candidate.after, colour, cards, depth, hands)
                )
        return candidates[_significant_best(values, self.margin)]


def _significant_best(values: Sequence[Sequence[float]], margin: float) -> int:
    """The candidate to play: the heuristic's choice (index 0) unless another did better in the
    same futures by more than ``margin`` standard errors of the paired difference.

    A few dozen sampled futures are noisy; switching away from the heuristic on noise alone
    makes the player no better than the heuristic, so the evidence has to be clear.
    """
    best, best_gain = 0, 0.0
    baseline = values[0]
    for index in range(1, len(values)):
        diffs = [a - b for a, b in zip(values[index], baseline, strict=True)]
        mean = statistics.fmean(diffs)
        error = statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else 0.0
        if mean - margin * error <= 0:
            continue
        if mean > best_gain:
            best, best_gain = index, mean
    return best


def _cards_needed(view: GameView, depth: int) -> int:
    """Cards a future usually uses: one a turn (2s draw again), plus the hands in point play."""
    hands = len(view.active) * HAND_SIZE if view.variant == Variant.POINTS else 0
    return depth + 4 + hands

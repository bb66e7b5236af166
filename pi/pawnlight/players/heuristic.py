"""The fast player: every legal move scored once by the heuristic, the best one played."""

from __future__ import annotations

from collections.abc import Sequence

from ..rules.editions import Variant
from ..rules.moves import Move, Options
from ..rules.position import Position
from .base import KEEP_VALUE, Player, card_options, distinct_moves, least_useful
from .evaluation import Evaluator, PatienceEvaluator, Weights
from .view import GameView, card_probabilities

#: A 2 played from a point-play hand gives another play: worth about one ordinary turn's progress.
EXTRA_PLAY = 6.0
#: How much a card's worth-keeping counts against playing it now (point play).
KEEP_WEIGHT = 0.5
#: Doubling (classic point play): call when ahead of the best opponent by this many squares'
#: worth, drop out when that far behind.  Dropping scores zero but caps the caller's gain.
DOUBLE_LEAD = 45.0
DROP_LAG = 60.0


def evaluator_for(view: GameView, weights: Weights | None = None) -> Evaluator | PatienceEvaluator:
    """The heuristic from the deciding colour's side, with the chances of the cards to come."""
    if view.variant == Variant.PATIENCE:
        return PatienceEvaluator(view.order)
    return Evaluator(
        view.team,
        view.opponents,
        card_probabilities(view.unseen),
        draws=view.hand_size,
        teams=view.teams,
        weights=weights,
    )


def rank_moves(
    evaluator: Evaluator | PatienceEvaluator, moves: Sequence[Move]
) -> list[tuple[float, Move]]:
    """The moves best first, each with its score; ties keep the generator's order."""
    scored = [(evaluator.score(move.after), index, move) for index, move in enumerate(moves)]
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [(score, move) for score, _, move in scored]


def lead(view: GameView, weights: Weights | None = None) -> float:
    """How far the deciding side is ahead of its best opponent, in squares' worth."""
    evaluator = evaluator_for(view.with_colour(view.colour), weights)
    if not isinstance(evaluator, Evaluator):
        return 0.0
    values = evaluator.colour_values(view.position)
    mine = sum(values[c] for c in view.team) / len(view.team)
    rivals = [values[c] for c in view.opponents]
    return mine - max(rivals) if rivals else 0.0


class HeuristicPlayer(Player):
    """Plays the move whose resulting position the heuristic scores highest (docs/players.md)."""

    name = "heuristic"

    def __init__(self, weights: Weights | None = None) -> None:
        self.weights = weights

    def choose(self, view: GameView, card: str, options: Options) -> Move | None:
        moves = distinct_moves(options.moves)
        if not moves:
            return None
        evaluator = evaluator_for(view, self.weights)
        best_score, best = rank_moves(evaluator, moves)[0]
        if options.forfeit and evaluator.score(view.position) > best_score:
            return None  # an 11 whose every switch would hurt: decline it
        return best

    def choose_card(self, view: GameView) -> str:
        best_card, best_value = None, float("-inf")
        evaluator = evaluator_for(view, self.weights)
        for card in dict.fromkeys(view.hand):
            moves = distinct_moves(card_options(view, card).moves)
            if not moves:
                continue
            value = rank_moves(evaluator, moves)[0][0] + hand_bonus(card)
            if value > best_value:
                best_card, best_value = card, value
        return best_card if best_card is not None else least_useful(view.hand)

    def wants_double(self, view: GameView) -> bool:
        return lead(view, self.weights) > DOUBLE_LEAD

    def accepts_double(self, view: GameView) -> bool:
        return lead(view, self.weights) > -DROP_LAG


def hand_bonus(card: str) -> float:
    """Point play: what playing ``card`` now is worth beyond its move (another play for a 2),
    less what keeping it would have been worth."""
    return (EXTRA_PLAY if card == "2" else 0.0) - KEEP_WEIGHT * KEEP_VALUE[card]


def score_position(view: GameView, position: Position, weights: Weights | None = None) -> float:
    """The heuristic's score of ``position`` for the deciding side (the status page may show it)."""
    return evaluator_for(view, weights).score(position)

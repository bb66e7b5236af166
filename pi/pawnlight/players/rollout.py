"""Playing a few turns ahead on bare positions, every seat by the greedy heuristic.

The strong player asks "what happens next if I play this?" many times per decision, so this
works on :class:`~pawnlight.rules.Position` values and the move generator directly, without a
:class:`~pawnlight.rules.Game` and its history, undo and events.
"""

from __future__ import annotations

import random
from collections.abc import Generator, Iterator, Mapping, Sequence

from ..rules.board import PARTNER
from ..rules.cards import pack
from ..rules.editions import Variant
from ..rules.moves import Move, legal_options
from ..rules.position import Position
from .base import distinct_moves
from .evaluation import WIN, Evaluator, PatienceEvaluator, Weights
from .heuristic import evaluator_for, hand_bonus
from .view import HAND_SIZE, GameView
from .win_chance import WinChance

#: What a game won (or lost) inside a rollout is worth: more than any position short of the end
#: scores, but on the same scale, so that averaging over rollouts stays meaningful.
TERMINAL = 400.0


def card_stream(
    unseen: Mapping[str, int] | Sequence[str], rng: random.Random, extra_one: bool
) -> Iterator[str]:
    """Cards as they might come: the unseen ones in a random order, then fresh shuffled packs."""
    cards = (
        [c for c, n in unseen.items() for _ in range(n)]
        if isinstance(unseen, Mapping)
        else list(unseen)
    )
    rng.shuffle(cards)
    yield from cards
    while True:
        fresh = pack(extra_one)
        rng.shuffle(fresh)
        yield from fresh


class Future:
    """One sampled future's cards, dealt identically to every candidate move that meets it.

    Each :meth:`cards` iterator starts at the first card; cards are drawn from the shuffled
    stream only when some candidate first needs them and are then kept, so a candidate whose
    play uses more cards than another's still sees the same ones (the comparison is fair), and
    finishing with one candidate's iterator leaves the others untouched.
    """

    def __init__(self, stream: Iterator[str], dealt: int = 0) -> None:
        self._stream = stream
        self._cards = [next(stream) for _ in range(dealt)]

    def cards(self) -> Generator[str, None, None]:
        index = 0
        while True:
            if index == len(self._cards):
                self._cards.append(next(self._stream))
            yield self._cards[index]
            index += 1


class Rollouts:
    """Greedy play from a position, for the side of ``view.colour``; ends in a score."""

    def __init__(
        self,
        view: GameView,
        weights: Weights | None = None,
        chance_leaf: bool = False,
    ) -> None:
        self.view = view
        self.edition = view.edition
        self.teams = view.teams
        self.active = view.active
        self.team = view.team
        self.patience = view.variant == Variant.PATIENCE
        self.points = view.variant == Variant.POINTS
        self.root = evaluator_for(view, weights)
        # Where a future stops, what the position is worth: the heuristic's score or, when asked,
        # the chance to win from there (win_chance.py) on the scale of a game won or lost.
        self.win_chance = (
            WinChance(self.root, view.team, view.order)
            if chance_leaf and isinstance(self.root, Evaluator)
            else None
        )
        # Each seat plays for its own side; in patience one evaluator plays both colours.
        self.policy: dict[int, Evaluator | PatienceEvaluator] = {
            colour: self.root if self.patience else evaluator_for(view.with_colour(colour), weights)
            for colour in view.active
        }
        self._greedy_memo: dict[tuple[Position, int, str], tuple[Move | None, bool]] = {}
        #: Evaluations so far: move generations and positions scored (what the budget counts;
        #: each costs about the same, some tens of microseconds on the development machine).
        self.evaluations = 0

    def next_colour(self, colour: int, again: bool) -> int:
        if again:
            return colour
        index = self.active.index(colour)
        return self.active[(index + 1) % len(self.active)]

    def outcome(self, position: Position, move: Move) -> float | None:
        """TERMINAL or -TERMINAL when the move ended the game, else None."""
        if self.patience:
            score = self.root.score(position)
            return None if abs(score) < WIN else (TERMINAL if score > 0 else -TERMINAL)
        for step in move.steps:
            colour = step.colour
            side = (colour, PARTNER[colour]) if self.teams else (colour,)
            if all(position.all_home(c) for c in side):
                return TERMINAL if colour in self.team else -TERMINAL
        return None

    def greedy(self, position: Position, colour: int, card: str) -> tuple[Move | None, bool]:
        """The heuristic's move for ``colour`` with ``card``, and whether the card plays again.

        Remembered: the sampled futures of one decision share their first turns (the next
        player has only eleven different cards to draw), so most of them are looked up.
        """
        key = (position, colour, card)
        known = self._greedy_memo.get(key)
        if known is not None:
            return known
        options = legal_options(position, colour, card, self.edition, self.teams)
        moves = options.moves
        self.evaluations += 1
        if len(moves) <= 1:
            known = (moves[0] if moves else None), options.again
        else:
            score = self.policy[colour].score
            distinct = distinct_moves(moves)
            self.evaluations += len(distinct)
            known = max(distinct, key=lambda m: score(m.after)), options.again
        self._greedy_memo[key] = known
        return known

    def greedy_hand(
        self, position: Position, colour: int, hand: list[str]
    ) -> tuple[str, Move | None, bool]:
        """Point play: the heuristic's card and move from a hand."""
        best: tuple[float, str, Move | None, bool] | None = None
        score = self.policy[colour].score
        for card in dict.fromkeys(hand):
            options = legal_options(position, colour, card, self.edition, self.teams)
            self.evaluations += 1
            if not options.moves:
                continue
            distinct = distinct_moves(options.moves)
            self.evaluations += len(distinct)
            move = max(distinct, key=lambda m: score(m.after))
            value = score(move.after) + hand_bonus(card)
            if best is None or value > best[0]:
                best = (value, card, move, options.again)
        if best is None:
            return hand[0], None, False
        return best[1], best[2], best[3]

    def play_out(
        self,
        position: Position,
        colour: int,
        cards: Iterator[str],
        turns: int,
        hands: dict[int, list[str]] | None = None,
    ) -> float:
        """Play ``turns`` turns from ``position`` with ``colour`` to move; the root side's score."""
        # Every future costs at least one evaluation, even one that ends at once on remembered
        # moves: otherwise a decision whose futures all end in a win would never spend its budget.
        self.evaluations += 1
        for _ in range(turns):
            if hands is not None:
                hand = hands[colour]
                card, move, again = self.greedy_hand(position, colour, hand)
                hand.remove(card)
                hand.append(next(cards))
            else:
                move, again = self.greedy(position, colour, next(cards))
            if move is not None:
                position = move.after
                ended = self.outcome(position, move)
                if ended is not None:
                    return ended
            colour = self.next_colour(colour, again)
        return self.leaf(position, colour)

    def leaf(self, position: Position, to_move: int) -> float:
        """What a future that stops at ``position`` is worth, ``to_move`` to play next."""
        if self.win_chance is None:
            return self.root.score(position)
        return TERMINAL * (2.0 * self.win_chance.value(position, to_move) - 1.0)

    def deal(self, cards: Iterator[str], own: Sequence[str]) -> dict[int, list[str]]:
        """Point play: hands for a rollout — the deciding colour's own, the others' sampled."""
        return {
            c: list(own) if c == self.view.colour else [next(cards) for _ in range(HAND_SIZE)]
            for c in self.active
        }

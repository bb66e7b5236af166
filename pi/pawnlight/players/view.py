"""What a computer player may know when it decides: the board, whose turn, and the cards.

A player sees the position, the rules in force, its own hand in point play and which cards have
gone by since the pack was last shuffled — never the order of the draw pile or another player's
hand.  :func:`view_of` builds that view from a :class:`~pawnlight.rules.Game`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from ..rules.board import PARTNER
from ..rules.cards import CARDS, count, pack
from ..rules.editions import Edition, Variant
from ..rules.game import Game, Phase
from ..rules.position import Position

#: Cards in each hand in point play ("Each player is dealt five cards").
HAND_SIZE = 5


@dataclass(frozen=True)
class GameView:
    """One colour's view of a game, enough to choose a move, a card or a doubling answer."""

    position: Position
    #: The colour deciding (the one to move, or the one answering a double).
    colour: int
    #: Colours in playing order, and those still playing (point play: not dropped out).
    order: tuple[int, ...]
    active: tuple[int, ...]
    edition: Edition
    teams: bool = False
    variant: str = Variant.STANDARD
    #: The cards the others may still hold or draw: the pack less the discards since the last
    #: shuffle and this player's own hand.  Counts per card name.
    unseen: Mapping[str, int] = field(default_factory=lambda: count(pack()))
    #: Point play: the cards in this colour's hand.
    hand: tuple[str, ...] = ()
    #: Turns played so far (a decision's random stream is keyed on it, see StrongPlayer).
    turn_number: int = 0
    doubled: int = 0
    #: The pack has the optional fifth "1" (45 cards).
    extra_one: bool = False

    @property
    def team(self) -> tuple[int, ...]:
        """The colours whose pawns this player moves or wants home: itself and its partner."""
        if self.variant == Variant.PATIENCE:
            return self.order  # one person plays both colours
        if self.teams:
            return (self.colour, PARTNER[self.colour])
        return (self.colour,)

    @property
    def opponents(self) -> tuple[int, ...]:
        team = self.team
        return tuple(c for c in self.active if c not in team)

    @property
    def hand_size(self) -> int:
        """Cards each opponent chooses from on a turn: a whole hand in point play, else one."""
        return HAND_SIZE if self.variant == Variant.POINTS else 1

    def with_colour(self, colour: int) -> GameView:
        """The same moment seen by another colour (the rollouts play every seat)."""
        return GameView(
            self.position,
            colour,
            self.order,
            self.active,
            self.edition,
            self.teams,
            self.variant,
            self.unseen,
            (),
            self.turn_number,
            self.doubled,
            self.extra_one,
        )


def discards_since_shuffle(game: Game) -> list[str]:
    """The cards played since the pack was last shuffled, inferred from the game's history.

    Assumes what :class:`~pawnlight.rules.Deck` does and the books say: the pack is reshuffled
    only when the draw pile runs out.  In point play every turn discards the card played and
    refills the hand from the pile, and the hands (five cards each) are out of the pile.
    """
    size = len(pack(game.config.extra_one))
    played = [turn.card for turn in game.history]
    if game.config.variant != Variant.POINTS:
        # Each turn draws one card; the pile is empty after every ``size`` draws and the next
        # draw reshuffles all of them.
        since = len(played) % size or min(len(played), size)
        return played[len(played) - since :]
    pile = size - HAND_SIZE * len(game.order)
    discards: list[str] = []
    for card in played:
        discards.append(card)
        if pile == 0:  # the refill finds the pile empty: the discards become the new pile
            pile, discards = len(discards), []
        pile -= 1
    return discards


def unseen_cards(
    extra_one: bool, discards: Iterable[str], hand: Iterable[str] = ()
) -> dict[str, int]:
    """The pack's composition less the given discards and hand; the whole pack when that leaves
    nothing (the next draw reshuffles)."""
    counts = count(pack(extra_one))
    for card in (*discards, *hand):
        counts[card] = max(0, counts[card] - 1)
    if not any(counts.values()):
        return count(pack(extra_one))
    return counts


def view_of(
    game: Game,
    colour: int | None = None,
    hand: Iterable[str] = (),
    discards: Iterable[str] | None = None,
) -> GameView:
    """The view of ``colour`` (default: the colour to move) at the game's current moment.

    ``discards`` are the cards seen since the last shuffle when the caller knows them (the
    companion's card reader does); otherwise they are inferred from the history.
    """
    if discards is None:
        seen = discards_since_shuffle(game)
        if game.phase == Phase.MOVE and game.card is not None:
            seen.append(game.card)  # the card being played is not in the history yet
    else:
        seen = list(discards)
    hand = tuple(hand)
    return GameView(
        position=game.position,
        colour=game.turn if colour is None else colour,
        order=game.order,
        active=game.active_players,
        edition=game.edition,
        teams=game.config.teams,
        variant=game.config.variant,
        unseen=unseen_cards(game.config.extra_one, seen, hand),
        hand=hand,
        turn_number=len(game.history),
        doubled=game.doubled,
        extra_one=game.config.extra_one,
    )


def card_probabilities(unseen: Mapping[str, int]) -> dict[str, float]:
    """The chance that the next card drawn is each card, from the unseen composition."""
    total = sum(unseen.values())
    if total == 0:
        return {card: 1 / len(CARDS) for card in CARDS}
    return {card: unseen.get(card, 0) / total for card in CARDS}

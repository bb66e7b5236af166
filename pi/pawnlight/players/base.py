"""The one small interface every computer player offers, whoever drives it.

The companion (a real board), the tournament and the simulator all call the same four methods:

* :meth:`Player.choose` — a card is drawn (or played from the hand): which of the legal moves,
  or ``None`` to decline where the rules allow it (an 11 that cannot go forward);
* :meth:`Player.choose_card` — point play: which card of the hand to play (or, when none can
  move, which to discard);
* :meth:`Player.wants_double` / :meth:`Player.accepts_double` — classic point play's doubling.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from ..rules.moves import Move, Options, legal_options
from .view import GameView


class Player(ABC):
    """A computer player. Implementations keep no state between calls that the game does not
    give them back, so one player object may sit in several seats and resume any game."""

    name: str = "player"

    @abstractmethod
    def choose(self, view: GameView, card: str, options: Options) -> Move | None:
        """One of ``options.moves``, or None to decline (only when ``options.forfeit``)."""

    def choose_card(self, view: GameView) -> str:
        """Point play: the card of ``view.hand`` to play next.

        The default plays the first card that can move, else discards the least useful one;
        players override it when they can do better.
        """
        playable = playable_cards(view)
        return playable[0] if playable else least_useful(view.hand)

    def wants_double(self, view: GameView) -> bool:
        """Classic point play: call a double (or re-double) now, before the turn?"""
        return False

    def accepts_double(self, view: GameView) -> bool:
        """Classic point play: accept a double called by another player (False: drop out)."""
        return True

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


#: How much a card is worth keeping in a point-play hand: the flexible cards most.  The dead
#: hand's discard is the card worth least.
KEEP_VALUE: dict[str, float] = {
    "sorry": 6.0,
    "11": 4.0,
    "4": 4.0,
    "1": 3.0,
    "2": 3.0,
    "7": 2.5,
    "10": 2.5,
    "12": 1.0,
    "8": 0.5,
    "5": 0.5,
    "3": 0.5,
}


def least_useful(hand: Sequence[str]) -> str:
    if not hand:
        raise ValueError("the hand is empty")
    return min(hand, key=lambda card: (KEEP_VALUE[card], card))


def playable_cards(view: GameView) -> list[str]:
    """The distinct cards of the hand that have a legal move, in hand order."""
    found: list[str] = []
    for card in view.hand:
        if card not in found and card_options(view, card).moves:
            found.append(card)
    return found


def card_options(view: GameView, card: str) -> Options:
    return legal_options(view.position, view.colour, card, view.edition, view.teams)


def distinct_moves(moves: Sequence[Move]) -> list[Move]:
    """One move per resulting position: a player cannot prefer one of two identical outcomes
    (the many orders of a split 7 often end the same)."""
    seen: set = set()
    found = []
    for move in moves:
        after = move.after
        if after not in seen:
            seen.add(after)
            found.append(move)
    return found

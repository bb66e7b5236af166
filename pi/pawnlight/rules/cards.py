"""The cards: denominations, the pack, shuffling and the leader draw."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping

CARDS: tuple[str, ...] = ("1", "2", "3", "4", "5", "7", "8", "10", "11", "12", "sorry")
SORRY = "sorry"

#: Cards that may bring a pawn out of START onto its start circle.
STARTING_CARDS = frozenset({"1", "2"})

#: Rank in the leader draw: "The SORRY card counts the highest in drawing."
DRAW_RANK: dict[str, int] = {card: i for i, card in enumerate(CARDS)}


def parse_card(text: object) -> str:
    """A card name from user or JSON input (``"7"``, ``7``, ``"Sorry!"``); ValueError otherwise."""
    if isinstance(text, str) and text in DRAW_RANK:  # already a card name: kept quick
        return text
    if isinstance(text, str | int) and not isinstance(text, bool):
        name = str(text).strip().lower().rstrip("!")
        if name in DRAW_RANK:
            return name
    raise ValueError(f"unknown card {text!r} (expected one of {', '.join(CARDS)})")


def pack(extra_one: bool = False) -> list[str]:
    """The 44-card pack, four of each card; with ``extra_one`` the optional fifth "1" (45 cards)."""
    cards = [card for card in CARDS for _ in range(4)]
    if extra_one:
        cards.append("1")
    return cards


class Deck:
    """A shuffled draw pile with a discard pile, reshuffled when the draw pile is exhausted.

    "When the pack has been exhausted, reshuffle and place face down again on the board."
    The random source is injected, so a seed replays the same game.
    """

    def __init__(self, rng: random.Random | None = None, extra_one: bool = False) -> None:
        self.rng = rng if rng is not None else random.Random()
        self.draw_pile: list[str] = pack(extra_one)
        self.discards: list[str] = []
        self.shuffles = 0
        self.rng.shuffle(self.draw_pile)

    def draw(self, hold: bool = False) -> str:
        """The top card. It goes face up on the discards at once unless it is ``hold``-en in a
        hand (point play), when :meth:`discard` puts it there once played."""
        if not self.draw_pile:
            self.reshuffle()
        card = self.draw_pile.pop()
        if not hold:
            self.discards.append(card)
        return card

    def discard(self, card: str) -> None:
        self.discards.append(card)

    def reshuffle(self) -> None:
        if not self.discards:
            raise RuntimeError("no cards left to reshuffle: every card is held in a hand")
        self.draw_pile, self.discards = self.discards, []
        self.rng.shuffle(self.draw_pile)
        self.shuffles += 1

    def __len__(self) -> int:
        return len(self.draw_pile)


def leader_draw(draws: Mapping[str, str]) -> tuple[str, ...]:
    """The colours that drew the highest card; one colour is the leader, several must draw again.

    "The player drawing the highest card is called the Leader. ... The SORRY card counts the
    highest in drawing."  The books say nothing of ties; the tied players draw again.
    """
    if not draws:
        raise ValueError("nobody drew a card")
    best = max(DRAW_RANK[card] for card in draws.values())
    return tuple(colour for colour, card in draws.items() if DRAW_RANK[card] == best)


def count(cards: Iterable[str]) -> dict[str, int]:
    result = dict.fromkeys(CARDS, 0)
    for card in cards:
        result[card] += 1
    return result

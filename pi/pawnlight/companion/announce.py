"""What the Pi says aloud when spoken announcements are on: a pure function of two snapshots.

Only what a family at the table wants to hear: whose turn it is, the card drawn, what happened
on a turn (a forfeit and why, who went back to START), and the winner. Everything else (set-up
corrections, owner actions) stays on the page and the LEDs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..rules.words import a_card
from .phases import CompanionPhase


def announcement(before: Mapping[str, Any] | None, after: Mapping[str, Any]) -> str | None:
    """The sentence to say for the change from ``before`` to ``after``, or None."""
    before = before or {}
    said: list[str] = []
    news = after.get("news")
    if news and news != before.get("news"):
        said.append(str(news))
    result = after.get("result")
    if isinstance(result, Mapping) and result != before.get("result"):
        winners = [str(w).capitalize() for w in result.get("winners") or []]
        said.append(f"{' and '.join(winners)} won!" if winners else "The game is over.")
        return ". ".join(said)
    turn, card, phase = after.get("turn"), after.get("card"), after.get("phase")
    if (
        phase == CompanionPhase.MOVE
        and card
        and (card, turn) != (before.get("card"), before.get("turn"))
    ):
        said.append(f"{str(turn).capitalize()} drew {a_card(str(card))}")
    elif (
        phase == CompanionPhase.DRAW
        and turn
        and (
            turn != before.get("turn")
            or before.get("phase") != CompanionPhase.DRAW
            or news != before.get("news")
        )
    ):
        said.append(f"{str(turn).capitalize()}'s turn")
    return ". ".join(said) or None

"""What the Pi says aloud when spoken announcements are on: a pure function of two snapshots.

Only what a family at the table wants to hear: whose turn it is, the card drawn, what happened
on a turn (the move, a forfeit and why, who went back to START), and the winner.  Everything
else (set-up corrections, owner actions) stays on the page and the LEDs.  The sentences are in
the board's language (the ``language`` setting), each a whole message of the catalogs
(docs/languages.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..i18n import translations
from ..i18n.marks import N_
from ..i18n.message import render_json
from .phases import CompanionPhase

#: The colours as the voice says them.
COLOURS: dict[str, str] = {
    "red": N_("Red"),
    "blue": N_("Blue"),
    "yellow": N_("Yellow"),
    "green": N_("Green"),
}
#: A card drawn, one whole sentence per card (languages differ in article and gender).
DREW: dict[str, str] = {
    "1": N_("%(colour)s drew a 1"),
    "2": N_("%(colour)s drew a 2"),
    "3": N_("%(colour)s drew a 3"),
    "4": N_("%(colour)s drew a 4"),
    "5": N_("%(colour)s drew a 5"),
    "7": N_("%(colour)s drew a 7"),
    "8": N_("%(colour)s drew an 8"),
    "10": N_("%(colour)s drew a 10"),
    "11": N_("%(colour)s drew an 11"),
    "12": N_("%(colour)s drew a 12"),
    "sorry": N_("%(colour)s drew a Sorry!"),
}
TURN = N_("%(colour)s's turn")
WON = N_("%(colour)s won!")
WON_TOGETHER = N_("%(colour)s and %(partner)s won!")
OVER = N_("The game is over.")


def announcement(
    before: Mapping[str, Any] | None, after: Mapping[str, Any], language: str | None = None
) -> str | None:
    """The sentence to say for the change from ``before`` to ``after``, or None; in
    ``language``, else the board's own (its settings), else English."""
    before = before or {}
    language = language or str((after.get("settings") or {}).get("language") or "en")
    words = translations(language)

    def colour(name: object) -> str:
        known = COLOURS.get(str(name).lower())
        return words.gettext(known) if known else str(name).capitalize()

    said: list[str] = []
    news = after.get("news")
    if news and news != before.get("news"):
        # The news as its catalog message (the state's ``said``), in the voice's language; news
        # that is not one (none so far) is said in English only: a family hears only its own.
        messages = after.get("said")
        message = messages.get("news") if isinstance(messages, Mapping) else None
        spoken = render_json(message, language) if message is not None else None
        if spoken is None and language == "en":
            spoken = str(news)
        if spoken:
            said.append(spoken)
    result = after.get("result")
    if isinstance(result, Mapping) and result != before.get("result"):
        winners = [colour(w) for w in result.get("winners") or []]
        if len(winners) == 1:
            said.append(words.gettext(WON) % {"colour": winners[0]})
        elif len(winners) == 2:
            said.append(words.gettext(WON_TOGETHER) % {"colour": winners[0], "partner": winners[1]})
        else:
            said.append(words.gettext(OVER))
        return ". ".join(said)
    turn, card, phase = after.get("turn"), after.get("card"), after.get("phase")
    if (
        phase == CompanionPhase.MOVE
        and card
        and (card, turn) != (before.get("card"), before.get("turn"))
    ):
        drew = DREW.get(str(card))
        if drew is not None:
            said.append(words.gettext(drew) % {"colour": colour(turn)})
    elif (
        phase == CompanionPhase.DRAW
        and turn
        and (
            turn != before.get("turn")
            or before.get("phase") != CompanionPhase.DRAW
            or news != before.get("news")
        )
    ):
        said.append(words.gettext(TURN) % {"colour": colour(turn)})
    return ". ".join(said) or None

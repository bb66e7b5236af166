"""The owner's buttons and the seats' actions, from a published state: what the page offers to
do now (each a POST to the API), apart from :mod:`.view`, which says what the state shows."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pawnlight.companion.phases import CompanionPhase
from pawnlight.i18n.marks import N_
from pawnlight.rules import EDITIONS

from .language import colour_name, gettext
from .view import card_label, doubling


@dataclass(frozen=True)
class Action:
    """An owner's button: POST /api/<action> with ``body``."""

    action: str
    label: str
    body: Mapping[str, Any] | None = None
    primary: bool = False
    #: A question to answer before the action is sent (nothing destructive on one tap).
    confirm: str | None = None
    #: A word of explanation under the buttons (one line for a group of them).
    note: str | None = None


#: The phases of a game in play, when a seat may go to the computer or back to a person.
SEATS_CHANGE = (
    CompanionPhase.SETUP,
    CompanionPhase.DRAW,
    CompanionPhase.MOVE,
    CompanionPhase.CHOOSE,
    CompanionPhase.DOUBLE,
)
#: The computer player a seat is given to during a game (the New game form offers the others).
SEAT_PLAYER = "normal"


def seat_actions(state: Mapping[str, Any]) -> list[Action]:
    """One button a playing colour: the computer takes the seat (a player leaves the table),
    or a person takes it back (POST /api/seat)."""
    computer = state.get("computer") or {}
    note = gettext(
        N_(
            "The computer chooses the moves of a colour it plays; a person still draws and "
            "scans its card and moves its pawns as lit."
        )
    )
    actions = []
    for colour in state.get("players") or []:
        name = colour_name(colour)
        if colour in computer:
            label, player = gettext(N_("A person plays %(colour)s again"), colour=name), None
        else:
            label, player = gettext(N_("Computer plays %(colour)s"), colour=name), SEAT_PLAYER
        actions.append(Action("seat", label, {"colour": colour, "player": player}, note=note))
    return actions


def owner_actions(state: Mapping[str, Any]) -> list[Action]:
    """The buttons that make sense at this moment of the game (the choices of an ambiguous
    board are offered with the moves, not here)."""
    phase = state.get("phase")
    actions = []
    if state.get("can_undo"):
        if state.get("undo_again"):
            actions.append(
                Action(
                    "undo",
                    gettext(N_("Undo one more")),
                    confirm=gettext(
                        N_("Undo one more? This goes back further than the last move.")
                    ),
                )
            )
        else:
            actions.append(Action("undo", gettext(N_("Undo the last move"))))
    if state.get("forfeit_allowed"):
        card = card_label(state.get("card"))
        actions.append(Action("forfeit", gettext(N_("Decline the %(card)s"), card=card)))
    computer = state.get("computer") or {}
    if (
        phase == CompanionPhase.MOVE
        and not state.get("guided")
        and state.get("turn") not in computer
    ):
        actions.append(Action("hint", gettext(N_("Show a hint on the board"))))
    if phase in SEATS_CHANGE and state.get("remote") is None:
        # A remote game's seats are its boards' (the host hands an away board's: remote.md).
        actions += seat_actions(state)
    if phase == CompanionPhase.OVER:
        actions.append(Action("next-game", gettext(N_("Next game")), primary=True))
    if phase == CompanionPhase.ENROL:
        actions.append(Action("enrol/cancel", gettext(N_("Cancel the enrolment"))))
    edition = EDITIONS.get(str(state.get("edition")))
    points = edition.scoring.drop_out_win if edition is not None else None
    here = seated_here(state)
    if doubling(state) and phase in (CompanionPhase.DRAW, CompanionPhase.MOVE):
        note = gettext(
            N_(
                "Doubling: a player who expects to win may double what this game scores. Each "
                "other player then accepts (play on, every score counts double) or drops out "
                "of this game; if all drop, the doubler scores %(points)s points."
            ),
            points=points,
        )
        callers = state.get("players") or []
        if state.get("remote") is not None:  # on several boards: at its own turn, before its card
            callers = [state.get("turn")] if phase == CompanionPhase.DRAW else []
        for colour in [c for c in callers if c in here]:
            actions.append(
                Action(
                    "double",
                    gettext(N_("%(colour)s doubles"), colour=colour_name(colour)),
                    {"colour": colour},
                    note=note,
                )
            )
    if phase == CompanionPhase.DOUBLE:
        note = gettext(
            N_(
                "Accept: play on, every score counts double. Drop: leave this game now "
                "(if all drop, the doubler scores %(points)s points)."
            ),
            points=points,
        )
        for colour in [c for c in state.get("waiting_for") or [] if c in here]:
            name = colour_name(colour)
            accept = gettext(N_("%(colour)s accepts"), colour=name)
            drop = gettext(N_("%(colour)s drops"), colour=name)
            actions.append(Action("accept", accept, {"colour": colour}, note=note))
            actions.append(Action("drop", drop, {"colour": colour}, note=note))
    return actions


def seated_here(state: Mapping[str, Any]) -> list[str]:
    """The colours played at this board: every player, or in a remote game this board's seats."""
    remote = state.get("remote")
    if remote is None:
        return list(state.get("players") or [])
    board = (remote.get("boards") or {}).get(remote.get("me")) or {}
    return list(board.get("seats") or [])

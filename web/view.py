"""From a state snapshot to what the pages show: words for the phase, the history, the scores,
the board picture of now or of any turn.  Pure functions of the snapshot, so the server-rendered
page and the fragments the page's script fetches are the same HTML.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pawnlight.rules import EDITIONS

from .board_svg import Centre, render_board
from .marks import NO_MARKS, live_marks, turn_marks

PHASES: dict[str, str] = {
    "idle": "No game",
    "enrol": "Enrolling the pack",
    "leader": "Drawing for the lead",
    "setup": "Set up the board",
    "draw": "Draw a card",
    "move": "Make the move",
    "choose": "Which move was it?",
    "double": "A double was called",
    "over": "Game over",
}

#: What each card does, in a line (the same in every edition pawnlight knows).
CARDS: dict[str, str] = {
    "1": "Start a pawn, or move one forward 1.",
    "2": "Start a pawn, or move one forward 2 — then draw again.",
    "3": "Move a pawn forward 3.",
    "4": "Move a pawn backward 4.",
    "5": "Move a pawn forward 5.",
    "7": "Move a pawn forward 7, or split the 7 between two pawns.",
    "8": "Move a pawn forward 8.",
    "10": "Move a pawn forward 10, or backward 1.",
    "11": "Move a pawn forward 11, or switch places with an opponent.",
    "12": "Move a pawn forward 12.",
    "sorry": "Take a pawn from START and bump an opponent back to its START.",
}

WHEN = ("before", "after")


def whole_number(text: str, longest: int = 6) -> bool:
    """ASCII digits only, and few of them: a turn or page number from a URL is checked with this
    before ``int()`` (which takes other scripts' digits, and refuses 5,000 digits with an
    error) and before it reaches a loop or SQLite."""
    return 0 < len(text) <= longest and text.isascii() and text.isdigit()


def card_label(card: object) -> str:
    return "Sorry!" if card == "sorry" else str(card)


def diamonds(state: Mapping[str, Any]) -> bool:
    edition = EDITIONS.get(str(state.get("edition")))
    return bool(edition and edition.diamonds)


def turns(state: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    value = state.get("turns")
    return [t for t in value if isinstance(t, Mapping)] if isinstance(value, list) else []


@dataclass(frozen=True)
class HistoryLine:
    number: int  # 1-based, as ?turn=N
    colour: str
    card: str
    text: str

    @property
    def label(self) -> str:
        return f"{self.colour} {card_label(self.card)}: {self.text}"


def history(state: Mapping[str, Any]) -> list[HistoryLine]:
    """Every turn, newest first; from ``turns`` (with colours and cards) when the snapshot has
    it, else from the bare ``history`` texts."""
    lines = [
        HistoryLine(n, str(t.get("colour", "")), str(t.get("card", "")), str(t.get("text", "")))
        for n, t in enumerate(turns(state), 1)
    ]
    if not lines:
        texts = state.get("history") or []
        lines = [HistoryLine(n, "", "", str(text)) for n, text in enumerate(texts, 1)]
    return lines[::-1]


def board_svg(state: Mapping[str, Any], turn: int | None = None, when: str = "after") -> str:
    """The board now (with the legal moves highlighted), or before/after turn ``turn``
    (1-based) with that turn's move highlighted; IndexError for a turn not in the history."""
    if turn is None:
        colour, card = state.get("turn"), state.get("card")
        centre = None
        if state.get("players"):
            caption = f"{colour}'s turn" if colour else PHASES.get(str(state.get("phase")), "")
            centre = Centre(colour if isinstance(colour, str) else None, card, caption)
        return render_board(
            state.get("pawns"), diamonds=diamonds(state), marks=live_marks(state), centre=centre
        )
    played = turns(state)
    if not 1 <= turn <= len(played):
        raise IndexError(f"there is no turn {turn} (the game has {len(played)} so far)")
    entry = played[turn - 1]
    marks = turn_marks(entry, bool(state.get("teams")))
    caption = f"turn {turn}, {when}"
    centre = Centre(str(entry.get("colour")), entry.get("card"), caption)
    return render_board(
        entry.get(when),
        diamonds=diamonds(state),
        marks=marks if marks else NO_MARKS,
        centre=centre,
        label=f"The board {when} turn {turn}: {entry.get('colour')} {entry.get('text')}.",
    )


def scores(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Rows of the score table: this game's points and, in a match, the totals and wins."""
    game = state.get("scores") if isinstance(state.get("scores"), Mapping) else {}
    match = state.get("match") if isinstance(state.get("match"), Mapping) else {}
    totals = match.get("totals") if isinstance(match.get("totals"), Mapping) else {}
    wins = match.get("wins") if isinstance(match.get("wins"), Mapping) else {}
    colours = list(state.get("players") or []) or list(game or totals)
    return [
        {"colour": c, "game": game.get(c), "total": totals.get(c), "wins": wins.get(c)}
        for c in colours
    ]


def result_text(state: Mapping[str, Any]) -> str | None:
    result = state.get("result")
    if not isinstance(result, Mapping):
        return None
    if result.get("patience"):
        return f"Patience Sorry: {result['patience']}"
    winners = result.get("winners") or []
    if not winners:
        return "The game is over."
    text = " and ".join(str(w) for w in winners) + " won"
    return text + (" — a double game!" if result.get("double_game") else "")


def doubling(state: Mapping[str, Any]) -> bool:
    """Whether the double/accept/drop buttons belong on the page: point play, classic books."""
    edition = EDITIONS.get(str(state.get("edition")))
    return (
        state.get("variant") == "points"
        and edition is not None
        and edition.scoring.drop_out_win is not None
    )


@dataclass(frozen=True)
class Action:
    """An owner's button: POST /api/<action> with ``body``."""

    action: str
    label: str
    body: Mapping[str, Any] | None = None
    primary: bool = False


def owner_actions(state: Mapping[str, Any]) -> list[Action]:
    """The buttons that make sense at this moment of the game (the choices of an ambiguous
    board are offered with the moves, not here)."""
    phase = state.get("phase")
    actions = []
    if state.get("can_undo"):
        actions.append(Action("undo", "Undo the last action"))
    if state.get("forfeit_allowed"):
        actions.append(Action("forfeit", f"Decline the {card_label(state.get('card'))}"))
    computer = state.get("computer") or {}
    if phase == "move" and not state.get("guided") and state.get("turn") not in computer:
        actions.append(Action("hint", "Show a hint on the board"))
    if phase == "over":
        actions.append(Action("next-game", "Next game", primary=True))
    if phase == "enrol":
        actions.append(Action("enrol/cancel", "Cancel the enrolment"))
    if doubling(state) and phase in ("draw", "move"):
        for colour in state.get("players") or []:
            actions.append(
                Action("double", f"{str(colour).capitalize()} doubles", {"colour": colour})
            )
    if phase == "double":
        for colour in state.get("waiting_for") or []:
            name = str(colour).capitalize()
            actions.append(Action("accept", f"{name} accepts", {"colour": colour}))
            actions.append(Action("drop", f"{name} drops", {"colour": colour}))
    return actions

"""Picking a game up again, and taking moves back, in terms the board-model layer can check.

After a power cut the journal replays the unfinished game; the pawns on the physical board should
then stand where :func:`resume_point` says.  If they stand where they were some turns earlier,
the players took moves back while the Pi was off (or are doing so now): :func:`turns_back_to`
finds how many, and :func:`take_back` undoes them as ``undo`` events, so the record keeps both the
moves and their taking back.
"""

from __future__ import annotations

from typing import NamedTuple

from ..rules.game import Event, EventKind, Game, GameError, Phase, Turn
from ..rules.position import Position


class ResumePoint(NamedTuple):
    """What the board should look like, and what the game waits for, at this point."""

    #: Where every pawn stands now.
    position: Position
    #: Where they stood before the latest turn that moved a pawn (a forfeit moves none); the
    #: board shows this when that move was taken back.  None before any pawn has moved.
    before_last_move: Position | None
    #: The latest turn in the game's history (None at the start).
    last_turn: Turn | None
    #: The colour to act and the phase; the card drawn if any.
    turn: int
    phase: Phase
    card: str | None


def resume_point(game: Game) -> ResumePoint:
    history = game.history
    moved = next((t for t in reversed(history) if t.before != t.after), None)
    return ResumePoint(
        position=game.position,
        before_last_move=moved.before if moved else None,
        last_turn=history[-1] if history else None,
        turn=game.turn,
        phase=game.phase,
        card=game.card,
    )


def turns_back_to(game: Game, position: Position) -> int | None:
    """How many whole turns to take back for the game to stand at ``position``: 0 when it does
    now, None when it never did (at a turn boundary) — then the board is simply wrong."""
    if game.position == position:
        return 0
    for back, turn in enumerate(reversed(game.history), 1):
        if turn.before == position:
            return back
    return None


def take_back(game: Game, turns: int = 1) -> list[Event]:
    """Undo the last ``turns`` whole turns, each back to before its card was drawn.

    A card drawn for the turn now being played is undone as well.  Returns the undone events
    (last first); the ``undo`` events this adds are the last ``len(returned)`` of
    ``game.events``, and the journal must be given each of them.
    """
    if turns < 1:
        raise ValueError("take back at least one turn")
    if turns > len(game.history):
        raise GameError(f"only {len(game.history)} turns have been played")
    target = len(game.history) - turns
    undone: list[Event] = []
    while True:
        event = game.undo()
        undone.append(event)
        if event.kind == EventKind.DRAW and len(game.history) <= target:
            return undone

"""Watching the board: which recogniser each phase gets, the colours a presence board is
followed by, and whether the latest reading has been decided (``settled``)."""

from __future__ import annotations

from collections.abc import Sequence

from ..board.guidance import corrections
from ..board.layout import COLOUR, PRESENCE
from ..board.recognise import InProgress, Mismatch, Recogniser, Waiting
from ..board.snapshot import true_occupancy
from ..rules.board import COLOURS
from ..rules.game import Phase
from ..rules.moves import Move
from .phases import CompanionPhase
from .table import Table

#: The phases in which the board is recognised against the game (its position or the card's
#: moves); in the others nothing on the board is expected.
WATCHING_THE_BOARD = frozenset(
    {CompanionPhase.SETUP, CompanionPhase.DRAW, CompanionPhase.MOVE, CompanionPhase.DOUBLE}
)


def enter(table: Table, phase: CompanionPhase | None = None) -> None:
    """Go to ``phase`` (the game's own when None) and recognise what that phase expects.

    Recognition is derived afresh from the phase and the game's card every time: the card's
    legal moves in ``move`` (only the computer's choice for a computer seat), the position
    alone in ``setup``, ``draw`` and ``double``, nothing otherwise. So no phase can inherit
    a recogniser made for another (a double answered after a restart or an undo).
    """
    before, table.phase = table.phase, table.game_phase() if phase is None else phase
    if table.phase != before:
        if table.warning is not None and table.warning == table.passing_warning:
            table.warning = None  # its moment has passed: its cause has gone
        table.passing_warning = None
    table.colours_asked = None
    table.choices = ()
    table.choice_shown = None
    table.withdrawn = False
    table.takeback_since = None
    if table.phase != CompanionPhase.MOVE:
        table.guided = None
    if table.game is None or table.phase not in WATCHING_THE_BOARD:
        table.recogniser = None
        table.decision = Waiting()
    elif table.phase == CompanionPhase.SETUP:
        watch(table, (), guide_only=True)
    elif table.phase == CompanionPhase.MOVE:
        watch(table, moves_to_recognise(table))
    else:
        watch(table, ())


def moves_to_recognise(table: Table) -> Sequence[Move]:
    game = table.game
    assert game is not None and game.phase == Phase.MOVE
    legal = game.legal
    if table.guided is not None and table.guided not in legal:
        table.guided = None
    if game.turn in table.computer:
        if table.guided is None:  # resumed, or undone back to the computer's card
            spec, player = table.computer[game.turn]
            from ..players import view_of

            assert game.card is not None and game.options is not None
            move = player.choose(view_of(game), game.card, game.options)
            if move is not None:
                table.guided = move
                table.guided_by = f"{COLOURS[game.turn]} (computer, {spec})"
        if table.guided is not None:
            return [table.guided]
    remote = table.remote
    if remote is not None and remote.remote_colour(game.turn):
        # Another board's turn: only its move, once it is lit (companion.remote).
        return [table.guided] if table.guided is not None else []
    return legal


def watch(table: Table, options: Sequence[Move] = (), guide_only: bool = False) -> None:
    """Start recognising on the current position (with the card's moves, if any)."""
    game = table.game
    assert game is not None
    settle = table.settings.settle
    table.recogniser = Recogniser(
        table.layout,
        game.position,
        options,
        previous=None if guide_only else table.previous_position(),
        settle=settle,
        patience=max(2.0, settle),
    )
    table.decision = Waiting()
    if table.reading is not None:
        table.decision = table.recogniser.feed(table.reading, table.now)


def follow_colours(table: Table) -> None:
    """Presence boards: follow the colours on the board, and guide by colour where the
    board is wrong (or looks right, but a pawn of a known colour stands on another's place:
    then a swap is asked for). See board/tracking.py."""
    tracker, recogniser, game = table.pawns, table.recogniser, table.game
    if tracker is None or recogniser is None or game is None or recogniser.board is None:
        return
    tracker.follow(recogniser.board, table.colours_asked)
    decision = table.decision
    target = None
    if table.phase == CompanionPhase.SETUP:
        target = game.position
    elif isinstance(decision, Mismatch):
        target = decision.target
    if target is None:
        return
    wanted = true_occupancy(target)
    if table.phase == CompanionPhase.SETUP and tracker.setting_up:
        # Set up from whatever the board held: its pawns' colours are unknown, so none is
        # moved to a place on a guess (a green pawn into red START); each is lifted off and
        # a pawn of the right colour asked for.
        board = recogniser.board
        found = corrections(board, wanted, PRESENCE, blind=True, suspect=tracker.unverified(board))
        if found:
            table.decision = Mismatch(found, target, None)
        return
    looks_right = table.phase == CompanionPhase.SETUP and recogniser.board == recogniser.expected
    if isinstance(decision, Mismatch) or (looks_right and tracker.contradicts(wanted)):
        found = corrections(tracker.believed(wanted), wanted, COLOUR)
        if found:
            move = decision.move if isinstance(decision, Mismatch) else None
            table.decision = Mismatch(found, target, move)
            table.colours_asked = wanted


def board_matches(table: Table) -> bool:
    recogniser, game = table.recogniser, table.game
    if recogniser is None or game is None or recogniser.board != recogniser.expected:
        return False
    # A presence board that looks right may still have pawns of known colours swapped.
    return table.pawns is None or not table.pawns.contradicts(true_occupancy(game.position))


def settled(table: Table) -> bool:
    """Whether the latest board reading has been decided: the board has been still for the
    settle time, no change is waiting to be taken in, and nothing decided waits to be acted
    on (a takeback being held).  Always true while nothing on the board is watched; false while
    it is watched and no reading has come yet (a board just connected: nothing is decided)."""
    recogniser = table.recogniser
    if recogniser is None:
        return True
    if recogniser.board is None:
        return False
    if table.takeback_since is not None or not recogniser.settled:
        return False
    # Pawns in motion (in the hand, walked): once patience runs out the board may still be
    # called a mismatch, so nothing is decided yet.
    decision = table.decision
    return not (isinstance(decision, InProgress) and not decision.partial)

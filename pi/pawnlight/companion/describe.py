"""The companion's table described as a :class:`~.state.CompanionState`: frozen values,
taken after every input (the owner publishes the ones that differ)."""

from __future__ import annotations

import threading

from ..board.cells import EMPTY, UNKNOWN, parse_cell_name, place_of_cell
from ..board.guidance import Correction
from ..board.recognise import InProgress, Mismatch
from ..board.snapshot import true_occupancy
from ..i18n.message import said_of
from ..players.game_stats import GameStatistics, game_statistics
from ..rules.board import COLOURS
from ..rules.editions import Variant
from ..rules.game import EventKind, Game, Phase, Turn
from ..rules.moves import Move
from ..rules.notation import NotationError, parse_move
from .board_buttons import unlock_notice
from .lights import picture_for
from .phases import CompanionPhase
from .recognition import settled
from .remote import copying
from .state import (
    CompanionState,
    Enrolling,
    GameState,
    Guided,
    LeaderState,
    Link,
    MatchState,
    OwnerUnlock,
    Pairs,
    PlayedTurn,
    RemoteBoardState,
    RemoteState,
    Sensed,
    same_prefix,
)
from .table import Table, seats_of


def state_of(table: Table) -> CompanionState:
    """The table as it is now, in frozen values."""
    decision = table.decision
    game = table.game
    match = table.match
    guidance: tuple[Correction, ...] = ()
    sensed = None
    in_progress: tuple[Move, ...] = ()
    if isinstance(decision, Mismatch):
        # Nothing is asked of a place with a broken wire (the warning says what to fix).
        faulty = _faulty_places(table)
        guidance = tuple(c for c in decision.corrections if not _touches(c, faulty))
        sensed = _sensed_pawns(table)
    elif isinstance(decision, InProgress):
        in_progress = decision.moves
        # Half-way (a split 7's first part made): the page draws the board as it is.
        sensed = _sensed_pawns(table, decision.moves[0] if decision.moves else None)
    lit: Pairs = ()
    lit_colours: Pairs = ()
    if table.settings.level > 0:  # the owner turned the LEDs off: nothing is lit
        picture = picture_for(table, table.now)
        places = sorted(picture.lit.items())
        lit = tuple((key, place.role.value) for key, place in places)
        lit_colours = tuple((key, COLOURS[p.colour]) for key, p in places if p.colour >= 0)
    choosing = table.phase == CompanionPhase.CHOOSE
    return CompanionState(
        phase=table.phase,
        message=table.message,
        news=table.news,
        asking=table.asking_until is not None,
        warning=table.warning,
        link=Link(table.link_up, table.link_detail, table.firmware),
        settings=table.settings,
        deck_enrolled=table.deck.enrolled,
        game=None if game is None else _game_state(game),
        lit=lit,
        lit_colours=lit_colours,
        guidance=guidance,
        sensed=sensed,
        in_progress=in_progress,
        choices=table.choices if choosing else (),
        choice_unchanged=table.choice_unchanged if choosing else False,
        choice_shown=table.choice_shown if choosing else None,
        match=(
            None
            if match is None
            or game is None
            or (len(match.games) <= 1 and game.config.variant != Variant.POINTS)
            else MatchState(
                len(match.games),
                tuple((COLOURS[c], p) for c, p in match.totals.items()),
                tuple((COLOURS[c], w) for c, w in match.wins.items()),
            )
        ),
        enrol=(
            None
            if table.enrolment is None
            else Enrolling(table.enrolment.prompt(), len(table.enrolment.wanted))
        ),
        leader=(
            None
            if table.leader is None
            else LeaderState(
                tuple(table.leader.drawing),
                tuple(table.leader.draws.items()),
                table.leader.rounds,
            )
        ),
        computer=seats_of(table),
        guided=None if table.guided is None else Guided(table.guided, table.guided_by),
        settled=settled(table),
        remote=_remote(table),
        owner_unlock=OwnerUnlock(table.unlocks, unlock_notice(table)),
        said=tuple(
            (name, said)
            for name, text in (
                ("message", table.message),
                ("news", table.news),
                ("warning", table.warning),
                ("enrol", None if table.enrolment is None else table.enrolment.prompt()),
            )
            if (said := said_of(text)) is not None
        ),
    )


def _game_state(game: Game) -> GameState:
    options = game.options
    events = game.events
    return GameState(
        config=game.config,
        order=tuple(game.order),
        turn=None if game.over else game.turn,
        card=game.card,
        position=game.position,
        legal=tuple(game.legal),
        forfeit_allowed=bool(options and options.forfeit and game.phase == Phase.MOVE),
        turns=_played(game.history, game.config.teams),
        doubled=game.doubled,
        waiting_for=tuple(sorted(game.waiting_for)),
        can_undo=game.can_undo(),
        undo_again=bool(events) and events[-1].kind == EventKind.UNDO,
        result=game.result,
        statistics=_statistics(game) if game.result is not None else None,
    )


def _remote(table: Table) -> RemoteState | None:
    remote = table.remote
    if remote is None:
        return None
    boards = tuple(
        (
            board,
            RemoteBoardState(
                bool(remote.online.get(board)),
                tuple(COLOURS[c] for c, b in sorted(remote.seats.items()) if b == board),
                float(int(remote.away_for(board, table.now))),  # whole seconds: no churn
            ),
        )
        for board in remote.setup.boards()
    )
    copy = table.guided if copying(table) else None
    asked = remote.takeback
    takeback = None if asked is None else (asked.seq, asked.by, tuple(sorted(asked.agreed)))
    seq = len(table.game.history) if table.game is not None else 0
    grace = table.offline_grace
    return RemoteState(
        remote.setup.game,
        remote.setup.host,
        remote.me,
        boards,
        copy,
        takeback,
        code=remote.setup.code,
        computer=tuple(COLOURS[c] for c in sorted(remote.by_computer(seq))),
        away_long=tuple(b for b, each in boards if b != remote.me and each.offline_for >= grace),
        adjourned=remote.adjourned,
        grace=grace,
    )


def _sensed_pawns(table: Table, moving: Move | None = None) -> tuple[Sensed, ...] | None:
    """The pawns as they stand on the board now (while it does not match the game, or is
    part-way through ``moving``), so the page draws the misplaced pawn where it really is:
    ``{"at": "T20", "colour": "blue"}``, the colour None where the board cannot tell (a
    presence board's pawn on the track).  A presence board's pawn takes the colour the game
    has there, or that the move being made puts there."""
    recogniser = table.recogniser
    board = recogniser.board if recogniser is not None else None
    if board is None:
        return None
    game = table.game
    expected = true_occupancy(game.position) if game is not None else None
    after = true_occupancy(moving.after) if moving is not None else None
    pawns = []
    faulty = _faulty_places(table)
    # A presence board: the colours followed since the last move (board/tracking.py) say
    # best which pawn stands where (a different Sorry! made by hand puts blue where red was).
    followed = table.pawns.colours() if table.pawns is not None else None
    for cell, value in enumerate(board):
        if value == EMPTY:
            continue
        place = place_of_cell(cell).whole  # the page draws START and HOME as one area
        if value == UNKNOWN and place.key in faulty:
            continue  # a broken wire's reading, not a pawn
        colour = value if 0 <= value < len(COLOURS) else place.colour
        if colour < 0 and followed is not None and 0 <= followed[cell] < len(COLOURS):
            colour = followed[cell]
        if colour < 0 and after is not None and 0 <= after[cell] < len(COLOURS):
            colour = after[cell]  # a presence board: the pawn the move brings there
        if colour < 0 and expected is not None and 0 <= expected[cell] < len(COLOURS):
            colour = expected[cell]  # a presence board: the pawn the game has there
        pawns.append(Sensed(place.key, COLOURS[colour] if colour >= 0 else None))
    return tuple(pawns)


def _faulty_places(table: Table) -> frozenset[str]:
    """The places (a whole START or HOME for a spot) with a wire fault now, by key."""
    return frozenset(
        place_of_cell(parse_cell_name(fault["cell"])).whole.key for fault in table.wire_faults
    )


def _touches(correction: Correction, places: frozenset[str]) -> bool:
    return any(
        p is not None and p.whole.key in places for p in (correction.source, correction.target)
    )


# A state follows every input, and a turn never changes once played (an undo or a new game
# replaces turns, which identity sees): each turn's move is read from its notation once.
_lock = threading.Lock()
_played_turns: list[PlayedTurn] = []


def _played(history: tuple[Turn, ...], teams: bool) -> tuple[PlayedTurn, ...]:
    with _lock:
        same = same_prefix(_played_turns, history, lambda played: played.turn)
        del _played_turns[same:]
        _played_turns.extend(PlayedTurn(turn, _move_of(turn, teams)) for turn in history[same:])
        return tuple(_played_turns)


def _move_of(turn: Turn, teams: bool) -> Move | None:
    if turn.text in ("forfeit", "discard"):
        return None
    try:
        return parse_move(turn.text, turn.before, teams)
    except NotationError:
        return None


# The last finished game's figures: states are rebuilt after every input, the game is not.
# Holding the game itself (not its id) means a new game can never be mistaken for it.
_last_statistics: tuple[Game, int, GameStatistics] | None = None


def _statistics(game: Game) -> GameStatistics:
    """The game in numbers, for the status page's end-of-game panel."""
    global _last_statistics
    turns = len(game.history)
    cached = _last_statistics
    if cached is None or cached[0] is not game or cached[1] != turns:
        cached = _last_statistics = (game, turns, game_statistics(game))
    return cached[2]

"""Replaying recorded events through the rules, stopping at the first one that does not fit.

The rules core's ``Game.apply`` does the work, event by event, exactly as ``Game.replay`` does; the
loop lives here as well because a damaged record must still give back the game up to the bad
event, and because a record also states who played and with which card, which ``apply`` does not
look at for a move: a line that says blue played red's 7 is a damaged record, not a move.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..rules.board import COLOURS
from ..rules.game import Event, EventKind, Game, GameConfig, GameError, Phase, Result
from ..rules.notation import NotationError
from .errors import ReplayError
from .record import GameRecord


def apply_event(game: Game, event: Event) -> None:
    """Apply one recorded event; GameError (or ValueError) if it does not fit the game."""
    if event.kind in (EventKind.DRAW, EventKind.MOVE, EventKind.FORFEIT):
        phase = Phase.DRAW if event.kind == EventKind.DRAW else Phase.MOVE
        if game.phase == phase and event.colour != game.turn:
            raise GameError(
                f"the event is {COLOURS[event.colour]}'s but it is {COLOURS[game.turn]}'s turn"
            )
        if phase == Phase.MOVE and game.phase == Phase.MOVE and event.card != game.card:
            raise GameError(f"the event plays a {event.card} but the card drawn is {game.card}")
    game.apply(event)


def replay_events(config: GameConfig, events: Iterable[Event]) -> Game:
    """The game the events lead to; ReplayError names the first one that does not fit."""
    game = Game(config)
    for number, event in enumerate(events, 1):
        try:
            apply_event(game, event)
        except (GameError, NotationError, ValueError) as error:
            message = f"event {number} ({event.kind}) cannot be replayed: {error}"
            # Game methods check before they change anything, so ``game`` is the game up to the
            # event before this one.
            raise ReplayError(message, number, game) from None
    return game


def replay_record(record: GameRecord) -> Game:
    """Replay a record and check its result line against the game's end."""
    game = replay_events(record.config, record.events)
    problem = result_mismatch(game, record.result)
    if problem:
        raise ReplayError(problem, None, game)
    return game


def result_mismatch(game: Game, result: Result | None) -> str | None:
    """Why ``result`` cannot be the recorded end of ``game``, or None when it can."""
    if result is None:
        return None
    if game.over:
        assert game.result is not None
        if not same_result(game.result, result):
            return (
                f"the recorded result ({outcome(result)}) is not how the game ends when "
                f"replayed ({outcome(game.result)})"
            )
        return None
    if result.winners or result.scores or result.patience:
        return (
            f"the record says {outcome(result)}, but the game is not over after its "
            f"{len(game.events)} events"
        )
    return None  # a game ended early (abandoned): nobody won


def same_result(a: Result, b: Result) -> bool:
    """Equal outcomes.  The reason is prose and may be reworded by a later rules core."""
    return (
        sorted(a.winners) == sorted(b.winners)
        and a.double_game == b.double_game
        and a.scores == b.scores
        and a.patience == b.patience
    )


def outcome(result: Result | None) -> str:
    """A few words on how a game ended: "red won", "patience: success", "ended early"."""
    if result is None:
        return "in progress"
    if result.patience:
        return f"patience: {result.patience}"
    if not result.winners:
        return f"ended early ({result.reason})" if result.reason else "ended early"
    text = " and ".join(COLOURS[c] for c in result.winners) + " won"
    return text + " (double game)" if result.double_game else text

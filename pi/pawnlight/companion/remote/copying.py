"""Copying: another board's turn, checked with this board's rules, lit as a copy for the
people here to make on their board; local play waits while a copy is lit."""

from __future__ import annotations

from ...i18n import message
from ...i18n.marks import N_
from ...remote.protocol import (
    NO_MOVE,
    TurnRefused,
    check_turn,
)
from ...rules import phrases
from ...rules.board import COLOURS
from ...rules.game import GameError, Phase
from ...rules.notation import move_text
from ..phases import CompanionPhase
from ..recognition import enter
from ..signals import (
    Buzz,
    Effect,
)
from ..table import RemoteGame, Table
from ..turns import after_turn, recorded
from .saying import say

MOVE_REFUSED = N_("%(colour)s's move from board %(board)s was refused: %(reason)s")
NO_MOVE_THERE = N_("%(colour)s (at %(board)s) drew %(card)s: no move")
DECLINED_THERE = N_("%(colour)s (at %(board)s) declines %(card)s")
PLAYED_THERE = N_(
    "%(colour)s (at %(board)s) played %(card)s: %(move)s. Please make the move lit on this board"
)


def copy_turn(table: Table, remote: RemoteGame) -> list[Effect]:
    """The next turn from another board: checked, then lit for the people here to make."""
    game = table.game
    assert game is not None
    if game.over or remote.adjourned:
        return []
    played = len(game.history)
    event = remote.inbox.next(played)
    # A turn of this board's own colours comes back from the broker only when this board lost
    # it (a journal lost, the game joined again): it is copied like any other board's.
    if event is None or not (remote.remote_colour(game.turn) or event.board == remote.me):
        return []
    resumed = (
        table.phase == CompanionPhase.MOVE
        and game.phase == Phase.MOVE
        and game.card == event.card
        and table.guided is None
    )
    if table.phase != CompanionPhase.DRAW and not resumed:
        return []  # setting up, or still copying: the turn waits
    colour = COLOURS[game.turn]
    try:
        move = check_turn(game.rules, game.position, game.turn, event)
    except TurnRefused as error:
        remote.inbox.take(event.seq)
        reason = message.said_of(error.args[0] if error.args else None)
        if reason is None:  # a reason in English only (a card the rules do not know)
            say(
                table, f"{colour.capitalize()}'s move from board {event.board} was refused: {error}"
            )
        else:
            mover = phrases.capital(game.turn)
            say(table, message.msg(MOVE_REFUSED, colour=mover, board=event.board, reason=reason))
        return [Buzz("illegal")]
    remote.inbox.take(event.seq)
    effects: list[Effect] = []
    if not resumed:
        game.draw(event.card)
        effects.append(recorded(game))
    said = f"{colour.capitalize()} (at {event.board})"
    who: dict[str, message.Value] = {"colour": phrases.capital(game.turn), "board": event.board}
    card = phrases.a_card(event.card)
    if game.phase != Phase.MOVE:  # no move for the card: the turn is over already
        table.news = message.say(message.msg(NO_MOVE_THERE, card=card, **who))
        return effects + after_turn(table)
    if event.move in NO_MOVE or move is None:  # an 11 declined
        try:
            game.forfeit()
        except GameError as error:
            say(table, f"{colour.capitalize()}'s turn from board {event.board}: {error}")
            return effects
        table.news = message.say(message.msg(DECLINED_THERE, card=card, **who))
        return [*effects, recorded(game), *after_turn(table)]
    chosen = next(m for m in game.legal if move_text(m) == move_text(move))
    table.guided, table.guided_by = chosen, said
    remote.own_copy = played if event.board == remote.me else None
    enter(table, CompanionPhase.MOVE)
    table.message = message.say(
        message.msg(PLAYED_THERE, card=card, move=phrases.move(chosen), **who)
    )
    return [*effects, Buzz("turn")]


def copying(table: Table) -> bool:
    """The move lit is another board's turn (not yet made here)."""
    remote = table.remote
    game = table.game
    if remote is None or game is None or table.guided is None:
        return False
    return table.phase in (CompanionPhase.MOVE, CompanionPhase.CHOOSE) and (
        remote.remote_colour(game.turn) or remote.own_copy == len(game.history)
    )

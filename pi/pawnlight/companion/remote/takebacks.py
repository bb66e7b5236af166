"""Takebacks: asked on one board, undone only once every board agrees."""

from __future__ import annotations

from collections.abc import Mapping

from ...i18n.marks import N_
from ...i18n.message import Message, msg, said_of
from ...i18n.message import say as said
from ...remote.protocol import (
    Takeback,
)
from ...rules import phrases
from ...rules.game import Game, Phase
from ..phases import CompanionPhase
from ..recognition import enter
from ..sentences import phase_message
from ..service import CommandRefused
from ..signals import (
    Buzz,
    ClearTurns,
    Effect,
    PublishTakeback,
)
from ..table import RemoteGame, Table, TakebackAsk
from ..turns import recorded
from .copying import copying
from .saying import say

TURN_OF = N_("%(colour)s's %(text)s")
TURN_NUMBER = N_("turn %(n)s")
ASKED = N_("Asked the other boards to take back %(turn)s: waiting for them to agree")
AGREED = N_("Agreed with board %(board)s to take back turn %(n)s")
REFUSED = N_("Refused board %(board)s's takeback: play goes on")
ASKS = N_(
    "Board %(board)s asks to take back %(turn)s: Confirm on the board (or Agree on the page) "
    "agrees, Undo (or Refuse) refuses"
)


def _last_turn(table: Table) -> tuple[int, Message] | None:
    """The turn a takeback asked now would undo: its number and its words."""
    game = table.game
    if game is None or not game.history:
        return None
    turn = game.history[-1]
    return len(game.history) - 1, msg(TURN_OF, colour=phrases.colour(turn.colour), text=turn.text)


REFUSED_BY = N_("Board %(board)s refused to take back turn %(n)s: play goes on")
TAKEN_BACK_AGREED = N_("Turn %(n)s taken back, as every board agreed")
TAKEN_BACK_NEXT = N_("Taken back: put the board back as lit. %(next)s")


def ask_takeback(table: Table) -> tuple[dict[str, object], list[Effect]]:
    """The owner's undo in a remote game: ask every other board to take back the last turn."""
    remote = table.remote
    assert remote is not None
    last = _last_turn(table)
    if last is None or table.game is None or table.game.over:
        raise CommandRefused(said(Message(N_("nothing to take back"))))
    if remote.takeback is not None:
        raise CommandRefused(
            said(Message(N_("a takeback is already waiting for the boards to agree")))
        )
    if copying(table) or remote.inbox.next(len(table.game.history)) is not None:
        raise CommandRefused(
            said(Message(N_("another board's move is still to be made here: make it first")))
        )
    if _doubled_since(table.game):
        raise CommandRefused(
            said(Message(N_("a double was called since that turn: the turn stays played")))
        )
    seq, words = last
    remote.takeback = TakebackAsk.asked(seq, remote.me)
    say(table, msg(ASKED, turn=words), passing=False)
    ask = Takeback(remote.setup.game, seq, remote.me, "ask")
    return {"ok": True, "asked": words.render()}, [PublishTakeback(ask)]


def takeback_asked(table: Table) -> bool:
    """Another board asks to take back a turn and this board has not answered yet."""
    remote = table.remote
    return (
        remote is not None
        and remote.takeback is not None
        and remote.takeback.by != remote.me
        and remote.me not in remote.takeback.agreed
    )


def answer_takeback(
    table: Table, args: Mapping[str, object]
) -> tuple[dict[str, object], list[Effect]]:
    """``{"agree": true|false}``: this board's answer to another board's takeback."""
    remote = table.remote
    agree = args.get("agree")
    if not isinstance(agree, bool):
        raise CommandRefused('answer with {"agree": true} or {"agree": false}', 400)
    if remote is None or remote.takeback is None or remote.takeback.by == remote.me:
        raise CommandRefused("no other board asks to take back a turn now")
    seq, asker = remote.takeback.seq, remote.takeback.by
    answer = Takeback(remote.setup.game, seq, remote.me, "agree" if agree else "refuse")
    if agree:
        remote.takeback = remote.takeback.agreed_by(remote.me)
        say(table, msg(AGREED, board=asker, n=seq + 1))
    else:
        remote.takeback = None
        say(table, msg(REFUSED, board=asker))
    return {"ok": True}, [PublishTakeback(answer)]


def _doubled_since(game: Game) -> bool:
    """A double was called or answered after the last turn (a takeback would undo it too, and
    the other boards' answers to it: point play's doubles are not taken back)."""
    doublings = game.doublings()
    return bool(doublings) and doublings[-1].turns >= len(game.history)


def takeback_heard(table: Table, remote: RemoteGame, heard: Takeback) -> list[Effect]:
    game = table.game
    if heard.board == remote.me or heard.game != remote.setup.game or game is None:
        return []  # our own message coming back, or another game's
    if heard.answer == "ask":
        last = len(game.history) - 1
        if remote.takeback is not None or heard.seq not in (last, last + 1) or _doubled_since(game):
            # Not the turn this board would undo (or one asked already): out of step.
            refusal = Takeback(remote.setup.game, heard.seq, remote.me, "refuse")
            return [PublishTakeback(refusal)]
        remote.takeback = TakebackAsk.asked(heard.seq, heard.board)
        turn = game.history[heard.seq] if heard.seq <= last else None
        words = (
            msg(TURN_OF, colour=phrases.colour(turn.colour), text=turn.text)
            if turn
            else msg(TURN_NUMBER, n=heard.seq + 1)
        )
        say(table, msg(ASKS, board=heard.board, turn=words), passing=False)
        return [Buzz("turn")]
    if remote.takeback is None or remote.takeback.seq != heard.seq:
        return []
    if heard.answer == "agree":
        remote.takeback = remote.takeback.agreed_by(heard.board)
        return []
    remote.takeback = None
    say(table, msg(REFUSED_BY, board=heard.board, n=heard.seq + 1))
    return [Buzz("illegal")]


def takeback_agreed(table: Table, remote: RemoteGame) -> list[Effect]:
    """Every board agreed: each takes the turns back on its own game and journal."""
    game = table.game
    if remote.takeback is None or game is None:
        return []
    if not remote.takeback.everyone(remote.setup.boards()):
        return []
    seq = remote.takeback.seq
    remote.takeback = None
    upto = len(game.history)
    effects: list[Effect] = []
    while game.can_undo() and (len(game.history) > seq or game.phase != Phase.DRAW):
        game.undo()
        effects.append(recorded(game))
    remote.inbox.forget_from(seq)
    table.guided, remote.own_copy = None, None
    enter(table, CompanionPhase.SETUP)
    table.news = ""
    say(table, msg(TAKEN_BACK_AGREED, n=seq + 1))
    next_said = said_of(phase_message(table))
    table.message = (
        said(msg(TAKEN_BACK_NEXT, next=next_said))
        if next_said is not None
        else "Taken back: put the board back as lit. " + phase_message(table)
    )
    return [*effects, ClearTurns(remote.setup.game, seq, upto), Buzz("turn")]

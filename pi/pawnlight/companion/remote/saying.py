"""What another board's message does here, said on this board's page: a warning about its
moment (``PASSES``) or a question still open; a turn refused; a message from a board with no
seat there."""

from __future__ import annotations

from ...i18n.marks import N_
from ...i18n.message import Message, msg
from ...i18n.message import say as said
from ...remote.protocol import (
    TurnEvent,
)
from ...rules import phrases
from ...rules.board import COLOURS
from ..signals import (
    Buzz,
    Effect,
)
from ..table import RemoteGame, Table

#: A double or an answer from a board where its colour is not seated, refused.
NOT_SEATED = {
    "double": N_(
        "a double from board %(board)s for %(colour)s was refused: %(colour)s is seated at "
        "%(seated)s"
    ),
    "accept": N_(
        "a accept from board %(board)s for %(colour)s was refused: %(colour)s is seated at "
        "%(seated)s"
    ),
    "drop": N_(
        "a drop from board %(board)s for %(colour)s was refused: %(colour)s is seated at %(seated)s"
    ),
}
TURN_REFUSED = N_(
    "a turn from board %(board)s for %(colour)s (%(card)s, turn %(n)s) was refused: "
    "%(colour)s is seated at board %(seated)s"
)
#: What a warning about its moment says of its end (it goes when the phase changes).
PASSES = "this goes once the game moves on"
PASSING = N_("%(warning)s (this goes once the game moves on)")
SORRY = N_("sorry")


def say(table: Table, words: str | Message, passing: bool = True) -> None:
    """Say what another board's message did here. Most of it is about its moment (a turn
    refused, the boards out of step) and goes once the game moves to another phase;
    ``passing=False`` for a question still open, which is replaced when it is answered.
    ``words`` a catalog message: said in each phone's language."""
    if isinstance(words, Message):
        words = said(msg(PASSING, warning=words) if passing else words)
    elif passing:
        words += f" ({PASSES})"
    table.warning = words
    table.passing_warning = words if passing else None
    if table.remote is not None:
        table.remote.said = None


def not_seated(
    table: Table, remote: RemoteGame, what: str, board: str, colour: int, seq: int
) -> list[Effect]:
    """A message from ``board`` for ``colour`` at turn ``seq``, refused in words (the effects)
    unless the colour is seated there.  The host may play any colour: its seating message
    (which hands it a seat while the seat's board is away) can arrive after the turns played
    under it."""
    seated = remote.seated_at(seq).get(colour)
    if board in (seated, remote.setup.host):
        return []
    refused = NOT_SEATED.get(what)
    if refused is None:  # not an action of the protocol's (it checks them): said in English
        name = COLOURS[colour]
        say(
            table,
            f"a {what} from board {board} for {name} was refused: {name} is seated at {seated}",
        )
    else:
        say(table, msg(refused, board=board, colour=phrases.colour(colour), seated=str(seated)))
    return [Buzz("illegal")]


def turn_refused(table: Table, remote: RemoteGame, event: TurnEvent) -> list[Effect]:
    """A turn from a board where its colour is not seated (a forgery, or a board out of step):
    refused in words naming the board and the card, once."""
    if (event.board, event.seq) in remote.refused:
        return []
    remote.refused.add((event.board, event.seq))
    seated = remote.seated_at(event.seq).get(event.colour)
    say(
        table,
        msg(
            TURN_REFUSED,
            board=event.board,
            colour=phrases.colour(event.colour),
            card=phrases.a_card(event.card),
            n=event.seq + 1,
            seated=str(seated),
        ),
    )
    return [Buzz("illegal")]

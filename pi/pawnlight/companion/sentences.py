"""What the page says: the phase's message, a result, an undone event, in board words.

The sentences are catalog messages with their values (pawnlight.i18n.message): their English
is the state's own text, and each phone and the voice render them in their own language."""

from __future__ import annotations

from ..i18n.marks import N_
from ..i18n.message import Message, msg, said_of, say
from ..remote.live import COPY_HERE
from ..rules import phrases
from ..rules.board import COLOURS
from ..rules.game import Event, EventKind, Game, Result
from ..rules.notation import NotationError, parse_move
from .phases import CompanionPhase
from .table import NO_GAME, Table

PLAYS = N_("%(colour)s plays %(card)s: make the move lit on the board")
DRAW = N_("%(colour)s: draw a card and scan it")
DRAWS_THERE = N_("%(colour)s draws at board %(board)s: the move lights up here to copy")
DOUBLED = N_("%(colour)s doubled")
A_DOUBLE = N_("A double was called")
ANSWER = N_("%(who)s: %(waiting)s, accept or drop out")
NEWS_THEN = N_("%(news)s. %(next)s")
OVER = N_("The game is over.")
WON = N_("%(colour)s won")
WON_DOUBLE = N_("%(colour)s won — a double game!")
WON_TOGETHER = N_("%(colour)s and %(partner)s won")
WON_TOGETHER_DOUBLE = N_("%(colour)s and %(partner)s won — a double game!")


def phase_message(table: Table) -> str:
    """What the players are asked to do in the game's own phase."""
    game = table.game
    if game is None:
        return NO_GAME
    phase = table.game_phase()
    colour = phrases.capital(game.turn)
    if phase == CompanionPhase.MOVE:
        return say(msg(PLAYS, colour=colour, card=phrases.a_card(game.card or "")))
    remote = table.remote
    if phase == CompanionPhase.DRAW and remote is not None and remote.remote_colour(game.turn):
        # Its card is scanned at its own board: here the move only lights up, to be copied.
        board = remote.seats[game.turn]
        assert DRAWS_THERE.endswith(COPY_HERE)
        return say(msg(DRAWS_THERE, colour=colour, board=board))
    if phase == CompanionPhase.DRAW:
        return say(msg(DRAW, colour=colour))
    if phase == CompanionPhase.DOUBLE:
        called = [d.colour for d in game.doublings() if d.action == "double"]
        who = msg(DOUBLED, colour=phrases.capital(called[-1])) if called else Message(A_DOUBLE)
        waiting = phrases.joined(phrases.colour(c) for c in sorted(game.waiting_for))
        return say(msg(ANSWER, who=who, waiting=waiting))
    return result_text(game.result) if game.result else ""


def with_news(news: str, message: str) -> str:
    """The message after a turn: what happened first, then what comes next."""
    if not news:
        return message
    return then(news, message)


def then(first: str, message: str) -> str:
    """``first``, then ``message`` as a sentence of its own; a message when both are."""
    earlier, later = said_of(first), said_of(message)
    if earlier is not None and later is not None:
        return say(msg(NEWS_THEN, news=earlier, next=later.capitalised()))
    return f"{first}. {message[:1].upper()}{message[1:]}"


#: Patience Sorry's result (rules.game: "success" or "failure").
PATIENCE = {
    "success": N_("Patience Sorry: success."),
    "failure": N_("Patience Sorry: failure."),
}


def result_text(result: Result) -> str:
    if result.patience:
        patience = PATIENCE.get(result.patience)
        return say(Message(patience)) if patience else f"Patience Sorry: {result.patience}."
    if not result.winners:
        return say(Message(OVER))
    if len(result.winners) == 1:
        won = WON_DOUBLE if result.double_game else WON
        return say(msg(won, colour=phrases.capital(result.winners[0])))
    if len(result.winners) == 2:
        won = WON_TOGETHER_DOUBLE if result.double_game else WON_TOGETHER
        first, second = result.winners
        return say(msg(won, colour=phrases.capital(first), partner=phrases.colour(second)))
    names = " and ".join(COLOURS[c] for c in result.winners)
    double = " — a double game!" if result.double_game else ""
    return f"{names[:1].upper()}{names[1:]} won{double}"


def event_text(event: Event) -> str:
    """An undone event in the undo's reply (``red's move T7-T14``)."""
    if event.kind == EventKind.MOVE:
        return f"{COLOURS[event.colour]}'s move {event.move}"
    if event.kind == EventKind.DRAW:
        return f"{COLOURS[event.colour]}'s {event.card}"
    return event.kind


def event_words(event: Event, game: Game) -> str:
    """An undone event in board words (the game is back at the position it was made in)."""
    if event.colour < 0:
        return event.kind
    colour = phrases.capital(event.colour)
    if event.kind == EventKind.MOVE:
        try:
            move = parse_move(event.move or "", game.position, game.config.teams)
        except NotationError:
            return say(msg(N_("%(colour)s's move"), colour=colour))
        return say(msg(N_("%(colour)s's move (%(move)s)"), colour=colour, move=phrases.move(move)))
    if event.kind == EventKind.DRAW:
        card = event.card or ""
        if card == "sorry":
            return say(msg(N_("%(colour)s's Sorry!"), colour=colour))
        return say(msg(N_("%(colour)s's %(card)s"), colour=colour, card=card))
    return event.kind


def undone(said: str) -> str:
    """What the page says after an undo, ``said`` the event undone."""
    event = said_of(said)
    if event is None:
        return f"Undone: {said}. Put the board back as lit."
    return say(msg(N_("Undone: %(event)s. Put the board back as lit."), event=event))

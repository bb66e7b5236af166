"""A card held to the reader: a tag being enrolled, a card drawn for the lead, or the card of
the turn (for a computer seat, the computer then chooses its move)."""

from __future__ import annotations

import logging

from ..i18n.marks import N_
from ..i18n.message import Message, Said, msg, said_of, say
from ..rules import phrases
from ..rules.board import COLOURS
from ..rules.game import Phase
from ..rules.moves import Options
from ..rules.words import a_card, move_words
from . import leader
from .deck import DeckError, card_name
from .games import start
from .phases import CompanionPhase
from .recognition import enter
from .remote import refuse_card
from .sentences import PLAYS
from .signals import Buzz, Effect, SaveDeck
from .table import Table
from .turns import DRAWS_AGAIN, after_turn, recorded

log = logging.getLogger(__name__)

LEADS = N_("%(colour)s drew the highest card and leads. %(next)s")
NOT_WANTED = N_("a %(card)s was scanned, but no card is wanted now: %(why)s")
DREW_NO_MOVE = N_("%(colour)s drew %(card)s: %(reason)s")
DECLINES = N_("%(colour)s (computer) declines %(card)s")
COMPUTER_PLAYS = N_(
    "%(colour)s (computer, %(player)s) plays %(card)s: %(move)s. Please make the move lit for it"
)
PACK_ENROLLED = N_("The pack is enrolled.")
CARD_ENROLLED = N_("%(card)s enrolled; %(prompt)s")


def said_error(error: Exception) -> str:
    """An error's words for the players: its message where it is one (each phone says it in
    its own language), else its English."""
    said = error.args[0] if error.args else None
    return said if isinstance(said, Said) else str(error)


#: A card's own name as the pack's tags know it (``5``, ``sorry``).
SORRY = N_("sorry")


def scanned(table: Table, uid: str) -> list[Effect]:
    uid = uid.upper()
    if uid == table.scanned_uid:
        return []  # the same tag still on (or put back on) the reader: ignore
    table.scanned_uid = uid
    if table.phase == CompanionPhase.ENROL:
        return _enrol(table, uid)
    try:
        card, warning = table.deck.identify(uid)
    except DeckError as error:
        table.warning = said_error(error)
        return [Buzz("illegal")]
    if table.phase == CompanionPhase.LEADER:
        drawn, config = leader.scan(table, card)
        if config is None:
            return drawn
        started = start(table, config)
        said = said_of(table.message)
        leader_colour = phrases.colour(COLOURS.index(config.players[0]))
        table.message = (
            say(msg(LEADS, colour=leader_colour, next=said))
            if said is not None
            else f"{config.players[0]} drew the highest card and leads. " + table.message
        )
        return started
    game = table.game
    if table.phase != CompanionPhase.DRAW or game is None:
        named: Message | str = Message(SORRY) if card == "sorry" else card
        table.warning = table.passing_warning = say(
            msg(NOT_WANTED, card=named, why=_not_now(table))
        )
        return [Buzz("illegal")]
    refused = refuse_card(table, card)
    if refused is not None:  # a remote game: not this board's card, or paused
        return refused
    table.warning = table.card_warning = warning
    drawer = game.turn
    colour = phrases.capital(drawer)
    options = game.draw(card)
    table.deck.played_card(uid)
    effects: list[Effect] = [recorded(game)]
    if game.phase == Phase.MOVE and game.turn in table.computer:
        return effects + computer_move(table, card, options)
    if game.phase == Phase.MOVE:
        enter(table, CompanionPhase.MOVE)
        table.message = say(msg(PLAYS, colour=colour, card=phrases.a_card(card)))
    else:
        # A point game's discard never draws again, even of a 2.
        again = not game.over and game.turn == drawer
        news = msg(
            DREW_NO_MOVE,
            colour=colour,
            card=phrases.a_card(card),
            reason=phrases.no_move_reason(card),
        )
        if again:
            news = msg(DRAWS_AGAIN, news=news, colour=colour)
        table.news = say(news)
        effects += after_turn(table)
    return effects


def _not_now(table: Table) -> Message:
    """What to do instead of drawing, by the phase (a warning says what to do)."""
    phase = table.phase
    if phase in (CompanionPhase.MOVE, CompanionPhase.CHOOSE):
        return Message(
            N_("put it back on the pile and finish the move first (this goes once it is made)")
        )
    if phase == CompanionPhase.SETUP:
        return Message(
            N_("put it back and set up the board as lit first (this goes once it is set up)")
        )
    if phase == CompanionPhase.DOUBLE:
        return Message(
            N_("put it back: the double is answered first (this goes once it is answered)")
        )
    if phase == CompanionPhase.OVER:
        return Message(
            N_(
                "the game is over (Next game on the owner's page, or Confirm on the board; "
                "this goes once the next game starts)"
            )
        )
    return Message(N_("start a game on the owner's page first (this goes once a game starts)"))


def computer_move(table: Table, card: str, options: Options) -> list[Effect]:
    """A computer seat chooses; a person then makes exactly that move on the board."""
    from ..players import view_of

    game = table.game
    assert game is not None
    turn = game.turn
    colour = COLOURS[turn].capitalize()
    spec, player = table.computer[turn]
    # In the daemon's log: what holds the owner for up to the decision's time limit.
    log.info("%s (computer, %s) is choosing its move for %s", colour, spec, a_card(card))
    move = player.choose(view_of(game), card, options)
    log.info("%s (computer) chose: %s", colour, "to decline" if move is None else move_words(move))
    if move is None:  # it declines an 11 that cannot go forward
        game.forfeit()
        table.news = say(msg(DECLINES, colour=phrases.capital(turn), card=phrases.a_card(card)))
        return [recorded(game), *after_turn(table)]
    table.guided, table.guided_by = move, f"{colour} (computer, {spec})"
    enter(table, CompanionPhase.MOVE)
    table.message = say(
        msg(
            COMPUTER_PLAYS,
            colour=phrases.capital(turn),
            player=spec,
            card=phrases.a_card(card),
            move=phrases.move(move),
        )
    )
    return [Buzz("turn")]


def _enrol(table: Table, uid: str) -> list[Effect]:
    enrolment = table.enrolment
    assert enrolment is not None
    try:
        card = enrolment.scan(uid)
    except DeckError as error:
        table.warning = said_error(error)
        return [Buzz("illegal")]
    table.warning = None
    if enrolment.done:
        table.deck.uids = dict(enrolment.scanned)
        table.deck.shuffled()
        table.enrolment = None
        enter(table)
        table.message = say(Message(PACK_ENROLLED))
        return [SaveDeck(dict(table.deck.uids)), Buzz("confirm")]
    prompt = said_of(enrolment.prompt())
    assert prompt is not None
    table.message = say(msg(CARD_ENROLLED, card=card_name(card), prompt=prompt))
    return [Buzz("turn")]

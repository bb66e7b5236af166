"""A card held to the reader: a tag being enrolled, a card drawn for the lead, or the card of
the turn (for a computer seat, the computer then chooses its move)."""

from __future__ import annotations

import logging

from ..rules.board import COLOURS
from ..rules.game import Phase
from ..rules.moves import Options
from ..rules.words import a_card, move_words, no_move_reason
from . import leader
from .deck import DeckError
from .games import start
from .phases import CompanionPhase
from .recognition import enter
from .remote import refuse_card
from .signals import Buzz, Effect, SaveDeck
from .table import Table
from .turns import after_turn, recorded

log = logging.getLogger(__name__)


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
        table.warning = str(error)
        return [Buzz("illegal")]
    if table.phase == CompanionPhase.LEADER:
        drawn, config = leader.scan(table, card)
        if config is None:
            return drawn
        started = start(table, config)
        table.message = f"{config.players[0]} drew the highest card and leads. " + table.message
        return started
    game = table.game
    if table.phase != CompanionPhase.DRAW or game is None:
        table.warning = table.passing_warning = (
            f"a {card} was scanned, but no card is wanted now: {_not_now(table)}"
        )
        return [Buzz("illegal")]
    refused = refuse_card(table, card)
    if refused is not None:  # a remote game: not this board's card, or paused
        return refused
    table.warning = table.card_warning = warning
    drawer = game.turn
    colour = COLOURS[drawer].capitalize()
    options = game.draw(card)
    table.deck.played_card(uid)
    effects: list[Effect] = [recorded(game)]
    if game.phase == Phase.MOVE and game.turn in table.computer:
        return effects + computer_move(table, card, options)
    if game.phase == Phase.MOVE:
        enter(table, CompanionPhase.MOVE)
        table.message = f"{colour} plays {a_card(card)}: make the move lit on the board"
    else:
        # A point game's discard never draws again, even of a 2.
        again = not game.over and game.turn == drawer
        table.news = f"{colour} drew {a_card(card)}: {no_move_reason(card)}" + (
            f". The 2 says {colour} draws again" if again else ""
        )
        effects += after_turn(table)
    return effects


def _not_now(table: Table) -> str:
    """What to do instead of drawing, by the phase (a warning says what to do)."""
    phase = table.phase
    if phase in (CompanionPhase.MOVE, CompanionPhase.CHOOSE):
        return "put it back on the pile and finish the move first (this goes once it is made)"
    if phase == CompanionPhase.SETUP:
        return "put it back and set up the board as lit first (this goes once it is set up)"
    if phase == CompanionPhase.DOUBLE:
        return "put it back: the double is answered first (this goes once it is answered)"
    if phase == CompanionPhase.OVER:
        return (
            "the game is over (Next game on the owner's page, or Confirm on the board; "
            "this goes once the next game starts)"
        )
    return "start a game on the owner's page first (this goes once a game starts)"


def computer_move(table: Table, card: str, options: Options) -> list[Effect]:
    """A computer seat chooses; a person then makes exactly that move on the board."""
    from ..players import view_of

    game = table.game
    assert game is not None
    colour = COLOURS[game.turn].capitalize()
    spec, player = table.computer[game.turn]
    # In the daemon's log: what holds the owner for up to the decision's time limit.
    log.info("%s (computer, %s) is choosing its move for %s", colour, spec, a_card(card))
    move = player.choose(view_of(game), card, options)
    log.info("%s (computer) chose: %s", colour, "to decline" if move is None else move_words(move))
    if move is None:  # it declines an 11 that cannot go forward
        game.forfeit()
        table.news = f"{colour} (computer) declines {a_card(card)}"
        return [recorded(game), *after_turn(table)]
    table.guided, table.guided_by = move, f"{colour} (computer, {spec})"
    enter(table, CompanionPhase.MOVE)
    table.message = (
        f"{table.guided_by} plays {a_card(card)}: {move_words(move)}. "
        "Please make the move lit for it"
    )
    return [Buzz("turn")]


def _enrol(table: Table, uid: str) -> list[Effect]:
    enrolment = table.enrolment
    assert enrolment is not None
    try:
        card = enrolment.scan(uid)
    except DeckError as error:
        table.warning = str(error)
        return [Buzz("illegal")]
    table.warning = None
    if enrolment.done:
        table.deck.uids = dict(enrolment.scanned)
        table.deck.shuffled()
        table.enrolment = None
        enter(table)
        table.message = "The pack is enrolled."
        return [SaveDeck(dict(table.deck.uids)), Buzz("confirm")]
    table.message = f"{card} enrolled; {enrolment.prompt()}"
    return [Buzz("turn")]

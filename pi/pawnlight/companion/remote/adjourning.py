"""Adjourning: a board offline pauses the game everywhere (the card refused, the page says
which board), the host adjourns the game and resumes it with its join code."""

from __future__ import annotations

from collections.abc import Mapping

from ...i18n.marks import N_
from ...i18n.message import Message, msg, say
from ...rules import phrases
from ..service import CommandRefused
from ..signals import (
    Buzz,
    Effect,
    PublishSeating,
    Remember,
)
from ..table import RemoteGame, Table
from .saved import REMEMBERED, saved_form, seating_of
from .saying import PASSING, SORRY
from .seating import (
    away_long,
    host_in_play,
)

ADJOURNED_AWAY = N_("Adjourned (board %(board)s is away)")
RESUMED = N_("The game is resumed")
ADJOURNED = N_("the host resumes it with its join code once every board is online")
SCANNED_BUT = N_("a %(card)s was scanned, but %(why)s")
WAITS = N_("%(offline)s: the game waits for it")
ELSEWHERE = N_(
    "it is %(colour)s's turn, and %(colour)s plays at board %(board)s: "
    "that card is scanned there, not here"
)
NOT_CONNECTED = N_("This board is not connected to the other boards")
BOARD_OFFLINE = N_("%(who)s's board is offline")
PAUSED = N_("%(offline)s (the game is paused)")
MAY_HAND = N_("%(offline)s: the owner may let the computer play its colours, or adjourn the game")
IS_ADJOURNED = N_("The game is adjourned: %(why)s")


def refuse_card(table: Table, card: str) -> list[Effect] | None:
    """A card scanned here refused in a remote game, in words (None: it is welcome): the
    game is paused, or the colour whose turn it is plays at another board."""
    remote = table.remote
    game = table.game
    if remote is None or game is None:
        return None
    offline = remote.offline()
    paused = bool(offline) or remote.adjourned
    why: Message
    if remote.adjourned:
        why = Message(ADJOURNED)
    elif offline:
        why = msg(WAITS, offline=offline_words(remote, offline))
    elif remote.remote_colour(game.turn):
        colour, board = phrases.colour(game.turn), remote.seats[game.turn]
        why = msg(ELSEWHERE, colour=colour, board=board)
    else:
        return None
    named: Message | str = Message(SORRY) if card == "sorry" else card
    warning = msg(SCANNED_BUT, card=named, why=why)
    table.warning = say(warning if paused else msg(PASSING, warning=warning))
    remote.paused_card = table.warning if paused else None
    table.passing_warning = None if paused else table.warning
    table.scanned_uid = None  # the same card may be scanned again once it is welcome
    return [Buzz("illegal")]


def offline_words(remote: RemoteGame, offline: list[str]) -> Message:
    board = offline[0]
    if board == remote.me:
        return Message(NOT_CONNECTED)
    colours = [phrases.capital(c) for c, b in sorted(remote.seats.items()) if b == board]
    return msg(BOARD_OFFLINE, who=phrases.joined(colours) if colours else board)


def say_offline(table: Table, remote: RemoteGame) -> None:
    offline = remote.offline()
    words: Message | None = (
        msg(PAUSED, offline=offline_words(remote, offline).capitalised()) if offline else None
    )
    if remote.adjourned:
        words = msg(IS_ADJOURNED, why=Message(ADJOURNED))
    elif words is not None and remote.me == remote.setup.host:
        away = [b for b in offline if b != remote.me]
        if away and remote.away_for(away[0], table.now) >= table.offline_grace:
            words = msg(MAY_HAND, offline=words)
    said = None if words is None else say(words)
    if said == remote.said:
        return
    if table.warning in (None, remote.said, remote.paused_card):
        table.warning = said
    remote.said, remote.paused_card = said, None


def adjourn(table: Table, args: Mapping[str, object]) -> tuple[dict[str, object], list[Effect]]:
    """The host adjourns the game (a board offline for ``offline_grace``): every board keeps it
    saved and takes no card until the host resumes it (``resume``)."""
    remote, _ = host_in_play(table)
    if remote.adjourned:
        raise CommandRefused("the game is adjourned already")
    away = [b for b in remote.setup.boards() if not remote.online.get(b) and b != remote.me]
    if not away:
        raise CommandRefused("every board is online: nothing to adjourn for")
    away_long(table, remote, away[0])
    remote.adjourned = True
    table.news = say(msg(ADJOURNED_AWAY, board=away[0]))
    return {"ok": True, "code": remote.setup.code}, [
        PublishSeating(seating_of(remote)),
        Remember(REMEMBERED, saved_form(remote)),
    ]


def resume(table: Table, args: Mapping[str, object]) -> tuple[dict[str, object], list[Effect]]:
    """``{"code": "K7PQ3X"}``: the host resumes its adjourned game, once every board is online."""
    code = args.get("code")
    remote = table.remote
    if remote is None or not remote.adjourned:
        raise CommandRefused("no adjourned remote game on this board")
    if not isinstance(code, str) or code.strip().upper() != remote.setup.code:
        raise CommandRefused("that is not this game's join code", 400)
    remote, _ = host_in_play(table)
    away = [b for b in remote.setup.boards() if not remote.online.get(b)]
    if away:
        raise CommandRefused(f"board {away[0]} is offline: the game resumes with every board")
    remote.adjourned = False
    table.news = say(Message(RESUMED))
    return {"ok": True}, [
        PublishSeating(seating_of(remote)),
        Remember(REMEMBERED, saved_form(remote)),
    ]

"""Adjourning: a board offline pauses the game everywhere (the card refused, the page says
which board), the host adjourns the game and resumes it with its join code."""

from __future__ import annotations

from collections.abc import Mapping

from ...rules.board import COLOURS
from ..service import CommandRefused
from ..signals import (
    Buzz,
    Effect,
    PublishSeating,
    Remember,
)
from ..table import RemoteGame, Table
from .saved import REMEMBERED, saved_form, seating_of
from .saying import PASSES
from .seating import (
    away_long,
    host_in_play,
)

ADJOURNED = "the host resumes it with its join code once every board is online"


def refuse_card(table: Table, card: str) -> list[Effect] | None:
    """A card scanned here refused in a remote game, in words (None: it is welcome): the
    game is paused, or the colour whose turn it is plays at another board."""
    remote = table.remote
    game = table.game
    if remote is None or game is None:
        return None
    offline = remote.offline()
    paused = bool(offline) or remote.adjourned
    if remote.adjourned:
        why = ADJOURNED
    elif offline:
        why = offline_words(remote, offline) + ": the game waits for it"
    elif remote.remote_colour(game.turn):
        colour, board = COLOURS[game.turn], remote.seats[game.turn]
        why = (
            f"it is {colour}'s turn, and {colour} plays at board {board}: "
            "that card is scanned there, not here"
        )
    else:
        return None
    table.warning = f"a {card} was scanned, but {why}" + ("" if paused else f" ({PASSES})")
    remote.paused_card = table.warning if paused else None
    table.passing_warning = None if paused else table.warning
    table.scanned_uid = None  # the same card may be scanned again once it is welcome
    return [Buzz("illegal")]


def offline_words(remote: RemoteGame, offline: list[str]) -> str:
    board = offline[0]
    if board == remote.me:
        return "This board is not connected to the other boards"
    colours = [COLOURS[c].capitalize() for c, b in sorted(remote.seats.items()) if b == board]
    who = " and ".join(colours) if colours else board
    return f"{who}'s board is offline"


def say_offline(table: Table, remote: RemoteGame) -> None:
    offline = remote.offline()
    words = offline_words(remote, offline) + " (the game is paused)" if offline else None
    if remote.adjourned:
        words = f"The game is adjourned: {ADJOURNED}"
    elif words is not None and remote.me == remote.setup.host:
        away = [b for b in offline if b != remote.me]
        if away and remote.away_for(away[0], table.now) >= table.offline_grace:
            words += ": the owner may let the computer play its colours, or adjourn the game"
    if words == remote.said:
        return
    if table.warning in (None, remote.said, remote.paused_card):
        table.warning = words
    remote.said, remote.paused_card = words, None


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
    table.news = f"Adjourned (board {away[0]} is away)"
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
    table.news = "The game is resumed"
    return {"ok": True}, [
        PublishSeating(seating_of(remote)),
        Remember(REMEMBERED, saved_form(remote)),
    ]

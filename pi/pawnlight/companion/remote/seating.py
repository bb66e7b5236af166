"""Seating: which board plays each colour, and the host handing the seats of a board away for
long to its computer (``hand_seat``); the host's seating heard on every other board."""

from __future__ import annotations

from collections.abc import Mapping

from ...i18n.marks import N_
from ...i18n.message import msg
from ...i18n.message import say as say_said
from ...remote.protocol import (
    Handed,
    Seating,
)
from ...rules import phrases
from ...rules.board import COLOURS
from ...rules.game import Phase
from ..config import new_game
from ..phases import CompanionPhase
from ..recognition import enter
from ..sentences import phase_message, then
from ..service import CommandRefused
from ..signals import (
    Buzz,
    Effect,
    PublishSeating,
    Remember,
)
from ..table import RemoteGame, Table, seat_players
from ..turns import recorded
from .copying import copying
from .saved import REMEMBERED, saved_form, seating_of
from .saying import say, turn_refused

#: The computer player the host gives a seat whose board is away (the page's default).
COMPUTER = "normal"


HANDED_AWAY = N_(
    "%(colour)s is played at board %(board)s now (this board was away): %(card)s drawn here "
    "goes back to the pile; put the board back as lit"
)
TWO_TURNS_HELD = N_("board %(board)s sent two different turns %(n)s: out of step")
NOT_PLAYING_HANDED = N_("board %(board)s handed a seat of a colour that is not playing")
COMPUTER_HERE = N_("The computer plays %(colour)s here from now on (board %(board)s is away)")
BACK_AT = N_("%(colour)s is played at board %(board)s again")


def settle_unseated(table: Table, remote: RemoteGame, played: int) -> list[Effect]:
    """The host's turns held for a seating: taken once it hands the host the colour, refused
    once the game is past them (the colour's own board played that turn)."""
    effects: list[Effect] = []
    for seq, event in sorted(remote.unseated.items()):
        if remote.seated_at(seq).get(event.colour) == event.board:
            del remote.unseated[seq]
            if remote.inbox.offer(event, played) == "conflict":
                say(table, msg(TWO_TURNS_HELD, board=event.board, n=seq + 1))
                effects.append(Buzz("illegal"))
        elif seq < played:
            del remote.unseated[seq]
            effects += turn_refused(table, remote, event)
    return effects


def seat_now(table: Table, remote: RemoteGame) -> None:
    """The seating in force for the turn the game is at; on the host, its computer plays the
    colours handed to it (as any computer seat: lit on this board for a person to make)."""
    game = table.game
    assert game is not None
    seq = len(game.history)
    remote.seats = remote.seated_at(seq)
    if remote.me != remote.setup.host:
        return
    wanted = {c for c in remote.by_computer(seq) if remote.seats[c] == remote.me}
    for colour in set(table.computer) - wanted:
        del table.computer[colour]
        if game.turn == colour and table.guided is not None and not copying(table):
            table.guided = None
    chosen = dict(new_game(remote.setup.config).computer)  # the host's own choice at the start
    for colour in wanted - set(table.computer):
        spec = chosen.get(COLOURS[colour], COMPUTER)
        table.computer.update(seat_players(((COLOURS[colour], spec),)))


def seating_heard(table: Table, remote: RemoteGame, seating: Seating) -> list[Effect]:
    """The host's seating, on every other board: kept (and in the journal), in force by turn."""
    if (
        seating.game != remote.setup.game
        or seating.host != remote.setup.host
        or remote.me == remote.setup.host
    ):
        return []
    known = {COLOURS.index(colour) for colour in remote.setup.seats}
    if any(each.colour not in known for each in seating.handed):
        say(table, msg(NOT_PLAYING_HANDED, board=seating.host))
        return [Buzz("illegal")]
    if (list(seating.handed), seating.adjourned) == (remote.handed, remote.adjourned):
        return []
    remote.handed, remote.adjourned = list(seating.handed), seating.adjourned
    return [Remember(REMEMBERED, saved_form(remote)), *_drop_half_played(table, remote)]


def _drop_half_played(table: Table, remote: RemoteGame) -> list[Effect]:
    """A turn begun here (its card drawn) for a colour the host has since handed to its computer
    (this board was hung or cut off past the grace): the host plays that turn, so the card is
    put back here and the host's turn copied when it comes; played here too, the two boards
    would hold different turns under one number."""
    game = table.game
    assert game is not None
    seq = len(game.history)
    if game.phase != Phase.MOVE or remote.seated_at(seq).get(game.turn) == remote.me:
        return []
    if copying(table):
        return []  # the turn lit is the other board's already
    turn, card, board = game.turn, game.card or "", remote.seated_at(seq)[game.turn]
    effects: list[Effect] = []
    while game.can_undo() and game.phase == Phase.MOVE and len(game.history) == seq:
        game.undo()
        effects.append(recorded(game))
    table.guided = None
    enter(table, CompanionPhase.SETUP)
    table.news = ""
    say(
        table,
        msg(HANDED_AWAY, colour=phrases.capital(turn), board=board, card=phrases.a_card(card)),
    )
    table.message = phase_message(table)
    return [*effects, Buzz("illegal")]


def host_in_play(table: Table) -> tuple[RemoteGame, int]:
    """The remote game this board hosts, between turns; its turn number."""
    remote, game = table.remote, table.game
    if remote is None:
        raise CommandRefused("this board plays no remote game")
    if remote.me != remote.setup.host:
        raise CommandRefused(f"only the host ({remote.setup.host}) does that")
    if game is None or game.over:
        raise CommandRefused("the game is over")
    if table.phase != CompanionPhase.DRAW or copying(table):
        raise CommandRefused("between turns only: finish this turn first")
    return remote, len(game.history)


def away_long(table: Table, remote: RemoteGame, board: str) -> None:
    grace = table.offline_grace
    away = remote.away_for(board, table.now)
    if remote.online.get(board) or away < grace:
        raise CommandRefused(
            f"board {board} is online or has been offline only {away:.0f} s: wait "
            f"{grace:.0f} s offline (offline_grace, docs/remote.md)"
        )


def hand_seat(table: Table, args: Mapping[str, object]) -> tuple[dict[str, object], list[Effect]]:
    """The host's ``{"colour": "blue", "computer": true}``: the computer plays blue here from
    the next turn on (its board has been offline for ``offline_grace``); ``false`` gives the
    seat back to its board (online again)."""
    colour_name, computer = args.get("colour"), args.get("computer")
    if colour_name not in COLOURS or not isinstance(computer, bool):
        raise CommandRefused('give {"colour": "blue", "computer": true or false}', 400)
    remote, seq = host_in_play(table)
    colour = COLOURS.index(str(colour_name))
    if str(colour_name) not in remote.setup.seats:
        raise CommandRefused(f"{colour_name} is not playing in this game", 400)
    own = remote.setup.seats[str(colour_name)]
    now_at = remote.seats[colour]
    if computer:
        if now_at == remote.me:
            raise CommandRefused(f"{colour_name} is played at this board already")
        away_long(table, remote, own)
        handed = Handed(seq, colour, remote.me, True)
        said = say_said(msg(COMPUTER_HERE, colour=phrases.capital(colour), board=own))
    else:
        if colour not in remote.by_computer(seq):
            raise CommandRefused(f"the computer does not play {colour_name}")
        if not remote.online.get(own):
            raise CommandRefused(f"board {own} is offline: it takes {colour_name} back when online")
        handed = Handed(seq, colour, own, False)
        said = say_said(msg(BACK_AT, colour=phrases.capital(colour), board=own))
    remote.handed = [h for h in remote.handed if h.seq < seq or h.colour != colour]
    remote.handed.append(handed)
    seat_now(table, remote)
    table.news = said
    table.message = then(said, phase_message(table))
    effects: list[Effect] = [
        PublishSeating(seating_of(remote)),
        Remember(REMEMBERED, saved_form(remote)),
    ]
    return {"ok": True, "said": said, "computer": _computer_colours(remote, seq)}, effects


def _computer_colours(remote: RemoteGame, seq: int) -> list[str]:
    return [COLOURS[c] for c in sorted(remote.by_computer(seq))]

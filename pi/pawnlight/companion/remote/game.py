"""The remote game's loop: begun (``start``), restored after a restart, forgotten; every
message from another board taken in (``take``) and the game followed after every input
(``follow``): seats handed over, copies lit, doublings and takebacks settled."""

from __future__ import annotations

from collections.abc import Mapping

from ...i18n.marks import N_
from ...i18n.message import msg
from ...remote.protocol import (
    Handed,
    ProtocolError,
    TurnEvent,
    check_board_id,
    check_seats,
    decode_seating,
    decode_setup,
    position_hash,
)
from ...rules.board import COLOURS
from ..config import ConfigError, new_game
from ..service import CommandRefused
from ..signals import (
    Buzz,
    Effect,
    PublishSeating,
    PublishSetup,
    PublishTurn,
    Remember,
    RemoteBoard,
    RemoteDoubling,
    RemoteInput,
    RemoteResync,
    RemoteSeating,
    RemoteTakeback,
)
from ..table import RemoteGame, Table
from .adjourning import say_offline
from .copying import copy_turn
from .doubling import (
    doubling_heard,
    publish_doublings,
    take_doublings,
)
from .saved import REMEMBERED, new_remote_game, saved_form, seating_of
from .saying import say, turn_refused
from .seating import (
    seat_now,
    seating_heard,
    settle_unseated,
)
from .takebacks import (
    takeback_agreed,
    takeback_heard,
)

#: Two boards out of step over one turn (moves named by their notation, in every language).
TURN_DIFFERS = N_(
    "board %(board)s says turn %(n)s was %(move)s, but here it was %(here)s: the boards are out "
    "of step"
)
TWO_TURNS = N_("board %(board)s sent two different turns %(n)s: the boards are out of step")


def start(table: Table, args: Mapping[str, object]) -> tuple[RemoteGame, list[Effect]]:
    """``{"setup": {...}, "me": "<board id>"}``: begin the remote game here (host or joiner).
    The caller begins the game itself (commands: the one way a game begins)."""
    try:
        setup = decode_setup(args.get("setup"))
        me = check_board_id(args.get("me"))
        request = new_game(setup.config)
        seats = check_seats(setup.seats, request.config.players)
    except (ProtocolError, ConfigError) as error:
        raise CommandRefused(str(error), 400) from None
    if request.draw_leader:
        raise CommandRefused(
            "a remote game has no leader draw: the host's order of colours is the order of play",
            400,
        )
    elsewhere = [c for c, _ in request.computer if seats.get(c) != setup.host]
    if elsewhere:
        raise CommandRefused(
            f"the computer plays {elsewhere[0]} at the host's board: seat {elsewhere[0]} at "
            f"{setup.host}",
            400,
        )
    if me not in seats.values():
        raise CommandRefused(f"this board ({me}) has no seat in that game", 400)
    remote = new_remote_game(table, setup, me, seats)
    # The host's computer plays them from the first turn, as a seat it took over (every board
    # reads the same setup, so every board knows it without a seating message).
    remote.handed = [Handed(0, COLOURS.index(c), setup.host, True) for c, _ in request.computer]
    return remote, [Remember(REMEMBERED, saved_form(remote)), PublishSetup(setup)]


def restore(table: Table, saved: Mapping[str, object] | None) -> list[Effect]:
    """The remote game kept in the journal, if the game resumed is the one it was for."""
    if saved is None:
        return []
    game = table.game
    try:
        setup = decode_setup(saved.get("setup"))
        me = check_board_id(saved.get("me"))
        config = new_game(setup.config).config
        seats = check_seats(setup.seats, config.players)
    except (ProtocolError, ConfigError) as error:
        table.warning = f"the remote game was not restored: {error}"
        return [Remember(REMEMBERED, None)]
    if game is None or game.over or game.config != config:
        return [Remember(REMEMBERED, None)]  # that game is over: this board plays alone again
    table.remote = new_remote_game(table, setup, me, seats)
    if saved.get("seating") is not None:
        try:
            seating = decode_seating(saved.get("seating"))
        except ProtocolError as error:
            table.warning = f"the remote game's seating was not restored: {error}"
        else:
            table.remote.handed = list(seating.handed)
            table.remote.adjourned = seating.adjourned
    return []


def forget(table: Table) -> list[Effect]:
    """A game that is not the remote one begins here: the board leaves the remote game."""
    if table.remote is None:
        return []
    table.remote = None
    return [Remember(REMEMBERED, None)]


def take(table: Table, item: RemoteInput) -> list[Effect]:
    """An input from the remote link."""
    remote = table.remote
    if isinstance(item, RemoteBoard):
        table.presence[item.board] = item.online
        if remote is not None and item.board in remote.online:
            if item.online:
                remote.offline_since.pop(item.board, None)
            elif remote.online[item.board] or item.board not in remote.offline_since:
                remote.offline_since[item.board] = item.at
            remote.online[item.board] = item.online
        return []
    if remote is None:
        return []  # a message for a remote game this board has left
    if isinstance(item, RemoteResync):
        # The broker may have lost its store: every turn, the setup (the join code), and on
        # the host its seating, given back (the boards that have them drop the copies).
        remote.offered = remote.doublings_offered = 0
        again: list[Effect] = [PublishSetup(remote.setup)]
        if remote.me == remote.setup.host:
            again.append(PublishSeating(seating_of(remote)))
        return again
    if isinstance(item, RemoteDoubling):
        return doubling_heard(table, remote, item.doubling)
    if isinstance(item, RemoteSeating):
        return seating_heard(table, remote, item.seating)
    if isinstance(item, RemoteTakeback):
        return takeback_heard(table, remote, item.takeback)
    event = item.event
    game = table.game
    if game is None or event.game != remote.setup.game:
        return []
    if remote.seated_at(event.seq).get(event.colour) != event.board:
        if event.board == remote.setup.host != remote.me:
            # The host's seating handing it the colour may come after the turn: held till then.
            remote.unseated[event.seq] = event
            return []
        return turn_refused(table, remote, event)
    history = game.history
    verdict = remote.inbox.offer(event, len(history))
    if verdict == "duplicate" and event.seq < len(history):
        turn = history[event.seq]
        if (turn.colour, turn.card, turn.text) != (event.colour, event.card, event.move):
            say(
                table,
                msg(
                    TURN_DIFFERS,
                    board=event.board,
                    n=event.seq + 1,
                    move=event.move,
                    here=turn.text,
                ),
            )
            return [Buzz("illegal")]
    elif verdict == "conflict":
        say(table, msg(TWO_TURNS, board=event.board, n=event.seq + 1))
        return [Buzz("illegal")]
    return []


def follow(table: Table) -> list[Effect]:
    """After every input and command: publish the turns played here, copy the next turn from
    another board when the game is ready for it, and say which board is offline."""
    remote = table.remote
    game = table.game
    if remote is None or game is None:
        return []
    if table.started is not None:
        remote.count_offline_from(table.now)
    effects: list[Effect] = []
    history = game.history
    remote.offered = min(remote.offered, len(history))
    for seq in range(remote.offered, len(history)):
        turn = history[seq]
        if remote.seated_at(seq).get(turn.colour) == remote.me:
            event = TurnEvent(
                remote.setup.game,
                seq,
                remote.me,
                turn.colour,
                turn.card,
                turn.text,
                position_hash(turn.after),
            )
            effects.append(PublishTurn(event))
    remote.offered = len(history)
    effects += publish_doublings(game, remote)
    seat_now(table, remote)
    effects += settle_unseated(table, remote, len(history))
    effects += take_doublings(table, remote)
    effects += copy_turn(table, remote)
    effects += takeback_agreed(table, remote)
    say_offline(table, remote)
    return effects

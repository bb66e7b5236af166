"""A game played on two or more boards in different homes (docs/remote.md).

Each board runs the whole game with its own rules core.  A colour is seated at one board: its
card is scanned there and its move made there; the turn is recorded, then published
(``PublishTurn``).  Every other board takes that turn in (``RemoteTurn``), checks it with its
own rules (the move legal for the card, the position after it the one the sender's hash names),
and lights it as a *copy*, exactly as a computer seat's move is lit: the people there make it on
their board, and once the board matches, the turn is played and recorded there too.  Local play
waits until then: the next card is refused while a copy is lit.

Turns are numbered by their place in the game's history, so a turn that arrives twice, or
before the one it follows, is held until the game reaches it (``Inbox``).  A board that is
offline pauses the game everywhere: no card is taken until it is back.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..remote.protocol import (
    NO_MOVE,
    DoublingEvent,
    Handed,
    ProtocolError,
    Seating,
    Setup,
    Takeback,
    TurnEvent,
    TurnRefused,
    check_board_id,
    check_seats,
    check_turn,
    decode_seating,
    decode_setup,
    position_hash,
)
from ..rules.board import COLOURS
from ..rules.editions import Variant
from ..rules.game import Doubling, Game, GameError, Phase
from ..rules.notation import move_text
from ..rules.words import a_card, move_words
from .config import ConfigError, new_game
from .phases import CompanionPhase
from .points import after_doubling
from .recognition import enter
from .sentences import phase_message
from .service import CommandRefused
from .signals import (
    Buzz,
    ClearTurns,
    Effect,
    PublishDoubling,
    PublishSeating,
    PublishSetup,
    PublishTakeback,
    PublishTurn,
    Remember,
    RemoteBoard,
    RemoteDoubling,
    RemoteInput,
    RemoteResync,
    RemoteSeating,
    RemoteTakeback,
)
from .table import RemoteGame, Table, seat_players
from .turns import after_turn, recorded

#: The name the remote game is kept under in the journal (a restart carries on with it).
REMEMBERED = "remote"

#: The computer player the host gives a seat whose board is away (the page's default).
COMPUTER = "normal"
#: What a warning about its moment says of its end (it goes when the phase changes).
PASSES = "this goes once the game moves on"

ADJOURNED = "the host resumes it with its join code once every board is online"


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
    remote = _remote_game(table, setup, me, seats)
    # The host's computer plays them from the first turn, as a seat it took over (every board
    # reads the same setup, so every board knows it without a seating message).
    remote.handed = [Handed(0, COLOURS.index(c), setup.host, True) for c, _ in request.computer]
    return remote, [Remember(REMEMBERED, _saved(remote)), PublishSetup(setup)]


def _remote_game(table: Table, setup: Setup, me: str, seats: Mapping[str, str]) -> RemoteGame:
    by_colour = {COLOURS.index(colour): board for colour, board in seats.items()}
    # Until their presence arrives, the other boards count as offline (and this one until its
    # link to the broker is up).
    online = {board: table.presence.get(board, False) for board in setup.boards()}
    # Offline time counts from when this daemon first knows the time (follow): a game restored
    # at start must not count from the clock's zero (the machine's boot).
    return RemoteGame(setup, me, by_colour, online)


def _saved(remote: RemoteGame) -> dict[str, object]:
    """What the journal keeps of the remote game (``restore`` reads it back)."""
    seating = _seating(remote)
    return {"setup": remote.setup.to_json(), "me": remote.me, "seating": seating.to_json()}


def _seating(remote: RemoteGame) -> Seating:
    return Seating(remote.setup.game, remote.setup.host, tuple(remote.handed), remote.adjourned)


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
    table.remote = _remote_game(table, setup, me, seats)
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
            again.append(PublishSeating(_seating(remote)))
        return again
    if isinstance(item, RemoteDoubling):
        return _doubling_heard(table, remote, item.doubling)
    if isinstance(item, RemoteSeating):
        return _seating_heard(table, remote, item.seating)
    if isinstance(item, RemoteTakeback):
        return _takeback_heard(table, remote, item.takeback)
    event = item.event
    game = table.game
    if game is None or event.game != remote.setup.game:
        return []
    if remote.seated_at(event.seq).get(event.colour) != event.board:
        if event.board == remote.setup.host != remote.me:
            # The host's seating handing it the colour may come after the turn: held till then.
            remote.unseated[event.seq] = event
            return []
        return _turn_refused(table, remote, event)
    history = game.history
    verdict = remote.inbox.offer(event, len(history))
    if verdict == "duplicate" and event.seq < len(history):
        turn = history[event.seq]
        if (turn.colour, turn.card, turn.text) != (event.colour, event.card, event.move):
            _say(
                table,
                f"board {event.board} says turn {event.seq + 1} was {event.move}, "
                f"but here it was {turn.text}: the boards are out of step",
            )
            return [Buzz("illegal")]
    elif verdict == "conflict":
        _say(
            table,
            f"board {event.board} sent two different turns {event.seq + 1}: "
            "the boards are out of step",
        )
        return [Buzz("illegal")]
    return []


def _not_seated(
    table: Table, remote: RemoteGame, what: str, board: str, colour: int, seq: int
) -> list[Effect]:
    """A message from ``board`` for ``colour`` at turn ``seq``, refused in words (the effects)
    unless the colour is seated there.  The host may play any colour: its seating message
    (which hands it a seat while the seat's board is away) can arrive after the turns played
    under it."""
    seated = remote.seated_at(seq).get(colour)
    if board in (seated, remote.setup.host):
        return []
    name = COLOURS[colour]
    _say(table, f"a {what} from board {board} for {name} was refused: {name} is seated at {seated}")
    return [Buzz("illegal")]


def _turn_refused(table: Table, remote: RemoteGame, event: TurnEvent) -> list[Effect]:
    """A turn from a board where its colour is not seated (a forgery, or a board out of step):
    refused in words naming the board and the card, once."""
    if (event.board, event.seq) in remote.refused:
        return []
    remote.refused.add((event.board, event.seq))
    name = COLOURS[event.colour]
    seated = remote.seated_at(event.seq).get(event.colour)
    _say(
        table,
        f"a turn from board {event.board} for {name} ({a_card(event.card)}, turn "
        f"{event.seq + 1}) was refused: {name} is seated at board {seated}",
    )
    return [Buzz("illegal")]


def _settle_unseated(table: Table, remote: RemoteGame, played: int) -> list[Effect]:
    """The host's turns held for a seating: taken once it hands the host the colour, refused
    once the game is past them (the colour's own board played that turn)."""
    effects: list[Effect] = []
    for seq, event in sorted(remote.unseated.items()):
        if remote.seated_at(seq).get(event.colour) == event.board:
            del remote.unseated[seq]
            if remote.inbox.offer(event, played) == "conflict":
                _say(table, f"board {event.board} sent two different turns {seq + 1}: out of step")
                effects.append(Buzz("illegal"))
        elif seq < played:
            del remote.unseated[seq]
            effects += _turn_refused(table, remote, event)
    return effects


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
    effects += _publish_doublings(game, remote)
    _seat_now(table, remote)
    effects += _settle_unseated(table, remote, len(history))
    effects += _take_doublings(table, remote)
    effects += _copy(table, remote)
    effects += _takeback_agreed(table, remote)
    _say_offline(table, remote)
    return effects


def _seat_now(table: Table, remote: RemoteGame) -> None:
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


def _copy(table: Table, remote: RemoteGame) -> list[Effect]:
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
        _say(table, f"{colour.capitalize()}'s move from board {event.board} was refused: {error}")
        return [Buzz("illegal")]
    remote.inbox.take(event.seq)
    effects: list[Effect] = []
    if not resumed:
        game.draw(event.card)
        effects.append(recorded(game))
    said = f"{colour.capitalize()} (at {event.board})"
    if game.phase != Phase.MOVE:  # no move for the card: the turn is over already
        table.news = f"{said} drew {a_card(event.card)}: no move"
        return effects + after_turn(table)
    if event.move in NO_MOVE or move is None:  # an 11 declined
        try:
            game.forfeit()
        except GameError as error:
            _say(table, f"{colour.capitalize()}'s turn from board {event.board}: {error}")
            return effects
        table.news = f"{said} declines {a_card(event.card)}"
        return [*effects, recorded(game), *after_turn(table)]
    chosen = next(m for m in game.legal if move_text(m) == move_text(move))
    table.guided, table.guided_by = chosen, said
    remote.own_copy = played if event.board == remote.me else None
    enter(table, CompanionPhase.MOVE)
    table.message = (
        f"{said} played {a_card(event.card)}: {move_words(chosen)}. "
        "Please make the move lit on this board"
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
        why = _offline_words(remote, offline) + ": the game waits for it"
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


def _offline_words(remote: RemoteGame, offline: list[str]) -> str:
    board = offline[0]
    if board == remote.me:
        return "This board is not connected to the other boards"
    colours = [COLOURS[c].capitalize() for c, b in sorted(remote.seats.items()) if b == board]
    who = " and ".join(colours) if colours else board
    return f"{who}'s board is offline"


def _say_offline(table: Table, remote: RemoteGame) -> None:
    offline = remote.offline()
    words = _offline_words(remote, offline) + " (the game is paused)" if offline else None
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


def _say(table: Table, words: str, passing: bool = True) -> None:
    """Say what another board's message did here. Most of it is about its moment (a turn
    refused, the boards out of step) and goes once the game moves to another phase;
    ``passing=False`` for a question still open, which is replaced when it is answered."""
    if passing:
        words += f" ({PASSES})"
    table.warning = words
    table.passing_warning = words if passing else None
    if table.remote is not None:
        table.remote.said = None


# -- point play's doubling across boards -------------------------------------------------------

#: How a doubling reads in the board's news, by its action.
_DOUBLING_WORDS = {"double": "doubles", "accept": "accepts the double", "drop": "drops out"}


def _publish_doublings(game: Game, remote: RemoteGame) -> list[Effect]:
    """The doubles called and answered here (recorded first, as turns are), for the others."""
    if game.config.variant != Variant.POINTS:
        return []  # no doubling to look for (this runs after every input)
    doublings = game.doublings()
    remote.doublings_offered = min(remote.doublings_offered, len(doublings))
    effects: list[Effect] = []
    for each in doublings[remote.doublings_offered :]:
        if remote.seated_at(each.turns).get(each.colour) == remote.me:
            event = DoublingEvent(
                remote.setup.game, each.round, each.turns, remote.me, each.colour, each.action
            )
            effects.append(PublishDoubling(event))
    remote.doublings_offered = len(doublings)
    return effects


def _doubling_heard(table: Table, remote: RemoteGame, heard: DoublingEvent) -> list[Effect]:
    """Another board's double or answer: kept until the game reaches the point it was said at."""
    if heard.game != remote.setup.game or heard.board == remote.me or table.game is None:
        return []
    refused = _not_seated(table, remote, heard.action, heard.board, heard.colour, heard.seq)
    if refused:
        return refused
    name = COLOURS[heard.colour]
    key = (heard.round, heard.colour)
    held = remote.doubling_inbox.get(key)
    if held is not None and held != heard:
        _say(table, f"board {heard.board} sent two different answers for {name}: out of step")
        return [Buzz("illegal")]
    remote.doubling_inbox[key] = heard
    return []


def _take_doublings(table: Table, remote: RemoteGame) -> list[Effect]:
    """Play the other boards' doublings the game has reached, in order: a double when the game
    waits for its caller's card at the turn it was called, an answer while its double waits."""
    game = table.game
    assert game is not None
    effects: list[Effect] = []
    while remote.doubling_inbox and not game.over:
        done = game.doublings()
        effects += _drop_seen(table, remote, {(d.round, d.colour): d for d in done})
        called = sum(1 for d in done if d.action == "double")
        ready = next(
            (e for e in remote.doubling_inbox.values() if _doubling_ready(table, game, e, called)),
            None,
        )
        if ready is None:
            break
        del remote.doubling_inbox[(ready.round, ready.colour)]
        name = COLOURS[ready.colour]
        try:
            getattr(game, ready.action)(ready.colour)
        except GameError as error:
            _say(table, f"{name.capitalize()}'s {ready.action} from board {ready.board}: {error}")
            effects.append(Buzz("illegal"))
            continue
        table.news = f"{name.capitalize()} (at {ready.board}) {_DOUBLING_WORDS[ready.action]}"
        effects += [*after_doubling(table), Buzz("turn")]
    return effects


def _doubling_ready(table: Table, game: Game, event: DoublingEvent, called: int) -> bool:
    if event.action == "double":
        return (
            event.round == called
            and event.seq == len(game.history)
            and game.phase == Phase.DRAW
            and game.turn == event.colour
            and table.phase in (CompanionPhase.DRAW, CompanionPhase.SETUP)
        )
    return (
        event.round == called - 1
        and game.phase == Phase.DOUBLE
        and event.colour in game.waiting_for
    )


def _drop_seen(
    table: Table, remote: RemoteGame, seen: Mapping[tuple[int, int], Doubling]
) -> list[Effect]:
    """Doublings this game has already (a copy again, or its own after a restart): dropped,
    and one that differs from the game's said to be out of step."""
    effects: list[Effect] = []
    for key, event in list(remote.doubling_inbox.items()):
        mine = seen.get(key)
        if mine is None:
            continue
        del remote.doubling_inbox[key]
        if (mine.action, mine.turns) != (event.action, event.seq):
            name = COLOURS[event.colour]
            _say(
                table,
                f"board {event.board} says {name} chose {event.action} on double "
                f"{event.round + 1}, but here {name} chose {mine.action}: the boards are out "
                "of step",
            )
            effects.append(Buzz("illegal"))
    return effects


# -- takebacks: every board agrees -------------------------------------------------------------


def _last_turn(table: Table) -> tuple[int, str] | None:
    """The turn a takeback asked now would undo: its number and its words."""
    game = table.game
    if game is None or not game.history:
        return None
    turn = game.history[-1]
    return len(game.history) - 1, f"{COLOURS[turn.colour]}'s {turn.text}"


def ask_takeback(table: Table) -> tuple[dict[str, object], list[Effect]]:
    """The owner's undo in a remote game: ask every other board to take back the last turn."""
    remote = table.remote
    assert remote is not None
    last = _last_turn(table)
    if last is None or table.game is None or table.game.over:
        raise CommandRefused("nothing to take back")
    if remote.takeback is not None:
        raise CommandRefused("a takeback is already waiting for the boards to agree")
    if copying(table) or remote.inbox.next(len(table.game.history)) is not None:
        raise CommandRefused("another board's move is still to be made here: make it first")
    if _doubled_since(table.game):
        raise CommandRefused("a double was called since that turn: the turn stays played")
    seq, words = last
    remote.takeback, remote.agreed = (seq, remote.me), {remote.me}
    _say(
        table,
        f"Asked the other boards to take back {words}: waiting for them to agree",
        passing=False,
    )
    ask = Takeback(remote.setup.game, seq, remote.me, "ask")
    return {"ok": True, "asked": words}, [PublishTakeback(ask)]


def takeback_asked(table: Table) -> bool:
    """Another board asks to take back a turn and this board has not answered yet."""
    remote = table.remote
    return (
        remote is not None
        and remote.takeback is not None
        and remote.takeback[1] != remote.me
        and remote.me not in remote.agreed
    )


def answer_takeback(
    table: Table, args: Mapping[str, object]
) -> tuple[dict[str, object], list[Effect]]:
    """``{"agree": true|false}``: this board's answer to another board's takeback."""
    remote = table.remote
    agree = args.get("agree")
    if not isinstance(agree, bool):
        raise CommandRefused('answer with {"agree": true} or {"agree": false}', 400)
    if remote is None or remote.takeback is None or remote.takeback[1] == remote.me:
        raise CommandRefused("no other board asks to take back a turn now")
    seq, asker = remote.takeback
    answer = Takeback(remote.setup.game, seq, remote.me, "agree" if agree else "refuse")
    if agree:
        remote.agreed.add(remote.me)
        _say(table, f"Agreed with board {asker} to take back turn {seq + 1}")
    else:
        remote.takeback = None
        _say(table, f"Refused board {asker}'s takeback: play goes on")
    return {"ok": True}, [PublishTakeback(answer)]


def _doubled_since(game: Game) -> bool:
    """A double was called or answered after the last turn (a takeback would undo it too, and
    the other boards' answers to it: point play's doubles are not taken back)."""
    doublings = game.doublings()
    return bool(doublings) and doublings[-1].turns >= len(game.history)


def _takeback_heard(table: Table, remote: RemoteGame, heard: Takeback) -> list[Effect]:
    game = table.game
    if heard.board == remote.me or heard.game != remote.setup.game or game is None:
        return []  # our own message coming back, or another game's
    if heard.answer == "ask":
        last = len(game.history) - 1
        if remote.takeback is not None or heard.seq not in (last, last + 1) or _doubled_since(game):
            # Not the turn this board would undo (or one asked already): out of step.
            refusal = Takeback(remote.setup.game, heard.seq, remote.me, "refuse")
            return [PublishTakeback(refusal)]
        remote.takeback, remote.agreed = (heard.seq, heard.board), {heard.board}
        turn = game.history[heard.seq] if heard.seq <= last else None
        words = f"{COLOURS[turn.colour]}'s {turn.text}" if turn else f"turn {heard.seq + 1}"
        _say(
            table,
            f"Board {heard.board} asks to take back {words}: Confirm on the board (or Agree on "
            "the page) agrees, Undo (or Refuse) refuses",
            passing=False,
        )
        return [Buzz("turn")]
    if remote.takeback is None or remote.takeback[0] != heard.seq:
        return []
    if heard.answer == "agree":
        remote.agreed.add(heard.board)
        return []
    remote.takeback = None
    _say(table, f"Board {heard.board} refused to take back turn {heard.seq + 1}: play goes on")
    return [Buzz("illegal")]


def _takeback_agreed(table: Table, remote: RemoteGame) -> list[Effect]:
    """Every board agreed: each takes the turns back on its own game and journal."""
    game = table.game
    if remote.takeback is None or game is None:
        return []
    if not set(remote.setup.boards()) <= remote.agreed:
        return []
    seq, _ = remote.takeback
    remote.takeback, remote.agreed = None, set()
    upto = len(game.history)
    effects: list[Effect] = []
    while game.can_undo() and (len(game.history) > seq or game.phase != Phase.DRAW):
        game.undo()
        effects.append(recorded(game))
    remote.inbox.forget_from(seq)
    table.guided, remote.own_copy = None, None
    enter(table, CompanionPhase.SETUP)
    table.news = ""
    _say(table, f"Turn {seq + 1} taken back, as every board agreed")
    table.message = "Taken back: put the board back as lit. " + phase_message(table)
    return [*effects, ClearTurns(remote.setup.game, seq, upto), Buzz("turn")]


# -- a board away for long: its seats to the host's computer, or the game adjourned -------------


def _seating_heard(table: Table, remote: RemoteGame, seating: Seating) -> list[Effect]:
    """The host's seating, on every other board: kept (and in the journal), in force by turn."""
    if (
        seating.game != remote.setup.game
        or seating.host != remote.setup.host
        or remote.me == remote.setup.host
    ):
        return []
    known = {COLOURS.index(colour) for colour in remote.setup.seats}
    if any(each.colour not in known for each in seating.handed):
        _say(table, f"board {seating.host} handed a seat of a colour that is not playing")
        return [Buzz("illegal")]
    if (list(seating.handed), seating.adjourned) == (remote.handed, remote.adjourned):
        return []
    remote.handed, remote.adjourned = list(seating.handed), seating.adjourned
    return [Remember(REMEMBERED, _saved(remote)), *_drop_half_played(table, remote)]


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
    colour, card, board = COLOURS[game.turn], game.card or "", remote.seated_at(seq)[game.turn]
    effects: list[Effect] = []
    while game.can_undo() and game.phase == Phase.MOVE and len(game.history) == seq:
        game.undo()
        effects.append(recorded(game))
    table.guided = None
    enter(table, CompanionPhase.SETUP)
    table.news = ""
    _say(
        table,
        f"{colour.capitalize()} is played at board {board} now (this board was away): "
        f"{a_card(card)} drawn here goes back to the pile; put the board back as lit",
    )
    table.message = phase_message(table)
    return [*effects, Buzz("illegal")]


def _host_in_play(table: Table) -> tuple[RemoteGame, int]:
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


def _away_long(table: Table, remote: RemoteGame, board: str) -> None:
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
    remote, seq = _host_in_play(table)
    colour = COLOURS.index(str(colour_name))
    name = str(colour_name).capitalize()
    if str(colour_name) not in remote.setup.seats:
        raise CommandRefused(f"{colour_name} is not playing in this game", 400)
    own = remote.setup.seats[str(colour_name)]
    now_at = remote.seats[colour]
    if computer:
        if now_at == remote.me:
            raise CommandRefused(f"{colour_name} is played at this board already")
        _away_long(table, remote, own)
        handed = Handed(seq, colour, remote.me, True)
        said = f"The computer plays {name} here from now on (board {own} is away)"
    else:
        if colour not in remote.by_computer(seq):
            raise CommandRefused(f"the computer does not play {colour_name}")
        if not remote.online.get(own):
            raise CommandRefused(f"board {own} is offline: it takes {colour_name} back when online")
        handed = Handed(seq, colour, own, False)
        said = f"{name} is played at board {own} again"
    remote.handed = [h for h in remote.handed if h.seq < seq or h.colour != colour]
    remote.handed.append(handed)
    _seat_now(table, remote)
    table.news = said
    table.message = f"{said}. {phase_message(table)}"
    effects: list[Effect] = [
        PublishSeating(_seating(remote)),
        Remember(REMEMBERED, _saved(remote)),
    ]
    return {"ok": True, "said": said, "computer": _computer_colours(remote, seq)}, effects


def _computer_colours(remote: RemoteGame, seq: int) -> list[str]:
    return [COLOURS[c] for c in sorted(remote.by_computer(seq))]


def adjourn(table: Table, args: Mapping[str, object]) -> tuple[dict[str, object], list[Effect]]:
    """The host adjourns the game (a board offline for ``offline_grace``): every board keeps it
    saved and takes no card until the host resumes it (``resume``)."""
    remote, _ = _host_in_play(table)
    if remote.adjourned:
        raise CommandRefused("the game is adjourned already")
    away = [b for b in remote.setup.boards() if not remote.online.get(b) and b != remote.me]
    if not away:
        raise CommandRefused("every board is online: nothing to adjourn for")
    _away_long(table, remote, away[0])
    remote.adjourned = True
    table.news = f"Adjourned (board {away[0]} is away)"
    return {"ok": True, "code": remote.setup.code}, [
        PublishSeating(_seating(remote)),
        Remember(REMEMBERED, _saved(remote)),
    ]


def resume(table: Table, args: Mapping[str, object]) -> tuple[dict[str, object], list[Effect]]:
    """``{"code": "K7PQ3X"}``: the host resumes its adjourned game, once every board is online."""
    code = args.get("code")
    remote = table.remote
    if remote is None or not remote.adjourned:
        raise CommandRefused("no adjourned remote game on this board")
    if not isinstance(code, str) or code.strip().upper() != remote.setup.code:
        raise CommandRefused("that is not this game's join code", 400)
    remote, _ = _host_in_play(table)
    away = [b for b in remote.setup.boards() if not remote.online.get(b)]
    if away:
        raise CommandRefused(f"board {away[0]} is offline: the game resumes with every board")
    remote.adjourned = False
    table.news = "The game is resumed"
    return {"ok": True}, [PublishSeating(_seating(remote)), Remember(REMEMBERED, _saved(remote))]

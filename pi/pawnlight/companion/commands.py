"""The owner's commands (from the web page, PIN checked there) and the board's buttons: each
checks that it makes sense now (else CommandRefused, in words), then acts through the concept
modules.  ``COMMANDS`` maps each command's name to its handler."""

from __future__ import annotations

from collections.abc import Mapping

from ..board.recognise import Ambiguous
from ..i18n.marks import N_
from ..i18n.message import Message, msg, said_of, say
from ..rules import phrases
from ..rules.board import COLOURS
from ..rules.game import GameError
from ..rules.notation import NotationError, move_text, parse_move
from .cards import computer_move
from .config import ConfigError, NewGame, Seat, new_game, seat
from .deck import Enrolment
from .games import begin as begin_game
from .phases import CompanionPhase
from .points import DOUBLING, Handler, Reply, doubling
from .recognition import WATCHING_THE_BOARD, enter
from .remote import adjourn as adjourn_remote
from .remote import answer_takeback, ask_takeback, hand_seat
from .remote import forget as forget_remote
from .remote import resume as resume_remote
from .remote import start as start_remote
from .sentences import event_text, event_words, phase_message, then
from .sentences import undone as undone_message
from .service import CommandRefused
from .signals import Buzz, Effect, Remember, StatusLight
from .table import Table, seat_players, seats_of
from .turns import after_turn, decided, play, recorded

HINT = N_("Hint for %(colour)s: %(move)s")
DECLINES = N_("%(colour)s declines %(card)s")
BY_A_PERSON = N_("%(colour)s is played by a person again")
BY_THE_COMPUTER = N_("The computer plays %(colour)s from now on")

#: The owner's unlock (docs/daemon.md, "The owner's unlock"): Hint and Undo held down together
#: for UNLOCK_HOLD seconds (companion/board_buttons.py) lift the web's PIN lockout.
UNLOCK_HOLD = 3.0
LOCKOUT_WARNING = "Too many wrong PINs were tried from the network"


def _new_game(table: Table, args: Mapping[str, object]) -> tuple[Reply, list[Effect]]:
    """``{"game": NewGame}`` (checked by the web with config.new_game), or its raw fields."""
    request = args.get("game")
    if not isinstance(request, NewGame):
        try:
            request = new_game(args)
        except ConfigError as error:
            raise CommandRefused(str(error), 400) from None
    effects = forget_remote(table)  # a game at this table alone
    table.computer = seat_players(request.computer)  # before: its record names them
    effects += begin_game(table, request.config, draw_leader=request.draw_leader)
    return {"ok": True, "phase": table.phase}, effects


def _remote_start(table: Table, args: Mapping[str, object]) -> tuple[Reply, list[Effect]]:
    """``{"setup": Setup JSON, "me": board id}``: a remote game begins here (companion.remote);
    the runtime's remote link hosts or joins it over the broker.  The game this board plays
    already (joined again with its own code) is kept as it stands: never begun a second time."""
    setup = args.get("setup")
    game = setup.get("game") if isinstance(setup, Mapping) else None
    if (
        table.remote is not None
        and table.remote.setup.game == game
        and table.game is not None
        and not table.game.over
    ):
        return {"ok": True, "phase": table.phase, "game": game, "kept": True}, []
    remote, remembered = start_remote(table, args)
    table.computer = {}
    effects = begin_game(table, new_game(remote.setup.config).config)
    table.remote = remote
    return {"ok": True, "phase": table.phase, "game": remote.setup.game}, effects + remembered


#: What a remote game refuses, each a whole sentence: every board would have to agree.
REMOTE_NEXT_GAME = N_(
    "a match's next game is not possible in a remote game: every board would have to agree "
    "(docs/remote.md)"
)
REMOTE_SEAT = N_(
    "a seat given to the computer is not possible in a remote game: every board would have to "
    "agree (docs/remote.md)"
)


def _not_remote(table: Table, refused: str) -> None:
    """``refused`` (REMOTE_NEXT_GAME, REMOTE_SEAT) when this board plays a remote game."""
    if table.remote is not None:
        raise CommandRefused(say(Message(refused)))


def _next_game(table: Table, args: Mapping[str, object]) -> tuple[Reply, list[Effect]]:
    game = table.game
    if game is None or not game.over or table.match is None:
        raise CommandRefused(say(Message(N_("the next game starts when this one is over"))))
    _not_remote(table, REMOTE_NEXT_GAME)
    return {"ok": True}, begin_game(table, game.config, match=True)


def _undo(table: Table, args: Mapping[str, object]) -> tuple[Reply, list[Effect]]:
    game = table.game
    if table.remote is not None:  # every board must agree (companion.remote)
        return ask_takeback(table)
    if game is None or not game.can_undo():
        raise CommandRefused(say(Message(N_("nothing to undo"))))
    undone = game.undo()
    table.news = ""
    effects: list[Effect] = [recorded(game)]
    enter(table, CompanionPhase.SETUP)
    said = event_words(undone, game)
    table.message = undone_message(said)
    effects += decided(table)
    return {"ok": True, "undone": event_text(undone), "said": said}, effects


CHANGED_SINCE_ASKED = N_(
    "the board has changed since the question was asked: it shows none of the moves offered "
    "now; finish the move on the board"
)
#: A move named by its notation (as the API and a takeback name it, in every language).
NO_LONGER_SHOWN = N_("the board no longer shows %(move)s: finish the move on the board")


def _resolve(table: Table, args: Mapping[str, object]) -> tuple[Reply, list[Effect]]:
    game = table.game
    stale = table.phase == CompanionPhase.MOVE and table.withdrawn
    if game is None or (table.phase != CompanionPhase.CHOOSE and not stale):
        raise CommandRefused(say(Message(N_("no move to choose between now"))))
    if table.phase == CompanionPhase.MOVE:
        raise CommandRefused(say(Message(CHANGED_SINCE_ASKED)))
    wanted = args.get("move")
    if wanted is None and table.choice_unchanged and args.get("none"):
        enter(table, CompanionPhase.MOVE)
        return {"ok": True}, []
    if not isinstance(wanted, str):
        raise CommandRefused('say which move: {"move": "<notation>"}', 400)
    try:
        move = parse_move(wanted, game.position, game.config.teams)
    except NotationError as error:
        raise CommandRefused(str(error), 400) from None
    chosen = next((m for m in table.choices if m.after == move.after), None)
    if chosen is None:
        offered = ", ".join(move_text(m) for m in table.choices)
        raise CommandRefused(f"{wanted} is not one of the moves offered ({offered})", 400)
    # The question follows the board; check once more that it still shows this move.
    decision = table.decision
    if not isinstance(decision, Ambiguous) or chosen.after not in (m.after for m in decision.moves):
        raise CommandRefused(say(msg(NO_LONGER_SHOWN, move=wanted)))
    return {"ok": True, "played": move_text(chosen)}, play(table, chosen)


#: The phases in which a game is in play (its seats can change hands).
_IN_PLAY = frozenset(
    {
        CompanionPhase.SETUP,
        CompanionPhase.DRAW,
        CompanionPhase.MOVE,
        CompanionPhase.CHOOSE,
        CompanionPhase.DOUBLE,
    }
)


NO_GAME_IN_PLAY = N_(
    "no game is in play: the computer's seats of a new game are chosen under New game"
)
NOT_PLAYING = N_("%(colour)s is not playing in this game")


def _seat(table: Table, args: Mapping[str, object]) -> tuple[Reply, list[Effect]]:
    """A seat given to the computer, or back to a person, during a game (a player leaves the
    table or comes back): ``{"seat": Seat}`` (checked by the web with config.seat), or its raw
    fields.  Kept in the journal, so a restart keeps it; when it is that colour's turn with a
    card drawn, the computer chooses at once (or the person's moves are lit again)."""
    request = args.get("seat")
    if not isinstance(request, Seat):
        try:
            request = seat(args)
        except ConfigError as error:
            raise CommandRefused(str(error), 400) from None
    game = table.game
    _not_remote(table, REMOTE_SEAT)
    if game is None or game.over or table.phase not in _IN_PLAY:
        raise CommandRefused(say(Message(NO_GAME_IN_PLAY)))
    if request.colour not in game.config.players:
        raise CommandRefused(
            say(msg(NOT_PLAYING, colour=phrases.colour(COLOURS.index(request.colour))))
        )
    colour = COLOURS.index(request.colour)
    if request.player is None:
        table.computer.pop(colour, None)
        said = say(msg(BY_A_PERSON, colour=phrases.capital(colour)))
    else:
        table.computer.update(seat_players(((request.colour, request.player),)))
        said = say(msg(BY_THE_COMPUTER, colour=phrases.capital(colour)))
    table.seats_kept = True
    effects: list[Effect] = [Remember("seats", {"computer": dict(seats_of(table))})]
    if table.phase == CompanionPhase.MOVE and game.turn == colour:
        table.guided = None  # the computer's choice (or a hint) was for the seat as it was
        if request.player is not None:
            assert game.card is not None and game.options is not None
            effects += computer_move(table, game.card, game.options)
            if table.phase == CompanionPhase.MOVE:
                table.message = then(said, table.message)
        else:
            enter(table, CompanionPhase.MOVE)
            table.message = then(said, phase_message(table))
    elif table.phase in (CompanionPhase.DRAW, CompanionPhase.MOVE):
        table.message = then(said, phase_message(table))
    return {"ok": True, "computer": dict(seats_of(table)), "said": said}, effects


def _hint(table: Table, args: Mapping[str, object]) -> tuple[Reply, list[Effect]]:
    """Light the move pawnlight suggests for the card waiting to be played."""
    from ..players import hint

    game = table.game
    if (
        game is None
        or table.phase != CompanionPhase.MOVE
        or game.turn in table.computer
        or (table.remote is not None and table.remote.remote_colour(game.turn))
    ):
        raise CommandRefused(say(Message(N_("a hint is for a person with a card to play"))))
    move = hint(game)
    if move is None:
        return {"ok": True, "hint": None}, []
    table.guided, table.guided_by = move, "hint"
    table.message = say(msg(HINT, colour=phrases.colour(game.turn), move=phrases.move(move)))
    return {"ok": True, "hint": move_text(move)}, []


def _forfeit(table: Table, args: Mapping[str, object]) -> tuple[Reply, list[Effect]]:
    game = table.game
    if game is None or table.phase != CompanionPhase.MOVE:
        raise CommandRefused(say(Message(N_("no card to decline now"))))
    if table.remote is not None and table.remote.remote_colour(game.turn):
        raise CommandRefused(
            say(Message(N_("that turn was played at another board: make its move as lit")))
        )
    try:
        game.forfeit()
    except GameError as error:
        raise CommandRefused(str(error)) from None
    effects: list[Effect] = [recorded(game)]
    last = game.history[-1]
    table.news = say(
        msg(DECLINES, colour=phrases.capital(last.colour), card=phrases.a_card(last.card))
    )
    return {"ok": True}, effects + after_turn(table)


ENROLLING = N_("Enrolling the pack: %(prompt)s")


def _enrol(table: Table, args: Mapping[str, object]) -> tuple[Reply, list[Effect]]:
    if table.phase not in (CompanionPhase.IDLE, CompanionPhase.OVER, CompanionPhase.ENROL):
        raise CommandRefused("enrol the pack between games")
    table.enrolment = Enrolment.start(bool(args.get("extra_one", False)))
    enter(table, CompanionPhase.ENROL)
    table.scanned_uid = None
    prompt = said_of(table.enrolment.prompt())
    assert prompt is not None
    table.message = say(msg(ENROLLING, prompt=prompt))
    return {"ok": True, "prompt": table.enrolment.prompt()}, []


def _enrol_cancel(table: Table, args: Mapping[str, object]) -> tuple[Reply, list[Effect]]:
    if table.phase != CompanionPhase.ENROL:
        raise CommandRefused("no enrolment to cancel")
    table.enrolment = None
    enter(table)
    table.message = say(Message(N_("Enrolment cancelled; the pack is as it was.")))
    return {"ok": True}, []


def _pin_lockout(table: Table, args: Mapping[str, object]) -> tuple[Reply, list[Effect]]:
    """The web page counted too many wrong PINs from the network: say so where the
    players look (the page's warning, the buzzer, the status LED)."""
    minutes = args.get("minutes")
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not 1 <= minutes <= 1440:
        raise CommandRefused("minutes is a whole number from 1 to 1440", 400)
    table.warning = (
        f"{LOCKOUT_WARNING}: the owner's login is locked for {minutes} min. If that was not "
        "you, someone on this network is guessing the PIN. To log in now, hold Hint and Undo "
        f"on the board together for {UNLOCK_HOLD:g} s."
    )
    return {"ok": True}, [Buzz("illegal"), StatusLight("error")]


def _settings(table: Table, args: Mapping[str, object]) -> tuple[Reply, list[Effect]]:
    try:
        settings = table.settings.changed(args)
    except ConfigError as error:
        raise CommandRefused(str(error), 400) from None
    changed_settle = settings.settle != table.settings.settle
    if settings.level != table.settings.level:
        table.last_frame = None  # the LEDs go out again at the new brightness, even if still
    table.settings = settings
    if changed_settle and table.phase in WATCHING_THE_BOARD:
        enter(table, table.phase)  # recognise with the new settle time from now on
    saved = settings.to_json()
    return {"ok": True, **saved}, [Remember("settings", saved)]


COMMANDS: dict[str, Handler] = {
    "new_game": _new_game,
    "remote_start": _remote_start,
    "remote_takeback": answer_takeback,
    "remote_seat": hand_seat,
    "remote_adjourn": adjourn_remote,
    "remote_resume": resume_remote,
    "next_game": _next_game,
    "undo": _undo,
    "resolve": _resolve,
    "hint": _hint,
    "forfeit": _forfeit,
    "seat": _seat,
    **{action: doubling(action) for action in DOUBLING},
    "enrol": _enrol,
    "enrol_cancel": _enrol_cancel,
    "pin_lockout": _pin_lockout,
    "settings": _settings,
}


def command(table: Table, name: str, args: Mapping[str, object]) -> tuple[Reply, list[Effect]]:
    handler = COMMANDS.get(name)
    if handler is None:
        raise CommandRefused(f"unknown command {name!r}", 404)
    return handler(table, args)

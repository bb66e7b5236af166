"""A game begins, goes on from the journal, or is followed by the match's next: the one way
each happens (the game under way, if unfinished, is ended as abandoned)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..i18n.marks import N_
from ..i18n.message import Message, msg, said_of, say
from ..rules import phrases
from ..rules.game import EventKind, Game, GameConfig, GameError
from ..rules.match import Match
from ..rules.position import Position
from . import leader
from .config import ConfigError, computer_seats
from .phases import CompanionPhase
from .recognition import enter
from .sentences import phase_message, result_text
from .service import CommandRefused
from .signals import Effect, FinishRecord, Remember, StartRecord
from .table import Table, seat_players, seats_of
from .turns import decided

SET_UP = N_("Set up the board as lit, then %(colour)s draws the first card.")
RESUMED = N_("Game resumed. Set the board as lit, then play on: %(next)s")


def start(table: Table, config: GameConfig, match: bool = False) -> list[Effect]:
    """Set up a game (the match's next one with ``match``) and open its record."""
    try:
        if match and table.match is not None:
            table.match.next_game()
        else:
            table.match = Match(config)
    except (GameError, ValueError) as error:
        raise CommandRefused(str(error), 400) from None
    game = table.game
    assert game is not None
    effects: list[Effect] = []
    if table.leader is not None:
        table.leader = None
        effects.append(Remember("leader", None))
    table.warning = None
    table.news = ""
    table.deck.shuffled()  # a new game starts from a shuffled pack
    if table.pawns is not None:
        # The board is set up afresh (other colours, maybe): from the first full board seen
        # the pawns in START are of its colour, then they are followed.
        table.pawns.reset(game.position, seen=False, set_up=True)
    enter(table, CompanionPhase.SETUP)
    table.message = say(msg(SET_UP, colour=phrases.colour(game.turn)))
    effects.append(StartRecord(game.config, computer=seats_of(table), match=match))
    if table.seats_kept:  # seats kept from an earlier game: this one's record has its own
        table.seats_kept = False
        effects.append(Remember("seats", None))
    return effects + decided(table)


def begin(
    table: Table, config: GameConfig, match: bool = False, draw_leader: bool = False
) -> list[Effect]:
    """The one way a game begins, mid-game or not, alone, as a match's next game or after a
    leader draw: the game under way (if unfinished) is ended as abandoned, then the new one
    is set up (or its leader drawn first).  ``config`` has been checked (config.new_game)."""
    if table.phase == CompanionPhase.ENROL:
        raise CommandRefused(say(Message(N_("finish or cancel the pack enrolment first"))))
    if not table.deck.enrolled:
        raise CommandRefused(
            say(Message(N_("enrol the pack of cards first (Enrol on the owner's page)")))
        )
    effects: list[Effect] = []
    game = table.game
    if game is not None and not game.over:
        effects.append(FinishRecord(None))  # the old game is abandoned, kept in the journal
    if draw_leader:
        return effects + leader.begin(table, config)
    return effects + start(table, config, match=match)


def resume(
    table: Table,
    game: Game,
    computer: Mapping[str, str] | None = None,
    earlier: Sequence[Game] = (),
) -> list[Effect]:
    """Carry on with a game reloaded from the journal: first the board must match it.

    ``computer`` is the record's colours played by the computer ({"blue": "heuristic"}); a
    seat that no longer makes sense (a damaged header) is dropped with a warning rather than
    stopping the game. ``earlier``: the match's games before this one, oldest first (their
    points carry over, the game number counts them).
    """
    try:
        table.computer = seat_players(computer_seats(computer or {}, game.config))
    except ConfigError as error:
        table.computer = {}
        table.warning = f"the computer seats were not restored: {error}"
    table.match = Match(game.config, first=game, earlier=earlier)
    if table.pawns is not None:
        # The board was last seen at the game's position (or part-way to the next one), or
        # still as it was before an undo not yet put back.
        table.pawns.reset(game.position, seen=False, maybe=_before_undos(game))
    table.guided = None
    if game.over:  # a match between games: its result, and the next game to start
        enter(table, CompanionPhase.OVER)
        assert game.result is not None
        table.message = result_text(game.result)
        return []
    enter(table, CompanionPhase.SETUP)
    next_said = said_of(phase_message(table))
    table.message = (
        say(msg(RESUMED, next=next_said))
        if next_said is not None
        else "Game resumed. Set the board as lit, then play on: " + phase_message(table)
    )
    return decided(table)


def _before_undos(game: Game) -> tuple[Position, ...]:
    """Where the pawns stood before the undos the game's events end with, if any."""
    events = game.events
    end = len(events)
    while end and events[end - 1].kind == EventKind.UNDO:
        end -= 1
    if end == len(events):
        return ()
    # The game's first position (a game may start from a set position): before its first turn.
    first = game.history[0].before if game.history else game.position
    try:
        earlier = Game(game.config, first)
        for event in events[:end]:
            earlier.apply(event)
    except (GameError, ValueError):
        return ()
    return (earlier.position,)

"""A turn on the board: what the recogniser decided becomes a move played, a question to the
players, a takeback; and after every turn, the next phase and its words."""

from __future__ import annotations

from ..board.recognise import Ambiguous, Recognised, Takeback
from ..i18n.marks import N_
from ..i18n.message import msg, said_of, say
from ..rules import phrases
from ..rules.game import EventKind, Game, GameError
from ..rules.moves import Move
from .phases import CompanionPhase
from .recognition import board_matches, enter, follow_colours
from .sentences import phase_message, result_text, then, with_news
from .signals import Buzz, Effect, FinishRecord, RecordEvent
from .table import Table

#: Seconds the board must stay at the previous position before a move is taken back.
TAKEBACK_HOLD = 1.5

PLAYED = N_("%(colour)s: %(move)s")
DRAWS_AGAIN = N_("%(news)s. The 2 says %(colour)s draws again")
TAKEN_BACK = N_("Move taken back. %(next)s")
CANNOT_TELL_NONE = N_(
    "The board cannot tell this move from no move. If it was this: %(move)s, "
    "press Confirm on the board"
)
CANNOT_TELL_OTHER = N_(
    "The board cannot tell this move from another move. If it was this: %(move)s, "
    "press Confirm on the board"
)
FITS = N_(
    "The board fits %(n)s moves. If it was this: %(move)s, press Confirm on the board; "
    "for another, press Hint until the board lights it, then Confirm"
)
SHOWN = N_(
    "Choice %(n)s of %(count)s lit: %(move)s. If it was this, press Confirm on the board; "
    "Hint lights the next"
)


def recorded(game: Game) -> RecordEvent:
    """The game's newest event, with what the game decided with it, for the record."""
    return RecordEvent(
        game.events[-1], len(game.events), len(game.history), game.result if game.over else None
    )


def decided(table: Table) -> list[Effect]:
    """Act on the recogniser's decision (called after every reading, tick and phase change)."""
    follow_colours(table)
    decision = table.decision
    game = table.game
    if game is None:
        return []
    if table.phase == CompanionPhase.SETUP:
        if board_matches(table):
            if table.pawns is not None:
                table.pawns.reset(game.position)
            enter(table)
            table.message = phase_message(table)
            return [Buzz("turn")]
        return []
    if table.phase in (CompanionPhase.MOVE, CompanionPhase.CHOOSE):
        # The board is the authority, over a pending question too: a legal move made on it
        # is played, and the question follows what it shows now.
        if isinstance(decision, Recognised):
            return play(table, decision.move)
        if isinstance(decision, Ambiguous):
            if table.phase == CompanionPhase.CHOOSE and decision.moves == table.choices:
                return []
            table.phase = CompanionPhase.CHOOSE
            table.choices = decision.moves
            table.choice_shown = None
            table.choice_unchanged = decision.unchanged
            table.message = choose_message(decision.moves, decision.unchanged)
            return [Buzz("turn")]
    # A remote game's turns are on the other boards too: none is taken back here alone.
    takeback = isinstance(decision, Takeback) and table.remote is None
    if takeback and table.phase in (
        CompanionPhase.DRAW,
        CompanionPhase.MOVE,
        CompanionPhase.CHOOSE,
    ):
        # Half-way through a move the board can pass through the last position (a pawn
        # bumped by the mover put back in START first): a takeback must be held longer.
        if table.takeback_since is None:
            table.takeback_since = table.now
        if table.now - table.takeback_since >= TAKEBACK_HOLD:
            table.takeback_since = None
            return take_back(table)
        return []
    table.takeback_since = None
    if table.phase == CompanionPhase.CHOOSE:
        # The board moved on from what was asked: the question is withdrawn.
        table.phase = CompanionPhase.MOVE
        table.choices = ()
        table.choice_shown = None
        table.withdrawn = True
        table.message = phase_message(table)
    return []


def choose_message(choices: tuple[Move, ...], unchanged: bool) -> str:
    """What a board that fits several moves asks, on every phone and the simulator: its
    Confirm button settles it for the first choice (the owner's page can pick any)."""
    first = phrases.move(choices[0]) if choices else ""
    if len(choices) == 1:
        return say(msg(CANNOT_TELL_NONE if unchanged else CANNOT_TELL_OTHER, move=first))
    return say(msg(FITS, n=len(choices), move=first))


def shown_message(choices: tuple[Move, ...], shown: int) -> str:
    """What the board asks once its Hint button has stepped to one of the choices."""
    return say(msg(SHOWN, n=shown + 1, count=len(choices), move=phrases.move(choices[shown])))


def play(table: Table, move: Move) -> list[Effect]:
    """A move made on the board (recognised, or chosen by the players): into the game."""
    game = table.game
    assert game is not None
    colour = game.turn
    again = bool(game.options is not None and game.options.again)
    try:
        game.play(move)
    except GameError as error:  # cannot happen for a recognised move; keep the game safe
        table.warning = str(error)
        return [Buzz("illegal")]
    if table.pawns is not None:
        table.pawns.reset(game.position)  # the board shows the move, in the move's colours
    table.choices = ()
    table.choice_shown = None
    table.guided = None
    news = msg(PLAYED, colour=phrases.capital(colour), move=phrases.move(move))
    if again and not game.over:
        news = msg(DRAWS_AGAIN, news=news, colour=phrases.colour(colour))
    table.news = say(news)
    return [recorded(game), Buzz("confirm"), *after_turn(table)]


def after_turn(table: Table) -> list[Effect]:
    """The turn is over: the game's next phase, with the turn's news before its message."""
    game = table.game
    assert game is not None
    table.guided = None
    if table.warning is not None and table.warning == table.card_warning:
        table.warning = None  # the card's warning was for its own turn
    table.card_warning = None
    enter(table)
    if game.over:
        result = game.result
        assert result is not None
        said = result_text(result)
        table.message = then(table.news, said) if table.news else said
        return [FinishRecord(result), Buzz("win")]
    table.message = with_news(table.news, phase_message(table))
    return [Buzz("turn")]


def take_back(table: Table) -> list[Effect]:
    """The board went back to before the last move: undo it (and any card since)."""
    game = table.game
    assert game is not None
    effects: list[Effect] = []
    while game.can_undo():
        undone = game.undo()
        effects.append(recorded(game))
        if undone.kind == EventKind.MOVE:
            break
    enter(table)
    table.message = _taken_back(phase_message(table))
    return [*effects, Buzz("turn")]


def _taken_back(message: str) -> str:
    said = said_of(message)
    return say(msg(TAKEN_BACK, next=said)) if said is not None else "Move taken back. " + message

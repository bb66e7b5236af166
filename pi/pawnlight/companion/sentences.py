"""What the page says: the phase's message, a result, an undone event, in board words."""

from __future__ import annotations

from ..remote.live import COPY_HERE
from ..rules.board import COLOURS
from ..rules.game import Event, EventKind, Game, Result
from ..rules.notation import NotationError, parse_move
from ..rules.words import a_card, card_words, move_words
from .phases import CompanionPhase
from .table import NO_GAME, Table


def phase_message(table: Table) -> str:
    """What the players are asked to do in the game's own phase."""
    game = table.game
    if game is None:
        return NO_GAME
    phase = table.game_phase()
    colour = COLOURS[game.turn].capitalize()
    if phase == CompanionPhase.MOVE:
        return f"{colour} plays {a_card(game.card or '')}: make the move lit on the board"
    remote = table.remote
    if phase == CompanionPhase.DRAW and remote is not None and remote.remote_colour(game.turn):
        # Its card is scanned at its own board: here the move only lights up, to be copied.
        board = remote.seats[game.turn]
        return f"{colour} draws at board {board}: {COPY_HERE}"
    if phase == CompanionPhase.DRAW:
        return f"{colour}: draw a card and scan it"
    if phase == CompanionPhase.DOUBLE:
        called = [d.colour for d in game.doublings() if d.action == "double"]
        who = f"{COLOURS[called[-1]].capitalize()} doubled" if called else "A double was called"
        waiting = " and ".join(COLOURS[c] for c in sorted(game.waiting_for))
        return f"{who}: {waiting}, accept or drop out"
    return result_text(game.result) if game.result else ""


def with_news(news: str, message: str) -> str:
    """The message after a turn: what happened first, then what comes next."""
    return f"{news}. {message[:1].upper()}{message[1:]}" if news else message


def result_text(result: Result) -> str:
    if result.patience:
        return f"Patience Sorry: {result.patience}."
    if not result.winners:
        return "The game is over."
    names = " and ".join(COLOURS[c] for c in result.winners)
    double = " — a double game!" if result.double_game else ""
    return f"{names[:1].upper()}{names[1:]} won{double}"


def event_text(event: Event) -> str:
    """An undone event in the undo's reply (``red's move T7-T14``)."""
    if event.kind == EventKind.MOVE:
        return f"{COLOURS[event.colour]}'s move {event.move}"
    if event.kind == EventKind.DRAW:
        return f"{COLOURS[event.colour]}'s {event.card}"
    return event.kind


def event_words(event: Event, game: Game) -> str:
    """An undone event in board words (the game is back at the position it was made in)."""
    colour = COLOURS[event.colour].capitalize() if event.colour >= 0 else ""
    if event.kind == EventKind.MOVE:
        try:
            move = parse_move(event.move or "", game.position, game.config.teams)
        except NotationError:
            return f"{colour}'s move"
        return f"{colour}'s move ({move_words(move)})"
    if event.kind == EventKind.DRAW:
        return f"{colour}'s {card_words(event.card or '')}"
    return event.kind

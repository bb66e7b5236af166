"""Point play's doubling (the classic books): a double called, accepted or dropped.

In a game on several boards (docs/remote.md) a colour doubles or answers at the board where it
is seated, and calls a double only at its own turn, before its card: every board then takes
the double at the same point of the game (the books let a player double "at any time", which
boards that hear of each other's turns a moment apart could not agree on)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..rules.board import COLOURS, parse_colour
from ..rules.game import Game, GameError, Phase
from .phases import CompanionPhase
from .recognition import enter
from .sentences import phase_message
from .service import CommandRefused
from .signals import Effect
from .table import Table
from .turns import after_turn, decided, recorded

#: The doubling commands, each the game's method of the same name.
DOUBLING = ("double", "accept", "drop")

Reply = dict[str, object]
Handler = Callable[[Table, Mapping[str, object]], tuple[Reply, list[Effect]]]


def doubling(action: str) -> Handler:
    """The command that calls the game's ``action`` (double, accept, drop) for a colour."""

    def handler(table: Table, args: Mapping[str, object]) -> tuple[Reply, list[Effect]]:
        return _doubling(table, action, args)

    return handler


def _doubling(table: Table, action: str, args: Mapping[str, object]) -> tuple[Reply, list[Effect]]:
    game = table.game
    if game is None:
        raise CommandRefused("no game")
    colour = args.get("colour")
    if not isinstance(colour, str):
        raise CommandRefused('name the colour: {"colour": "red"}', 400)
    act = {"double": game.double, "accept": game.accept, "drop": game.drop}[action]
    try:
        player = parse_colour(colour)
    except ValueError as error:
        raise CommandRefused(str(error), 400) from None
    _remote_refusal(table, game, action, player)
    try:
        act(player)
    except GameError as error:
        raise CommandRefused(str(error)) from None
    return {"ok": True, "doubled": game.doubled}, after_doubling(table)


def after_doubling(table: Table) -> list[Effect]:
    """A double called or answered (here or at another board): recorded, and the game's
    next phase entered."""
    game = table.game
    assert game is not None
    effects: list[Effect] = [recorded(game)]
    if game.over:
        return effects + after_turn(table)
    # A board still being put right stays in setup; otherwise the game's phase, with
    # recognition made for it (an accepted double goes back to the card's moves).
    enter(table, CompanionPhase.SETUP if table.phase == CompanionPhase.SETUP else None)
    table.message = phase_message(table)
    return effects + decided(table)


def _remote_refusal(table: Table, game: Game, action: str, colour: int) -> None:
    remote = table.remote
    if remote is None:
        return
    name = COLOURS[colour]
    seat = remote.seats.get(colour)
    if seat is not None and seat != remote.me:
        raise CommandRefused(f"{name} plays at board {seat}: it doubles or answers there")
    if remote.adjourned:
        raise CommandRefused("the game is adjourned: nothing is played until it is resumed")
    if action == "double" and (
        game.phase != Phase.DRAW
        or game.turn != colour
        or table.phase not in (CompanionPhase.DRAW, CompanionPhase.SETUP)
    ):
        raise CommandRefused(
            f"on several boards a colour doubles at its own turn, before its card: {name} "
            f"may double when it is {name}'s turn to play a card"
        )

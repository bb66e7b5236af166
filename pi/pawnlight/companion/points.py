"""Point play's doubling (the classic books): a double called, accepted or dropped."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..rules.board import parse_colour
from ..rules.game import GameError
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
        act(parse_colour(colour))
    except (GameError, ValueError) as error:
        raise CommandRefused(str(error)) from None
    effects: list[Effect] = [recorded(game)]
    if game.over:
        effects += after_turn(table)
    else:
        # A board still being put right stays in setup; otherwise the game's phase, with
        # recognition made for it (an accepted double goes back to the card's moves).
        enter(table, CompanionPhase.SETUP if table.phase == CompanionPhase.SETUP else None)
        table.message = phase_message(table)
        effects += decided(table)
    return {"ok": True, "doubled": game.doubled}, effects

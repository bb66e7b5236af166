"""The remote game as the journal keeps it (``REMEMBERED``): made from the setup, written as
JSON, and the host's seating read back from it."""

from __future__ import annotations

from collections.abc import Mapping

from ...remote.protocol import (
    Seating,
    Setup,
)
from ...rules.board import COLOURS
from ..table import RemoteGame, Table

#: The name the remote game is kept under in the journal (a restart carries on with it).
REMEMBERED = "remote"


def new_remote_game(table: Table, setup: Setup, me: str, seats: Mapping[str, str]) -> RemoteGame:
    by_colour = {COLOURS.index(colour): board for colour, board in seats.items()}
    # Until their presence arrives, the other boards count as offline (and this one until its
    # link to the broker is up).
    online = {board: table.presence.get(board, False) for board in setup.boards()}
    # Offline time counts from when this daemon first knows the time (follow): a game restored
    # at start must not count from the clock's zero (the machine's boot).
    return RemoteGame(setup, me, by_colour, online)


def saved_form(remote: RemoteGame) -> dict[str, object]:
    """What the journal keeps of the remote game (``restore`` reads it back)."""
    seating = seating_of(remote)
    return {"setup": remote.setup.to_json(), "me": remote.me, "seating": seating.to_json()}


def seating_of(remote: RemoteGame) -> Seating:
    return Seating(remote.setup.game, remote.setup.host, tuple(remote.handed), remote.adjourned)

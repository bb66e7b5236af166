"""What the web layer may ask of the running companion: read state, subscribe, send commands.

The web app is given an object of this shape and nothing else, so it cannot reach around the
companion: it reads published states (frozen values, and their JSON) and sends commands that the
owner thread carries out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from ..errors import PawnlightError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .state import Published


class CommandRefused(PawnlightError):
    """A command was refused; ``status`` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.status = status


class Subscription(Protocol):
    def get(self, timeout: float) -> dict[str, Any] | None:
        """The next published state, or None when none came within ``timeout`` seconds."""

    def close(self) -> None: ...


class SimulatedBoardControls(Protocol):
    """The simulator's hands on the virtual board (only with ``--sim``)."""

    def scan(self, card: str) -> None:
        """Hold a card of this name to the reader (raises ValueError for an unknown card)."""

    def lift(self, square: str) -> dict[str, Any]:
        """Lift the pawn from a square (``T4``, ``S2:red``, ``start:red``, ``home:red``)."""

    def place(self, square: str, colour: str) -> dict[str, Any]:
        """Put a pawn of ``colour`` on a square; ValueError when that cannot be done."""

    def leds(self) -> dict[str, str]:
        """Every LED's colour now (``#rrggbb``), keyed by place (see docs/simulator.md)."""

    def board(self) -> dict[str, Any]:
        """``{"pawns": {...}}``: the pawns physically on the board (pawn lists, as in
        docs/coordinates.md, 'Places')."""

    def set_board(self, pawns: dict[str, Any]) -> dict[str, int]:
        """Put every pawn where ``pawns`` has them, one lift or placement at a time as hands do;
        ``{"lifted": n, "placed": m}``.  ValueError for a bad position."""

    def press(self, button: str, bounce: bool = False) -> None:
        """Press one of the board's buttons (confirm, undo, new_game, hint); with ``bounce``
        its contacts chatter as a worn button's do."""

    def hold(self, buttons: Sequence[str], seconds: float) -> None:
        """Hold several of the board's buttons down together (pressed in the order given) for
        ``seconds``, then let them go; returns once they are let go."""

    def line(self, fault: str) -> None:
        """Trouble on the board's USB line (see LINE_FAULTS in devices/sim/board.py)."""


class Service(Protocol):
    # Read-only: the web only uses the controls, and a read-only member lets any service whose
    # board is a kind of SimulatedBoardControls (the daemon's, the tests' fakes) stand in.
    @property
    def sim(self) -> SimulatedBoardControls | None:
        """The simulator's controls, or None on real hardware."""

    def state(self) -> Published:
        """The latest published state: the JSON of docs/api.md's 'GET /api/state' (``version``
        counts), with the typed ``CompanionState`` it came from (``typed``)."""

    def subscribe(self) -> Subscription: ...

    def command(self, name: str, args: dict[str, Any], timeout: float = 5.0) -> dict[str, Any]:
        """Run a command on the owner thread and return its reply; CommandRefused if refused."""

    def games(self) -> list[dict[str, Any]]:
        """The journal's games, newest first (id, started, edition, variant, players, turns,
        finished, winner)."""

    def export(self, game_id: int) -> str:
        """A game's record (JSON Lines); KeyError for an unknown game."""

    def diagnostics(self) -> dict[str, Any]:
        """Link status and counters, firmware version, raw sensor values, last card UID."""

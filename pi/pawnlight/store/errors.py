"""What can go wrong with stored games, as exceptions that say what and where.

Every error here keeps the part of the game that is still sound (``intact`` or ``game``), so a
damaged file or journal never hides the moves that were recorded before the damage.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import PawnlightError

if TYPE_CHECKING:
    from ..rules.game import Game
    from .game_record import GameRecord


class StoreError(PawnlightError):
    """A stored game that cannot be read, written or replayed; the message says why and where."""


class RecordError(StoreError):
    """A record file that is not a well-formed pawnlight record.

    ``line`` is the 1-based line number of the first bad line; ``intact`` is the record read up
    to that line (``None`` when the header itself is bad), with ``damage`` set to this message.
    """

    def __init__(
        self, message: str, line: int | None = None, intact: GameRecord | None = None
    ) -> None:
        super().__init__(message)
        self.line = line
        self.intact = intact


class ReplayError(StoreError):
    """Recorded events that the rules refuse.

    ``number`` is the 1-based event number that does not fit (``None`` when the events replay but
    the recorded result disagrees); ``game`` is the game replayed up to just before it.
    """

    def __init__(self, message: str, number: int | None, game: Game) -> None:
        super().__init__(message)
        self.number = number
        self.game = game


class JournalError(StoreError):
    """The journal database cannot be used as asked: missing, damaged, or of another version.

    For a game whose stored events are damaged, ``game_id`` and ``seq`` say where, and
    ``intact`` holds the game's record up to the last sound event.
    """

    def __init__(
        self,
        message: str,
        game_id: int | None = None,
        seq: int | None = None,
        intact: GameRecord | None = None,
    ) -> None:
        super().__init__(message)
        self.game_id = game_id
        self.seq = seq
        self.intact = intact


class JournalDamaged(JournalError):
    """The journal file itself is damaged (not a database, fails SQLite's quick_check, or
    empty): the companion keeps it aside and starts a fresh one (docs/records.md, 'Damage')."""

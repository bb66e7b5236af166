"""A club's live games: the latest of every board on a broker, as ``pawnlight club`` keeps it.

The club's subscriber (remote.link.club_client) hands every message of
``pawnlight/boards/+/live`` and ``pawnlight/boards/+/presence`` to
:meth:`ClubModel.receive`; the page reads :meth:`ClubModel.snapshot` (``GET /api/club``) and
one board at a time (:meth:`ClubModel.board`).
A message that is not what the protocol says is ignored and counted, with the last reason kept
in words; it changes nothing shown.  Pure and thread-safe: no MQTT here.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from typing import Any

from .live import Live, board_of, decode
from .protocol import BOARD_ID, PREFIX, ProtocolError, decode_presence

#: Boards kept at the most (a broker's users are the club's boards: a safety net, not a limit
#: a real club meets).
MAX_BOARDS = 1000


def presence_board(topic: str) -> str | None:
    """The board of a ``pawnlight/boards/<board>/presence`` topic; None for any other."""
    parts = topic.split("/")
    if len(parts) == 4 and "/".join(parts[:2]) == PREFIX and parts[3] == "presence":
        return parts[2] if BOARD_ID.match(parts[2]) else None
    return None


@dataclass(frozen=True)
class ClubBoard:
    """One board as the club sees it."""

    board: str
    #: Whether it is connected to the broker (its presence; the broker's last will says
    #: offline when its connection breaks); None: nothing heard of it yet.
    online: bool | None = None
    #: Its latest live message (None: none heard: an older pawnlight, or not sent yet).
    live: Live | None = None
    #: Changes whenever anything of this board changes (the page redraws only such boards).
    rev: int = 0

    @property
    def game(self) -> dict[str, Any] | None:
        return None if self.live is None else self.live.game

    def to_json(self) -> dict[str, Any]:
        return {
            "board": self.board,
            "online": self.online,
            "rev": self.rev,
            "updated": None if self.live is None else self.live.updated,
            "game": self.game,
        }


class ClubModel:
    """The latest message of each board, by board id (see the module's docstring)."""

    def __init__(self, max_boards: int = MAX_BOARDS) -> None:
        self.max_boards = max_boards
        self._lock = threading.Lock()
        self._boards: dict[str, ClubBoard] = {}
        self._revs = 0
        #: Counts every change: the page's snapshot version.
        self.version = 0
        self.messages = 0
        self.ignored = 0
        #: Why the last ignored message was ignored, in words.
        self.problem: str | None = None
        #: The subscriber's connection to the broker, and why not when it is down.
        self.connected = False
        self.detail = "still connecting"

    # -- what arrives -------------------------------------------------------------------------

    def receive(self, topic: str, payload: bytes) -> bool:
        """Take one message in; True when it changed anything shown."""
        with self._lock:
            self.messages += 1
            try:
                return self._receive(topic, payload)
            except ProtocolError as error:
                self.ignored += 1
                self.problem = f"{topic}: {error}"
                return False

    def _receive(self, topic: str, payload: bytes) -> bool:
        live_board, present_board = board_of(topic), presence_board(topic)
        board = live_board or present_board
        if board is None:
            raise ProtocolError("not a live game or presence topic")
        before = self._boards.get(board)
        if before is None:
            if not payload:
                return False  # a board cleared that was never shown
            if len(self._boards) >= self.max_boards:
                raise ProtocolError(f"more than {self.max_boards} boards: not shown")
            before = ClubBoard(board)
        if live_board is not None:
            after = replace(before, live=decode(payload, board) if payload else None)
        else:
            after = replace(before, online=decode_presence(payload) if payload else None)
        if after == before and board in self._boards:
            return False
        if after.online is None and after.live is None:
            self._boards.pop(board, None)  # every retained message of it cleared
        else:
            self._revs += 1
            self._boards[board] = replace(after, rev=self._revs)
        self.version += 1
        return True

    def connection(self, connected: bool, detail: str) -> None:
        """The subscriber's connection to the broker changed (shown on the page)."""
        with self._lock:
            if (connected, detail) != (self.connected, self.detail):
                self.connected, self.detail = connected, detail
                self.version += 1

    # -- what the page reads ------------------------------------------------------------------

    def boards(self) -> list[ClubBoard]:
        """Every board, by id."""
        with self._lock:
            return [self._boards[name] for name in sorted(self._boards)]

    def board(self, name: str) -> ClubBoard | None:
        with self._lock:
            return self._boards.get(name)

    def snapshot(self) -> dict[str, Any]:
        """``GET /api/club``: every board, the counts, and the broker connection."""
        with self._lock:
            boards = [self._boards[name] for name in sorted(self._boards)]
            return {
                "version": self.version,
                "broker": {"connected": self.connected, "detail": self.detail},
                "boards": [b.to_json() for b in boards],
                "online": sum(1 for b in boards if b.online),
                "playing": sum(1 for b in boards if b.game is not None),
                "messages": self.messages,
                "ignored": self.ignored,
                "problem": self.problem,
            }

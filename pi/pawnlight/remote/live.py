"""A board's game as a club's page shows it: retained on ``pawnlight/boards/<board>/live``.

Every board connected to a broker (``pawnlight run --remote``) publishes what it plays, remote
game or not, so that a club's page (``pawnlight club``, docs/remote.md "A club's live games")
can list every board's game: edition, players, whose turn, the card, scores, the pawns for the
board drawing, and the board's message in words.  The message is retained (a page opened later
is handed the latest at once) and sent on change, at most every :data:`INTERVAL` seconds, the
latest always winning (:class:`Throttle`).  ``"game": null`` says the board plays nothing now.

Pure: :func:`summary` reads a published state, :func:`encode` / :func:`decode` are the wire
form; remote.link.live_publisher sends them.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pawnlight.rules import EDITIONS
from pawnlight.rules.board import COLOURS
from pawnlight.rules.position import Position

from .protocol import BOARD_ID, PREFIX, VERSION, ProtocolError, check_board_id

#: What a board says of a turn played at another board (companion/sentences.py), and the same as
#: a club's page says it of any board.
COPY_HERE = "the move lights up here to copy"
COPY_THERE = "the other boards copy the move"
#: Seconds between two messages of one board, at the least (at most 2 a second).
INTERVAL = 0.5
#: The longest live message read (a game's summary is well under 2 KB).
MAX_PAYLOAD = 16 * 1024
#: The longest message in words kept.
MAX_MESSAGE = 300

#: Every board's live game (what the club page subscribes to).
LIVE_ALL = f"{PREFIX}/+/live"


def live_topic(board: str) -> str:
    return f"{PREFIX}/{board}/live"


def board_of(topic: str) -> str | None:
    """The board a ``pawnlight/boards/<board>/live`` topic belongs to; None for any other."""
    parts = topic.split("/")
    if len(parts) == 4 and "/".join(parts[:2]) == PREFIX and parts[3] == "live":
        return parts[2] if BOARD_ID.match(parts[2]) else None
    return None


def _home_counts(pawns: Mapping[str, Any]) -> dict[str, int]:
    return {
        colour: sum(1 for place in places if place == "home")
        for colour, places in pawns.items()
        if isinstance(places, list)
    }


def for_onlookers(message: str) -> str:
    """A board's message as a club's page says it: not "the move lights up here", which is
    true only at the board itself (issue #47)."""
    return message.replace(COPY_HERE, COPY_THERE)


def summary(state: Mapping[str, Any]) -> dict[str, Any] | None:
    """The game of a published state (``GET /api/state``'s JSON) as the club sees it, or None
    when the board plays no game (no players)."""
    players = state.get("players")
    if not isinstance(players, list) or not players:
        return None
    pawns = state.get("pawns") if isinstance(state.get("pawns"), Mapping) else {}
    assert isinstance(pawns, Mapping)
    result = state.get("result")
    remote = state.get("remote")
    message = state.get("message")
    return {
        "edition": state.get("edition"),
        "variant": state.get("variant"),
        "players": list(players),
        "teams": bool(state.get("teams")),
        "turn": state.get("turn"),
        "phase": state.get("phase"),
        "card": state.get("card"),
        "turns": len(state.get("history") or []),
        "scores": state.get("scores"),
        "home": _home_counts(pawns),
        "winners": result.get("winners") if isinstance(result, Mapping) else None,
        "pawns": {colour: list(places) for colour, places in pawns.items()},
        "message": for_onlookers(message if isinstance(message, str) else "")[:MAX_MESSAGE],
        "remote": remote.get("game") if isinstance(remote, Mapping) else None,
    }


def stamp(now: float) -> str:
    """Wall-clock seconds as the message's ``updated`` (UTC, ISO 8601, whole seconds)."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now))


def encode(board: str, game: Mapping[str, Any] | None, now: float) -> bytes:
    """The retained live message of ``board`` (``now``: wall-clock seconds)."""
    data = {"v": VERSION, "board": board, "updated": stamp(now), "game": game}
    return json.dumps(data, separators=(",", ":")).encode()


@dataclass(frozen=True)
class Live:
    """A board's live message as read back: its game (None: no game now)."""

    board: str
    updated: str
    game: dict[str, Any] | None


def _colour_list(value: object, what: str) -> list[str]:
    if not isinstance(value, list) or not all(c in COLOURS for c in value):
        raise ProtocolError(f"{what} must be a list of colour names")
    return list(value)


def _colour_numbers(value: object, what: str) -> dict[str, int] | None:
    if value is None:
        return None
    if not isinstance(value, dict) or not all(
        k in COLOURS and isinstance(n, int) and not isinstance(n, bool) for k, n in value.items()
    ):
        raise ProtocolError(f"{what} must map colour names to whole numbers")
    return dict(value)


def _short(value: object, what: str, limit: int = 40, empty: bool = False) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > limit or (not value and not empty):
        raise ProtocolError(f"{what} must be a short string")
    return value


def _check_game(data: object, what: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise ProtocolError(f"{what}: game must be an object or null")
    edition = _short(data.get("edition"), f"{what}: edition")
    if edition not in EDITIONS:
        raise ProtocolError(f"{what}: no edition {edition!r}")
    players = _colour_list(data.get("players"), f"{what}: players")
    if not players:
        raise ProtocolError(f"{what}: a game has players")
    turn = data.get("turn")
    if turn is not None and turn not in players:
        raise ProtocolError(f"{what}: the turn must be one of the players")
    pawns = data.get("pawns")
    try:
        Position.from_json(pawns)
    except (ValueError, TypeError) as error:
        raise ProtocolError(f"{what}: pawns: {error}") from None
    assert isinstance(pawns, dict)
    turns = data.get("turns", 0)
    if not isinstance(turns, int) or isinstance(turns, bool) or turns < 0:
        raise ProtocolError(f"{what}: turns must be a whole number")
    winners = data.get("winners")
    return {
        "edition": edition,
        "variant": _short(data.get("variant"), f"{what}: variant") or "standard",
        "players": players,
        "teams": data.get("teams") is True,
        "turn": turn,
        "phase": _short(data.get("phase"), f"{what}: phase") or "",
        "card": _short(data.get("card"), f"{what}: card"),
        "turns": turns,
        "scores": _colour_numbers(data.get("scores"), f"{what}: scores"),
        "home": _colour_numbers(data.get("home"), f"{what}: home") or {},
        "winners": None if winners is None else _colour_list(winners, f"{what}: winners"),
        "pawns": {colour: list(places) for colour, places in pawns.items()},
        "message": _short(data.get("message", ""), f"{what}: message", MAX_MESSAGE, True) or "",
        "remote": _short(data.get("remote"), f"{what}: remote"),
    }


def decode(payload: bytes, board: str) -> Live:
    """A live message read from ``board``'s topic (the broker's ACL: only that board writes
    it); ProtocolError, in words, for anything else."""
    what = f"the live game on {board}'s topic"
    if len(payload) > MAX_PAYLOAD:
        raise ProtocolError(f"{what} is longer than {MAX_PAYLOAD} bytes")
    try:
        data = json.loads(payload)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ProtocolError(f"{what} is not JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError(f"{what} must be a JSON object")
    if data.get("v") != VERSION:
        raise ProtocolError(f"{what} is of protocol version {data.get('v')!r}, not {VERSION}")
    if check_board_id(data.get("board")) != board:
        raise ProtocolError(f"{what} names another board ({data.get('board')})")
    updated = _short(data.get("updated"), f"{what}: updated") or ""
    game = data.get("game")
    return Live(board, updated, None if game is None else _check_game(game, what))


@dataclass(frozen=True)
class Due:
    """What to send now: a game summary (None: no game)."""

    game: dict[str, Any] | None


class Throttle:
    """On change, at most once every ``interval`` seconds, the latest always: ``offer`` each
    summary as it comes, ``take`` what is due (or None), ``wait`` says how long until then."""

    def __init__(self, interval: float = INTERVAL) -> None:
        self.interval = interval
        self._pending: Due | None = None
        self._sent: Due | None = None
        self._sent_at: float | None = None

    def offer(self, game: dict[str, Any] | None) -> None:
        due = Due(game)
        self._pending = None if due == self._sent else due

    def resend(self) -> None:
        """A new connection: the latest goes out again (the broker may have lost it)."""
        if self._pending is None and self._sent is not None:
            self._pending = self._sent
        self._sent = None

    def wait(self, now: float) -> float | None:
        """Seconds until something is due (0: now); None when nothing waits."""
        if self._pending is None:
            return None
        if self._sent_at is None:
            return 0.0
        return max(0.0, self._sent_at + self.interval - now)

    def take(self, now: float) -> Due | None:
        if self.wait(now) != 0.0:
            return None
        due, self._pending = self._pending, None
        self._sent, self._sent_at = due, now
        return due

"""The companion's state as readers get it: a :class:`CompanionState` of frozen values (moves
as rules' ``Move`` objects, turns with their moves), and its JSON, ``GET /api/state``
(docs/api.md, 'GET /api/state').

The owner builds one after every input and compares it with the last (equal states are not
published again); readers never reach into the live companion.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from ..board.guidance import Correction
from ..i18n.message import Message
from ..players.game_stats import GameStatistics
from ..rules.board import COLOURS
from ..rules.game import GameConfig, Result, Turn
from ..rules.moves import Move
from ..rules.notation import move_text
from ..rules.position import Position
from ..rules.words import move_words, sentence
from .config import Settings
from .phases import CompanionPhase

Pairs = tuple[tuple[str, Any], ...]
T = TypeVar("T")


@dataclass(frozen=True)
class RemoteBoardState:
    online: bool
    seats: tuple[str, ...]  # colour names
    offline_for: float = 0.0  # seconds offline (0 while online)


@dataclass(frozen=True)
class RemoteState:
    """The remote game this board plays in (docs/remote.md): its boards, and the move of
    another board's player lit for the people here to make (``copy``)."""

    game: str
    host: str
    me: str
    boards: tuple[tuple[str, RemoteBoardState], ...]
    copy: Move | None
    #: A takeback asked for: the turn it goes back to, the board that asked, who agreed.
    takeback: tuple[int, str, tuple[str, ...]] | None = None
    #: The join code; the colours the host's computer plays now (their boards were away);
    #: the boards offline for the grace (the host may hand their seats or adjourn); adjourned.
    code: str = ""
    computer: tuple[str, ...] = ()
    away_long: tuple[str, ...] = ()
    adjourned: bool = False
    grace: float = 0.0


@dataclass(frozen=True)
class Link:
    up: bool
    detail: str
    firmware: str | None


@dataclass(frozen=True)
class PlayedTurn:
    """A line of the history, with its move as a value (None for a forfeit or a discard)."""

    turn: Turn
    move: Move | None


@dataclass(frozen=True)
class GameState:
    """The game shown: its config, position, the card's moves, the history."""

    config: GameConfig
    order: tuple[int, ...]
    turn: int | None  # None once the game is over
    card: str | None
    position: Position
    legal: tuple[Move, ...]
    forfeit_allowed: bool
    turns: tuple[PlayedTurn, ...]
    doubled: int
    waiting_for: tuple[int, ...]
    can_undo: bool
    undo_again: bool  # the last action was an undo: one more goes further back
    result: Result | None
    statistics: GameStatistics | None  # once the game is over


@dataclass(frozen=True)
class MatchState:
    game: int  # the game's number in the match
    totals: Pairs
    wins: Pairs


@dataclass(frozen=True)
class Enrolling:
    prompt: str
    left: int


@dataclass(frozen=True)
class LeaderState:
    drawing: tuple[str, ...]
    draws: Pairs
    round: int


@dataclass(frozen=True)
class Guided:
    """The one move lit for a person to make: the computer's choice, or a hint."""

    move: Move
    by: str


@dataclass(frozen=True)
class Sensed:
    """A pawn where the board senses it; colour None where the board cannot tell."""

    at: str
    colour: str | None


@dataclass(frozen=True)
class OwnerUnlock:
    """The board's buttons lifting the web's PIN lock (board_buttons.owner_at_board): how many times
    since the companion started, and the page's words for a few minutes after the last."""

    count: int
    notice: str | None


@dataclass(frozen=True)
class CompanionState:
    phase: CompanionPhase
    message: str
    news: str
    asking: bool
    warning: str | None
    link: Link
    settings: Settings
    deck_enrolled: bool
    game: GameState | None
    lit: Pairs  # place key -> role, sorted
    lit_colours: Pairs  # place key -> colour name
    guidance: tuple[Correction, ...]
    sensed: tuple[Sensed, ...] | None
    in_progress: tuple[Move, ...]
    choices: tuple[Move, ...]
    choice_unchanged: bool
    #: The choice the board's Hint stepped to (Confirm takes it), None: the first.
    choice_shown: int | None
    match: MatchState | None
    enrol: Enrolling | None
    leader: LeaderState | None
    computer: Pairs  # colour name -> player spec
    guided: Guided | None
    #: The recogniser has decided on the latest board reading (docs/api.md).
    settled: bool
    #: The remote game this board plays in (None: a game at this table alone).
    remote: RemoteState | None = None
    owner_unlock: OwnerUnlock = OwnerUnlock(0, None)
    #: ``message``, ``news``, ``warning`` and the enrolment's prompt (``enrol``) as catalog
    #: messages, where they are one (their English is the field's own text): each phone and
    #: the voice say them in their language.
    said: tuple[tuple[str, Message], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The state as ``GET /api/state`` gives it (without the owner's ``version``,
        ``game_id`` and ``storage``)."""
        game = self.game
        state: dict[str, Any] = {
            "phase": self.phase.value,
            "message": self.message,
            "news": self.news,
            "asking": self.asking,
            "warning": self.warning,
            "link": {
                "up": self.link.up,
                "detail": self.link.detail,
                "firmware": self.link.firmware,
            },
            "settings": self.settings.to_json(),
            "deck_enrolled": self.deck_enrolled,
            "settled": self.settled,
            "edition": None,
            "variant": None,
            "players": [],
            "teams": False,
            "turn": None,
            "card": None,
            "pawns": {},
            "legal": [],
            "forfeit_allowed": False,
            "history": [],
            "turns": [],
            "scores": None,
            "result": None,
            "statistics": None,
            "doubled": 0,
            "waiting_for": [],
            "corrections": [c.text for c in self.guidance],
            "guidance": [_guidance(c) for c in self.guidance],
            "sensed": None if self.sensed is None else [_sensed(p) for p in self.sensed],
            "in_progress": sorted({move_text(m) for m in self.in_progress}),
            "choices": _moves(self.choices),
            "choice_unchanged": self.choice_unchanged,
            "choice_shown": self.choice_shown,
            "can_undo": False,
            "undo_again": False,
            "match": None,
            "enrol": None,
            "leader": None,
            "computer": dict(self.computer),
            "guided": None,
            "lit": dict(self.lit),
            "lit_colours": dict(self.lit_colours),
            "owner_unlock": {
                "count": self.owner_unlock.count,
                "notice": self.owner_unlock.notice,
            },
            "said": _said_json(self),
        }
        if self.guided is not None:
            state["guided"] = {"text": move_text(self.guided.move), "by": self.guided.by}
        state["remote"] = None if self.remote is None else _remote_json(self.remote)
        if self.enrol is not None:
            state["enrol"] = {"prompt": self.enrol.prompt, "left": self.enrol.left}
        if self.leader is not None:
            leader = self.leader
            state["leader"] = {
                "drawing": list(leader.drawing),
                "draws": dict(leader.draws),
                "round": leader.round,
            }
        if self.match is not None:
            state["match"] = {
                "game": self.match.game,
                "totals": dict(self.match.totals),
                "wins": dict(self.match.wins),
            }
        if game is not None:
            state.update(_game_json(game))
        return state


def _game_json(game: GameState) -> dict[str, Any]:
    config, result = game.config, game.result
    state: dict[str, Any] = {
        "edition": config.edition,
        "variant": config.variant,
        "players": [COLOURS[c] for c in game.order],
        "teams": config.teams,
        "turn": None if game.turn is None else COLOURS[game.turn],
        "card": game.card,
        "pawns": game.position.to_json(),
        "legal": _moves(game.legal),
        "forfeit_allowed": game.forfeit_allowed,
        "history": [played.turn.text for played in game.turns],
        "turns": _turns_json(game.turns),
        "doubled": game.doubled,
        "waiting_for": [COLOURS[c] for c in game.waiting_for],
        "can_undo": game.can_undo,
        "undo_again": game.undo_again,
    }
    if result is not None:
        state["result"] = {
            "winners": [COLOURS[c] for c in result.winners],
            "double_game": result.double_game,
            "patience": result.patience,
            "reason": result.reason,
        }
        if result.scores is not None:
            state["scores"] = {COLOURS[c]: p for c, p in result.scores.items()}
    if game.statistics is not None:
        state["statistics"] = statistics_json(game.statistics)
    return state


def _remote_json(remote: RemoteState) -> dict[str, Any]:
    copy = remote.copy
    return {
        "game": remote.game,
        "host": remote.host,
        "me": remote.me,
        "boards": {
            board: {
                "online": each.online,
                "seats": list(each.seats),
                "offline_for": round(each.offline_for, 1),
            }
            for board, each in remote.boards
        },
        "code": remote.code,
        "computer": list(remote.computer),
        "away_long": list(remote.away_long),
        "adjourned": remote.adjourned,
        "grace": remote.grace,
        "copy": None if copy is None else {"text": move_text(copy), "pawns": copy.after.to_json()},
        "takeback": None
        if remote.takeback is None
        else {
            "seq": remote.takeback[0],
            "by": remote.takeback[1],
            "agreed": list(remote.takeback[2]),
        },
    }


def _moves(moves: Iterable[Move]) -> list[dict[str, Any]]:
    """Moves as the API gives them: ``text`` in notation, ``words`` as people say them."""
    return [
        {"text": move_text(m), "words": sentence(move_words(m)), "pawns": m.after.to_json()}
        for m in moves
    ]


def _guidance(correction: Correction) -> dict[str, Any]:
    """A correction for the page to draw: an arrow from where the pawn is to where it belongs."""
    return {
        "action": correction.action.value,
        "from": correction.source.key if correction.source is not None else None,
        "to": correction.target.key if correction.target is not None else None,
        "colour": COLOURS[correction.colour] if correction.colour >= 0 else None,
        "text": correction.text,
        "code": correction.code,
    }


def _said_json(state: CompanionState) -> dict[str, Any]:
    """The sentences as catalog messages (docs/api.md, 'Said'): ``message``, ``news`` and
    ``warning`` where they are one, and ``corrections`` in the order of ``guidance``."""
    said: dict[str, Any] = {name: message.to_json() for name, message in state.said}
    said["corrections"] = [c.said.to_json() for c in state.guidance]
    return said


def _sensed(pawn: Sensed) -> dict[str, Any]:
    return {"at": pawn.at, "colour": pawn.colour}


# -- kept between states ----------------------------------------------------------------------
# A state follows every input, and a turn never changes once played (an undo or a new game
# replaces turns, which identity sees): each turn is written out as JSON once, not again for
# every sensor change of a 400-turn game.

_lock = threading.Lock()
_turn_json: list[tuple[PlayedTurn, dict[str, Any]]] = []


def same_prefix(cached: Sequence[T], now: Sequence[object], key: Callable[[T], object]) -> int:
    """How many of ``cached`` (by ``key``) are, one by one, the very objects ``now`` starts with."""
    same = 0
    for old, new in zip(cached, now, strict=False):  # either may be longer
        if key(old) is not new:
            break
        same += 1
    return same


def _turns_json(turns: tuple[PlayedTurn, ...]) -> list[dict[str, Any]]:
    """The history's turns as the API gives them (shared between states: never changed)."""
    with _lock:
        same = same_prefix(_turn_json, turns, lambda pair: pair[0])
        del _turn_json[same:]
        _turn_json.extend((played, _turn_dict(played.turn)) for played in turns[same:])
        return [json for _, json in _turn_json]


def _turn_dict(turn: Turn) -> dict[str, Any]:
    return {
        "colour": COLOURS[turn.colour],
        "card": turn.card,
        "text": turn.text,
        "before": turn.before.to_json(),
        "after": turn.after.to_json(),
    }


def statistics_json(stats: GameStatistics) -> dict[str, Any]:
    return {
        **stats.totals(),
        "forfeits_by_card": {card: n for card, n in stats.forfeits.items() if n},
        "colours": {
            COLOURS[colour]: {
                "turns": c.turns,
                "forfeits": c.forfeits,
                "bumps_made": c.bumps_made,
                "bumped": c.bumped,
                "slides": c.slides,
                "pawns_home": c.pawns_home,
            }
            for colour, c in stats.colours.items()
        },
    }


class Published(dict[str, Any]):
    """A state as the API sends it: ``typed.to_json()`` with the owner's fields (``version``,
    ``game_id``, ``storage``); ``typed`` is the CompanionState it was made from, for readers
    that want values (the page's history reads each turn's move from it)."""

    def __init__(self, typed: CompanionState, extra: Mapping[str, Any] | None = None) -> None:
        super().__init__(typed.to_json())
        if extra:
            self.update(extra)
        self.typed = typed

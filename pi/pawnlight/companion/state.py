"""The companion's state as readers get it: a :class:`CompanionState` of frozen values (moves
as rules' ``Move`` objects, turns with their moves), and its JSON, ``GET /api/state``
(docs/api.md, 'GET /api/state').

The owner builds one after every input and compares it with the last (equal states are not
published again); readers never reach into the live companion.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..board.cells import EMPTY, place_of_cell
from ..board.guidance import Correction
from ..board.recognise import InProgress, Mismatch
from ..board.snapshot import true_occupancy
from ..players.game_stats import GameStatistics, game_statistics
from ..rules.board import COLOURS
from ..rules.game import Game, GameConfig, Phase, Result, Turn
from ..rules.moves import Move
from ..rules.notation import NotationError, move_text, parse_move
from ..rules.position import Position
from ..rules.words import move_words, sentence
from .config import Settings
from .lights import picture_for
from .phases import CompanionPhase
from .recognition import settled
from .table import Table, seats_of

Pairs = tuple[tuple[str, Any], ...]


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
    match: MatchState | None
    enrol: Enrolling | None
    leader: LeaderState | None
    computer: Pairs  # colour name -> player spec
    guided: Guided | None
    #: The recogniser has decided on the latest board reading (docs/api.md).
    settled: bool

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
            "can_undo": False,
            "undo_again": False,
            "match": None,
            "enrol": None,
            "leader": None,
            "computer": dict(self.computer),
            "guided": None,
            "lit": dict(self.lit),
            "lit_colours": dict(self.lit_colours),
        }
        if self.guided is not None:
            state["guided"] = {"text": move_text(self.guided.move), "by": self.guided.by}
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


def _sensed(pawn: Sensed) -> dict[str, Any]:
    return {"at": pawn.at, "colour": pawn.colour}


# -- from the table ---------------------------------------------------------------------------


def state_of(table: Table) -> CompanionState:
    """The table as it is now, in frozen values."""
    decision = table.decision
    game = table.game
    match = table.match
    guidance: tuple[Correction, ...] = ()
    sensed = None
    in_progress: tuple[Move, ...] = ()
    if isinstance(decision, Mismatch):
        guidance = tuple(decision.corrections)
        sensed = _sensed_pawns(table)
    elif isinstance(decision, InProgress):
        in_progress = decision.moves
    lit: Pairs = ()
    lit_colours: Pairs = ()
    if table.settings.brightness > 0:  # the owner turned the LEDs off: nothing is lit
        picture = picture_for(table, table.now)
        places = sorted(picture.lit.items())
        lit = tuple((key, place.role.value) for key, place in places)
        lit_colours = tuple((key, COLOURS[p.colour]) for key, p in places if p.colour >= 0)
    choosing = table.phase == CompanionPhase.CHOOSE
    return CompanionState(
        phase=table.phase,
        message=table.message,
        news=table.news,
        asking=table.asking_until is not None,
        warning=table.warning,
        link=Link(table.link_up, table.link_detail, table.firmware),
        settings=table.settings,
        deck_enrolled=table.deck.enrolled,
        game=None if game is None else _game_state(game),
        lit=lit,
        lit_colours=lit_colours,
        guidance=guidance,
        sensed=sensed,
        in_progress=in_progress,
        choices=table.choices if choosing else (),
        choice_unchanged=table.choice_unchanged if choosing else False,
        match=(
            None
            if match is None
            or game is None
            or (len(match.games) <= 1 and game.config.variant != "points")
            else MatchState(
                len(match.games),
                tuple((COLOURS[c], p) for c, p in match.totals.items()),
                tuple((COLOURS[c], w) for c, w in match.wins.items()),
            )
        ),
        enrol=(
            None
            if table.enrolment is None
            else Enrolling(table.enrolment.prompt(), len(table.enrolment.wanted))
        ),
        leader=(
            None
            if table.leader is None
            else LeaderState(
                tuple(table.leader.drawing),
                tuple(table.leader.draws.items()),
                table.leader.rounds,
            )
        ),
        computer=seats_of(table),
        guided=None if table.guided is None else Guided(table.guided, table.guided_by),
        settled=settled(table),
    )


def _game_state(game: Game) -> GameState:
    options = game.options
    events = game.events
    return GameState(
        config=game.config,
        order=tuple(game.order),
        turn=None if game.over else game.turn,
        card=game.card,
        position=game.position,
        legal=tuple(game.legal),
        forfeit_allowed=bool(options and options.forfeit and game.phase == Phase.MOVE),
        turns=_played(game.history, game.config.teams),
        doubled=game.doubled,
        waiting_for=tuple(sorted(game.waiting_for)),
        can_undo=game.can_undo(),
        undo_again=bool(events) and events[-1].kind == "undo",
        result=game.result,
        statistics=_statistics(game) if game.result is not None else None,
    )


def _sensed_pawns(table: Table) -> tuple[Sensed, ...] | None:
    """The pawns as they stand on the board now (while it does not match the game), so the
    page draws the misplaced pawn where it really is: ``{"at": "T20", "colour": "blue"}``, the
    colour None where the board cannot tell (a presence board's pawn on the track)."""
    recogniser = table.recogniser
    board = recogniser.board if recogniser is not None else None
    if board is None:
        return None
    game = table.game
    expected = true_occupancy(game.position) if game is not None else None
    pawns = []
    for cell, value in enumerate(board):
        if value == EMPTY:
            continue
        place = place_of_cell(cell).whole  # the page draws START and HOME as one area
        colour = value if 0 <= value < len(COLOURS) else place.colour
        if colour < 0 and expected is not None and 0 <= expected[cell] < len(COLOURS):
            colour = expected[cell]  # a presence board: the pawn the game has there
        pawns.append(Sensed(place.key, COLOURS[colour] if colour >= 0 else None))
    return tuple(pawns)


# -- kept between states ----------------------------------------------------------------------
# A state follows every input, and a turn never changes once played (an undo or a new game
# replaces turns, which identity sees): each turn's move is read from its notation once, and
# written out as JSON once, not again for every sensor change of a 400-turn game.

_lock = threading.Lock()
_played_turns: list[PlayedTurn] = []
_turn_json: list[tuple[PlayedTurn, dict[str, Any]]] = []


def _same_prefix(cached: Sequence[Any], now: Sequence[Any], key: Any) -> int:
    same = 0
    for old, new in zip(cached, now, strict=False):  # either may be longer
        if key(old) is not new:
            break
        same += 1
    return same


def _played(history: tuple[Turn, ...], teams: bool) -> tuple[PlayedTurn, ...]:
    with _lock:
        same = _same_prefix(_played_turns, history, lambda played: played.turn)
        del _played_turns[same:]
        _played_turns.extend(PlayedTurn(turn, _move_of(turn, teams)) for turn in history[same:])
        return tuple(_played_turns)


def _move_of(turn: Turn, teams: bool) -> Move | None:
    if turn.text in ("forfeit", "discard"):
        return None
    try:
        return parse_move(turn.text, turn.before, teams)
    except NotationError:
        return None


def _turns_json(turns: tuple[PlayedTurn, ...]) -> list[dict[str, Any]]:
    """The history's turns as the API gives them (shared between states: never changed)."""
    with _lock:
        same = _same_prefix(_turn_json, turns, lambda pair: pair[0])
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


# The last finished game's figures: states are rebuilt after every input, the game is not.
# Holding the game itself (not its id) means a new game can never be mistaken for it.
_last_statistics: tuple[Game, int, GameStatistics] | None = None


def _statistics(game: Game) -> GameStatistics:
    """The game in numbers, for the status page's end-of-game panel."""
    global _last_statistics
    turns = len(game.history)
    cached = _last_statistics
    if cached is None or cached[0] is not game or cached[1] != turns:
        cached = _last_statistics = (game, turns, game_statistics(game))
    return cached[2]


def statistics_json(stats: GameStatistics) -> dict[str, Any]:
    return {
        "turns": stats.turns,
        "bumps": stats.bumps,
        "swept": stats.swept,
        "slides": stats.slides,
        "switches": stats.switches,
        "sorries": stats.sorries,
        "forfeits": stats.forfeit_total,
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

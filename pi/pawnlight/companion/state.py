"""The companion's state as the web page reads it: one JSON-ready snapshot (contract section 5).

Snapshots are built by the owner thread after every input and handed to readers whole, so the
web server never reaches into live objects.
"""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

from ..board.cells import EMPTY, place_of_cell
from ..board.guidance import Correction
from ..board.recognise import InProgress, Mismatch
from ..board.snapshot import true_occupancy
from ..players.game_stats import GameStatistics, game_statistics
from ..rules.board import COLOURS
from ..rules.game import Game, Phase, Turn
from ..rules.notation import move_text
from ..rules.words import move_words, sentence
from .lights import lit_state
from .machine import Companion
from .phases import CompanionPhase


def _moves(moves) -> list[dict[str, Any]]:
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


def _sensed(companion: Companion) -> list[dict[str, Any]] | None:
    """The pawns as they stand on the board now (while it does not match the game), so the
    page draws the misplaced pawn where it really is: ``{"at": "T20", "colour": "blue"}``, the
    colour None where the board cannot tell (a presence board's pawn on the track)."""
    recogniser = companion.recogniser
    board = recogniser.board if recogniser is not None else None
    if board is None:
        return None
    game = companion.game
    expected = true_occupancy(game.position) if game is not None else None
    pawns = []
    for cell, value in enumerate(board):
        if value == EMPTY:
            continue
        place = place_of_cell(cell).whole  # the page draws START and HOME as one area
        colour = value if 0 <= value < len(COLOURS) else place.colour
        if colour < 0 and expected is not None and 0 <= expected[cell] < len(COLOURS):
            colour = expected[cell]  # a presence board: the pawn the game has there
        pawns.append({"at": place.key, "colour": COLOURS[colour] if colour >= 0 else None})
    return pawns


def snapshot(companion: Companion) -> dict[str, Any]:
    game = companion.game
    state: dict[str, Any] = {
        "phase": companion.phase.value,  # plain JSON data: the same words as the enum
        "message": companion.message,
        "news": companion.news,
        "asking": companion.asking_until is not None,
        "warning": companion.warning,
        "link": {
            "up": companion.link_up,
            "detail": companion.link_detail,
            "firmware": companion.firmware,
        },
        "settings": {
            "brightness": companion.settings.brightness,
            "settle": companion.settings.settle,
            "speech": companion.settings.speech,
        },
        "deck_enrolled": companion.deck.enrolled,
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
        "corrections": [],
        "guidance": [],
        "sensed": None,
        "in_progress": [],
        "choices": [],
        "choice_unchanged": False,
        "can_undo": False,
        "match": None,
        "enrol": None,
        "leader": None,
        "computer": {COLOURS[c]: spec for c, (spec, _) in companion.computer.items()},
        "guided": None,
    }
    state.update(lit_state(companion))
    if companion.guided is not None:
        state["guided"] = {"text": move_text(companion.guided), "by": companion.guided_by}
    if companion.enrolment is not None:
        state["enrol"] = {
            "prompt": companion.enrolment.prompt(),
            "left": len(companion.enrolment.wanted),
        }
    if companion.leader is not None:
        state["leader"] = {
            "drawing": list(companion.leader.drawing),
            "draws": dict(companion.leader.draws),
            "round": companion.leader.rounds,
        }
    decision = companion.decision
    if isinstance(decision, Mismatch):
        state["corrections"] = [c.text for c in decision.corrections]
        state["guidance"] = [_guidance(c) for c in decision.corrections]
        state["sensed"] = _sensed(companion)
    elif isinstance(decision, InProgress):
        state["in_progress"] = sorted({move_text(m) for m in decision.moves})
    if game is None:
        return state
    options = game.options
    result = game.result
    match = companion.match
    state.update(
        edition=game.config.edition,
        variant=game.config.variant,
        players=[COLOURS[c] for c in game.order],
        teams=game.config.teams,
        turn=None if game.over else COLOURS[game.turn],
        card=game.card,
        pawns=game.position.to_json(),
        legal=_moves(game.legal),
        forfeit_allowed=bool(options and options.forfeit and game.phase == Phase.MOVE),
        history=[turn.text for turn in game.history],
        turns=_turns(companion, game.history),
        doubled=game.doubled,
        waiting_for=[COLOURS[c] for c in sorted(game.waiting_for)],
        can_undo=game.can_undo(),
        # The last action was an undo: one more goes further back than the last move.
        undo_again=bool(game.events) and game.events[-1].kind == "undo",
    )
    if result is not None:
        state["result"] = {
            "winners": [COLOURS[c] for c in result.winners],
            "double_game": result.double_game,
            "patience": result.patience,
            "reason": result.reason,
        }
        if result.scores is not None:
            state["scores"] = {COLOURS[c]: p for c, p in result.scores.items()}
        state["statistics"] = _finished_statistics(game)
    if match is not None and (len(match.games) > 1 or game.config.variant == "points"):
        state["match"] = {
            "game": len(match.games),
            "totals": {COLOURS[c]: p for c, p in match.totals.items()},
            "wins": {COLOURS[c]: w for c, w in match.wins.items()},
        }
    if companion.phase == CompanionPhase.CHOOSE:
        state["choices"] = _moves(companion.choices)
        state["choice_unchanged"] = companion.choice_unchanged
    return state


# Each companion's turns as JSON, kept between snapshots: a snapshot follows every input, and a
# turn never changes once played (an undo or a new game replaces turns, which identity sees), so
# a 400-turn game is not written out again for each sensor change (its whole snapshot took
# 2.5 ms of CPU, now 0.22 ms).
_turn_json: WeakKeyDictionary[Companion, list[tuple[Turn, dict[str, Any]]]] = WeakKeyDictionary()


def _turns(companion: Companion, history: tuple[Turn, ...]) -> list[dict[str, Any]]:
    """The history's turns as the API gives them (shared between snapshots: never changed)."""
    cached = _turn_json.setdefault(companion, [])
    same = 0
    for (turn, _), now in zip(cached, history, strict=False):  # either may be longer
        if turn is not now:
            break
        same += 1
    del cached[same:]
    cached.extend((turn, _turn_dict(turn)) for turn in history[same:])
    return [json for _, json in cached]


def _turn_dict(turn: Turn) -> dict[str, Any]:
    return {
        "colour": COLOURS[turn.colour],
        "card": turn.card,
        "text": turn.text,
        "before": turn.before.to_json(),
        "after": turn.after.to_json(),
    }


# The last finished game's figures: snapshots are rebuilt after every input, the game is not.
# Holding the game itself (not its id) means a new game can never be mistaken for it.
_last_statistics: tuple[Game, int, dict[str, Any]] | None = None


def _finished_statistics(game: Game) -> dict[str, Any]:
    """The game in numbers, for the status page's end-of-game panel."""
    global _last_statistics
    turns = len(game.history)
    cached = _last_statistics
    if cached is None or cached[0] is not game or cached[1] != turns:
        cached = _last_statistics = (game, turns, statistics_json(game_statistics(game)))
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

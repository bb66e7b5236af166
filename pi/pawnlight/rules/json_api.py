"""The contract's JSON questions to the rules core (sections 3 and 4), as plain functions.

Both take the decoded JSON object and return the answer object; bad input raises ValueError with
one line that names the problem.  ``pawnlight rules moves|score`` wrap them with standard I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .board import COLOURS, PARTNER, parse_colour
from .cards import parse_card
from .editions import get_edition
from .house_rules import parse_house_rules, with_house_rules
from .moves import legal_options
from .notation import text
from .position import Position
from .scoring import final_scores, winner_of


def _object(request: object) -> Mapping[str, Any]:
    if not isinstance(request, Mapping):
        raise ValueError("the input must be one JSON object")
    return request


def _field(request: Mapping[str, Any], name: str) -> Any:
    if name not in request:
        raise ValueError(f"missing field {name!r}")
    return request[name]


def moves(request: object) -> dict[str, Any]:
    """Every legal way for ``player`` to play ``card`` in ``pawns`` (contract section 3)."""
    request = _object(request)
    edition = get_edition(_field(request, "edition"))
    edition = with_house_rules(edition, parse_house_rules(request.get("house_rules")))
    position = Position.from_json(_field(request, "pawns"))
    player_name = _field(request, "player")
    if not isinstance(player_name, str):
        raise ValueError(f"player must be a colour name, got {player_name!r}")
    player = parse_colour(player_name)
    if position[player] is None:
        raise ValueError(f"player {COLOURS[player]} has no pawns in the position")
    card = parse_card(_field(request, "card"))
    teams = request.get("teams", False)
    if not isinstance(teams, bool):
        raise ValueError(f"teams must be true or false, got {teams!r}")
    if teams and position[PARTNER[player]] is None:
        raise ValueError(f"teams is true but {COLOURS[player]}'s partner has no pawns")
    options = legal_options(position, player, card, edition, teams)
    return {
        "moves": [{"text": text(m), "pawns": m.after.to_json()} for m in options.moves],
        "forfeit": options.forfeit,
        "again": options.again,
    }


def score(request: object) -> dict[str, Any]:
    """Points at the end of a point game (contract section 4)."""
    request = _object(request)
    edition = get_edition(_field(request, "edition"))
    position = Position.from_json(_field(request, "pawns"))
    doubled = request.get("doubled", 0)
    if isinstance(doubled, bool) or not isinstance(doubled, int) or doubled < 0:
        raise ValueError(f"doubled must be a whole number of doublings, got {doubled!r}")
    winner = winner_of(position)
    if winner is None:
        raise ValueError("no colour has every pawn home: the game is not over")
    scores = final_scores(edition, position, winner, doubled)
    return {"winner": COLOURS[winner], "scores": {COLOURS[c]: p for c, p in scores.items()}}

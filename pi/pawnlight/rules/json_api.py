"""The JSON questions to the rules core, as plain functions (docs/coordinates.md).

Both take the decoded JSON object and return the answer object; bad input raises ValueError with
one line that names the problem.  ``pawnlight rules moves|score`` wrap them with standard I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .board import COLOURS, PARTNER, PLACE_COUNT, parse_colour, parse_place, place_name
from .cards import parse_card
from .editions import get_edition
from .house_rules import parse_house_rules, with_house_rules
from .moves import legal_options
from .notation import move_text
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


#: The fields each question takes (docs/coordinates.md, 'pawnlight rules moves' and 'pawnlight
#: rules score'); any other is refused.
MOVES_FIELDS = ("edition", "pawns", "player", "card", "teams", "house_rules")
SCORE_FIELDS = ("edition", "pawns", "doubled")
#: More doublings than any game sees; the score doubles each time, so the limit keeps the
#: arithmetic small (2**30 times a game's points).
MAX_DOUBLED = 30


def _only(request: Mapping[str, Any], allowed: tuple[str, ...]) -> None:
    for name in request:
        if name not in allowed:
            raise ValueError(f"unknown field {name!r} (expected {', '.join(allowed)})")


def _string(request: Mapping[str, Any], name: str, example: str) -> str:
    value = _field(request, name)
    if not isinstance(value, str):
        raise ValueError(f"{name} must be a string like {example}, got {value!r}"[:200])
    return value


def _pawns(request: Mapping[str, Any]) -> Position:
    """The position, with every colour and location written exactly as docs/coordinates.md,
    'Places' does (``T7``, not ``t7``; ``red``, not ``Red``)."""
    pawns = _field(request, "pawns")
    if isinstance(pawns, Mapping):
        for colour, places in pawns.items():
            if colour not in COLOURS:
                raise ValueError(
                    f"pawns: unknown colour {colour!r} (expected red, blue, yellow or green)"[:200]
                )
            if isinstance(places, list):
                for place in places:
                    if isinstance(place, str) and place not in _EXACT_PLACES:
                        exact = _exact_place(place)
                        hint = f" (write {exact!r})" if exact else ""
                        raise ValueError(f"pawns.{colour}: unknown location {place!r}{hint}"[:200])
    return Position.from_json(pawns)


def _exact_place(text: str) -> str | None:
    try:
        return place_name(parse_place(text))
    except ValueError:
        return None


_EXACT_PLACES = frozenset(place_name(p) for p in range(PLACE_COUNT))


def moves(request: object) -> dict[str, Any]:
    """Every legal way for ``player`` to play ``card`` in ``pawns`` (docs/coordinates.md,
    'pawnlight rules moves')."""
    request = _object(request)
    _only(request, MOVES_FIELDS)
    edition = get_edition(_string(request, "edition", '"hasbro-2002"'))
    edition = with_house_rules(edition, parse_house_rules(request.get("house_rules")))
    position = _pawns(request)
    player_name = _string(request, "player", '"red"')
    if player_name not in COLOURS:
        raise ValueError(
            f"player: unknown colour {player_name!r} (expected red, blue, yellow or green)"[:200]
        )
    player = parse_colour(player_name)
    if position[player] is None:
        raise ValueError(f"player {COLOURS[player]} has no pawns in the position")
    card = parse_card(_string(request, "card", '"7" or "sorry"'))
    teams = request.get("teams", False)
    if not isinstance(teams, bool):
        raise ValueError(f"teams must be true or false, got {teams!r}")
    if teams and position[PARTNER[player]] is None:
        raise ValueError(f"teams is true but {COLOURS[player]}'s partner has no pawns")
    options = legal_options(position, player, card, edition, teams)
    return {
        "moves": [{"text": move_text(m), "pawns": m.after.to_json()} for m in options.moves],
        "forfeit": options.forfeit,
        "again": options.again,
    }


def score(request: object) -> dict[str, Any]:
    """Points at the end of a point game (docs/coordinates.md, 'pawnlight rules score')."""
    request = _object(request)
    _only(request, SCORE_FIELDS)
    edition = get_edition(_string(request, "edition", '"parker-1950"'))
    position = _pawns(request)
    doubled = request.get("doubled", 0)
    if isinstance(doubled, bool) or not isinstance(doubled, int) or not 0 <= doubled <= MAX_DOUBLED:
        raise ValueError(
            f"doubled must be a whole number of doublings from 0 to {MAX_DOUBLED}, got {doubled!r}"[
                :200
            ]
        )
    if doubled and edition.scoring.drop_out_win is None:
        # As the game refuses a double in this edition, so does the score (docs/rules.md, 23).
        raise ValueError(
            f"doubled: {edition.name} has no doubling (its rule book has none); give 0 or leave "
            "it out"
        )
    winner = winner_of(position)
    if winner is None:
        raise ValueError("no colour has every pawn home: the game is not over")
    scores = final_scores(edition, position, winner, doubled)
    return {"winner": COLOURS[winner], "scores": {COLOURS[c]: p for c, p in scores.items()}}

"""The owner's actions: each route checks its body, then sends one command to the companion.

Every route here needs the PIN (auth.owner_only).  The companion decides whether the action is
allowed now and refuses with CommandRefused (409 for "not in this phase", 400 for values the
rules reject); those come back as JSON errors with the companion's own words.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify

from pawnlight.rules.board import COLOURS
from pawnlight.rules.editions import EDITIONS, VARIANTS
from pawnlight.rules.house_rules import HOUSE_RULES

from . import bodies
from .auth import owner_only
from .context import context
from .errors import ApiError

blueprint = Blueprint("commands", __name__)

COLOUR = bodies.one_of(COLOURS)


def run(name: str, args: dict[str, Any]):
    try:
        reply = context().service.command(name, args)
    except TimeoutError:
        raise ApiError("the board did not answer in time: try again", 503) from None
    return jsonify(reply if isinstance(reply, dict) else {"ok": True})


@blueprint.post("/api/game")
@owner_only()
def new_game():
    data = bodies.body(
        {
            "edition": bodies.one_of(EDITIONS),
            "players": bodies.list_of(COLOUR, 2, 4, each="colour"),
            "teams": bodies.boolean,
            "variant": bodies.one_of(VARIANTS),
            "draw_leader": bodies.boolean,
            "extra_one": bodies.boolean,
            "house_rules": bodies.list_of(
                bodies.one_of(HOUSE_RULES), 0, len(HOUSE_RULES), each="house rule"
            ),
            "computer": bodies.seats,
        }
    )
    players = data.get("players")
    if players is not None and len(set(players)) != len(players):
        raise ApiError("a colour is named twice in players")
    return run("new_game", data)


@blueprint.post("/api/undo")
@owner_only()
def undo():
    bodies.body({})
    return run("undo", {})


@blueprint.post("/api/resolve")
@owner_only()
def resolve():
    data = bodies.body({"move": bodies.text(100), "none": bodies.true_only})
    if len(data) != 1:
        raise ApiError('say which move was made: {"move": "T7-T14"}, or {"none": true}')
    return run("resolve", data)


@blueprint.post("/api/hint")
@owner_only()
def show_hint():
    bodies.body({})
    return run("hint", {})


@blueprint.post("/api/forfeit")
@owner_only()
def forfeit():
    bodies.body({})
    return run("forfeit", {})


def _doubling(name: str):
    data = bodies.body({"colour": COLOUR}, required=("colour",), aliases={"color": "colour"})
    return run(name, data)


@blueprint.post("/api/double")
@owner_only()
def double():
    return _doubling("double")


@blueprint.post("/api/accept")
@owner_only()
def accept():
    return _doubling("accept")


@blueprint.post("/api/drop")
@owner_only()
def drop():
    return _doubling("drop")


@blueprint.post("/api/enrol")
@owner_only()
def enrol():
    return run("enrol", bodies.body({"extra_one": bodies.boolean}))


@blueprint.post("/api/enrol/cancel")
@owner_only()
def enrol_cancel():
    bodies.body({})
    return run("enrol_cancel", {})


@blueprint.post("/api/settings")
@owner_only()
def settings():
    data = bodies.body(
        {
            "brightness": bodies.number(0, 1),
            "settle": bodies.number(0.1, 2),
            "speech": bodies.boolean,
        }
    )
    if not data:
        raise ApiError(
            "give brightness (0 to 1), settle (0.1 to 2 seconds) or speech (true or false)"
        )
    return run("settings", data)


@blueprint.post("/api/next-game")
@owner_only()
def next_game():
    bodies.body({})
    return run("next_game", {})

"""The owner's actions: each route checks its body, then sends one command to the companion.

Every route here needs the PIN (auth.owner_only).  The companion decides whether the action is
allowed now and refuses with CommandRefused (409 for "not in this phase", 400 for values the
rules reject); those come back as JSON errors with the companion's own words.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify

from pawnlight.companion import config
from pawnlight.rules.board import COLOURS

from . import bodies
from .auth import owner_only
from .context import context
from .errors import ApiError

blueprint = Blueprint("actions", __name__)

COLOUR = bodies.one_of(COLOURS)


def run(name: str, args: dict[str, Any]):
    try:
        reply = context().service.command(name, args)
    except TimeoutError:
        raise ApiError("the board did not answer in time: try again", 503) from None
    return jsonify(reply if isinstance(reply, dict) else {"ok": True})


def _as_given(value: Any, name: str) -> Any:
    return value  # checked as a whole by config.new_game or config.seat


def _setting(value: Any, name: str) -> Any:
    return _checked(config.setting, name, value)


def _checked(check: Any, *args: Any) -> Any:
    """A check of companion.config, its refusal a 400 in its own words."""
    try:
        return check(*args)
    except config.ConfigError as error:
        raise ApiError(str(error)) from None


@blueprint.post("/api/game")
@owner_only()
def new_game():
    """Checked once, here (config.new_game); the companion is given the checked request."""
    data = bodies.body(dict.fromkeys(config.NEW_GAME_FIELDS, _as_given))
    return run("new_game", {"game": _checked(config.new_game, data)})


@blueprint.post("/api/remote/host")
@owner_only()
def remote_host():
    """A remote game hosted here: ``POST /api/game``'s body plus ``seats``, each playing
    colour's board id (docs/remote.md); answers ``{"game": id, "code": join code}``."""
    data = bodies.body(
        {**dict.fromkeys(config.NEW_GAME_FIELDS, _as_given), "seats": _as_given},
        required=("seats",),
    )
    seats = data.pop("seats")
    _checked(config.new_game, data)  # the game's fields in the same words as POST /api/game
    return run("remote_host", {"game": data, "seats": seats})


@blueprint.post("/api/remote/join")
@owner_only()
def remote_join():
    """Join the remote game another board hosts, by its code: this board takes the seats the
    host named for it."""
    data = bodies.body({"code": bodies.text(16)}, required=("code",))
    return run("remote_join", data)


@blueprint.post("/api/remote/takeback")
@owner_only()
def remote_takeback():
    """This board's answer to another board's takeback in a remote game (it is asked with
    ``POST /api/undo``): ``{"agree": true}`` or ``{"agree": false}``."""
    data = bodies.body({"agree": bodies.boolean}, required=("agree",))
    return run("remote_takeback", data)


@blueprint.post("/api/remote/seat")
@owner_only()
def remote_seat():
    """The host of a remote game lets its computer play a colour whose board has been offline
    for the grace (``{"colour": "blue", "computer": true}``), or gives it back to its board
    (``false``, the board online again): docs/remote.md."""
    data = bodies.body(
        {"colour": COLOUR, "computer": bodies.boolean}, required=("colour", "computer")
    )
    return run("remote_seat", data)


@blueprint.post("/api/remote/adjourn")
@owner_only()
def remote_adjourn():
    """The host adjourns its remote game (a board offline for the grace): every board keeps it
    saved, paused, until the host resumes it."""
    bodies.body({})
    return run("remote_adjourn", {})


@blueprint.post("/api/remote/resume")
@owner_only()
def remote_resume():
    """The host resumes its adjourned remote game with the game's join code, every board
    online: ``{"code": "K7PQ3X"}``."""
    data = bodies.body({"code": bodies.text(16)}, required=("code",))
    return run("remote_resume", data)


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


@blueprint.post("/api/seat")
@owner_only()
def seat():
    """A seat given to the computer or back to a person during a game: checked here
    (config.seat, as a new game's ``computer``); whether the colour plays now, by the game."""
    data = bodies.body(
        dict.fromkeys(config.SEAT_FIELDS, _as_given),
        required=config.SEAT_FIELDS,
        aliases={"color": "colour"},
    )
    return run("seat", {"seat": _checked(config.seat, data)})


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
    data = bodies.body(dict.fromkeys(config.SETTING_NAMES, _setting))
    if not data:
        raise ApiError(f"give {config.SETTINGS_WORDS}")
    return run("settings", data)


@blueprint.post("/api/next-game")
@owner_only()
def next_game():
    bodies.body({})
    return run("next_game", {})

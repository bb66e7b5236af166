"""The simulator: a virtual board in the browser, and its API (only with a simulated board).

The API is fixed for outside tools (docs/api.md, 'The simulator') and needs no PIN: it stands
for the players' hands on the board, and anyone at the table may move a pawn or scan a card.
The one exception is the owner's unlock (Hint and Undo held), which lifts the PIN lockout: on a
simulated board it needs the PIN, as anyone who can reach the page could otherwise hold it.
The service's simulator checks every square, colour and card and raises ValueError with a
message for the player; those become 400s.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flask import Blueprint, Response, jsonify, render_template

from pawnlight.board.places import pawn_places
from pawnlight.board.svg import render_board
from pawnlight.companion.board_buttons import UNLOCK_CHORD
from pawnlight.devices.events import BUTTONS
from pawnlight.devices.sim.board import LINE_FAULTS
from pawnlight.i18n.marks import N_
from pawnlight.rules.board import COLOURS
from pawnlight.rules.cards import CARDS
from pawnlight.rules.editions import Variant

from . import bodies, language
from .auth import require_owner
from .context import context
from .errors import ApiError
from .pages import live_context, owner_context
from .view import diamonds

blueprint = Blueprint("sim", __name__)

SQUARE = bodies.text(32)


def _sim():
    controls = context().service.sim
    if controls is None:  # the app was told to simulate, but the service lost its simulator
        raise ApiError("no simulated board", 404)
    return controls


def _act(action: Callable[[], Any]):
    """Run a simulator action; its ValueError is the player's mistake, a 400."""
    try:
        reply = action()
    except ValueError as error:
        raise ApiError(str(error), 400) from None
    return jsonify(reply if isinstance(reply, dict) else {"ok": True})


# -- the routes of docs/api.md, 'The simulator' ---------------------------------------------------


@blueprint.post("/api/sim/scan")
def scan():
    data = bodies.body({"card": bodies.text(16)}, required=("card",))
    return _act(lambda: _sim().scan(data["card"]))


@blueprint.post("/api/sim/lift")
def lift():
    data = bodies.body({"square": SQUARE}, required=("square",))
    return _act(lambda: _sim().lift(data["square"]))


@blueprint.post("/api/sim/place")
def place():
    data = bodies.body(
        {"square": SQUARE, "color": bodies.one_of(COLOURS)},
        required=("square", "color"),
        aliases={"colour": "color"},
    )
    return _act(lambda: _sim().place(data["square"], data["color"]))


@blueprint.get("/api/sim/leds")
def leds():
    return jsonify(_sim().leds())


@blueprint.get("/api/sim/board")
def board():
    return jsonify(_sim().board())


@blueprint.post("/api/sim/board")
def set_board():
    data = bodies.body({"pawns": bodies.mapping}, required=("pawns",))
    moved: dict[str, int] = {}
    _act(lambda: moved.update(_sim().set_board(data["pawns"])))
    return jsonify({"ok": True, **moved, **_sim().board()})


# -- the page's own routes ------------------------------------------------------------------------


@blueprint.post("/api/sim/press")
def press():
    data = bodies.body(
        {"button": bodies.one_of(BUTTONS), "bounce": bodies.boolean}, required=("button",)
    )
    return _act(lambda: _sim().press(data["button"], bool(data.get("bounce", False))))


@blueprint.post("/api/sim/hold")
def hold():
    """Buttons held together (the board's two-button gestures), answered once let go."""
    data = bodies.body(
        {
            "buttons": bodies.list_of(bodies.one_of(BUTTONS), 2, 2, "button"),
            "seconds": bodies.number(0.1, 10.0),
        },
        required=("buttons", "seconds"),
    )
    if frozenset(data["buttons"]) == UNLOCK_CHORD:
        # The unlock stands for the owner's hands on a real board; the simulator is served to
        # the network, so here it asks for the PIN (a wrong one counts as any wrong PIN).
        require_owner(changing=True)
    return _act(lambda: _sim().hold(data["buttons"], data["seconds"]))


@blueprint.post("/api/sim/line")
def line():
    data = bodies.body({"fault": bodies.one_of(LINE_FAULTS)}, required=("fault",))
    return _act(lambda: _sim().line(data["fault"]))


def physical_board_svg(pawns: Mapping[str, Any] | None, state: Mapping[str, Any]) -> str:
    """The board as the pawns physically stand, with what the real board's LEDs light: drawn
    from the state's ``lit`` (a blinking LED sampled now and then would be missed when dark)."""
    label = language.gettext(N_("The board: tap a pawn to lift it, then tap where to put it."))
    lit, colours, guidance = state.get("lit"), state.get("lit_colours"), state.get("guidance")
    return render_board(
        pawns,
        diamonds=diamonds(state),
        interactive=True,
        label=label,
        lit=lit if isinstance(lit, Mapping) else {},
        lit_colours=colours if isinstance(colours, Mapping) else {},
        guidance=guidance if isinstance(guidance, list) else [],
        words=language.words(),
        language=language.current(),
    )


def _physical_pawns() -> Mapping[str, Any] | None:
    return _sim().board().get("pawns")


@blueprint.get("/api/sim/board.svg")
def board_svg():
    svg = physical_board_svg(_physical_pawns(), context().service.state())
    return Response(svg, mimetype="image/svg+xml")


def hand(state: Mapping[str, Any], pawns: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The pawns off the board, by colour: the game's colours (every colour with no game),
    each with its pawns (3 in the quick game) less those standing on the board."""
    colours = [c for c in state.get("players") or [] if c in COLOURS] or list(COLOURS)
    each = 3 if state.get("variant") == Variant.QUICK else 4
    standing: dict[str, int] = {}
    for colour, _ in pawn_places(pawns):
        standing[COLOURS[colour]] = standing.get(COLOURS[colour], 0) + 1
    return [{"colour": c, "count": max(0, each - standing.get(c, 0))} for c in colours]


def sim_context(history: bool = True) -> dict[str, Any]:
    state = context().service.state()
    pawns = _physical_pawns()
    return {
        **live_context(state, board=False, history=history),
        "physical": physical_board_svg(pawns, state),
        "hand": hand(state, pawns),
    }


@blueprint.get("/sim")
def page():
    return render_template("sim.html", **sim_context(), **owner_context(), card_names=CARDS)


@blueprint.get("/partial/sim")
def partial():
    # Not cached by version: the pawns in hand and the LEDs change between versions.  The
    # history stays out of it, as in the status page's fragment.
    return render_template("_sim_live.html", **sim_context(history=False))

"""The read side of the JSON API: the state, the live event stream, past games, pictures.

Nothing here changes the game; only /api/diagnostics is for the owner (it shows raw sensor
values and card tags).  The routes that change things are in commands.py.
"""

from __future__ import annotations

from collections.abc import Iterator

from flask import Blueprint, Response, current_app, jsonify, request

from pawnlight.store.errors import StoreError

from . import qr, view
from .auth import owner_only
from .context import StreamSlots, context
from .errors import ApiError
from .events import stream

blueprint = Blueprint("api", __name__)


@blueprint.get("/api/state")
def state():
    return jsonify(context().service.state())


class _Stream:
    """The event stream as a WSGI body that gives its slot back when closed, even if it was
    never iterated (a generator's ``finally`` would not run then)."""

    def __init__(self, body: Iterator[str], slots: StreamSlots) -> None:
        self._body = body
        self._slots: StreamSlots | None = slots

    def __iter__(self) -> _Stream:
        return self

    def __next__(self) -> bytes:
        return next(self._body).encode()

    def close(self) -> None:
        close = getattr(self._body, "close", None)
        if close is not None:
            close()
        if self._slots is not None:
            self._slots.give_back()
            self._slots = None


@blueprint.get("/api/events")
def events():
    ctx = context()
    if not ctx.streams.take():
        raise ApiError(
            "too many live connections: poll GET /api/state instead", 503, {"Retry-After": "30"}
        )
    body = stream(ctx.service, ctx.stopping.is_set, heartbeat=current_app.config["SSE_HEARTBEAT"])
    response = Response(_Stream(body, ctx.streams), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"  # a proxy in front must not buffer the stream
    return response


@blueprint.get("/api/games")
def games():
    return jsonify(games=context().service.games())


@blueprint.get("/api/games/<int:game_id>/record")
def record(game_id: int):
    service = context().service
    try:
        text = service.export(game_id)
    except KeyError:
        raise ApiError(f"no game {game_id}", 404) from None
    except StoreError as error:
        # The journal says "no game N" this way too; a listed game whose record cannot be read
        # is the Pi's trouble, not the request's.
        listed = any(game.get("id") == game_id for game in service.games())
        raise ApiError(str(error), 500 if listed else 404) from None
    response = Response(text, mimetype="application/jsonl")
    response.headers["Content-Disposition"] = f'attachment; filename="pawnlight-{game_id}.jsonl"'
    return response


def replay_args() -> tuple[int | None, str]:
    """``?turn=N&when=before|after`` of a board request; ApiError for values that make no sense."""
    when = request.args.get("when", "after")
    if when not in view.WHEN:
        raise ApiError(f"when must be before or after, not {when!r}")
    raw = request.args.get("turn")
    if raw is None or raw == "":
        return None, when
    if not raw.isdigit() or int(raw) < 1:
        raise ApiError(f"turn must be a turn number from 1, not {raw!r}")
    return int(raw), when


@blueprint.get("/api/board.svg")
def board():
    turn, when = replay_args()
    try:
        svg = view.board_svg(context().service.state(), turn, when)
    except IndexError as error:
        raise ApiError(str(error), 400) from None
    return Response(svg, mimetype="image/svg+xml")


@blueprint.get("/api/qr.svg")
def qr_code():
    return Response(qr.svg(qr.page_url(), standalone=True), mimetype="image/svg+xml")


@blueprint.get("/api/diagnostics")
@owner_only(changing=False)
def diagnostics():
    return jsonify(context().service.diagnostics())

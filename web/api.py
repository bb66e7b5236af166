"""The read side of the JSON API: the state, the live event stream, past games, pictures.

Nothing here changes the game; only /api/diagnostics is for the owner (it shows raw sensor
values and card tags).  The routes that change things are in actions.py.
"""

from __future__ import annotations

from collections.abc import Iterator

from flask import Blueprint, Response, current_app, jsonify, request

from pawnlight.store.errors import StoreError

from . import live, qr, view
from .auth import owner_only
from .context import StreamSlots, context
from .errors import ApiError
from .events import stream

blueprint = Blueprint("api", __name__)


@blueprint.get("/api/state")
def state():
    """The whole state (docs/api.md, 'GET /api/state'); ``?compact=1`` without the history (what
    the event stream sends).  Encoded once per version, with an ETag: a poller that has it gets
    a 304."""
    compact = request.args.get("compact", "0")
    if compact not in ("0", "1"):
        raise ApiError(f"compact must be 0 or 1, not {compact[:20]!r}")
    ctx = context()
    encoded = ctx.live.json(ctx.service.state(), compact_form=compact == "1")
    return live.respond(encoded, "application/json")


#: Turns in one page of GET /api/history.
HISTORY_PAGE = 50


@blueprint.get("/api/history")
def history():
    """The turns with the board before and after each, ``HISTORY_PAGE`` a page (page 1 is the
    first turns): what a replay needs, without sending the whole game on every change."""
    raw = request.args.get("page", "1")
    if not view.whole_number(raw) or int(raw) < 1:
        raise ApiError(f"page must be a page number from 1, not {raw[:20]!r}")
    page = int(raw)
    ctx = context()
    current = ctx.service.state()
    turns = view.turns(current)
    pages = max(1, -(-len(turns) // HISTORY_PAGE))
    if page > pages:
        raise ApiError(f"there is no page {page} (the history has {pages})", 404)

    first = (page - 1) * HISTORY_PAGE
    chosen = list(turns[first : first + HISTORY_PAGE])

    def build() -> live.Encoded:
        body = {"page": page, "first_turn": first + 1, "turns": chosen}
        # Within one epoch the history only grows, so a page's content is fixed by how many
        # turns it holds: a full page keeps its ETag for the rest of the game.
        epoch = ctx.live.epoch(current)
        tag = f"{ctx.live.boot}-h{epoch}-{page}-{len(chosen)}"
        return live.Encoded.of(live.dumps(body), tag)

    return live.respond(ctx.live.get(current, ("history", page), build), "application/json")


class _Stream:
    """The event stream as a WSGI body that gives its slot back when closed, even if it was
    never iterated (a generator's ``finally`` would not run then)."""

    def __init__(self, body: Iterator[str], slots: StreamSlots, address: str) -> None:
        self._body = body
        self._slots: StreamSlots | None = slots
        self._address = address

    def __iter__(self) -> _Stream:
        return self

    def __next__(self) -> bytes:
        return next(self._body).encode()

    def close(self) -> None:
        close = getattr(self._body, "close", None)
        if close is not None:
            close()
        if self._slots is not None:
            self._slots.give_back(self._address)
            self._slots = None


STREAM_REFUSED = "too many live connections: poll GET /api/state instead"


@blueprint.get("/api/events")
def events():
    """The event stream through Flask (the test client, a plain WSGI server); the served app
    answers this route in asgi.py instead, without holding a thread per phone."""
    ctx = context()
    address = request.remote_addr or ""
    if not ctx.streams.take(address):
        raise ApiError(STREAM_REFUSED, 503, {"Retry-After": "30"})
    body = stream(
        ctx.service,
        ctx.stopping.is_set,
        heartbeat=current_app.config["SSE_HEARTBEAT"],
        encode=lambda state: ctx.live.event(state).decode(),
    )
    response = Response(_Stream(body, ctx.streams, address), mimetype="text/event-stream")
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
    if not view.whole_number(raw) or int(raw) < 1:
        raise ApiError(f"turn must be a turn number from 1, not {raw[:20]!r}")
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

"""A club's live games: the page of ``pawnlight club`` (docs/remote.md, "A club's live games").

Every board publishing to the broker, one card each: the board's name, whether it is online,
its game (edition, players, whose turn, the card, scores or pawns home, its message) and the
board drawn by the project's one renderer (pawnlight.board.svg).  Read-only: no PIN, no
buttons.  It is served like the board's own page (web.server.WebServer): ``GET /api/events``
streams a light snapshot (each board's ``rev``) and the page fetches again only the cards whose
``rev`` changed, ``GET /partial/club/<board>``; without a stream the page polls
``GET /api/state``; ``GET /api/club`` is the whole snapshot with every game.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from typing import Any, cast

from flask import Flask, Response, abort, jsonify, render_template, url_for

from pawnlight.background import BackgroundThread
from pawnlight.board.svg import Centre, render_board
from pawnlight.companion.service import CommandRefused, Service
from pawnlight.i18n.marks import N_
from pawnlight.remote.club_view import ClubBoard, ClubModel
from pawnlight.rules.editions import EDITIONS

from . import errors, language, view
from .app import _asset_version, _check_host, _headers
from .context import KEY, Context, StreamSlots
from .hosts import HostPolicy
from .ratelimit import PinLimiter

#: Seconds between two snapshots handed to the pages, at the least (a club of a hundred boards
#: changes many times a second; a page needs a few updates a second).
INTERVAL = 0.5
#: Board drawings kept rendered (one per board and change).
DRAWINGS = 512


class _Subscription:
    """The newest snapshot not yet taken (older ones are of no use to a page)."""

    def __init__(self, feed: ClubFeed) -> None:
        self._feed = feed
        self._ready = threading.Condition()
        self._snapshot: dict[str, Any] | None = None

    def offer(self, snapshot: dict[str, Any]) -> None:
        with self._ready:
            self._snapshot = snapshot
            self._ready.notify_all()

    def get(self, timeout: float) -> dict[str, Any] | None:
        with self._ready:
            if self._snapshot is None:
                self._ready.wait(timeout)
            snapshot, self._snapshot = self._snapshot, None
            return snapshot

    def close(self) -> None:
        self._feed.unsubscribe(self)


class ClubFeed:
    """The club's model as the web server's service: ``state()`` is the light snapshot (no
    games: every board's id, presence and ``rev``), ``subscribe()`` hands out each new one, at
    most every ``interval`` seconds.  Nothing can be changed through it."""

    sim = None

    def __init__(self, model: ClubModel, interval: float = INTERVAL) -> None:
        self.model = model
        self.interval = interval
        self._lock = threading.Lock()
        self._subscribers: list[_Subscription] = []
        self._cached: dict[str, Any] | None = None
        self._worker = BackgroundThread("pawnlight-club")

    def state(self) -> dict[str, Any]:
        with self._lock:
            if self._cached is not None and self._cached["version"] == self.model.version:
                return self._cached
        full = self.model.snapshot()
        light = {
            **full,
            "boards": [
                {"board": b["board"], "online": b["online"], "rev": b["rev"]}
                for b in full["boards"]
            ],
        }
        with self._lock:
            self._cached = light
        return light

    def subscribe(self) -> _Subscription:
        subscription = _Subscription(self)
        with self._lock:
            self._subscribers.append(subscription)
        subscription.offer(self.state())
        return subscription

    def unsubscribe(self, subscription: _Subscription) -> None:
        with self._lock:
            if subscription in self._subscribers:
                self._subscribers.remove(subscription)

    def start(self) -> None:
        self._worker.start(self._run)

    def stop(self) -> None:
        self._worker.stop()

    def _run(self) -> None:
        sent = self.model.version
        while not self._worker.stopping.wait(self.interval):
            if self.model.version == sent:
                continue
            snapshot = self.state()
            sent = snapshot["version"]
            with self._lock:
                subscribers = list(self._subscribers)
            for subscription in subscribers:
                subscription.offer(snapshot)

    # -- the rest of a board's service: a club page changes nothing ---------------------------

    def command(self, name: str, args: dict[str, Any], timeout: float = 5.0) -> dict[str, Any]:
        raise CommandRefused("the club page only shows the boards' games", 405)

    def games(self) -> list[dict[str, Any]]:
        return []

    def export(self, game_id: int) -> str:
        raise KeyError(game_id)

    def diagnostics(self) -> dict[str, Any]:
        return {}


# -- what a board's card shows ---------------------------------------------------------------


def _names(colours: Iterable[str]) -> str:
    names = [str(c) for c in colours]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _won(colours: Iterable[str]) -> str:
    """Who won, in the page's language (English keeps its own words: "red and yellow won")."""
    names = [str(c) for c in colours]
    if language.current() == "en":
        return f"{_names(names)} won"
    if len(names) == 2:
        return language.gettext(
            N_("%(colour)s and %(partner)s won"),
            colour=language.colour_name(names[0]),
            partner=language.colour_name(names[1]),
        )
    return language.gettext(N_("%(colour)s won"), colour=view.colour_list(names))


def drawing(board: ClubBoard) -> str:
    """The board's game drawn as every pawnlight page draws a board; '' without a game."""
    game = board.game
    if game is None:
        return ""
    turn = game.get("turn")
    phase = view.PHASES.get(str(game.get("phase")), "")
    if language.current() == "en":
        caption = f"{turn}'s turn" if turn else phase
    else:
        caption = (
            language.gettext(N_("%(colour)s’s turn"), colour=language.colour_name(turn))
            if turn
            else language.gettext(phase)
        )
    words = caption
    if game.get("winners"):
        caption = _won(game["winners"])
        words = words if turn else caption
    return render_board(
        game.get("pawns"),
        diamonds=view.diamonds(game),
        centre=Centre(turn if isinstance(turn, str) else None, game.get("card"), caption),
        label=language.gettext(N_("Board %(board)s: %(said)s."), board=board.board, said=words),
        words=language.words(),
        language=language.current(),
    )


def card(board: ClubBoard) -> dict[str, Any]:
    """What the template shows of one board."""
    game = board.game
    shown: dict[str, Any] = {
        "board": board.board,
        "online": board.online,
        "rev": board.rev,
        "updated": board.live.updated if board.live is not None else None,
        "game": None,
    }
    if game is None:
        return shown
    edition = EDITIONS.get(str(game.get("edition")))
    players = list(game.get("players") or [])
    scores: Mapping[str, Any] = game.get("scores") or {}
    home: Mapping[str, Any] = game.get("home") or {}
    winners = game.get("winners")
    shown["game"] = {
        "edition": view.edition_title(edition.name) if edition else str(game.get("edition")),
        "variant": game.get("variant"),
        "variant_name": view.variant_name(game.get("variant")),
        "players": players,
        "teams": game.get("teams"),
        "turn": game.get("turn"),
        "card": game.get("card"),
        "phase": language.gettext(view.PHASES.get(str(game.get("phase")), ""))
        or str(game.get("phase")),
        "turns": game.get("turns"),
        "rows": [{"colour": c, "home": home.get(c), "points": scores.get(c)} for c in players],
        "points": bool(scores),
        "result": _won(winners) if winners else None,
        "message": game.get("message"),
        "remote": game.get("remote"),
    }
    return shown


class Drawings:
    """Each board's card, rendered once per change (``rev``) for every page that asks."""

    def __init__(self, keep: int = DRAWINGS) -> None:
        self.keep = keep
        self._lock = threading.Lock()
        self._done: OrderedDict[tuple[str, int, str], str] = OrderedDict()

    def svg(self, board: ClubBoard) -> str:
        key = (board.board, board.rev, language.current())
        with self._lock:
            if key in self._done:
                self._done.move_to_end(key)
                return self._done[key]
        text = drawing(board)
        with self._lock:
            self._done[key] = text
            while len(self._done) > self.keep:
                self._done.popitem(last=False)
        return text


def create_club_app(
    feed: ClubFeed,
    *,
    allowed_hosts: Iterable[str] = (),
    max_streams: int = 32,
    streams_per_address: int = 4,
    heartbeat: float = 15.0,
) -> Flask:
    """The club page's app for one club feed (serve it with web.server.WebServer).
    ``allowed_hosts``: names it answers to besides this machine's own (hosts.py)."""
    app = Flask(__name__)
    app.config.update(
        MAX_CONTENT_LENGTH=64 * 1024,
        SEND_FILE_MAX_AGE_DEFAULT=365 * 24 * 3600,  # asset URLs carry a version
        SSE_HEARTBEAT=heartbeat,
    )
    app.json.sort_keys = False  # type: ignore[attr-defined]
    language.install(app)  # the page's frame (base.html) is in each phone's language too
    ctx = Context(
        # The web server reads only state() and subscribe(); the club's routes, nothing else.
        service=cast(Service, feed),
        pin=None,
        limiter=PinLimiter(),
        sim=False,
        streams=StreamSlots(max_streams, streams_per_address),
        hosts=HostPolicy(allowed_hosts),
    )

    def prepare(snapshot: dict[str, Any]) -> None:
        ctx.live.event(snapshot)  # the stream's event, encoded once for every page

    ctx.prepare = prepare
    app.extensions[KEY] = ctx
    version = _asset_version()
    drawings = Drawings()
    model = feed.model

    def asset(name: str) -> str:
        return url_for("static", filename=name, v=version)

    app.jinja_env.globals.update(
        asset=asset, sim=False, drawing=drawings.svg, a_card=view.a_card, card_label=view.card_label
    )
    app.before_request(_check_host)
    app.after_request(_headers)
    errors.install(app)

    @app.get("/")
    def club() -> str:
        boards = model.boards()
        return render_template(
            "club.html",
            club=feed.state(),
            boards=[(card(b), b) for b in boards],
        )

    @app.get("/partial/club/<name>")
    def board_card(name: str) -> str:
        board = model.board(name)
        if board is None:
            abort(404)
        return render_template("_club_board.html", shown=card(board), board=board)

    @app.get("/api/club")
    def api_club() -> Response:
        return jsonify(model.snapshot())

    @app.get("/api/state")
    def api_state() -> Response:
        """What the page polls when it cannot stream (the light snapshot)."""
        return jsonify(feed.state())

    return app

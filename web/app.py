"""The Flask application: the status page, the owner's actions, the JSON API, the simulator.

:func:`create_app` is given the companion's :class:`~pawnlight.companion.service.Service` and
nothing else; every route reads snapshots from it or sends it commands.  Serve the app with
pawnlight.web.server.WebServer (uvicorn), never with Flask's development server.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import time
from collections.abc import Callable, Iterable, Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask, Response, request, url_for

from pawnlight.companion.service import Service

from . import actions, api, auth, buttons, corrections, errors, language, pages, story, view
from . import sim as sim_routes
from .context import KEY, Context, Stories, StreamSlots, context
from .hosts import HostPolicy
from .ratelimit import PinLimiter
from .sessions import Sessions
from .unlock import BoardUnlock

STATIC = Path(__file__).resolve().parent / "static"

#: The page loads nothing from elsewhere (the Pi may have no internet) and runs no inline
#: script; inline SVG uses presentation attributes, so styles can be locked down too.
CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
MIN_PIN = 4


def _asset_version() -> str:
    """A hash of the static files, so their URLs change when they do and can be cached."""
    digest = hashlib.sha256()
    for path in sorted(STATIC.rglob("*")):
        if path.is_file():
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:10]


def create_app(
    service: Service,
    *,
    pin: str | None,
    secret_key: bytes | None = None,
    sim: bool | None = None,
    clock: Callable[[], float] = time.monotonic,
    public_url: str | None = None,
    max_streams: int = 32,
    streams_per_address: int = 4,
    heartbeat: float = 15.0,
    allowed_hosts: Iterable[str] = (),
    sessions_path: Path | None = None,
    remote_board: str | None = None,
    stories: Stories | None = None,
) -> Flask:
    """The web app for one running companion.

    ``pin``: the owner's PIN (``PAWNLIGHT_PIN``); None or empty refuses every change.
    ``secret_key`` signs the login cookie: pass a stored one to keep logins across restarts
    (a random key is made otherwise).  ``sim``: serve the simulator page and API; None means
    "when the service has a simulator".  ``clock`` times PIN lockouts (tests pass a fake);
    ``public_url`` is what the QR code shows (default: the address the page was opened at);
    ``max_streams`` caps live event streams, ``streams_per_address`` those of one client
    address; ``heartbeat`` is the seconds between keep-alive comments on a quiet stream.
    ``allowed_hosts``: names the page answers to besides localhost and the machine's own names
    and addresses (hosts.py: every other ``Host`` is refused, which closes DNS rebinding).
    ``sessions_path``: where the owner's logins are kept across restarts (sessions.py).
    ``remote_board``: this board's id on a remote-play broker (``--board-id``), so the owner's
    panel offers hosting and joining games with other homes; None: a board that plays alone.
    ``stories``: tells finished games' stories (the end screen's and past games' chart).
    """
    pin = pin or None
    if pin is not None and len(pin) < MIN_PIN:
        raise ValueError(f"the owner PIN needs at least {MIN_PIN} characters")
    has_sim = getattr(service, "sim", None) is not None
    if sim is None:
        sim = has_sim
    elif sim and not has_sim:
        raise ValueError("sim=True needs a service with a simulated board (service.sim)")

    secret_key = secret_key or os.urandom(32)
    app = Flask(__name__)
    app.config.update(
        SECRET_KEY=secret_key,
        MAX_CONTENT_LENGTH=64 * 1024,
        SESSION_COOKIE_NAME="pawnlight_session",
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_HTTPONLY=True,
        PERMANENT_SESSION_LIFETIME=timedelta(days=30),
        SEND_FILE_MAX_AGE_DEFAULT=timedelta(days=365),  # asset URLs carry a version
        SSE_HEARTBEAT=heartbeat,
    )
    app.json.sort_keys = False  # type: ignore[attr-defined]
    limiter = PinLimiter(clock=clock, on_global_lockout=auth.tell_the_board(service))
    app.extensions[KEY] = Context(
        service=service,
        pin=pin,
        limiter=limiter,
        unlock=BoardUnlock(service, limiter),
        sim=sim,
        public_url=public_url,
        remote_board=remote_board,
        stories=stories,
        streams=StreamSlots(max_streams, streams_per_address),
        hosts=HostPolicy(allowed_hosts, public_url),
        sessions=Sessions(
            sessions_path,
            lifetime=app.permanent_session_lifetime.total_seconds(),
            # Logins made under another PIN end when the PIN changes.
            pin_tag=hmac.new(secret_key, (pin or "").encode(), hashlib.sha256).hexdigest()[:32],
        ),
    )
    version = _asset_version()

    def asset(name: str) -> str:
        return url_for("static", filename=name, v=version)

    app.jinja_env.globals.update(
        asset=asset,
        phases=view.PHASES,
        cards=view.CARDS,
        card_label=view.card_label,
        owner_actions=buttons.owner_actions,
        legend=view.legend,
        replay_legend=view.REPLAY_LEGEND,
        correction_lines=corrections.correction_lines,
        moves_said=view.moves_said,
        card_sentence=view.card_sentence,
        a_card=view.a_card,
        edition_title=view.edition_title,
        sim=sim,
    )
    app.before_request(_check_host)
    app.after_request(_headers)
    errors.install(app)
    language.install(app)
    blueprints = (pages, api, actions, auth, story)
    for blueprint in (module.blueprint for module in blueprints):
        app.register_blueprint(blueprint)
    if sim:
        app.register_blueprint(sim_routes.blueprint)
    return app


def local_address(environ: Mapping[str, Any]) -> str | None:
    """The address this connection came in on (the served app's ASGI scope, else the WSGI
    server's name for itself)."""
    scope = environ.get("asgi.scope")
    server = scope.get("server") if isinstance(scope, Mapping) else None
    if server:
        return str(server[0])
    name = environ.get("SERVER_NAME")
    return str(name) if name else None


def _check_host() -> Response | None:
    policy = context().hosts
    if policy.allows(request.headers.get("Host"), local_address(request.environ)):
        return None
    return errors.json_error(bad_host_message(request.headers.get("Host")), 421)


def bad_host_message(host: str | None) -> str:
    shown = (host or "")[:80]
    return (
        f"this board does not answer to the name {shown!r}: open it by the Pi's own name or "
        "address, or add the name to allowed_hosts in the [http] settings"
    )


def _headers(response: Response) -> Response:
    headers = response.headers
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("Referrer-Policy", "same-origin")
    headers.setdefault("X-Frame-Options", "DENY")
    if response.mimetype == "text/html":
        headers.setdefault("Content-Security-Policy", CSP)
    if request.path.startswith("/api/") or request.path.startswith("/partial/"):
        headers.setdefault("Cache-Control", "no-store")
    return response

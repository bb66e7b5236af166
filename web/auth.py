"""The owner's PIN: who may change the game.

Two ways in.  Scripts send the PIN with every changing request in the ``X-Pawnlight-Pin``
header: a browser never adds that header by itself, so another site cannot forge such a request
(CSRF-safe by construction).  The page logs in once (``POST /api/login``) and gets a session
cookie; because a browser does send cookies on its own, cookie-authenticated changing requests
must also carry the CSRF token issued at login (``X-CSRF-Token``) and name this origin (Origin,
else Referer: one of them must be there).

Wrong PINs are counted per client address and across all of them (ratelimit.py); reaching the
global limit is told to the companion, which buzzes and shows a warning.  Each login is known
to the server (sessions.py): logging out or changing the PIN ends it for good.  With no PIN
configured, nothing may be changed, and the message says how to set one.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar
from urllib.parse import urlsplit

from flask import Blueprint, current_app, jsonify, request, session

from . import bodies
from .context import context
from .errors import ApiError

PIN_HEADER = "X-Pawnlight-Pin"
CSRF_HEADER = "X-CSRF-Token"
NO_PIN = (
    "no owner PIN is set, so nothing can be changed from the web: start pawnlight with "
    "the environment variable PAWNLIGHT_PIN set (for example PAWNLIGHT_PIN=2468)"
)
NEED_PIN = (
    "this needs the owner's PIN: send it in the X-Pawnlight-Pin header, "
    "or log in with POST /api/login"
)

blueprint = Blueprint("auth", __name__)
log = logging.getLogger(__name__)
F = TypeVar("F", bound=Callable[..., Any])


def _fingerprint(pin: str) -> str:
    """Kept in the session instead of a plain flag, so changing the PIN logs everyone out."""
    key = current_app.secret_key
    assert isinstance(key, bytes)
    return hmac.new(key, pin.encode(), hashlib.sha256).hexdigest()[:32]


def _address() -> str:
    return request.remote_addr or "unknown"


def same_origin(required: bool = False) -> bool:
    """A browser names the page a request came from (Origin, else Referer): it must be ours.
    A request naming neither passes only where it is not ``required``: the login and logout,
    which scripts use too.  A cookie-authenticated change must name this page: every browser
    sends Origin with a POST, and a script has the PIN header instead."""
    source = request.headers.get("Origin") or request.headers.get("Referer")
    if source is None:
        return not required
    parts = urlsplit(source)
    return parts.scheme in ("http", "https") and parts.netloc == request.host


def _check_pin(given: str, header: bool = False) -> None:
    """Compare a PIN, counting failures; ApiError 403 or 429 when it is wrong or too soon.
    ``header``: sent in the PIN header, which waits while the page's login has its window
    after the board's buttons lifted a lockout (unlock.py)."""
    pin = context().pin
    if not pin:
        raise ApiError(NO_PIN, 403)
    unlock = context().unlock
    if unlock is not None:
        unlock.check()
    limiter = context().limiter
    window = limiter.lifted() if header else 0
    if window:
        raise ApiError(
            f"the board's buttons just lifted the PIN lock: for {window} s only the page's "
            f"login takes a PIN (the {PIN_HEADER} header waits)",
            429,
            {"Retry-After": str(window)},
        )
    address = _address()
    wait = limiter.retry_after(address)
    if wait:
        raise _too_many(wait)
    if hmac.compare_digest(given.encode(), pin.encode()):
        limiter.succeeded(address)
        return
    locked = limiter.failed(address)
    if locked:
        raise _too_many(locked)
    raise ApiError("wrong PIN", 403)


def _too_many(seconds: int) -> ApiError:
    if context().limiter.globally_locked():
        message = (
            f"too many wrong PINs from the network: logins are locked for everyone for "
            f"{seconds} s (at the board, holding Hint and Undo together for 3 s lifts it)"
        )
    else:
        message = f"too many wrong PINs from this address: try again in {seconds} s"
    return ApiError(message, 429, {"Retry-After": str(seconds)})


def tell_the_board(service: Any) -> Callable[[int], None]:
    """What the limiter calls on a global lockout: the companion buzzes and warns (through
    its commands, as every other input from the web)."""

    def notify(seconds: int) -> None:
        try:
            service.command("pin_lockout", {"minutes": max(1, min(1440, round(seconds / 60)))})
        except Exception:  # the lockout holds even if the board cannot say so
            log.exception("could not tell the board about the PIN lockout")

    return notify


def is_owner() -> bool:
    """Logged in through the page (cookie) with the current PIN, in a login not ended."""
    ctx = context()
    pin = ctx.pin
    if not pin:
        return False
    return session.get("owner") == _fingerprint(pin) and ctx.sessions.valid(session.get("sid"))


def require_owner(changing: bool) -> None:
    if not context().pin:
        raise ApiError(NO_PIN, 403)
    given = request.headers.get(PIN_HEADER)
    if given is not None:
        _check_pin(given, header=True)
        return
    if not is_owner():
        raise ApiError(NEED_PIN, 403)
    if changing:
        token = request.headers.get(CSRF_HEADER, "")
        if not hmac.compare_digest(token.encode(), str(session.get("csrf", "")).encode()):
            raise ApiError("missing or stale CSRF token: reload the page", 403)
        if request.headers.get("Origin") is None and request.headers.get("Referer") is None:
            raise ApiError(
                "a request with the login cookie must name the page it comes from (Origin "
                "or Referer, as browsers do); scripts send the PIN in X-Pawnlight-Pin instead",
                403,
            )
        if not same_origin(required=True):
            raise ApiError("the request comes from another site", 403)


def owner_only(changing: bool = True) -> Callable[[F], F]:
    """Routes that change the game (or show the owner's diagnostics)."""

    def decorate(view: F) -> F:
        @wraps(view)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            require_owner(changing)
            return view(*args, **kwargs)

        return wrapped  # type: ignore[return-value]

    return decorate


def csrf_token() -> str | None:
    return session.get("csrf") if is_owner() else None


@blueprint.post("/api/login")
def login():
    if not same_origin():
        raise ApiError("the request comes from another site", 403)
    data = bodies.body({"pin": bodies.text(64)}, required=("pin",))
    _check_pin(data["pin"])
    context().sessions.end(session.get("sid"))
    session.clear()
    session.permanent = True
    session["owner"] = _fingerprint(context().pin or "")
    session["sid"] = context().sessions.start()
    session["csrf"] = secrets.token_urlsafe(32)
    return jsonify(ok=True, owner=True, csrf=session["csrf"])


@blueprint.post("/api/logout")
def logout():
    if not same_origin():
        raise ApiError("the request comes from another site", 403)
    context().sessions.end(session.get("sid"))  # the cookie, even if kept, opens nothing now
    session.clear()
    return jsonify(ok=True, owner=False)


@blueprint.get("/api/session")
def whoami():
    return jsonify(owner=is_owner(), pin_set=bool(context().pin), csrf=csrf_token())

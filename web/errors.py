"""Errors as the API answers them: always JSON ``{"error": "<message>"}`` with the right status.

Pages under ``/api`` never answer with Flask's HTML error pages, and nothing a client sends may
turn into a 500: every failure the API expects is an :class:`ApiError`, and anything else is
logged and answered with a short JSON 500.
"""

from __future__ import annotations

import logging

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from pawnlight.companion.service import CommandRefused
from pawnlight.errors import PawnlightError

from . import language

log = logging.getLogger(__name__)

#: Flask's own wording is written for browsers; these say what to do instead.
MESSAGES: dict[int, str] = {
    400: "bad request",
    404: "no such route",
    405: "method not allowed",
    413: "the request body is too large",
}


class ApiError(PawnlightError):
    """A request the API refuses; ``headers`` go into the answer (Retry-After, Allow)."""

    def __init__(self, message: str, status: int = 400, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.message = message
        self.status = status
        self.headers = headers or {}


def json_error(message: str, status: int, headers: dict[str, str] | None = None) -> Response:
    response = jsonify(error=message)
    response.status_code = status
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def wants_json() -> bool:
    return request.path == "/api" or request.path.startswith("/api/")


def _http(error: HTTPException):
    status = error.code or 500
    if not wants_json():
        message = language.page_error(status, error.description or "")
        return render_template("error.html", status=status, message=message), status
    message = MESSAGES.get(status) or error.description or error.name
    if status == 405:
        # OPTIONS and HEAD come with every route; the methods worth naming are the others.
        methods = error.valid_methods or []  # type: ignore[attr-defined]
        allowed = sorted(m for m in methods if m not in ("OPTIONS", "HEAD")) or sorted(methods)
        if allowed:
            message = f"method {request.method} not allowed here (use {', '.join(allowed)})"
    elif status == 404:
        message = f"no such route: {request.method} {request.path}"
    headers = {k: v for k, v in error.get_headers() if k.lower() in ("allow", "retry-after")}
    return json_error(message, status, headers)


def _unexpected(error: Exception):
    log.exception("unexpected error serving %s %s", request.method, request.path)
    if not wants_json():
        message = language.gettext("Something went wrong.")
        return render_template("error.html", status=500, message=message), 500
    return json_error("internal error: see the Pi's log", 500)


def install(app: Flask) -> None:
    app.register_error_handler(ApiError, lambda e: json_error(e.message, e.status, e.headers))
    app.register_error_handler(CommandRefused, lambda e: json_error(str(e), e.status))
    app.register_error_handler(HTTPException, _http)
    app.register_error_handler(Exception, _unexpected)

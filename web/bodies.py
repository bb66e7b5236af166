"""Reading request bodies: one JSON object whose fields are checked against a small schema.

Every problem becomes a 400 that names the field and what was expected, before anything reaches
the companion: a wrong type must never surface as a 500 from deep inside.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from types import MappingProxyType
from typing import Any

from flask import request

from pawnlight import strict_json

from .errors import ApiError

#: The largest request body (the served app refuses larger ones before Flask sees them).
MAX_BODY = 64 * 1024


def read_body() -> bytes:
    """The request body; ApiError 413 past :data:`MAX_BODY`, with a length or chunked."""
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise ApiError("the request body is too large", 413)
    cached = getattr(request, "_pawnlight_body", None)
    if cached is None:
        cached = request.stream.read(MAX_BODY + 1)
        if len(cached) > MAX_BODY:
            raise ApiError("the request body is too large", 413)
        request._pawnlight_body = cached  # type: ignore[attr-defined]
    return cached


Check = Callable[[Any, str], Any]
NO_ALIASES: Mapping[str, str] = MappingProxyType({})


def body(
    schema: Mapping[str, Check],
    required: Collection[str] = (),
    aliases: Mapping[str, str] = NO_ALIASES,
) -> dict[str, Any]:
    """The request's JSON object, every field checked; an empty body is ``{}``.

    ``aliases`` maps another spelling to a field (``color`` for ``colour``).
    """
    raw = read_body()
    if not raw.strip():
        data: Any = {}
    else:
        try:
            data = strict_json.loads(raw, max_bytes=MAX_BODY)
        except ValueError as error:
            raise ApiError(f"the body is not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise ApiError("the body must be a JSON object")
    for alias, name in dict(aliases).items():
        if alias in data:
            if name in data:
                raise ApiError(f"give {name!r} or {alias!r}, not both")
            data[name] = data.pop(alias)
    unknown = sorted(set(data) - set(schema))
    if unknown:
        expected = ", ".join(schema) or "no fields"
        raise ApiError(f"unknown field {unknown[0]!r} (expected {expected})")
    missing = [name for name in required if name not in data]
    if missing:
        raise ApiError(f"missing field {missing[0]!r}")
    return {name: schema[name](value, name) for name, value in data.items()}


# -- checks ---------------------------------------------------------------------------------------


def boolean(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise ApiError(f"{name} must be true or false")
    return value


def text(longest: int = 200) -> Check:
    def check(value: Any, name: str) -> str:
        if not isinstance(value, str) or not value.strip():
            raise ApiError(f"{name} must be a non-empty string")
        if len(value) > longest:
            raise ApiError(f"{name} is too long (at most {longest} characters)")
        return value.strip()

    return check


def one_of(choices: Collection[str]) -> Check:
    def check(value: Any, name: str) -> str:
        if not isinstance(value, str) or value.strip().lower() not in choices:
            raise ApiError(f"unknown {name} {value!r} (expected one of {', '.join(choices)})")
        return value.strip().lower()

    return check


def number(low: float, high: float) -> Check:
    def check(value: Any, name: str) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ApiError(f"{name} must be a number")
        if not low <= value <= high:
            raise ApiError(f"{name} must be between {low:g} and {high:g}")
        return float(value)

    return check


def list_of(item: Check, shortest: int, longest: int, each: str = "entry") -> Check:
    """A list of ``shortest`` to ``longest`` values, each checked as one ``each``."""

    def check(value: Any, name: str) -> list[Any]:
        if not isinstance(value, list):
            raise ApiError(f"{name} must be a list")
        if not shortest <= len(value) <= longest:
            raise ApiError(f"{name} must have {shortest} to {longest} entries")
        try:
            return [item(entry, each) for entry in value]
        except ApiError as error:
            raise ApiError(f"{error.message}, in {name}") from None

    return check


def mapping(value: Any, name: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ApiError(f"{name} must be a JSON object")
    return value


def seats(value: Any, name: str) -> dict[str, str]:
    """Computer seats: ``{"blue": "heuristic"}``, colours to player specs."""
    from pawnlight.rules.board import COLOURS

    if not isinstance(value, dict):
        raise ApiError(f'{name} must map colours to players, e.g. {{"blue": "heuristic"}}')
    for colour, spec in value.items():
        if colour not in COLOURS:
            raise ApiError(f"{name}: unknown colour {colour!r}")
        if not isinstance(spec, str) or len(spec) > 60:
            raise ApiError(f"{name}.{colour} must name a player or a level (easy, normal, hard)")
    return dict(value)


def true_only(value: Any, name: str) -> bool:
    if value is not True:
        raise ApiError(f"{name} can only be true")
    return True

"""Reading JSON from outside strictly: a size limit, a nesting limit, no duplicate keys, no NaN.

Python's parser recurses once per nesting level, so 30,000 nested brackets raise RecursionError
(a traceback, or an HTTP 500) instead of a message; and it lets ``{"a": 1, "a": 2}`` and
``NaN`` through silently.  :func:`loads` checks the depth first with a linear scan, then parses
with hooks that refuse the rest, and raises ValueError with one line naming the problem.  Every
JSON that comes in (the CLI's standard input, record files, request bodies) goes through it.
"""

from __future__ import annotations

import json
from typing import Any

#: Deeper than any input pawnlight reads (a record's ``meta`` is the deepest: a few levels).
MAX_DEPTH = 32
#: Larger than any one object pawnlight reads; a record file is read line by line.
MAX_BYTES = 1024 * 1024


def depth(text: str, limit: int = MAX_DEPTH) -> int:
    """The deepest nesting of ``[``/``{`` outside strings, counting stops past ``limit``."""
    deepest = level = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            level += 1
            if level > deepest:
                deepest = level
                if deepest > limit:
                    return deepest
        elif char in "]}":
            level -= 1
    return deepest


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) != len(pairs):
        keys = [k for k, _ in pairs]
        raise ValueError(f"the key {next(k for k in keys if keys.count(k) > 1)!r} appears twice")
    return value


def no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


def loads(
    data: str | bytes, *, max_depth: int = MAX_DEPTH, max_bytes: int = MAX_BYTES, what: str = ""
) -> Any:
    """Parse one JSON value strictly; ValueError (one line) for anything refused."""
    where = f"{what}: " if what else ""
    if len(data) > max_bytes:
        raise ValueError(f"{where}the input is too large (at most {max_bytes} bytes)")
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ValueError(f"{where}the input is not UTF-8 text ({error.reason})") from None
    if depth(data, max_depth) > max_depth:
        raise ValueError(f"{where}the JSON is nested too deeply (at most {max_depth} levels)")
    try:
        return json.loads(data, object_pairs_hook=unique_keys, parse_constant=no_constant)
    except json.JSONDecodeError as error:
        raise ValueError(
            f"{where}malformed JSON: {error.msg} (line {error.lineno} column {error.colno})"
        ) from None
    except ValueError as error:  # e.g. a number of more than 4300 digits
        raise ValueError(f"{where}{str(error).split(':')[0]}") from None
    except RecursionError:  # a deep nesting the scan missed cannot happen; still no traceback
        raise ValueError(f"{where}the JSON is nested too deeply") from None

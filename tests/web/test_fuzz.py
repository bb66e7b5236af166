"""Fuzzing every route with Hypothesis: whatever a client sends, the answer is never a 500.

Every rule of the app's URL map is tried with made-up path values, query strings, headers and
bodies (JSON of any shape and depth, duplicate keys, non-JSON bytes), with and without the
owner's PIN; an API route must answer JSON with an ``error`` when it refuses.  The examples are
bounded so the whole file runs in well under a minute.
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pawnlight.web.app import create_app

from ..helpers import ManualClock
from .fakes import FakeService
from .helpers import PIN, SECRET

FUZZ = settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=20)
    | st.sampled_from(["red", "T7", "t7", "start:red", "7", "sorry", "confirm", "hasbro-2002"]),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5)
    ),
    max_leaves=20,
)
field_names = st.sampled_from(
    ["pin", "players", "edition", "variant", "teams", "colour", "color", "move", "none", "card",
     "square", "pawns", "button", "brightness", "settle", "extra_one", "computer", "draw_leader"]
)  # fmt: skip
objects = st.dictionaries(field_names | st.text(max_size=8), json_values, max_size=6)


def _deep(depth: int) -> bytes:
    return b'{"pawns": ' + b"[" * depth + b"]" * depth + b"}"


bodies = (
    objects.map(lambda v: json.dumps(v).encode())
    | json_values.map(lambda v: json.dumps(v).encode())
    | st.binary(max_size=200)
    | st.integers(min_value=30, max_value=40000).map(_deep)
    | st.sampled_from([b'{"pin": "1", "pin": "2"}', b"NaN", b'{"a": 1e999}', b"\xff\xfe", b""])
)
path_values = st.integers(min_value=-(10**30), max_value=10**30).map(str) | st.text(
    alphabet="0123456789abcxyz%./-", min_size=1, max_size=30
)
query = st.dictionaries(
    st.sampled_from(["turn", "when", "page", "after", "compact", "v", "x"]),
    st.text(max_size=12)
    | st.integers(-(10**25), 10**25).map(str)
    | st.text(alphabet="0123456789²٣", min_size=1, max_size=8)
    | st.integers(4000, 6000).map(lambda n: "9" * n),
    max_size=3,
)


@pytest.fixture(scope="module")
def fuzzed():
    service = FakeService()
    app = create_app(service, pin=PIN, secret_key=SECRET, clock=ManualClock())
    rules = [
        (rule.rule, sorted(rule.methods - {"HEAD", "OPTIONS"})) for rule in app.url_map.iter_rules()
    ]
    return app, service, rules


def _path(rule: str, values: list[str]) -> str:
    filled = iter(values)
    return re.sub(r"<[^>]+>", lambda _: next(filled, "1"), rule)


def _check(response, path: str) -> None:
    assert response.status_code < 500 or response.status_code == 503, (
        path,
        response.status_code,
        response.get_data()[:200],
    )
    if path.startswith("/api/") and response.status_code >= 400:
        assert "error" in json.loads(response.get_data()), path


@FUZZ
@given(data=st.data())
def test_no_route_answers_500(fuzzed, data):
    app, service, rules = fuzzed
    rule, methods = data.draw(st.sampled_from(rules))
    method = data.draw(st.sampled_from(methods))
    path = _path(rule, data.draw(st.lists(path_values, min_size=2, max_size=2)))
    headers = {"Content-Type": "application/json"}
    if data.draw(st.booleans()):
        headers["X-Pawnlight-Pin"] = PIN
    client = app.test_client()
    kwargs = {"query_string": data.draw(query), "headers": headers}
    if method == "POST":
        kwargs["data"] = data.draw(bodies)
    if path == "/api/events":
        response = client.get(path, buffered=False, **kwargs)
        _check(response, path)
        response.close()
        return
    _check(client.open(path, method=method, **kwargs), path)
    phase = service.state().get("phase")
    if phase == "enrol":  # a fuzzed request may have begun enrolling the pack: end it
        service.command("enrol_cancel", {})
    if phase not in ("idle", "setup", "draw"):
        service.command("new_game", {"players": ["red", "blue"]})  # keep the game playable


@FUZZ
@given(host=st.text(max_size=40), path=st.sampled_from(["/", "/api/state", "/sim", "/api/x"]))
def test_any_host_header_is_answered_or_refused_cleanly(fuzzed, host, path):
    app, _, _ = fuzzed
    try:
        response = app.test_client().get(path, headers={"Host": host})
    except (ValueError, UnicodeError):
        return  # the test client itself cannot send this header
    assert response.status_code in (200, 400, 404, 421), (host, response.status_code)

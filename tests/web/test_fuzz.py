"""Fuzzing every route with Hypothesis: whatever a client sends, the answer is never a 500.

Every rule of the app's URL map is tried with made-up path values, query strings, headers and
bodies (JSON of any shape and depth, duplicate keys, non-JSON bytes), with and without the
owner's PIN; an API route must answer JSON with an ``error`` when it refuses.  The examples are
bounded so the whole file runs in well under a minute.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pawnlight.web.app import create_app

from ..helpers import ManualClock
from .fakes import FakeService
from .fuzzing import bodies, check_answer, fill_path, path_values, query
from .helpers import PIN, SECRET

FUZZ = settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.fixture(scope="module")
def fuzzed():
    service = FakeService()
    app = create_app(service, pin=PIN, secret_key=SECRET, clock=ManualClock())
    rules = []
    for rule in app.url_map.iter_rules():
        assert rule.methods is not None  # Flask gives every rule its methods
        rules.append((rule.rule, sorted(rule.methods - {"HEAD", "OPTIONS"})))
    return app, service, rules


@FUZZ
@given(data=st.data())
def test_no_route_answers_500(fuzzed, data):
    app, service, rules = fuzzed
    rule, methods = data.draw(st.sampled_from(rules))
    method = data.draw(st.sampled_from(methods))
    path = fill_path(rule, data.draw(st.lists(path_values, min_size=2, max_size=2)))
    headers = {"Content-Type": "application/json"}
    if data.draw(st.booleans()):
        headers["X-Pawnlight-Pin"] = PIN
    client = app.test_client()
    kwargs = {"query_string": data.draw(query), "headers": headers}
    if method == "POST":
        kwargs["data"] = data.draw(bodies)
    if path == "/api/events":
        response = client.get(path, buffered=False, **kwargs)
        check_answer(response, path)
        response.close()
        return
    check_answer(client.open(path, method=method, **kwargs), path)
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

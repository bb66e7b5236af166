"""Fuzzing the real daemon's routes: the companion, the owner thread, the journal and the
simulated board behind the app, not a fake service.  Whatever a client with the PIN sends
(made-up paths, query strings and bodies, mixed with well-formed commands so that games start,
cards are scanned and pawns moved), the answer is never a server error and nothing inside the
daemon reports an internal error."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pawnlight.runtime.config import Config
from pawnlight.runtime.daemon import Daemon

from .fuzzing import bodies, check_answer, fill_path, path_values, query
from .helpers import PIN

#: Commands that do something on the real daemon, between the made-up bodies.
MEANINGFUL = st.sampled_from(
    [
        b'{"players": ["red", "blue"]}',
        b'{"players": ["red", "blue", "yellow", "green"], "teams": true}',
        b'{"card": "1"}',
        b'{"card": "7"}',
        b'{"card": "sorry"}',
        b'{"square": "start:red"}',
        b'{"square": "T4", "color": "red"}',
        b'{"square": "T4"}',
        b'{"button": "undo"}',
        b'{"button": "new_game", "bounce": true}',
        b'{"button": "confirm"}',
        b'{"fault": "garbage"}',
        b'{"fault": "bad-snapshot"}',
        b'{"colour": "red"}',
        b'{"move": "R:start-T4"}',
        b'{"brightness": 0.5, "settle": 0.1}',
        b"{}",
    ]
)


@pytest.fixture(scope="module")
def daemon(tmp_path_factory):
    daemon = Daemon(
        Config(
            data=tmp_path_factory.mktemp("fuzzed-daemon"),
            sim=True,
            layout="presence",
            http_host="127.0.0.1",
            http_port=0,
            pin=PIN,
        )
    )
    daemon.start()
    yield daemon
    daemon.stop()


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_no_route_of_the_real_daemon_answers_500(daemon, data):
    app = daemon.server.app
    rules = [
        (rule.rule, sorted(rule.methods - {"HEAD", "OPTIONS"}))
        for rule in app.url_map.iter_rules()
        if rule.rule != "/api/events"  # a stream: tested with the fake service
    ]
    rule, methods = data.draw(st.sampled_from(rules))
    method = data.draw(st.sampled_from(methods))
    path = fill_path(rule, data.draw(st.lists(path_values, min_size=2, max_size=2)))
    headers = {"Content-Type": "application/json", "X-Pawnlight-Pin": PIN}
    kwargs = {"query_string": data.draw(query), "headers": headers}
    if method == "POST":
        kwargs["data"] = data.draw(bodies | MEANINGFUL)
    check_answer(app.test_client().open(path, method=method, **kwargs), path)
    state = daemon.owner.state()
    assert "internal" not in (state.get("warning") or ""), state["warning"]
    assert not [e for e in daemon.owner.errors if "internal" in e or "Traceback" in e]

"""What the fuzz tests send: made-up bodies, path values and query strings, and the check that
an answer is never a server error (shared by the fake-service and the real-daemon fuzzing)."""

from __future__ import annotations

import json
import re

from hypothesis import strategies as st

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


def fill_path(rule: str, values: list[str]) -> str:
    filled = iter(values)
    return re.sub(r"<[^>]+>", lambda _: next(filled, "1"), rule)


def check_answer(response, path: str) -> None:
    assert response.status_code < 500 or response.status_code == 503, (
        path,
        response.status_code,
        response.get_data()[:200],
    )
    if path.startswith("/api/") and response.status_code >= 400:
        assert "error" in json.loads(response.get_data()), path

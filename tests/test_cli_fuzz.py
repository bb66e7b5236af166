"""Fuzzing every JSON input of the command line with Hypothesis: never a traceback.

``pawnlight rules moves`` and ``rules score`` read JSON on standard input; ``games import``,
``show`` and ``replay`` read record files (JSON Lines).  Whatever they are given, they answer
(exit 0) or refuse with exit 2 and one line on standard error; no exception escapes.  The
commands run in this process (through ``pawnlight.cli.main``) so the examples stay fast.
"""

from __future__ import annotations

import io
import json
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pawnlight.cli import main

FUZZ = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

LOCATIONS = ["start", "home", "T0", "T7", "T59", "S1", "S5", "t7", "T60", "S0", " T7", "HOME"]
leaves = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=12)
    | st.sampled_from(["red", "blue", "7", "sorry", "11", "hasbro-2002", "parker-1950", *LOCATIONS])
)
json_values = st.recursive(
    leaves,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=16,
)
colours = st.sampled_from(["red", "blue", "yellow", "green", "Red", "purple"])
pawns = st.dictionaries(colours, st.lists(st.sampled_from(LOCATIONS), max_size=5), max_size=4)
fields = {
    "edition": st.sampled_from(["hasbro-2002", "parker-1950", "parker-1934", "x"]) | json_values,
    "pawns": pawns | json_values,
    "player": colours | json_values,
    "card": st.sampled_from(["1", "2", "4", "7", "10", "11", "sorry", "6"]) | json_values,
    "teams": st.booleans() | json_values,
    "house_rules": st.lists(st.text(max_size=12), max_size=3) | json_values,
    "doubled": st.integers(min_value=-5, max_value=10**12) | json_values,
    "extra": json_values,
}
requests = st.fixed_dictionaries({}, optional=fields)
inputs = (
    requests.map(lambda r: json.dumps(r).encode())
    | json_values.map(lambda v: json.dumps(v).encode())
    | st.binary(max_size=100)
    | st.integers(min_value=30, max_value=50000).map(lambda n: b"[" * n + b"]" * n)
    | st.sampled_from([b'{"card": "7", "card": "8"}', b"NaN", b"", b"1" * 5000])
)


def run(argv: list[str], stdin: bytes = b"") -> tuple[int, str]:
    """``main(argv)`` with this standard input; (exit code, standard error)."""
    old = sys.stdin, sys.stdout, sys.stderr
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    sys.stdout, sys.stderr = io.StringIO(), io.StringIO()
    try:
        try:
            code = main(argv)
        except SystemExit as exit:
            code = exit.code if isinstance(exit.code, int) else 2
        return code, sys.stderr.getvalue()
    finally:
        sys.stdin, sys.stdout, sys.stderr = old


@pytest.mark.parametrize("question", ["moves", "score"])
@FUZZ
@given(stdin=inputs)
def test_rules_questions_answer_or_refuse_in_one_line(question, stdin):
    code, err = run(["rules", question], stdin)
    assert code in (0, 2), err
    if code == 2:
        assert err.startswith("error: ") and err.count("\n") == 1, err


HEADER = {
    "format": "pawnlight-record",
    "version": 1,
    "edition": "parker-1950",
    "variant": "standard",
    "players": ["red", "blue"],
    "teams": False,
    "extra_one": False,
    "started": "2026-01-01T00:00:00+00:00",
}
events = st.fixed_dictionaries(
    {"n": st.integers(1, 3)},
    optional={
        "event": st.sampled_from(["draw", "move", "forfeit", "undo"]) | json_values,
        "card": st.sampled_from(["1", "7"]) | json_values,
        "move": st.sampled_from(["R:start-T4", "T4-T11"]) | json_values,
        "colour": colours | json_values,
    },
)
lines = (
    st.fixed_dictionaries(
        {k: st.just(v) for k, v in HEADER.items()}, optional={"meta": json_values}
    ).map(json.dumps)
    | events.map(json.dumps)
    | json_values.map(json.dumps)
    | st.text(max_size=40)
    | st.integers(30, 40000).map(
        lambda n: json.dumps(HEADER)[:-1] + ', "meta": ' + "[" * n + "]" * n + "}"
    )
)
records = st.lists(lines, min_size=0, max_size=4).map(lambda ls: "\n".join(ls).encode())


@FUZZ
@given(record=records, action=st.sampled_from(["show", "replay", "import"]))
def test_games_read_any_record_file_without_a_traceback(record, action):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.jsonl"
        path.write_bytes(record)
        argv = ["games", action, str(path)]
        if action == "import":
            argv += ["--data", str(Path(folder) / "data")]
        code, err = run(argv)
    assert code in (0, 1, 2), err
    assert "Traceback" not in err


@pytest.fixture(scope="module")
def journal_folder(tmp_path_factory):
    from pawnlight.rules.game import GameConfig
    from pawnlight.store.journal import Journal

    folder = tmp_path_factory.mktemp("data")
    with Journal.open(folder / "journal.sqlite3") as journal:
        journal.new_game(GameConfig())
    return str(folder)


@FUZZ
@given(
    game=st.integers(min_value=-(10**30), max_value=10**30).map(str),
    action=st.sampled_from(["show", "replay", "export", "story"]),
)
def test_any_game_id_is_answered_or_refused(journal_folder, game, action):
    code, err = run(["games", action, game, "--data", journal_folder])
    assert code in (0, 1, 2) and "Traceback" not in err

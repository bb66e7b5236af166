"""`pawnlight rules moves|score`, exactly as docs/coordinates.md fixes them."""

import json
import subprocess
import sys

import pytest

EXAMPLE = {
    "edition": "hasbro-2002",
    "pawns": {"red": ["start", "T7", "S2", "home"], "blue": ["T30", "start", "start", "start"]},
    "player": "red",
    "card": "7",
    "teams": False,
}


def run(question: str, stdin: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pawnlight.cli", "rules", question],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_moves_answers_the_documented_example():
    answer = run("moves", json.dumps(EXAMPLE))
    assert answer.returncode == 0, answer.stderr
    result = json.loads(answer.stdout)
    assert set(result) >= {"moves", "forfeit", "again"}
    assert result["forfeit"] is False and result["again"] is False
    first = result["moves"][0]
    assert first["text"] == "T7-T14"
    assert sorted(first["pawns"]["red"]) == sorted(["start", "T14", "S2", "home"])
    assert sorted(first["pawns"]["blue"]) == sorted(["T30", "start", "start", "start"])
    positions = {json.dumps({k: sorted(v) for k, v in m["pawns"].items()}) for m in result["moves"]}
    assert len(positions) == 5  # the whole 7, and four splits with the pawn in S2


def test_empty_moves_mean_forfeit_and_a_2_means_again():
    request = dict(EXAMPLE, pawns={"red": ["home"] * 4, "blue": ["T30"] + ["start"] * 3}, card="2")
    result = json.loads(run("moves", json.dumps(request)).stdout)
    assert result == {"moves": [], "forfeit": True, "again": True}


def test_teams_flag():
    request = {
        "edition": "parker-1950",
        "pawns": {
            "red": ["start"] * 4,
            "yellow": ["T20", "start", "start", "start"],
            "blue": ["S1", "start", "start", "start"],
            "green": ["S1", "start", "start", "start"],
        },
        "player": "red",
        "card": "5",
        "teams": True,
    }
    result = json.loads(run("moves", json.dumps(request)).stdout)
    assert [m["text"] for m in result["moves"]] == ["T20-T25"]


BAD = [
    ("{not json", "malformed JSON"),
    ("[1, 2]", "one JSON object"),
    (json.dumps(dict(EXAMPLE, edition="parker-1900")), "unknown edition"),
    (json.dumps(dict(EXAMPLE, player="purple")), "unknown colour"),
    (json.dumps(dict(EXAMPLE, card="6")), "unknown card"),
    (json.dumps(dict(EXAMPLE, pawns={"red": ["T7", "T7", "start", "start"]})), "two pawns on T7"),
    (json.dumps(dict(EXAMPLE, pawns={"red": ["T7", "start"]})), "4 pawns"),
    (
        json.dumps(dict(EXAMPLE, pawns={"red": ["T61", "start", "start", "start"]})),
        "unknown location",
    ),
    (
        json.dumps(
            dict(
                EXAMPLE,
                pawns={
                    "red": ["T7", "start", "start", "start"],
                    "blue": ["T7", "start", "start", "start"],
                },
            )
        ),
        "two pawns on T7",
    ),
    (json.dumps(dict(EXAMPLE, player="green")), "has no pawns"),
    (json.dumps({k: v for k, v in EXAMPLE.items() if k != "card"}), "missing field 'card'"),
    (json.dumps(dict(EXAMPLE, teams="yes")), "teams must be"),
    # Strict: the documented exact spellings and types, no other fields, no key twice.
    (json.dumps(dict(EXAMPLE, card=7)), "card must be a string"),
    (
        json.dumps(dict(EXAMPLE, pawns={"red": ["start", "t7", "S2", "home"]})),
        "pawns.red: unknown location 't7' (write 'T7')",
    ),
    (json.dumps(dict(EXAMPLE, pawns={"Red": ["start", "T7", "S2", "home"]})), "unknown colour"),
    (json.dumps(dict(EXAMPLE, extra=1)), "unknown field 'extra'"),
    (json.dumps(EXAMPLE)[:-1] + ', "card": "8"}', "the key 'card' appears twice"),
    (json.dumps(dict(EXAMPLE, house_rules="diamond-lock")), "house_rules must be a list"),
    (json.dumps(dict(EXAMPLE, edition=7)), "edition must be a string"),
    ("[" * 30000 + "]" * 30000, "nested too deeply"),
    (json.dumps(dict(EXAMPLE, pawns={"red": [[[[]]]]})), "must be a list of location names"),
    ("NaN", "NaN is not a JSON number"),
]


@pytest.mark.parametrize(("stdin", "problem"), BAD)
def test_bad_input_exits_2_with_one_line_naming_the_problem(stdin, problem):
    answer = run("moves", stdin)
    assert answer.returncode == 2
    assert answer.stdout == ""
    lines = answer.stderr.strip().splitlines()
    assert len(lines) == 1 and problem in lines[0]


def test_score_answers_a_point_game():
    request = {
        "edition": "parker-1950",
        "pawns": {"red": ["home"] * 4, "blue": ["home", "home", "T3", "start"]},
        "doubled": 0,
    }
    answer = run("score", json.dumps(request))
    assert answer.returncode == 0, answer.stderr
    assert json.loads(answer.stdout) == {"winner": "red", "scores": {"red": 55, "blue": 10}}
    doubled = json.loads(run("score", json.dumps(dict(request, doubled=2))).stdout)
    assert doubled["scores"] == {"red": 220, "blue": 40}


@pytest.mark.parametrize(
    ("request_", "problem"),
    [
        ({"edition": "parker-1950", "pawns": {"red": ["T1"] + ["home"] * 3}}, "not over"),
        ({"edition": "parker-1950", "pawns": {"red": ["home"] * 4}, "doubled": -1}, "doubled"),
        ({"edition": "parker-1950", "pawns": {"red": ["home"] * 4}, "doubled": 1.5}, "doubled"),
        ({"pawns": {"red": ["home"] * 4}}, "missing field 'edition'"),
        # A huge count of doublings is refused before any arithmetic (2**1e10 would run for
        # minutes and take gigabytes).
        ({"edition": "parker-1950", "pawns": {"red": ["home"] * 4}, "doubled": 10**10}, "0 to 30"),
        ({"edition": "parker-1950", "pawns": {"red": ["home"] * 4}, "doubled": 1e10}, "doubled"),
        (
            {"edition": "parker-1950", "pawns": {"red": ["home"] * 4}, "player": "red"},
            "unknown field",
        ),
    ],
)
def test_score_bad_input(request_, problem):
    answer = run("score", json.dumps(request_))
    assert answer.returncode == 2 and answer.stdout == "" and problem in answer.stderr


def test_score_refuses_doubling_in_hasbro_2002_whose_book_has_none():
    """The classic books print "DOUBLING: The Final Score in a doubled game is doubled."  The
    Hasbro book (001) prints its point play without it: "SCORING: All players score 5 points for
    each pawn on HOME. The WINNER also scores as follows: 5 points for each opponent's pawn *not*
    in its HOME ..." and no word of doubling.  The game refuses a double there, and so does the
    score (issue #34: it doubled anyway); 0 doublings is the plain score."""
    pawns = {"red": ["home"] * 4, "blue": ["home", "T3", "start", "start"]}
    request = {"edition": "hasbro-2002", "pawns": pawns}
    plain = run("score", json.dumps(dict(request, doubled=0)))
    assert plain.returncode == 0, plain.stderr
    # Red: 20 for its four home, 15 for blue's three not home, 50 as blue has only one home.
    assert json.loads(plain.stdout) == {"winner": "red", "scores": {"red": 85, "blue": 5}}
    answer = run("score", json.dumps(dict(request, doubled=1)))
    assert answer.returncode == 2 and answer.stdout == ""
    lines = answer.stderr.strip().splitlines()
    assert len(lines) == 1 and "hasbro-2002 has no doubling" in lines[0]


def test_a_house_rules_list_is_accepted_in_the_schema():
    answer = run("moves", json.dumps(dict(EXAMPLE, house_rules=[])))
    assert answer.returncode == 0, answer.stderr


def test_a_reader_that_goes_away_ends_the_command_quietly():
    """``pawnlight rules moves | head -c 10``: a broken pipe is no traceback."""
    process = subprocess.Popen(
        [sys.executable, "-m", "pawnlight.cli", "rules", "moves"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None
    process.stdout.close()  # the reader is gone before the answer is written
    _, err = process.communicate(json.dumps(EXAMPLE).encode(), timeout=60)
    assert b"Traceback" not in err and err == b""
    assert process.returncode == 1

"""Reading JSON from outside strictly (pawnlight.strict_json)."""

from __future__ import annotations

import pytest

from pawnlight import strict_json


def test_ordinary_json_reads_as_json():
    assert strict_json.loads(b'{"a": [1, {"b": "x]"}], "c": "{{"}') == {
        "a": [1, {"b": "x]"}],
        "c": "{{",
    }


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[" * 33 + "]" * 33, "nested too deeply"),
        ("[" * 100000, "nested too deeply"),
        ('{"a": 1, "a": 2}', "the key 'a' appears twice"),
        ("NaN", "NaN is not a JSON number"),
        ("[Infinity]", "Infinity is not a JSON number"),
        ("{", "malformed JSON"),
        (b"\xff", "not UTF-8"),
        ("1" * 5000, "Exceeds the limit"),
    ],
)
def test_what_is_refused_is_named(text, problem):
    with pytest.raises(ValueError, match=problem):
        strict_json.loads(text)


def test_brackets_inside_strings_do_not_count_as_nesting():
    text = '["' + "[" * 100 + '\\"' + "{" * 100 + '"]'
    assert strict_json.depth(text) == 1
    assert strict_json.loads(text)[0].startswith("[[")


def test_a_size_limit():
    with pytest.raises(ValueError, match="too large"):
        strict_json.loads("[" + "1," * 100 + "1]", max_bytes=50)

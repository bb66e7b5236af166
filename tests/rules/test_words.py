"""Places and moves in board words, as a person at the table says them."""

from __future__ import annotations

import re

from pawnlight.rules import Position
from pawnlight.rules.board import HOME, S1, S5, START, TRACK_SQUARES
from pawnlight.rules.notation import parse_move
from pawnlight.rules.words import move_words, no_move_reason, ordinal, place_words

CODE = re.compile(r"\b[TS]\d+\b")


def test_landmarks_are_named_after_their_colour():
    assert place_words(4, 0) == "red's start circle"
    assert place_words(19, 0) == "blue's start circle"  # the pawn's colour does not rename it
    assert place_words(1, 2) == "the triangle of red's short slide"
    assert place_words(24, 1) == "the triangle of blue's long slide"
    assert place_words(28, 1) == "the end of blue's long slide"
    assert place_words(29, 1) == "the 1st square after blue's long slide"
    assert place_words(30, 1) == "the 2nd square after blue's long slide"
    assert place_words(7, 0) == "the 3rd square after red's start circle"
    assert place_words(S1 + 1, 2) == "yellow's 2nd safety square"
    assert place_words(START, 3) == "green START" and place_words(HOME, 0) == "red HOME"
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st"
    ]  # fmt: skip


def test_every_place_has_its_own_name_and_no_square_code():
    for colour in range(4):
        names = [place_words(p, colour) for p in [*range(TRACK_SQUARES), *range(S1, S5 + 1)]]
        assert len(set(names)) == len(names)
        assert not any(CODE.search(name) for name in names)


def test_moves_say_who_goes_back_to_start():
    position = Position.from_json(
        {"red": ["T19", "start", "start", "start"], "blue": ["T26", "start", "start", "start"]}
    )
    move = parse_move("T19-T24>T28", position, False)
    said = move_words(move)
    assert said == (
        "the red pawn on blue's start circle goes to the triangle of blue's long slide and "
        "slides to the end of blue's long slide (blue back to START)"
    )
    switch = parse_move("T19<>T26", position, False)
    assert "switches places with the blue pawn on" in move_words(switch)
    assert not CODE.search(said)


def test_a_forfeit_says_why():
    assert no_move_reason("5") == "no pawn can go forward 5"
    assert no_move_reason("4") == "no pawn can go backward 4"
    assert "START" in no_move_reason("sorry")
    assert {no_move_reason(c) for c in ("1", "2", "3", "7", "10", "11", "12")} >= {
        "no pawn can go forward 3"
    }


def test_two_pawns_of_one_colour_sent_back_are_said_once():
    """Issue #47, 7: a slide sweeping two red pawns said "(red and red back to START)"."""
    position = Position.from_json(
        {"red": ["T25", "T26", "start", "start"], "yellow": ["T19", "start", "start", "start"]}
    )
    move = parse_move("T19-T24>T28", position, False)
    assert move_words(move).endswith("(2 red pawns back to START)"), move_words(move)

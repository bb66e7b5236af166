"""The move notation: what people read, and what the parser reads back."""

import pytest

from pawnlight.rules import NotationError, move_text, parse_move

from .helpers import options, pos

POSITION = pos(red="start T7 S2 T58", blue="T30 T1 start start", yellow="T20 start start start")


@pytest.mark.parametrize(
    ("card", "written"),
    [
        ("1", "R:start-T4"),
        ("5", "T7-T12"),
        ("4", "R:S2-T0"),
        ("3", "R:S2-S5"),
        ("11", "T7<>T30"),
        ("12", "T7-T19"),
        ("sorry", "R:start-T30"),
        ("7", "T7-T10,R:S2-home"),
    ],
)
def test_texts_read_as_documented(card, written):
    assert written in {move_text(m) for m in options(POSITION, "red", card).moves}


def test_slides_show_their_end():
    assert "T58-T1>T4" not in {move_text(m) for m in options(POSITION, "red", "3").moves}
    blue = {move_text(m) for m in options(POSITION, "blue", "3").moves}
    assert "T30-T33" in blue
    # Red T58 + 3 reaches its own entry route (T59, T0, T1): T1 is red's own triangle, no slide.
    assert "T58-T1" in {
        move_text(m) for m in options(pos(red="T58 start start start"), "red", "3").moves
    }
    assert "T58-T1>T4" in {
        move_text(m) for m in options(pos(blue="T58 start start start"), "blue", "3").moves
    }


@pytest.mark.parametrize(
    ("written", "problem"),
    [
        ("", "empty"),
        ("T7", "expected FROM-TO"),
        ("T8-T9", "no pawn on T8"),
        ("start-T4", "name the colour"),
        ("X:start-T4", "unknown colour"),
        ("B:T7-T9", "not that colour"),
        ("T7-T99", "unknown location"),
        ("T7-T40", "no pawn can make that move"),
        ("T7-T12>T14", "no slide"),
        ("T7<>T8", "switch exchanges two pawns"),
        ("G:start-T50", "no such pawn"),
    ],
)
def test_parse_errors_say_what_is_wrong(written, problem):
    with pytest.raises(NotationError, match=problem):
        parse_move(written, POSITION)


def test_lower_case_initials_are_accepted():
    assert move_text(parse_move("r:start-T4", POSITION)) == "R:start-T4"

"""The slides."""

import pytest

from pawnlight.rules.moves import StepKind

from .helpers import ALL_EDITIONS, options, pos, texts

editions = pytest.mark.parametrize("edition", ALL_EDITIONS, ids=lambda e: e.name)


@editions
def test_ending_on_another_colours_triangle_slides_and_sweeps_every_pawn_even_own(edition):
    """If, as a result of any move whatsoever, a player's man ends its move on any of the colored
    triangles at the start of a slide, other than a slide of its own color, it must slide along the
    channel to the colored circle at the other end and remove EVERY man ON the Slide (even a man of
    its OWN color)."""
    position = pos(
        blue="T58 T2 start start", red="T3 start start start", yellow="T4 start start start"
    )
    (move,) = [m for m in options(position, "blue", "3", edition).moves if m.steps[0].origin == 58]
    assert move.steps[0].target == 1 and move.steps[0].final == 4
    assert sorted(move.bumped) == [(0, 3), (1, 2), (2, 4)]
    after = move.after.to_json()
    assert sorted(after["blue"]) == sorted(["T4", "start", "start", "start"])
    assert after["red"] == ["start"] * 4 and after["yellow"] == ["start"] * 4


@editions
def test_a_pawn_does_not_slide_on_its_own_colour(edition):
    """Note very carefully that a man does not slide when it ends its move on a triangle of its own
    color."""
    position = pos(red="T6 start start start", blue="T10 start start start")
    (move,) = options(position, "red", "3", edition).moves
    assert move.steps[0].final == 9 and move.steps[0].slide is None
    assert move.after.to_json()["blue"] == ["T10", "start", "start", "start"]


@editions
def test_passing_over_a_triangle_does_not_slide(edition):
    """Hasbro: "any time you land by exact count on the triangle at the beginning of a SLIDE"."""
    assert texts(pos(blue="T58 start start start"), "blue", "5", edition) == {"T58-T3"}


@editions
def test_a_backward_move_onto_a_triangle_slides_too(edition):
    """ "as a result of any move whatsoever" / Hasbro: "Regardless of which card sent you there"."""
    assert texts(pos(red="T17 home home home"), "red", "10", edition) == {"T17-T27", "T17-T16>T19"}


@editions
def test_a_sorry_onto_a_triangle_slides(edition):
    """If, as a result of any move whatsoever, a player's man ends its move on any of the 6
    colored triangles ... it must slide."""
    position = pos(red="start home home home", green="T16 start start start")
    (move,) = options(position, "red", "sorry", edition).moves
    assert move.steps[0].final == 19
    assert move.after.to_json()["green"] == ["start"] * 4


@editions
def test_a_switch_onto_a_triangle_slides_and_the_switched_pawn_does_not(edition):
    """Hasbro: "If your switch landed you on a triangle at the beginning of another player's slide,
    slide to the end!"  The opponent's pawn, which made no move, stays where it is put."""
    position = pos(red="T40 start start start", blue="T31 start start start")
    switch = next(
        m
        for m in options(position, "red", "11", edition).moves
        if m.steps[0].kind == StepKind.SWITCH
    )
    assert switch.steps[0].final == 34
    assert switch.after.to_json() == {
        "red": ["T34", "start", "start", "start"],
        "blue": ["T40", "start", "start", "start"],
    }
    # Switched onto a square inside the slide it sweeps: the opponent now there goes to start.
    position = pos(red="T32 start start start", blue="T31 start start start")
    switch = next(
        m
        for m in options(position, "red", "11", edition).moves
        if m.steps[0].kind == StepKind.SWITCH
    )
    assert switch.bumped == ((1, 32),)
    assert switch.after.to_json()["blue"] == ["start"] * 4


@editions
def test_the_slide_sweeps_an_own_pawn_standing_on_the_triangle(edition):
    """Rule C's "never compelled to return his own men to start except by sliding": ending on the
    triangle where one's own pawn stands slides on and sweeps it (docs/rules.md)."""
    position = pos(blue="T58 T1 start start")
    move = next(m for m in options(position, "blue", "3", edition).moves if m.steps[0].origin == 58)
    assert move.steps[0].final == 4
    assert move.bumped == ((1, 1),)

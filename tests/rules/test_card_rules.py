"""The cards, as printed on them and in each book's "Amplified Card Rules"."""

import pytest

from pawnlight.rules import move_text
from pawnlight.rules.moves import StepKind

from .helpers import ALL_EDITIONS, HASBRO, PARKER, key, options, pos, results, texts

editions = pytest.mark.parametrize("edition", ALL_EDITIONS, ids=lambda e: e.name)


@editions
@pytest.mark.parametrize("card", ["3", "5", "8", "12"])
def test_3_5_8_12_move_forward_that_many(edition, card):
    """A player drawing a 3, 5, 8, or 12 card moves forward the corresponding number of spaces,
    provided he has a man in play. If he cannot move the full number of spaces called for by the
    card, he forfeits his move."""
    assert texts(pos(red="T20 start start start"), "red", card, edition) == {
        f"T20-T{20 + int(card)}"
    }
    result = options(pos(red="start start start start"), "red", card, edition)
    assert result.moves == [] and result.forfeit


@editions
@pytest.mark.parametrize("card", ["1", "2"])
def test_1_and_2_start_a_pawn_or_move_forward(edition, card):
    """The 1. A player must either start a man out or move one man, which is already in play,
    forward one square. (The 2: two squares.)  NOTE CAREFULLY that in playing either a No. 1 or
    No. 2 card to start a man out the player merely places his man on the colored circle in front
    of his start, but the player does not in addition move his man forward on that play."""
    position = pos(red="T20 start start start")
    assert texts(position, "red", card, edition) == {"R:start-T4", f"T20-T{20 + int(card)}"}


@editions
def test_only_1_2_and_sorry_bring_pawns_out(edition):
    """The No. 1 and the No. 2 and the SORRY are the ONLY cards by which men can be brought out of
    the start into play."""
    position = pos(red="start start start start", blue="T30 start start start")
    for card in ("3", "4", "5", "7", "8", "10", "11", "12"):
        assert options(position, "red", card, edition).moves == []
    assert texts(position, "red", "sorry", edition) == {"R:start-T30"}


@editions
def test_starting_out_onto_an_own_pawn_is_impossible_and_an_opponent_is_bumped(edition):
    """Hasbro: "You may not have two pawns on an entry circle at the same time. If another player's
    pawn is on your entry circle, BUMP it back to its own START." (rules A and B in the classic)"""
    assert texts(pos(red="T4 start start start"), "red", "1", edition) == {"T4-T5"}
    (start_out,) = options(
        pos(red="start start start start", blue="T4 start start start"), "red", "1", edition
    ).moves
    assert start_out.bumped == ((1, 4),)


@editions
def test_the_2_always_gives_another_draw(edition):
    """The 2 ... The play for the "2" must be made before the extra draw is taken.  Hasbro:
    "Whichever you do—or even if you couldn't move—DRAW AGAIN"."""
    assert options(pos(red="T4 start start start"), "red", "2", edition).again
    blocked = options(pos(red="home home home home"), "red", "2", edition)
    assert blocked.moves == [] and blocked.again
    assert not options(pos(red="T4 start start start"), "red", "1", edition).again


@editions
def test_the_4_moves_backward_even_out_of_safety(edition):
    """The 4. A player who has a man in the safety zone and draws a "4" must move that man backward
    4 spaces if he has no other man in play."""
    assert texts(pos(red="S3 start start start"), "red", "4", edition) == {"R:S3-T1"}
    assert texts(pos(red="T0 start start start"), "red", "4", edition) == {"T0-T56"}


@editions
def test_the_7_whole_or_split_between_two_pawns(edition):
    """The 7. ... Providing the full 7 squares are moved, a split "7" may be used to move 2 men into
    home, return 2 opponents' men to start, use 2 slides, or a combination of any of the above."""
    position = pos(red="T20 T40 start start")
    moves = texts(position, "red", "7", edition)
    assert {"T20-T27", "T40-T47"} <= moves
    for first in range(1, 7):
        assert any(f"T20-T{20 + first}" in m and f"T40-T{40 + 7 - first}" in m for m in moves)
    assert len(results(position, "red", "7", edition)) == 2 + 6


@editions
def test_a_split_7_can_take_two_pawns_home(edition):
    position = pos(red="S1 S4 start start")
    assert key(pos(red="home home start start")) in results(position, "red", "7", edition)


@editions
def test_a_split_7_can_bump_two_opponents_and_use_two_slides(edition):
    position = pos(
        red="T10 T20 start start", blue="T13 start start start", yellow="T30 start start start"
    )
    # 3 to T13 (bumping blue), 4 ... T20+4=T24, blue's triangle: slides to T28.
    wanted = pos(
        red="T13 T28 start start", blue="start start start start", yellow="T30 start start start"
    )
    assert key(wanted) in results(position, "red", "7", edition)
    # T19+5 = T24, blue's long triangle: slide to T28; then T14+2 = T16, blue's short one: to T19.
    position = pos(red="T14 T19 start start", blue="T17 T25 start start")
    two_slides = [m for m in options(position, "red", "7", edition).moves if len(m.slides) == 2]
    assert [move_text(m) for m in two_slides] == ["T19-T24>T28,T14-T16>T19"]
    assert two_slides[0].after == pos(red="T19 T28 start start", blue="start start start start")


@editions
def test_a_7_home_needs_another_pawn_for_the_balance(edition):
    """The 7. A player may move a man home with a split "7", provided he has another man in play
    to complete the full move of 7 squares in all.  Hasbro: "If you use part of the 7 to get a pawn
    HOME, you must be able to use the balance of the move for another pawn." """
    assert options(pos(red="S3 start start start"), "red", "7", edition).moves == []
    assert texts(pos(red="S3 S5 start start"), "red", "7", edition) == set()
    with_balance = results(pos(red="S3 T40 start start"), "red", "7", edition)
    assert key(pos(red="home T44 start start")) in with_balance


@editions
def test_the_7_never_starts_a_pawn_nor_moves_backward(edition):
    """A "7" must not be used to start a man out and must not be used to move a piece backward."""
    position = pos(red="T20 start start start")
    for move in options(position, "red", "7", edition).moves:
        for step in move.steps:
            assert step.kind == StepKind.FORWARD
    assert texts(position, "red", "7", edition) == {"T20-T27"}


@editions
def test_the_second_part_of_a_split_sees_the_first(edition):
    """Parts are played in order: the first part's slide sweeps a pawn the second could move."""
    position = pos(blue="T58 T2 start start")
    moves = options(position, "blue", "7", edition).moves
    # T58+3 -> T1 slides to T4 and sweeps blue's own T2: no second part of 4 can follow for it.
    for move in moves:
        if len(move.steps) == 2 and move.steps[0].origin == 58 and move.steps[0].slide:
            raise AssertionError(f"{move_text(move)}: the swept pawn cannot move afterwards")
    # But T2 first, then T58 onto the slide is fine.
    assert any(
        len(m.steps) == 2 and m.steps[0].origin == 2 and m.steps[1].slide is not None for m in moves
    )


@editions
def test_the_10_forward_10_or_backward_1_even_in_safety(edition):
    """The 10. A player drawing a "10" and being unable, or not wishing, to move a man forward 10
    spaces must move a man backward 1 space even if that man is in the safety zone."""
    position = pos(red="T20 S3 start start")
    assert texts(position, "red", "10", edition) == {"T20-T30", "T20-T19", "R:S3-S2"}
    assert not options(position, "red", "10", edition).forfeit


@editions
def test_the_11_forward_or_switch_and_declining_only_when_it_cannot_go_forward(edition):
    """The 11. A player drawing an "11" forfeits the move if it is impossible for him to move one of
    his men forward 11 spaces and if he does not wish to change places with any margin man of any
    opponent."""
    position = pos(red="T21 start start start", blue="T40 S1 start start")
    result = options(position, "red", "11", edition)
    assert {move_text(m) for m in result.moves} == {"T21-T32", "T21<>T40"}
    assert not result.forfeit
    # The only forward 11 is blocked (it would overshoot home): switching is optional.
    position = pos(red="S1 T0 start start", blue="T40 start start start")
    result = options(position, "red", "11", edition)
    assert {move_text(m) for m in result.moves} == {"T0<>T40"}
    assert result.forfeit


@editions
def test_the_11_switches_only_on_the_track(edition):
    """Hasbro: "You may only use 11 for pawns in play on the open track—not at START, HOME or in a
    SAFETY ZONE."  Classic: "change places with any margin man of any opponent"."""
    position = pos(red="S1 start start start", blue="T40 S2 start start")
    assert options(position, "red", "11", edition).moves == []
    switches = [
        m
        for m in options(
            pos(red="T5 start start start", blue="S2 T9 home start"), "red", "11", edition
        ).moves
        if m.steps[0].kind == StepKind.SWITCH
    ]
    assert [move_text(m) for m in switches] == ["T5<>T9"]


@editions
def test_sorry_takes_an_opponents_place_from_start(edition):
    """Hasbro: "Take one pawn from your START, place it on any space that is occupied by any
    opponent, and BUMP that opponent's pawn back to its START. If there is no pawn on your START or
    no opponent's pawn on any space you can move to, you forfeit your move." """
    position = pos(
        red="start T10 start start", blue="T30 S2 start start", green="T50 home home home"
    )
    result = options(position, "red", "sorry", edition)
    assert {move_text(m) for m in result.moves} == {"R:start-T30", "R:start-T50"}
    for move in result.moves:
        assert len(move.bumped) == 1
    # No pawn in START, or nobody to pick on (pawns in safety are safe): forfeit.
    assert options(
        pos(red="T1 T10 home home", blue="T30 start start start"), "red", "sorry", edition
    ).forfeit
    assert options(
        pos(red="start start start start", blue="S1 home start start"), "red", "sorry", edition
    ).forfeit


def test_hasbro_and_classic_agree_on_the_standard_game():
    """Outside partnership and point play the books give the same moves (docs/rules.md)."""
    position = pos(red="T4 T3 S2 start", blue="T1 T18 start start", green="T2 T47 S5 home")
    for card in ("1", "2", "3", "4", "5", "7", "8", "10", "11", "12", "sorry"):
        for player in ("red", "blue", "green"):
            assert results(position, player, card, HASBRO) == results(
                position, player, card, PARKER
            )

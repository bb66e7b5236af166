"""Detailed rules A to I of the classic books (000, 002, 003), which the Hasbro book (001) shares.

Each test quotes the rule it checks; every test runs under all three editions unless the rule is
an edition's own.
"""

import pytest

from pawnlight.rules.moves import StepKind

from .helpers import ALL_EDITIONS, options, pos, texts

editions = pytest.mark.parametrize("edition", ALL_EDITIONS, ids=lambda e: e.name)


@editions
def test_rule_a_two_pawns_never_share_a_square(edition):
    """A. Under no circumstances whatsoever do two men occupy one square."""
    position = pos(red="T7 T10 start start", blue="T30 start start start")
    for card in ("1", "2", "3", "4", "5", "7", "8", "10", "11", "12", "sorry"):
        for move in options(position, "red", card, edition).moves:
            move.after.validate()  # raises on a shared square


@editions
def test_rule_b_landing_on_an_opponent_sends_it_to_start(edition):
    """B. If by any move whatsoever a man ends its move on a margin square occupied by an
    opponent's man, the opponent's man must be returned to its start."""
    position = pos(red="T7 start start start", blue="T12 start start start")
    (move,) = [m for m in options(position, "red", "5", edition).moves]
    assert move.after.to_json()["blue"] == ["start"] * 4
    assert move.bumped == ((1, 12),)


@editions
def test_rule_c_never_onto_ones_own_pawn(edition):
    """C. A player forfeits the move for any card drawn if the only move open to him would cause
    him to move onto a square already occupied by one of his own men."""
    position = pos(red="S1 S4 home home", blue="T30 start start start")
    result = options(position, "red", "3", edition)
    assert result.moves == [] and result.forfeit
    # With another pawn free to move, that one moves instead.
    position = pos(red="T7 T10 home home")
    assert texts(position, "red", "3", edition) == {"T10-T13"}


@editions
def test_rule_d_pawns_are_jumped_and_every_square_counts(edition):
    """D. A player may pass over his own men or those of any opponent, but every square on the
    board whether occupied or not must be counted."""
    position = pos(red="T5 T6 start start", blue="T7 start start start")
    assert "T5-T8" in texts(position, "red", "3", edition)


@editions
def test_rule_e_exact_count_home(edition):
    """E. The exact number must be drawn to move a man home."""
    position = pos(red="S4 start start start")
    assert texts(position, "red", "2", edition) == {"R:S4-home", "R:start-T4"}
    assert texts(position, "red", "3", edition) == set()


@editions
def test_rule_f_a_card_carrying_the_only_pawn_past_home_is_forfeited(edition):
    """F. A player forfeits the move if he draws a card which would carry the only man he has in
    play beyond his home."""
    result = options(pos(red="S5 start start start"), "red", "3", edition)
    assert result.moves == [] and result.forfeit


@editions
def test_rule_g_only_the_own_colour_enters_its_safety_zone(edition):
    """G. The safety zone leading to a player's home is entered only by a man of the same color,
    from (or through) the square marked "Enters To Go Home."  ... a player is never allowed to move
    his man forward beyond this entrance square except to enter his safety zone."""
    # Blue passes red's entry T2 and stays on the track.
    assert texts(pos(blue="T0 start start start"), "blue", "5", edition) == {"T0-T5"}
    # Red turns in at T2: from T0 a 5 ends on S3, never on T5.
    assert texts(pos(red="T0 start start start"), "red", "5", edition) == {"T0-S3"}
    # From the entry square itself.
    assert texts(pos(red="T2 start start start"), "red", "1", edition) == {
        "T2-S1",
        "R:start-T4",
    }


@editions
def test_rule_g_backward_out_of_safety_through_the_entry(edition):
    """G. If a man is compelled by the play of a 4 or 10 card to move backwards from his safety
    zone he may pass backwards to (or through) this entrance square in the reverse direction."""
    position = pos(red="S2 home home home")
    assert texts(position, "red", "4", edition) == {"R:S2-T0"}
    assert texts(position, "red", "10", edition) == {"R:S2-S1"}
    assert texts(pos(red="S1 home home home"), "red", "10", edition) == {"R:S1-T2"}


@editions
def test_rule_g_a_four_from_the_start_circle_reaches_safety_next_time(edition):
    """G. ... a player having a man on his starting circle immediately opposite his start and
    drawing a No. 4 card may move that man four spaces backwards, thus placing it in a position to
    enter its safety zone by any subsequent forward move which would not carry it beyond its home.
    """
    (move,) = options(pos(red="T4 start start start"), "red", "4", edition).moves
    assert move.after.to_json()["red"][0] == "T0"
    assert texts(move.after, "red", "3", edition) == {"T0-S1"}
    assert texts(move.after, "red", "8", edition) == {"T0-home"}
    assert texts(move.after, "red", "12", edition) == set()


@editions
def test_rule_g_a_safety_zone_is_never_entered_backward(edition):
    """G. A safety zone may be entered only by a forward move."""
    # Red on T5 going back 4 passes its entry T2 and stays on the track.
    assert texts(pos(red="T5 home home home"), "red", "4", edition) == {"T5-T1"}


@editions
def test_rule_g_a_pawn_switched_past_its_entry_goes_round_again(edition):
    """G. (Note, however, that this rule has no application to the exchange of pieces by an
    opponent through the play of an 11 card.)"""
    # Blue's 11 puts red's pawn from T30 onto T3, past red's entry.
    position = pos(red="T30 start start start", blue="T3 start start start")
    switch = next(
        m
        for m in options(position, "blue", "11", edition).moves
        if m.steps[0].kind == StepKind.SWITCH
    )
    assert switch.after.to_json()["red"][0] == "T3"
    # Red's pawn now moves forward along the track, not into its safety zone.
    assert texts(switch.after, "red", "3", edition) == {"T3-T6"}


@editions
def test_rule_h_the_full_count_or_an_alternate_move_else_forfeit(edition):
    """H. A player must move one of his men the full number of squares for every card drawn, or
    make one of the alternate moves according to the rules. If it is impossible to do either,
    the move must be forfeited."""
    result = options(pos(red="start start start start"), "red", "5", edition)
    assert result.moves == [] and result.forfeit
    result = options(pos(red="S3 start start start"), "red", "10", edition)
    assert texts(pos(red="S3 start start start"), "red", "10", edition) == {"R:S3-S2"}
    assert not result.forfeit


@editions
def test_rule_i_a_pawn_home_never_moves_again(edition):
    """I. Once a man has been moved into home it is out of play and is not moved again."""
    position = pos(red="home home home start")
    for card in ("3", "4", "5", "7", "8", "10", "11", "12"):
        assert options(position, "red", card, edition).moves == []

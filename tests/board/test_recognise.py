"""Move recognition: what people really do at the table, on both kinds of board."""

from __future__ import annotations

import itertools
import random

import pytest

from pawnlight.board.guidance import Fix
from pawnlight.board.recognise import (
    Ambiguous,
    InProgress,
    Mismatch,
    Recognised,
    Recogniser,
    Takeback,
    Waiting,
)
from pawnlight.board.snapshot import expected_occupancy, reading_for
from pawnlight.rules import CARDS, legal_options, move_text

from .checks import acted_out_is_recognised
from .helpers import (
    ALL_EDITIONS,
    BLUE,
    COLOUR,
    HASBRO,
    LAYOUTS,
    PRESENCE,
    RED,
    layout_id,
    named,
    options,
    pos,
)
from .simulator import Table, act_out, run, timeline

#: Something for every card: a slide with three pawns on it (T22 + 2), pawns to bump, pawns to
#: switch with, a pawn in the safety zone, pawns in START.
RICH = pos(
    red="T22 T6 S2 start",
    blue="T25 T33 start start",
    yellow="T26 T40 start start",
    green="T27 T50 home start",
)
#: Partners red and yellow close to home and to each other's pawns, for team play.
TEAMS = pos(
    red="T56 T1 S4 start",
    yellow="T3 T47 start home",
    blue="T9 T20 start start",
    green="T11 T46 start start",
)
#: At most this many moves of one card are acted out (a Hasbro team 7 has hundreds).
MOVES_PER_CARD = 30


def quiet(decisions) -> bool:
    return all(isinstance(d, Waiting | InProgress) for d in decisions)


# -- every card, every edition, every legal move --------------------------------------------------


@pytest.mark.parametrize("layout", LAYOUTS, ids=layout_id)
@pytest.mark.parametrize("edition", ALL_EDITIONS, ids=lambda e: e.name)
@pytest.mark.parametrize("card", CARDS)
def test_every_legal_move_of_every_card_is_recognised(layout, edition, card):
    """Each legal move, acted out twice: once straight from square to square, once walked
    square by square with bumps, sweeps and parts in a random order."""
    for position, teams in ((RICH, False), (TEAMS, True)):
        moves = legal_options(position, RED, card, edition, teams).moves
        step = max(1, len(moves) // MOVES_PER_CARD)
        choices = legal_options(position, RED, card, edition, teams)
        for index, move in enumerate(moves[::step]):
            for walk in (0.0, 1.0):
                rng = random.Random(f"{edition.name} {card} {index} {walk}")
                acted_out_is_recognised(layout, position, choices, move, rng, walk=walk)


# -- walking, sliding, bumping --------------------------------------------------------------------


@pytest.mark.parametrize("layout", LAYOUTS, ids=layout_id)
def test_walking_a_pawn_square_by_square_while_counting(layout):
    position = pos(red="T10 start start start", blue="T40 start start start")
    table = Table(layout, position, options(position, "red", "5"))
    seen = [table.lift("T10")]
    for square in ("T11", "T12", "T13", "T14"):
        seen.append(table.put(square))
        seen.append(table.wait(0.8))  # counting aloud, longer than the settle time
        seen.append(table.lift(square))
    seen.append(table.put("T15"))
    assert quiet(seen)
    assert any(isinstance(d, InProgress) and not d.partial for d in seen)
    decision = table.settle()
    assert isinstance(decision, Recognised)
    assert decision.move is not None
    assert move_text(decision.move) == "T10-T15"


@pytest.mark.parametrize("layout", LAYOUTS, ids=layout_id)
@pytest.mark.parametrize("order", list(itertools.permutations(["T25", "T26", "T27"])))
@pytest.mark.parametrize("mover_first", [True, False], ids=["slide-first", "sweep-first"])
def test_a_slide_sweeping_three_pawns_returned_in_any_order(layout, order, mover_first):
    table = Table(layout, RICH, options(RICH, "red", "2"))
    home = {"T25": "blue START", "T26": "yellow START", "T27": "green START"}
    seen = []

    def slide():
        if mover_first:
            seen.append(table.walk(["T22", "T23", "T24", "T28"]))
        else:
            seen.append(table.walk(["T22", "T23", "T24", "T25", "T26", "T27", "T28"]))

    def sweep():
        for square in order:
            seen.append(table.lift(square))
            seen.append(table.put(home[square]))

    (slide, sweep)[0 if mover_first else 1]()
    (slide, sweep)[1 if mover_first else 0]()
    assert quiet(seen[:-1])
    decision = table.settle()
    assert isinstance(decision, Recognised)
    assert decision.move is not None
    assert move_text(decision.move) == "T22-T24>T28"


@pytest.mark.parametrize("layout", LAYOUTS, ids=layout_id)
@pytest.mark.parametrize("when", ["before", "after", "after-a-long-wait"])
def test_a_bumped_pawn_returned_before_or_after_the_move(layout, when):
    position = pos(red="T10 start start start", blue="T15 start start start")
    table = Table(layout, position, options(position, "red", "5"))
    seen = []
    if when == "before":
        seen += [table.lift("T15"), table.put("blue START"), table.wait(1.0)]
        seen += [table.move("T10", "T15")]
    else:
        seen += [table.lift("T15"), table.move("T10", "T15")]
        if when == "after-a-long-wait":
            seen.append(table.wait(1.0))  # the bumped pawn still in the hand
        seen.append(table.put("blue START", colour=1))
    assert quiet(seen)
    decision = table.settle()
    assert isinstance(decision, Recognised)
    assert decision.move is not None
    assert move_text(decision.move) == "T10-T15"


@pytest.mark.parametrize("layout", LAYOUTS, ids=layout_id)
def test_a_sorry_onto_one_of_two_pawns_of_a_colour_is_told_by_the_square_lifted(layout):
    """On a presence board both Sorry!s end alike (a pawn on T20 and T45, one more blue pawn in
    START); the square whose pawn was lifted says which it was."""
    position = pos(red="T30 start start start", blue="T20 T45 start start")
    table = Table(layout, position, options(position, "red", "sorry"))
    seen = [table.lift("T45"), table.put("blue START"), table.move("red START", "T45")]
    assert quiet(seen)
    decision = table.settle()
    assert isinstance(decision, Recognised)
    assert decision.move is not None
    assert move_text(decision.move) == "R:start-T45"


def test_a_sorry_is_ambiguous_on_a_presence_board_when_both_squares_were_lifted():
    position = pos(red="T30 start start start", blue="T20 T45 start start")
    table = Table(PRESENCE, position, options(position, "red", "sorry"))
    table.lift("T45")
    table.put("blue START")
    table.lift("T20")
    table.put("T20")  # lifted the other one too, and put it back
    table.move("red START", "T45")
    decision = table.settle()
    assert isinstance(decision, Ambiguous)
    assert {move_text(m) for m in decision.moves} == {"R:start-T20", "R:start-T45"}


def test_pawns_touched_while_the_board_was_still_at_the_position_do_not_count():
    position = pos(red="T30 start start start", blue="T20 T45 start start")
    table = Table(PRESENCE, position, options(position, "red", "sorry"))
    table.lift("T20")
    table.put("T20")  # back at the position: that was not part of the move
    table.wait(1.0)
    table.lift("T45")
    table.put("blue START")
    table.move("red START", "T45")
    decision = table.settle()
    assert isinstance(decision, Recognised)
    assert decision.move is not None
    assert move_text(decision.move) == "R:start-T45"


# -- switches -------------------------------------------------------------------------------------


def _switch(table: Table) -> list:
    return [
        table.lift("T6"),
        table.lift("T25"),
        table.put("T6", colour=1),
        table.put("T25", colour=0),
    ]


def test_an_11_switch_with_both_pawns_lifted_on_a_colour_board():
    table = Table(COLOUR, RICH, options(RICH, "red", "11"))
    assert quiet(_switch(table))
    decision = table.settle()
    assert isinstance(decision, Recognised)
    assert decision.move is not None
    assert move_text(decision.move) == "T6<>T25"


def test_a_switch_is_invisible_to_a_presence_board_so_the_companion_asks():
    table = Table(PRESENCE, RICH, options(RICH, "red", "11"))
    assert quiet(_switch(table))
    decision = table.settle()
    assert isinstance(decision, Ambiguous)
    assert decision.unchanged
    assert [move_text(m) for m in decision.moves] == ["T6<>T25"]


def test_lifting_one_pawn_and_putting_it_back_is_no_switch():
    table = Table(PRESENCE, RICH, options(RICH, "red", "11"))
    table.lift("T25")
    table.put("T25")
    assert isinstance(table.settle(), Waiting)
    assert isinstance(table.wait(5.0), Waiting)


# A partner's Sorry! from START onto a pawn of the very colour it moves changes nothing the
# board can see (found by tests/daemon/test_games.py, team game, colour board, under load).
TEAM_SORRY = pos(
    red="S1 start home home",
    blue="T56 S4 start home",
    yellow="start start start home",
    green="T19 start start start",
)


@pytest.mark.parametrize("layout", LAYOUTS, ids=layout_id)
@pytest.mark.parametrize("through_start", [True, False], ids=["through-start", "start-untouched"])
def test_a_sorry_onto_a_pawn_of_its_own_colour_is_asked_about(layout, through_start):
    """The bumped blue pawn goes to blue START and a blue pawn comes out of it: a hand quicker
    than the sensors (or one that skips the pointless swap) leaves START's count as it was, and
    only the lift of the pawn on T56 shows. That is enough to ask."""
    choices = options(TEAM_SORRY, "green", "sorry", teams=True)
    named(choices, "B:start-T56")
    table = Table(layout, TEAM_SORRY, choices)
    table.lift("T56")
    if through_start:
        table.put("blue START", colour=BLUE)
        table.lift("blue START", pause=0.01)  # within the flicker time: never seen
    table.put("T56", colour=BLUE)
    decision = table.settle()
    assert isinstance(decision, Ambiguous)
    assert decision.unchanged
    assert [move_text(m) for m in decision.moves] == ["B:start-T56"]


SLIDE_BACK = pos(
    red="start start start start",
    blue="start start start start",
    yellow="T21 T28 start start",
    green="T56 start start start",
)


@pytest.mark.parametrize("layout", LAYOUTS, ids=layout_id)
def test_a_move_that_slides_back_to_where_it_began_is_asked_about_after_a_quick_lift(layout):
    """A 4 back from T28 onto the triangle on T24 slides to T28 again: the board ends as it
    began, and the lift is the only trace. Lifted and put back quicker than the flicker time
    (two readings that arrive together on a loaded Pi) is still a lift of that pawn."""
    choices = options(SLIDE_BACK, "yellow", "4")
    named(choices, "T28-T24>T28")
    table = Table(layout, SLIDE_BACK, choices)
    table.lift("T21")
    table.put("T21", pause=0.01)  # a glimpse of the other pawn: no move of it ends where it began
    assert isinstance(table.settle(), Waiting)
    table.lift("T28")
    table.put("T28", pause=0.01)
    decision = table.settle()
    assert isinstance(decision, Ambiguous)
    assert decision.unchanged
    assert [move_text(m) for m in decision.moves] == ["T28-T24>T28"]


def test_touching_only_start_is_no_sorry_onto_a_pawn_of_its_own_colour():
    choices = options(TEAM_SORRY, "green", "sorry", teams=True)
    table = Table(COLOUR, TEAM_SORRY, choices)
    table.lift("blue START")
    table.put("blue START", colour=BLUE)
    assert isinstance(table.settle(), Waiting)


def test_a_switch_onto_a_triangle_slides_and_is_seen_by_a_presence_board():
    position = pos(
        red="T6 start start start", blue="T33 start start start", green="T46 T48 start start"
    )
    choices = options(position, "red", "11")
    move = named(choices, "T6<>T46>T49")
    table = Table(PRESENCE, position, choices)
    seen = [table.lift("T6"), table.lift("T46"), table.put("T6", colour=3)]
    seen += [table.put("T46", colour=0), table.lift("T46"), table.lift("T48")]
    seen += [table.put("green START", colour=3), table.put("T49", colour=0)]
    assert quiet(seen)
    decision = table.settle()
    assert isinstance(decision, Recognised)
    assert decision.move == move


# -- split sevens ---------------------------------------------------------------------------------


@pytest.mark.parametrize("layout", LAYOUTS, ids=layout_id)
@pytest.mark.parametrize("first", ["T10", "T30"])
def test_a_split_seven_in_either_order_with_a_long_pause_between(layout, first):
    position = pos(red="T10 T30 start start", blue="T50 start start start")
    table = Table(layout, position, options(position, "red", "7"))
    parts = {"T10": ("T10", "T13"), "T30": ("T30", "T34")}
    second = "T30" if first == "T10" else "T10"
    table.move(*parts[first])
    for _ in range(10):  # thinking about the second part for ten seconds
        decision = table.wait(1.0)
        assert isinstance(decision, InProgress), decision
        assert decision.partial
    table.move(*parts[second])
    decision = table.settle()
    assert isinstance(decision, Recognised)
    assert decision.move.after == pos(red="T13 T34 start start", blue="T50 start start start")


@pytest.mark.parametrize("layout", LAYOUTS, ids=layout_id)
def test_the_first_part_of_a_split_is_never_taken_for_a_move(layout):
    position = pos(red="T10 T30 start start", blue="T50 start start start")
    table = Table(layout, position, options(position, "red", "7"))
    table.move("T10", "T13")
    decision = table.wait(60.0)
    assert isinstance(decision, InProgress)
    # What is still to do: the other pawn's 4, or nothing else for this pawn.
    assert all(len(steps) == 1 and steps[0].origin == 30 for steps in decision.remaining)


@pytest.mark.parametrize("layout", LAYOUTS, ids=layout_id)
def test_a_five_part_team_seven_played_backwards_with_long_pauses(layout):
    """Hasbro partners may split a 7 between up to seven pawns; whatever the order of the parts,
    and however long the thinking between them, it is never a mismatch."""
    position = pos(
        red="T5 T20 T40 start",
        yellow="T10 T50 start start",
        blue="T30 start start start",
        green="T45 start start start",
    )
    choices = options(position, "red", "7", HASBRO, teams=True)
    move = named(choices, "T5-T6,T20-T21,T40-T41,T10-T11,T50-T53")
    table = Table(layout, position, choices)
    parts = [("T50", "T53"), ("T10", "T11"), ("T40", "T41"), ("T20", "T21"), ("T5", "T6")]
    for source, target in parts[:-1]:
        table.move(source, target)
        for _ in range(4):
            decision = table.wait(1.0)
            assert isinstance(decision, InProgress), decision
    assert isinstance(decision, InProgress)
    assert decision.partial
    table.move(*parts[-1])
    decision = table.settle()
    if isinstance(decision, Ambiguous):  # a presence board: partners' pawns look alike
        assert layout is PRESENCE and move.after in {m.after for m in decision.moves}
    else:
        assert isinstance(decision, Recognised) and decision.move.after == move.after


def test_partners_splitting_a_seven_are_ambiguous_on_a_presence_board_only():
    position = pos(
        red="T20 start start start",
        yellow="T22 start start start",
        blue="T10 start start start",
        green="T50 start start start",
    )
    choices = options(position, "red", "7", HASBRO, teams=True)
    red_three = next(
        m
        for m in choices.moves
        if {(s.colour, s.origin, s.final) for s in m.steps} == {(0, 20, 23), (2, 22, 26)}
    )
    red_six = next(
        m
        for m in choices.moves
        if {(s.colour, s.origin, s.final) for s in m.steps} == {(0, 20, 26), (2, 22, 23)}
    )
    for layout in LAYOUTS:
        table = Table(layout, position, choices)
        table.move("T22", "T26")
        table.move("T20", "T23")
        decision = table.settle()
        if layout is COLOUR:
            assert isinstance(decision, Recognised)
            assert decision.move.after == red_three.after
        else:
            assert isinstance(decision, Ambiguous)
            assert {m.after for m in decision.moves} == {red_three.after, red_six.after}


def test_moves_with_the_very_same_result_are_one_move_with_alternatives():
    position = pos(red="T42 T44 home home", yellow="home start start start")
    choices = options(position, "red", "7")
    table = Table(COLOUR, position, choices)
    table.move("T44", "T49")
    table.move("T42", "T44")
    decision = table.settle()
    assert isinstance(decision, Recognised)
    assert decision.move is not None
    assert move_text(decision.move) == "T42-T49"  # the simplest way to say it
    assert [move_text(m) for m in decision.alternatives] == ["T44-T49,T42-T44"]


# -- flicker, speed and timing --------------------------------------------------------------------


@pytest.mark.parametrize("layout", LAYOUTS, ids=layout_id)
def test_flicker_while_waiting_is_ignored(layout):
    position = pos(red="T10 start start start", blue="T40 start start start")
    table = Table(layout, position, options(position, "red", "1"))
    for square in ("T11", "T10", "red START", "T40", "T41"):
        assert isinstance(table.flicker(square, length=0.02), Waiting)
        assert isinstance(table.wait(0.5), Waiting)


@pytest.mark.parametrize("layout", LAYOUTS, ids=layout_id)
def test_a_flicker_that_looks_like_a_legal_move_is_never_accepted(layout):
    position = pos(red="T10 start start start", blue="T40 start start start")
    choices = options(position, "red", "1")
    recogniser = Recogniser(layout, position, choices)
    before = reading_for(layout, expected_occupancy(position, layout.sensing))
    after = reading_for(layout, expected_occupancy(named(choices, "T10-T11").after, layout.sensing))
    recogniser.feed(before, 0.0)
    for start in (1.0, 2.0, 3.0):
        assert isinstance(recogniser.feed(after, start), Waiting)
        assert isinstance(recogniser.feed(before, start + 0.03), Waiting)
        assert isinstance(recogniser.tick(start + 0.9), Waiting)


@pytest.mark.parametrize("layout", LAYOUTS, ids=layout_id)
def test_flicker_while_settling_does_not_delay_acceptance(layout):
    position = pos(red="T10 start start start", blue="T40 start start start")
    table = Table(layout, position, options(position, "red", "5"))
    table.move("T10", "T15")
    moved_at = table.now
    table.flicker("T40", length=0.01, pause=0.1)
    table.flicker("T15", length=0.01, pause=0.1)
    assert isinstance(table.recogniser.tick(moved_at + 0.29), Waiting)
    decision = table.recogniser.tick(moved_at + 0.301)
    assert isinstance(decision, Recognised)


@pytest.mark.parametrize("layout", LAYOUTS, ids=layout_id)
def test_nothing_is_accepted_before_the_settle_time(layout):
    position = pos(red="T10 start start start", blue="T40 start start start")
    table = Table(layout, position, options(position, "red", "5"), settle=0.5, patience=3.0)
    table.move("T10", "T15")
    assert isinstance(table.wait(0.49), Waiting)
    assert isinstance(table.wait(0.02), Recognised)


@pytest.mark.parametrize("layout", LAYOUTS, ids=layout_id)
def test_fast_hands_are_not_lost(layout):
    """Lifted and put down within 20 ms (or read that slowly): only the final board counts."""
    position = pos(red="T10 start start start", blue="T40 start start start")
    table = Table(layout, position, options(position, "red", "5"))
    table.lift("T10", pause=0.5)
    table.put("T15", pause=0.02)
    decision = table.settle()
    assert isinstance(decision, Recognised)


@pytest.mark.parametrize("layout", LAYOUTS, ids=layout_id)
def test_a_move_made_before_the_card_was_scanned_is_recognised(layout):
    position = pos(red="T10 start start start", blue="T40 start start start")
    choices = options(position, "red", "5")
    recogniser = Recogniser(layout, position, choices)
    board = expected_occupancy(named(choices, "T10-T15").after, layout.sensing)
    assert isinstance(recogniser.feed(reading_for(layout, board), 100.0), Waiting)
    assert isinstance(recogniser.tick(100.31), Recognised)


@pytest.mark.parametrize("layout", LAYOUTS, ids=layout_id)
def test_overshooting_while_counting_and_coming_back(layout):
    position = pos(red="T10 start start start", blue="T40 start start start")
    table = Table(layout, position, options(position, "red", "5"))
    seen = [table.walk(["T10", "T11", "T12", "T13", "T14", "T15", "T16"], pause=0.1)]
    seen.append(table.move("T16", "T15", pause=0.1))
    assert quiet(seen)
    assert isinstance(table.settle(), Recognised)


def test_time_must_not_go_backwards_and_settings_must_make_sense():
    position = pos(red="T10 start start start", blue="T40 start start start")
    recogniser = Recogniser(PRESENCE, position, options(position, "red", "5"))
    recogniser.tick(5.0)
    with pytest.raises(ValueError, match="backwards"):
        recogniser.tick(4.0)
    with pytest.raises(ValueError):
        Recogniser(PRESENCE, position, (), settle=0.3, flicker=0.5)
    with pytest.raises(ValueError):
        Recogniser(PRESENCE, position, (), settle=3.0, patience=1.0)


def test_before_any_reading_the_recogniser_waits():
    position = pos(red="T10 start start start", blue="T40 start start start")
    recogniser = Recogniser(COLOUR, position, options(position, "red", "5"))
    assert isinstance(recogniser.tick(10.0), Waiting)
    assert recogniser.board is None


# -- mismatches and guidance ----------------------------------------------------------------------


@pytest.mark.parametrize("layout", LAYOUTS, ids=layout_id)
def test_a_knocked_pawn_is_guided_back_and_then_forgotten(layout):
    position = pos(red="T10 start start start", blue="T30 start start start")
    table = Table(layout, position, options(position, "red", "5"))
    table.move("T30", "T31")
    assert isinstance(table.wait(0.2), Waiting)  # not yet settled
    decision = table.settle()
    assert isinstance(decision, Mismatch)
    assert decision.move is None and decision.target == position
    pawn = "blue pawn" if layout is COLOUR else "pawn"
    assert [c.code for c in decision.corrections] == [f"move the {pawn} from T31 to T30"]
    table.move("T31", "T30")
    assert isinstance(table.wait(0.06), Waiting)  # clears as soon as the board fits
    assert isinstance(table.wait(3.0), Waiting)
    table.move("T10", "T15")
    assert isinstance(table.settle(), Recognised)


@pytest.mark.parametrize("layout", LAYOUTS, ids=layout_id)
def test_a_pawn_knocked_off_the_board(layout):
    position = pos(red="T10 start start start", blue="T30 start start start")
    table = Table(layout, position, options(position, "red", "5"))
    table.lift("T30")
    decision = table.settle()
    assert isinstance(decision, Mismatch)
    assert [c.code for c in decision.corrections] == ["put a blue pawn on T30"]


@pytest.mark.parametrize("layout", LAYOUTS, ids=layout_id)
def test_guidance_follows_the_board_and_clears_when_it_fits(layout):
    position = pos(red="T10 start start start", blue="T40 start start start")
    table = Table(layout, position, options(position, "red", "5"))
    table.move("T10", "T20")  # not a legal move
    decision = table.settle()
    assert isinstance(decision, Mismatch)
    # As far from the position as from the legal result: back to the position, no guessing.
    assert decision.move is None
    assert decision.first is not None
    assert decision.first.action == Fix.MOVE
    assert (str(decision.first.source), str(decision.first.target)) == ("T20", "T10")
    table.lift("T20")
    lifted = table.wait(0.06)  # updated as soon as a change is more than flicker
    assert isinstance(lifted, Mismatch)
    assert lifted.first is not None
    assert lifted.first.action == Fix.PUT
    table.put("T15")
    assert isinstance(table.wait(0.06), Waiting)
    assert isinstance(table.settle(), Recognised)


@pytest.mark.parametrize("layout", LAYOUTS, ids=layout_id)
def test_a_pawn_counted_one_short_is_guided_on_after_a_while(layout):
    position = pos(red="T10 start start start", blue="T40 start start start")
    table = Table(layout, position, options(position, "red", "5"))
    table.move("T10", "T14")
    assert isinstance(table.wait(1.0), InProgress)  # maybe still counting
    decision = table.wait(1.5)  # no: past the patience
    assert isinstance(decision, Mismatch)
    assert decision.move is not None
    assert move_text(decision.move) == "T10-T15"
    pawn = "red pawn" if layout is COLOUR else "pawn"
    assert [c.code for c in decision.corrections] == [f"move the {pawn} from T14 to T15"]
    table.move("T14", "T15")
    assert isinstance(table.settle(), Recognised)


@pytest.mark.parametrize("layout", LAYOUTS, ids=layout_id)
def test_a_bumped_pawn_put_in_the_wrong_start(layout):
    position = pos(red="T10 start start start", blue="T15 start start start")
    table = Table(layout, position, options(position, "red", "5"))
    table.lift("T15")
    table.put("red START", colour=1)
    table.move("T10", "T15")
    decision = table.settle()
    assert isinstance(decision, Mismatch)
    assert decision.move is not None
    assert move_text(decision.move) == "T10-T15"
    pawn = "blue pawn" if layout is COLOUR else "pawn"
    assert [c.code for c in decision.corrections] == [
        f"move the {pawn} from red-start to blue-start"
    ]


def test_a_pawn_whose_colour_cannot_be_read():
    position = pos(red="T10 start start start", blue="T40 start start start")
    choices = options(position, "red", "5")
    recogniser = Recogniser(COLOUR, position, choices)
    reading = list(reading_for(COLOUR, expected_occupancy(position, "colour")))
    reading[COLOUR.channel_of[40]] = 14500  # between red's band and blue's
    recogniser.feed(reading, 0.0)
    decision = recogniser.tick(0.5)
    assert isinstance(decision, Mismatch)
    assert decision.first is not None
    assert decision.first.action == Fix.CHECK
    assert decision.first.code == (
        "check the pawn on T40: its colour cannot be read (a blue pawn belongs there)"
    )


@pytest.mark.parametrize("layout", LAYOUTS, ids=layout_id)
def test_with_no_legal_move_any_change_is_a_mismatch(layout):
    position = pos(red="start start start start", blue="T40 start start start")
    table = Table(layout, position, options(position, "red", "5"))
    table.move("red START", "T4")
    decision = table.settle()
    assert isinstance(decision, Mismatch)
    assert decision.first is not None
    assert decision.first.action == Fix.MOVE
    assert decision.first.code.endswith("from T4 to red-start")
    table.move("T4", "red START")
    assert isinstance(table.settle(), Waiting)


def test_the_wrong_colour_moved_on_a_colour_board():
    position = pos(red="T10 start start start", blue="T40 start start start")
    table = Table(COLOUR, position, options(position, "red", "5"))
    table.move("T40", "T45")  # blue moved on red's turn
    decision = table.settle()
    assert isinstance(decision, Mismatch)
    assert decision.move is None
    assert [c.code for c in decision.corrections] == ["move the blue pawn from T45 to T40"]


@pytest.mark.parametrize("layout", LAYOUTS, ids=layout_id)
def test_a_mismatch_may_lead_to_a_legal_result_when_that_is_nearer(layout):
    position = pos(red="T10 start start start", blue="T15 start start start")
    table = Table(layout, position, options(position, "red", "5"))
    table.lift("T15")
    table.put("T16")  # knocked the bumped pawn aside instead of to START
    table.move("T10", "T15")
    decision = table.settle()
    assert isinstance(decision, Mismatch)
    assert decision.move is not None
    assert move_text(decision.move) == "T10-T15"
    assert [c.action for c in decision.corrections] == [Fix.MOVE]
    assert decision.first is not None
    assert str(decision.first.target) == "blue-start"


# -- takebacks and resuming -----------------------------------------------------------------------


@pytest.mark.parametrize("layout", LAYOUTS, ids=layout_id)
def test_a_takeback_of_the_last_move(layout):
    previous = pos(red="T10 start start start", blue="T25 start start start")
    position = pos(red="T10 start start start", blue="T30 start start start")  # blue moved 5
    table = Table(layout, position, options(position, "red", "5"), previous=previous)
    table.move("T30", "T25")
    decision = table.settle()
    assert isinstance(decision, Takeback)
    assert decision.position == previous


@pytest.mark.parametrize("layout", LAYOUTS, ids=layout_id)
def test_a_takeback_of_a_bump_needs_the_bumped_pawn_back_too(layout):
    previous = pos(red="T10 start start start", blue="T25 start start start")
    position = pos(red="start start start start", blue="T10 start start start")  # blue 10
    table = Table(layout, position, options(position, "red", "3"), previous=previous)
    table.move("T10", "T25")
    assert isinstance(table.settle(), Mismatch)
    table.move("red START", "T10")
    assert isinstance(table.settle(), Takeback)


def test_preparing_early_changes_nothing_but_when_the_work_is_done():
    choices = options(TEAMS, "red", "7", HASBRO, teams=True)
    move = choices.moves[-1]
    decisions = []
    for prepare in (False, True):
        recogniser = Recogniser(COLOUR, TEAMS, choices.moves)  # a plain list of moves will do
        if prepare:
            recogniser.prepare()
        rng = random.Random(3)
        events = timeline(act_out(TEAMS, move, rng), rng)
        decisions.append(run(recogniser, events, COLOUR))
        decisions[-1].append((99.0, recogniser.tick(99.0)))
    assert decisions[0] == decisions[1]
    assert isinstance(decisions[0][-1][1], Recognised)

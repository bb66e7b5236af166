"""Guidance: the fewest corrections, each doable when shown, leading exactly to the target."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pawnlight.board.cells import (
    CELLS,
    EMPTY,
    UNKNOWN,
    area_cells,
    cell_of,
    cells_of,
)
from pawnlight.board.guidance import Correction, Fix, corrections, guide_to
from pawnlight.board.snapshot import canonical, reading_for, sense, true_occupancy
from pawnlight.devices.sim.board import PhysicalBoard
from pawnlight.rules.board import HOME, S1, START, TRACK_SQUARES, Place
from pawnlight.rules.position import Position

from .helpers import COLOUR, LAYOUTS, PRESENCE, layout_id, pos


@st.composite
def positions(draw):
    """Any valid position: 2 to 4 colours, 4 pawns each, anywhere they may stand."""
    colours = draw(st.sampled_from([(0, 2), (1, 3), (0, 1, 2), (0, 1, 2, 3)]))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    free = list(range(TRACK_SQUARES))
    rng.shuffle(free)
    groups: list = [None] * 4
    for colour in colours:
        places = []
        safety = list(range(S1, S1 + 5))
        rng.shuffle(safety)
        for _ in range(4):
            kind = rng.choice(("track", "track", "safety", "start", "home"))
            places.append(
                free.pop()
                if kind == "track"
                else safety.pop()
                if kind == "safety"
                else START
                if kind == "start"
                else HOME
            )
        groups[colour] = places
    position = Position.from_places(groups)
    position.validate()
    return position


def scrambled(position: Position, rng: random.Random) -> list[int]:
    """A physical board (true colours per cell) that went wrong: pawns knocked, taken off, put
    in the wrong place, swapped, an extra pawn from another box."""
    cells = list(PhysicalBoard.from_position(position, rng).cells)
    for _ in range(rng.randint(1, 6)):
        occupied = [c for c in range(CELLS) if cells[c] != EMPTY]
        empty = [c for c in range(CELLS) if cells[c] == EMPTY]
        action = rng.choice(("move", "move", "lift", "add", "swap"))
        if action == "move" and occupied:
            source = rng.choice(occupied)
            cells[rng.choice(empty)], cells[source] = cells[source], EMPTY
        elif action == "lift" and occupied:
            cells[rng.choice(occupied)] = EMPTY
        elif action == "add":
            cells[rng.choice(empty)] = rng.randrange(4)
        elif action == "swap" and len(occupied) > 1:
            a, b = rng.sample(occupied, 2)
            cells[a], cells[b] = cells[b], cells[a]
    return cells


def apply(cells: list[int], correction: Correction, sensing: str, rng: random.Random) -> None:
    """Do what a correction says to a physical board, as a person would."""

    def take(spot: Place, colour: int) -> int:
        candidates = [c for c in cells_of(spot) if cells[c] != EMPTY]
        if sensing == "colour":
            # The pawn of that colour; a pawn of no known colour is the unreadable one.
            wanted = colour if colour >= 0 else UNKNOWN
            candidates = [c for c in candidates if cells[c] == wanted] or candidates
        assert candidates, f"{correction.text}: nothing to lift"
        cell = rng.choice(candidates)
        pawn, cells[cell] = cells[cell], EMPTY
        return pawn

    def place(spot: Place, pawn: int) -> None:
        free = [c for c in cells_of(spot) if cells[c] == EMPTY]
        assert free, f"{correction.text}: cannot be done now, {spot} is full"
        cells[rng.choice(free)] = pawn

    if correction.action == Fix.LIFT:
        assert correction.source is not None
        take(correction.source, correction.colour)
    elif correction.action == Fix.PUT:
        assert correction.target is not None
        place(correction.target, correction.colour)
    elif correction.action == Fix.MOVE:
        assert correction.source is not None and correction.target is not None
        place(correction.target, take(correction.source, correction.colour))
    else:
        assert correction.action == Fix.CHECK
        assert correction.source is not None
        cell = next(c for c in cells_of(correction.source) if cells[c] == UNKNOWN)
        cells[cell] = correction.colour  # reseated: it reads right now


def sensed(cells: list[int], sensing: str):
    return sense(canonical(cells), sensing)


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(
    target=positions(),
    start=positions(),
    seed=st.integers(0, 2**32 - 1),
    sensing=st.sampled_from(["presence", "colour"]),
)
def test_doing_the_first_correction_each_time_reaches_the_target(target, start, seed, sensing):
    """From any board: every first correction can be done at once, each one done shortens the
    list by exactly one, and the board ends exactly at the target."""
    rng = random.Random(seed)
    cells = scrambled(start if rng.random() < 0.3 else target, rng)
    if sensing == "colour" and rng.random() < 0.3:
        occupied = [c for c in range(CELLS) if cells[c] != EMPTY]
        cells[rng.choice(occupied)] = UNKNOWN  # a pawn whose magnet reads wrong
    truth = true_occupancy(target)
    todo = corrections(sensed(cells, sensing), truth, sensing)
    for expected_left in range(len(todo) - 1, -1, -1):
        apply(cells, todo[0], sensing, rng)
        todo = corrections(sensed(cells, sensing), truth, sensing)
        assert len(todo) == expected_left
    assert sensed(cells, sensing) == sense(truth, sensing)


def test_corrections_read_as_instructions_in_board_words():
    assert Correction(Fix.LIFT, Place.parse("T12"), None, -1).text == (
        "lift the pawn from the 3rd square of red's long slide"
    )
    assert Correction(Fix.LIFT, Place.parse("T19"), None, 1).text == (
        "lift the blue pawn from blue's start circle"
    )
    assert Correction(Fix.PUT, None, Place.parse("T12"), 1).text == (
        "put a blue pawn on the 3rd square of red's long slide"
    )
    assert Correction(Fix.PUT, None, Place(START, 2), 2).text == "put a yellow pawn in yellow START"
    assert (
        Correction(Fix.MOVE, Place.parse("T13"), Place.parse("T14"), -1).text
        == "move the pawn from the end of red's long slide to the 1st square after red's long slide"
    )
    assert (
        Correction(Fix.MOVE, Place.parse("red S2"), Place(HOME, 0), 0).text
        == "move the red pawn from red's 2nd safety square to red HOME"
    )


def test_corrections_keep_their_square_codes_for_the_detail():
    assert Correction(Fix.LIFT, Place.parse("T12"), None, 1).code == "lift the blue pawn from T12"
    assert (
        Correction(Fix.MOVE, Place.parse("red S2"), Place(HOME, 0), 0).code
        == "move the red pawn from red-S2 to red-home"
    )


@pytest.mark.parametrize("layout", LAYOUTS, ids=layout_id)
def test_a_board_in_sync_needs_nothing(layout):
    position = pos(red="T3 S2 start home", blue="T40 start start start")
    board = PhysicalBoard.from_position(position)
    assert guide_to(layout, position, board.reading(layout)) == ()


@pytest.mark.parametrize("layout", LAYOUTS, ids=layout_id)
def test_resuming_after_a_restart(layout):
    """The Pi was off while someone tidied the board: guide it back to the game's position."""
    position = pos(
        red="T3 S2 start home", blue="T40 T41 start start", green="T20 start start start"
    )
    board = PhysicalBoard.from_position(
        pos(
            red="start start start start",
            blue="start start start start",
            green="start start start start",
        )
    )
    rng = random.Random(5)
    steps = 0
    while todo := guide_to(layout, position, board.reading(layout)):
        apply(board.cells, todo[0], layout.sensing, rng)
        steps += 1
    # Six pawns to bring out of START, each one move: T3, S2, home, T40, T41, T20.
    assert steps == 6


def test_swapped_pawns_on_a_colour_board_need_one_of_them_lifted_first():
    wanted = pos(red="T10 start start start", blue="T20 start start start")
    swapped = pos(red="T20 start start start", blue="T10 start start start")
    todo = corrections(true_occupancy(swapped), true_occupancy(wanted), "colour")
    assert [c.action for c in todo] == [Fix.LIFT, Fix.MOVE, Fix.PUT]
    assert todo[0].code == "lift the red pawn from T20"
    assert todo[1].code == "move the blue pawn from T10 to T20"
    assert todo[2].code == "put a red pawn on T10"


def test_presence_boards_cannot_see_swapped_colours():
    wanted = pos(red="T10 start start start", blue="T20 start start start")
    swapped = pos(red="T20 start start start", blue="T10 start start start")
    board = sense(true_occupancy(swapped), "presence")
    assert corrections(board, true_occupancy(wanted), "presence") == ()


def test_the_nearest_pawns_are_paired():
    wanted = pos(red="T10 T30 start start")
    board = pos(red="T11 T31 start start")
    todo = corrections(true_occupancy(board), true_occupancy(wanted), "colour")
    assert sorted(c.code for c in todo) == [
        "move the red pawn from T11 to T10",
        "move the red pawn from T31 to T30",
    ]


def test_a_missing_pawn_in_start_and_an_extra_one_elsewhere():
    wanted = pos(red="T10 start start start", blue="start start start start")
    cells = list(true_occupancy(wanted))
    cells[area_cells(START, 1)[0]] = EMPTY
    cells[cell_of(0, S1 + 1)] = 1  # a blue pawn in red's safety zone
    todo = corrections(tuple(cells), true_occupancy(wanted), "colour")
    assert [c.code for c in todo] == ["move the blue pawn from red-S2 to blue-start"]
    todo = corrections(sensed(cells, "presence"), true_occupancy(wanted), "presence")
    assert [c.code for c in todo] == ["move the pawn from red-S2 to blue-start"]


def test_a_full_start_area_waits_for_its_wrong_pawn_to_leave():
    wanted = pos(red="start start start start", blue="T5 start start start")
    cells = list(true_occupancy(wanted))
    red_start = area_cells(START, 0)
    cells[red_start[0]] = 1  # a blue pawn took a red START spot
    cells[5] = 0  # and a red pawn stands on T5
    todo = corrections(tuple(cells), true_occupancy(wanted), "colour")
    assert [c.code for c in todo] == [
        "lift the blue pawn from red-start",
        "move the red pawn from T5 to red-start",
        "put a blue pawn on T5",
    ]


def test_reading_a_scrambled_board_through_a_layout():
    position = pos(red="T3 start start start", blue="T40 start start start")
    board = PhysicalBoard.from_position(position)
    board.cells[3], board.cells[4] = EMPTY, 0
    reading = reading_for(PRESENCE, tuple(board.cells))
    assert [c.code for c in guide_to(PRESENCE, position, reading)] == [
        "move the pawn from T4 to T3"
    ]
    reading = reading_for(COLOUR, tuple(board.cells))
    assert [c.code for c in guide_to(COLOUR, position, reading)] == [
        "move the red pawn from T4 to T3"
    ]


def test_the_kinds_of_correction_keep_their_words():
    """The state's ``guidance[].action`` and the page's scripts read these words."""
    assert [fix.value for fix in Fix] == ["lift", "put", "move", "check"]
    assert json.dumps(Correction(Fix.PUT, None, Place(7), 1).action) == '"put"'

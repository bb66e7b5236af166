"""Snapshots: readings to occupancies and back, and what a position should look like."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pawnlight.board.cells import CELLS, EMPTY, PAWN, area_cells, safety_cell
from pawnlight.board.snapshot import (
    expected_occupancy,
    read_occupancy,
    reading_for,
    true_occupancy,
)
from pawnlight.devices.sim.board import PhysicalBoard
from pawnlight.rules.board import HOME, START

from .helpers import COLOUR, LAYOUTS, PRESENCE, layout_id, pos
from .test_guidance import positions


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(position=positions(), seed=st.integers(0, 1000))
def test_a_position_reads_back_as_its_expected_occupancy(position, seed):
    for layout in LAYOUTS:
        board = PhysicalBoard.from_position(
            position, random.Random(seed)
        )  # START/HOME pawns on any spots
        occupancy = read_occupancy(layout, board.reading(layout))
        assert occupancy == expected_occupancy(position, layout.sensing)


def test_which_start_spots_are_used_does_not_matter():
    position = pos(red="T3 start start home", blue="start start start start")
    boards = {
        read_occupancy(
            COLOUR, PhysicalBoard.from_position(position, random.Random(seed)).reading(COLOUR)
        )
        for seed in range(20)
    }
    assert len(boards) == 1


def test_presence_boards_see_pawns_not_colours():
    position = pos(red="T3 S2 start home", blue="T40 start start start")
    seen = expected_occupancy(position, "presence")
    assert seen[3] == seen[40] == seen[safety_cell(0, 61)] == PAWN
    assert sum(1 for v in seen if v != EMPTY) == 8
    assert [seen[c] for c in area_cells(START, 1)] == [PAWN, PAWN, PAWN, EMPTY]
    assert [seen[c] for c in area_cells(HOME, 0)] == [PAWN, EMPTY, EMPTY, EMPTY]


def test_colour_boards_see_colours():
    position = pos(red="T3 S2 start home", blue="T40 start start start")
    seen = expected_occupancy(position, "colour")
    assert (seen[3], seen[40], seen[safety_cell(0, 61)]) == (0, 1, 0)
    assert seen == true_occupancy(position)


@pytest.mark.parametrize("layout", LAYOUTS, ids=layout_id)
def test_a_reading_has_one_value_per_channel(layout):
    with pytest.raises(ValueError, match="112 channels"):
        read_occupancy(layout, [0] * 111)


def test_a_colour_reading_needs_colours():
    with pytest.raises(ValueError, match="colour"):
        reading_for(COLOUR, (PAWN,) * CELLS)


def test_the_channel_order_comes_from_the_layout():
    position = pos(red="T15 start start start", blue="start start start start")
    reading = reading_for(COLOUR, expected_occupancy(position, "colour"))
    # Colour boards wire each side on its own harness: T15 is blue's side's first channel, 28.
    assert reading[28] in COLOUR.bands[15].colours[0]
    presence = reading_for(PRESENCE, expected_occupancy(position, "presence"))
    assert presence[15] == 1 and presence[28] == 0

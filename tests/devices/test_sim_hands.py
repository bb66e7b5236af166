"""The simulator's hands setting a board up (issue #34): one pawn at a time, lifts first."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from pawnlight.board.cells import AREA_STARTS, CELLS, EMPTY, SPOTS_PER_AREA, START_BASE
from pawnlight.board.layout import Layout
from pawnlight.board.snapshot import Occupancy, canonical
from pawnlight.devices.sim.board import PhysicalBoard, SimulatedBoard, hand_steps

from ..board.test_guidance import positions


@settings(max_examples=80, deadline=None)
@given(positions(), positions(), st.integers(0, 2**32 - 1))
def test_hands_reach_the_board_one_pawn_at_a_time_lifting_first(before, after, seed):
    rng = random.Random(seed)
    now = PhysicalBoard.from_position(before, rng).cells
    wanted = PhysicalBoard.from_position(after, rng).cells
    steps = hand_steps(now, wanted)
    cells = list(now)
    placing = False
    for cell, colour in steps:
        if colour == EMPTY:
            assert not placing, "every lift comes before the first placement"
            assert cells[cell] != EMPTY
        else:
            placing = True
            assert cells[cell] == EMPTY, "a pawn is put down only on an empty spot"
        cells[cell] = colour
    assert canonical(cells) == canonical(wanted)
    # No pawn that is already right is touched: squares that agree, and in each START or HOME
    # as many of each colour as both boards have there.
    touched = {cell for cell, _ in steps}
    assert not any(now[c] == wanted[c] != EMPTY and c in touched for c in range(START_BASE))
    for first in AREA_STARTS:
        spots = range(first, first + SPOTS_PER_AREA)
        kept = Counter(now[c] for c in spots if c not in touched and now[c] != EMPTY)
        both = Counter(now[c] for c in spots if now[c] != EMPTY) & Counter(
            wanted[c] for c in spots if wanted[c] != EMPTY
        )
        assert kept == both


def test_a_pawn_of_another_colour_on_a_square_is_lifted_before_its_replacement():
    now = [EMPTY] * CELLS
    wanted = [EMPTY] * CELLS
    now[4], wanted[4] = 1, 0  # blue on T4 where red should be
    assert hand_steps(now, wanted) == [(4, EMPTY), (4, 0)]


def test_a_start_keeps_its_right_pawns_on_their_spots():
    first = AREA_STARTS[0]
    now = [EMPTY] * CELLS
    wanted = [EMPTY] * CELLS
    now[first + 2], now[first + 3] = 0, 3  # a red and a green pawn in one START
    wanted[first], wanted[first + 1] = 0, 0  # two red ones wanted
    steps = hand_steps(now, wanted)
    assert steps == [(first + 3, EMPTY), (first, 0)]  # the red one on spot 3 stays


def test_each_touch_is_a_reading_the_board_takes_in_before_the_next():
    layout = Layout.named("presence")
    written: list[tuple[int, ...]] = []
    seen: list[Occupancy] = []
    board = SimulatedBoard(
        layout,
        write_sensors=lambda values: written.append(tuple(values)),
        read_leds=lambda: [],
        present_card=lambda uid: None,
        card_uids={},
        seen=seen.append,
    )
    board.cells[4] = 1  # a blue pawn on T4
    moved = board.set_board({"red": ["T4", "start", "start", "start"]})
    assert moved == {"lifted": 1, "placed": 4}
    assert len(written) == len(seen) == 5  # each touch written, then waited on
    assert board.board()["pawns"] == {"red": ["T4", "start", "start", "start"]}

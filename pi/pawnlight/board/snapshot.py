"""Snapshots: a reading of every sensor at one moment, as an occupancy of the board's cells.

An *occupancy* is a tuple of 112 values, one per cell (see cells.py): EMPTY, a colour 0..3,
PAWN (a pawn of a colour the board cannot sense) or UNKNOWN (a colour board's reading that fits
no colour).  The four spots of a START or HOME are interchangeable (a pawn sent back to START
may stand on any of them), so each area's four values are kept sorted, pawns first: two boards
that differ only in which spots are used are the same occupancy.

:func:`read_occupancy` turns a reading into an occupancy; :func:`expected_occupancy` gives the
occupancy a position should produce on a board of a given sensing, so the two can be compared.
"""

from __future__ import annotations

from collections.abc import Sequence

from pawnlight.rules.board import HOME, S5, START, TRACK_SQUARES
from pawnlight.rules.position import Position

from .cells import (
    AREA_STARTS,
    CELLS,
    EMPTY,
    PAWN,
    SPOTS_PER_AREA,
    UNKNOWN,
    area_cells,
    safety_cell,
)
from .layout import COLOUR, PRESENCE, Layout

Occupancy = tuple[int, ...]


def _spot_order(value: int) -> tuple[bool, int]:
    return value == EMPTY, value


def canonical(values: Sequence[int]) -> Occupancy:
    """The occupancy of per-cell values: each area's spots sorted, pawns first."""
    result = list(values)
    for first in AREA_STARTS:
        result[first : first + SPOTS_PER_AREA] = sorted(
            result[first : first + SPOTS_PER_AREA], key=_spot_order
        )
    return tuple(result)


def read_occupancy(layout: Layout, reading: Sequence[int]) -> Occupancy:
    """What a reading of all 112 sensor channels shows, through the layout."""
    if len(reading) != CELLS:
        raise ValueError(f"a reading has {CELLS} channels, got {len(reading)}")
    classify = layout.classify
    return canonical(
        [classify(cell, reading[channel]) for cell, channel in enumerate(layout.channel_of)]
    )


def true_occupancy(position: Position) -> Occupancy:
    """Every pawn of the position in its colour, START and HOME pawns on their first spots."""
    cells = [EMPTY] * CELLS
    for colour, place in position.items():
        if place < TRACK_SQUARES:
            cells[place] = colour
        elif place <= S5:
            cells[safety_cell(colour, place)] = colour
        else:
            spots = area_cells(START if place == START else HOME, colour)
            free = next(cell for cell in spots if cells[cell] == EMPTY)
            cells[free] = colour
    return tuple(cells)


def sense(occupancy: Occupancy, sensing: str) -> Occupancy:
    """What a board of ``sensing`` shows for a true occupancy: presence boards see no colours."""
    if sensing == COLOUR:
        return occupancy
    if sensing != PRESENCE:
        raise ValueError(f"unknown sensing {sensing!r}")
    return tuple(EMPTY if value == EMPTY else PAWN for value in occupancy)


def expected_occupancy(position: Position, sensing: str = COLOUR) -> Occupancy:
    """The occupancy a board of ``sensing`` ("presence" or "colour") shows for ``position``."""
    return sense(true_occupancy(position), sensing)


def reading_for(layout: Layout, occupancy: Occupancy) -> tuple[int, ...]:
    """A reading that the layout reads as ``occupancy``: for simulators and test benches."""
    reading = [0] * CELLS
    for cell, value in enumerate(occupancy):
        channel = layout.channel_of[cell]
        if layout.colour_sensing:
            if value in (PAWN, UNKNOWN):
                raise ValueError("a colour board's reading needs each pawn's colour")
            reading[channel] = layout.bands[cell].typical(value)
        else:
            reading[channel] = layout.active if value != EMPTY else 1 - layout.active
    return tuple(reading)


def pawn_count(occupancy: Occupancy) -> int:
    return sum(1 for value in occupancy if value != EMPTY)

"""Colour calibration, as pure logic: readings in, per-cell reading bands (or reasons) out.

A colour board's sensors differ: each has its own reading with no magnet (offset), and the
magnets sit a little nearer or farther.  Calibration measures both:

1. The empty board gives every cell's **baseline** (its own "no magnet" reading).
2. Pawns of each colour on many cells give each colour's **deltas**: reading minus the cell's
   baseline.  Pooled over all cells they show how far each colour moves a sensor and how much
   that varies (a pawn off-centre, a thicker spot of the board).
3. The classes (empty and the four colours) sorted by their mean delta must leave **gaps**
   between neighbours.  A gap must hold the firmware's tolerance on each side (a reported
   value can lag the real one by that much) plus a quarter of the neighbours' spreads (the
   placements calibration did not see).  A pair that overlaps or comes too close is reported
   with the cells whose readings came nearest.
4. Each class's band is its observed range widened into the gaps (40 % of each gap, at least
   the tolerance), the lowest and highest classes open to the ends of the scale; a reading in
   the remaining middle of a gap stays UNKNOWN (a pawn being moved).  A cell's bands are
   these delta bands around its own baseline.

The result is stored by calibration_file.py and applied with ``Layout.with_bands``.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pawnlight.board.cells import CELL_NAMES, CELLS, EMPTY
from pawnlight.board.geometry import CELL_CENTRES, GRID
from pawnlight.board.layout import Band, ColourBands, Layout
from pawnlight.rules.board import COLOURS

#: Share of a gap each neighbour's band may take; the rest stays UNKNOWN.
GAP_SHARE = 0.4
#: Share of the neighbours' spreads a gap must hold beyond the tolerances.
SPREAD_SHARE = 0.25
#: How many cells a problem names at most.
NAMED_CELLS = 8
#: The classes, in the order of ColourBands.bands(): empty, then the colours.
CLASSES = (EMPTY, 0, 1, 2, 3)


def class_name(what: int) -> str:
    return "empty" if what == EMPTY else COLOURS[what]


@dataclass(frozen=True)
class Sample:
    """One reading: ``what`` stood on ``cell`` (EMPTY or a colour) and the sensor read ``value``;
    ``off_centre`` when the pawn was pushed to the side of its place on purpose."""

    cell: int
    what: int
    value: int
    off_centre: bool = False


@dataclass(frozen=True)
class ClassSpread:
    """The deltas (reading minus the cell's baseline) of one class."""

    what: int
    low: int
    high: int
    mean: float
    count: int

    @property
    def spread(self) -> int:
        return self.high - self.low


@dataclass(frozen=True)
class TooClose:
    """Two neighbouring classes whose readings overlap or leave too small a gap."""

    lower: int
    upper: int
    gap: int  # negative when they overlap
    needed: int
    cells: tuple[int, ...]  # where the two came nearest

    def describe(self) -> str:
        names = ", ".join(CELL_NAMES[c] for c in self.cells)
        how = (
            f"overlap by {-self.gap}"
            if self.gap < 0
            else f"are only {self.gap} apart (need {self.needed})"
        )
        return (
            f"{class_name(self.lower)} and {class_name(self.upper)} {how}; nearest on {names}. "
            "Check those sensors' mounting (height, tilt, face up) and the pawns' magnets."
        )


@dataclass(frozen=True)
class Missing:
    """Calibration had no readings of a class, or no empty reading of some cells."""

    what: int
    cells: tuple[int, ...] = ()

    def describe(self) -> str:
        if self.what == EMPTY:
            names = ", ".join(CELL_NAMES[c] for c in self.cells[:NAMED_CELLS])
            return f"no empty reading of {names}: clear the board and calibrate again"
        return f"no {class_name(self.what)} pawn was measured"


@dataclass(frozen=True)
class OffScale:
    """Cells whose empty reading sits so near an end of the scale that the bands cannot fit."""

    cells: tuple[int, ...]

    def describe(self) -> str:
        names = ", ".join(CELL_NAMES[c] for c in self.cells[:NAMED_CELLS])
        return (
            f"{names} read near the end of the scale with no pawn: a dead or shorted sensor "
            "(run the sensor test)"
        )


Problem = TooClose | Missing | OffScale


@dataclass(frozen=True)
class Separation:
    """How far apart two neighbouring classes' readings stayed (every placement pooled)."""

    lower: int
    upper: int
    gap: int  # negative when they overlap
    needed: int
    off_centre: bool  # one of the two nearest readings was an off-centre placement

    @property
    def margin(self) -> int:
        return self.gap - self.needed

    def describe(self) -> str:
        where = " (an off-centre pawn)" if self.off_centre else ""
        return (
            f"{class_name(self.lower)} and {class_name(self.upper)}: {self.gap} apart{where}, "
            f"{self.needed} needed"
        )


@dataclass(frozen=True)
class Calibration:
    bits: int
    tolerance: int
    baseline: tuple[int, ...]  # by cell
    #: Delta bands in the order empty, red, blue, yellow, green (None when not separable).
    deltas: tuple[Band, ...] | None
    spreads: tuple[ClassSpread, ...]
    problems: tuple[Problem, ...]
    #: Every pair of neighbouring classes, lowest readings first.
    separations: tuple[Separation, ...] = ()
    #: Pawn readings taken with the pawn pushed to the side of its place.
    off_centre_samples: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems and self.deltas is not None

    @property
    def worst_separation(self) -> Separation | None:
        """The pair of classes that came nearest to each other for what they need."""
        return min(self.separations, key=lambda s: s.margin, default=None)

    def bands_for(self, cell: int) -> ColourBands:
        """A cell's bands: the delta bands around its baseline, clipped to the scale."""
        if self.deltas is None:
            raise ValueError("the colours are not separable: nothing to apply")
        top = (1 << self.bits) - 1
        base = self.baseline[cell]
        bands = [
            Band(max(0, min(top, base + d.low)), max(0, min(top, base + d.high)))
            for d in self.deltas
        ]
        return ColourBands(bands[0], (bands[1], bands[2], bands[3], bands[4]))

    def apply(self, layout: Layout) -> Layout:
        """The layout with every cell's calibrated bands."""
        for cell in range(CELLS):
            layout = layout.with_bands(self.bands_for(cell), [cell])
        return layout


def calibrate(samples: Iterable[Sample], bits: int = 16, tolerance: int = 1500) -> Calibration:
    samples = list(samples)
    for sample in samples:
        if sample.what not in CLASSES or not 0 <= sample.cell < CELLS:
            raise ValueError(f"not a calibration sample: {sample}")
    problems: list[Problem] = []
    baseline, no_empty = _baselines(samples)
    if no_empty:
        problems.append(Missing(EMPTY, tuple(no_empty)))
    deltas: dict[int, list[tuple[int, int]]] = {what: [] for what in CLASSES}
    off_centre: dict[int, set[int]] = {what: set() for what in CLASSES}
    for sample in samples:
        delta = sample.value - baseline[sample.cell]
        deltas[sample.what].append((delta, sample.cell))
        if sample.off_centre:
            off_centre[sample.what].add(delta)
    spreads = []
    for what in CLASSES:
        values = [d for d, _ in deltas[what]]
        if not values:
            problems.append(Missing(what))
            continue
        spreads.append(
            ClassSpread(what, min(values), max(values), statistics.fmean(values), len(values))
        )
    spreads.sort(key=lambda s: s.mean)
    needed_gaps = []
    separations = []
    for lower, upper in itertools.pairwise(spreads):
        gap = upper.low - lower.high
        needed = 2 * tolerance + round(SPREAD_SHARE * (lower.spread + upper.spread))
        needed_gaps.append((gap, needed))
        aside = lower.high in off_centre[lower.what] or upper.low in off_centre[upper.what]
        separations.append(Separation(lower.what, upper.what, gap, needed, aside))
        if gap < needed:
            cells = _nearest_cells(lower, upper, deltas, needed)
            problems.append(TooClose(lower.what, upper.what, gap, needed, cells))
    bands = None
    if len(spreads) == len(CLASSES) and all(gap > 0 for gap, _ in needed_gaps):
        bands = _delta_bands(spreads, tolerance, bits)
    by_class = tuple(sorted(spreads, key=lambda s: CLASSES.index(s.what)))
    result = Calibration(
        bits,
        tolerance,
        tuple(baseline),
        bands,
        by_class,
        tuple(problems),
        tuple(separations),
        sum(1 for sample in samples if sample.off_centre and sample.what != EMPTY),
    )
    if bands is not None:
        off = tuple(cell for cell in range(CELLS) if not _fits(result.bands_for(cell)))
        if off:
            result = dataclasses.replace(result, problems=(*result.problems, OffScale(off)))
    return result


def _fits(bands: ColourBands) -> bool:
    """The clipped bands of a cell still leave every class a range of its own."""
    ordered = sorted(bands.bands(), key=lambda b: b.low)
    return all(a.high < b.low for a, b in itertools.pairwise(ordered))


def _baselines(samples: Sequence[Sample]) -> tuple[list[int], list[int]]:
    empties: dict[int, list[int]] = {}
    for sample in samples:
        if sample.what == EMPTY:
            empties.setdefault(sample.cell, []).append(sample.value)
    everyone = [v for values in empties.values() for v in values]
    fallback = round(statistics.median(everyone)) if everyone else 0
    baseline = [
        round(statistics.median(empties[cell])) if cell in empties else fallback
        for cell in range(CELLS)
    ]
    return baseline, [cell for cell in range(CELLS) if cell not in empties]


def _nearest_cells(
    lower: ClassSpread,
    upper: ClassSpread,
    deltas: dict[int, list[tuple[int, int]]],
    needed: int,
) -> tuple[int, ...]:
    """Cells whose readings of the two classes came within the needed gap of each other."""
    cut = (lower.high + upper.low) / 2
    near: list[tuple[float, int]] = []
    for delta, cell in deltas[lower.what]:
        if delta > cut - needed / 2:
            near.append((cut - delta, cell))
    for delta, cell in deltas[upper.what]:
        if delta < cut + needed / 2:
            near.append((delta - cut, cell))
    cells: list[int] = []
    for _distance, cell in sorted(near):
        if cell not in cells:
            cells.append(cell)
    return tuple(cells[:NAMED_CELLS])


def _delta_bands(spreads: list[ClassSpread], tolerance: int, bits: int) -> tuple[Band, ...]:
    top = (1 << bits) - 1
    low = {s.what: s.low for s in spreads}
    high = {s.what: s.high for s in spreads}
    for lower, upper in itertools.pairwise(spreads):
        gap = upper.low - lower.high
        margin = min(max(tolerance, int(gap * GAP_SHARE)), (gap - 1) // 2)
        high[lower.what] = lower.high + margin
        low[upper.what] = upper.low - margin
    low[spreads[0].what] = -top  # the strongest magnets may saturate the sensor: still theirs
    high[spreads[-1].what] = top
    return tuple(Band(low[what], high[what]) for what in CLASSES)


# -- what to ask for ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """Put pawns of ``colour`` on ``cells`` (then lift them); ``off_centre``: each pushed to
    the side of its place, as far as it goes (against the wall of its centring cup), so the
    bands are made from the readings players will really give."""

    colour: int
    cells: tuple[int, ...]
    off_centre: bool = False


PAWNS_PER_COLOUR = 4


def _round_the_board() -> list[int]:
    """Every cell, in the order of its direction from the board's centre."""
    middle = GRID / 2
    return sorted(
        range(CELLS),
        key=lambda cell: (
            math.atan2(CELL_CENTRES[cell][1] - middle, CELL_CENTRES[cell][0] - middle),
            cell,
        ),
    )


def _quarter_turns(cells: Sequence[int]) -> list[tuple[int, ...]]:
    """Groups of four cells a quarter turn apart, from cells in order round the board."""
    quarter = len(cells) // PAWNS_PER_COLOUR
    return [tuple(cells[j + k * quarter] for k in range(PAWNS_PER_COLOUR)) for j in range(quarter)]


def quick_plan(rounds: int = 2) -> list[Step]:
    """``rounds`` steps per colour, each with four pawns a quarter turn apart, every pawn on
    a different place, the places spread evenly round the board."""
    order = _round_the_board()
    count = rounds * len(COLOURS) * PAWNS_PER_COLOUR
    if not 0 < count <= CELLS:
        raise ValueError(f"{rounds} rounds need {count} places; a board has {CELLS}")
    picked = [order[(k * CELLS) // count] for k in range(count)]
    groups = _quarter_turns(picked)
    colours = len(COLOURS)
    # Every second round off-centre: with two rounds, each colour once centred, once aside.
    return [
        Step(number % colours, cells, (number // colours) % 2 == 1)
        for number, cells in enumerate(groups)
    ]


def full_plan() -> list[Step]:
    """Every colour on every place: 28 steps of four pawns a quarter turn apart, per colour,
    every second one off-centre."""
    groups = _quarter_turns(_round_the_board())
    return [
        Step(colour, cells, index % 2 == 1)
        for colour in range(len(COLOURS))
        for index, cells in enumerate(groups)
    ]

"""The boards a turn's legal moves lead to, and the boards people pass through on the way.

For one position and the legal moves of the drawn card this answers, for any board:

* :meth:`MoveTargets.results` - which legal moves end exactly in this board;
* :meth:`MoveTargets.partial` - which multi-part moves (a split 7) have some of their parts
  done and nothing else: a stage people may pause at for as long as they like;
* :meth:`MoveTargets.on_the_way` - which moves the board is plausibly in the middle of: each
  moving pawn at its origin, in the hand, on a square of its path or slide, or at its end; each
  bumped or swept pawn still there, in the hand or back in START; nothing else changed and no
  pawn more than the position has.  This covers walking a pawn while counting, lifting both
  pawns of a switch, returning a bumped pawn before or after the move, and so on.
* :attr:`MoveTargets.invisible` - moves whose result the board cannot tell from the position
  (a presence board and an 11's switch), with the cells the move disturbs on the way.

Results and partials are indexed by occupancy (dictionary look-ups); the on-the-way test is a
per-move check of only the cells that differ from the position.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations

from pawnlight.rules.board import HOME, START, TRACK_SQUARES
from pawnlight.rules.moves import Move, Step, StepKind
from pawnlight.rules.position import Position

from .cells import (
    AREA_STARTS,
    EMPTY,
    PAWN,
    SPOTS_PER_AREA,
    SQUARE_CELLS,
    area_cells,
    area_index,
    cell_of,
)
from .layout import PRESENCE
from .snapshot import Occupancy, sense, true_occupancy

#: Split moves with more parts than this are indexed by ordered prefixes and single parts only,
#: not every subset (a Hasbro team 7 may have up to seven parts).
_ALL_SUBSETS_UP_TO = 3


def apply_steps(position: Position, steps: Iterable[Step]) -> Position | None:
    """The position after only ``steps`` of a move, or None if they cannot stand alone."""
    groups = [None if g is None else list(g) for g in position]
    try:
        for step in steps:
            mine = groups[step.colour]
            assert mine is not None
            mine.remove(step.origin)
            mine.append(step.final)
            if step.swapped >= 0:
                theirs = groups[step.swapped]
                assert theirs is not None
                theirs.remove(step.target)
                theirs.append(step.origin)
            for colour, square in step.bumped:
                group = groups[colour]
                assert group is not None
                group.remove(square)
                group.append(START)
        result = Position.from_places(groups)
        result.validate()
    except (ValueError, AssertionError):
        return None
    return result


def _area_counts(occupancy: Occupancy, first: int) -> Counter[int]:
    return Counter(v for v in occupancy[first : first + SPOTS_PER_AREA] if v != EMPTY)


#: How a board differs from the position: (cell, value) of each track and safety square that
#: differs, then (area index, contents) of each START and HOME that differs.
BoardKey = tuple[tuple[tuple[int, int], ...], tuple[tuple[int, Occupancy], ...]]


class _Allowance:
    """What each cell may show while one move is under way (see MoveTargets.on_the_way)."""

    __slots__ = ("areas", "cells")

    def __init__(self) -> None:
        self.cells: dict[int, set[int]] = {}
        #: Area index -> value -> (fewest, most) spots showing that value.
        self.areas: dict[int, dict[int, tuple[int, int]]] = {}

    def accepts(
        self, board: Occupancy, changed: Sequence[int], areas: dict[int, Counter[int]]
    ) -> bool:
        cells = self.cells
        for cell in changed:
            allowed = cells.get(cell)
            if allowed is None or board[cell] not in allowed:
                return False
        for index, counts in areas.items():
            limits = self.areas.get(index)
            if limits is None:
                return False
            for value, count in counts.items():
                low, high = limits.get(value, (0, 0))
                if not low <= count <= high:
                    return False
            for value, (low, _) in limits.items():
                if low > counts.get(value, 0):
                    return False
        return True


class MoveTargets:
    """The legal moves of one turn, indexed by the boards they lead through and to."""

    def __init__(self, position: Position, moves: Sequence[Move], sensing: str) -> None:
        self.position = position
        self.moves = tuple(moves)
        self.sensing = sensing
        self.truth = true_occupancy(position)
        self.base = sense(self.truth, sensing)
        self._base_total = sum(1 for v in self.base if v != EMPTY)
        self._base_colours = Counter(v for v in self.base if v != EMPTY)
        #: Sensed result occupancy -> the moves ending there.
        self.result_index: dict[Occupancy, list[Move]] = {}
        #: Sensed result occupancy -> the true-colour occupancy of its first move's result.
        self.result_truth: dict[Occupancy, Occupancy] = {}
        #: The true-colour occupancy of each move's result, by move index.
        self.result_truths: list[Occupancy] = []
        invisible: list[Move] = []
        for move in self.moves:
            truth = true_occupancy(move.after)
            self.result_truths.append(truth)
            sensed = sense(truth, sensing)
            if sensed == self.base:
                invisible.append(move)
            else:
                self.result_index.setdefault(sensed, []).append(move)
                self.result_truth.setdefault(sensed, truth)
        #: Moves a board of this sensing cannot tell apart from the position itself.
        self.invisible = tuple(invisible)
        self._partials: dict[BoardKey, list[tuple[Move, tuple[Step, ...]]]] | None = None
        self._allowances: list[_Allowance] | None = None

    # -- look-ups ---------------------------------------------------------------------------------

    def results(self, board: Occupancy) -> tuple[Move, ...]:
        return tuple(self.result_index.get(board, ()))

    def partial(self, board: Occupancy) -> tuple[tuple[Move, tuple[Step, ...]], ...]:
        """Split moves with some parts done, each with the steps still to do."""
        if board == self.base or board in self.result_index:
            return ()
        if self._partials is None:
            self._partials = self._index_partials()
        return tuple(self._partials.get(self._board_key(board), ()))

    def partial_among(
        self, board: Occupancy, moves: Sequence[Move]
    ) -> tuple[tuple[Move, tuple[Step, ...]], ...]:
        """Like :meth:`partial`, trying every subset of the parts of ``moves``.

        The index holds every subset only for splits of up to three parts; a Hasbro team 7 of
        four to seven parts played in another order is found here (up to 126 subsets a move,
        so only for the few moves a board is on its way to).
        """
        key = self._board_key(board)
        found = []
        for move in moves:
            count = len(move.steps)
            if count <= _ALL_SUBSETS_UP_TO:
                continue
            for size in range(1, count):
                done = next(
                    (
                        chosen
                        for chosen in combinations(range(count), size)
                        if self._steps_key([move.steps[i] for i in chosen]) == key
                    ),
                    None,
                )
                if done is not None:
                    remaining = tuple(s for i, s in enumerate(move.steps) if i not in done)
                    found.append((move, remaining))
                    break
        return tuple(found)

    def prepare(self) -> None:
        """Build the indexes now rather than at the first change of the board."""
        if self._partials is None:
            self._partials = self._index_partials()
        if self._allowances is None:
            self._allowances = [self._allowance(i, m) for i, m in enumerate(self.moves)]

    def on_the_way(self, board: Occupancy) -> tuple[Move, ...]:
        """The moves ``board`` could be a moment in the middle of (see the module docstring)."""
        if board == self.base:
            return ()
        counts = Counter(v for v in board if v != EMPTY)
        if sum(counts.values()) > self._base_total:
            return ()  # a pawn more than there are: nothing explains that
        if self.sensing != PRESENCE and any(
            n > self._base_colours.get(v, 0) for v, n in counts.items()
        ):
            return ()
        changed = [cell for cell in SQUARE_CELLS if board[cell] != self.base[cell]]
        areas = {
            index: _area_counts(board, first)
            for index, first in enumerate(AREA_STARTS)
            if board[first : first + SPOTS_PER_AREA] != self.base[first : first + SPOTS_PER_AREA]
        }
        if self._allowances is None:
            self._allowances = [self._allowance(i, m) for i, m in enumerate(self.moves)]
        return tuple(
            move
            for move, allowance in zip(self.moves, self._allowances, strict=True)
            if allowance.accepts(board, changed, areas)
        )

    def disturbed(self, move: Move) -> tuple[frozenset[int], ...]:
        """Where a move's pawns must be lifted from, even if its result looks like the position:
        for each such pawn the cells it may be lifted from (any spot of a START or HOME)."""
        places = []
        for step in move.steps:
            if step.origin in (START, HOME):
                places.append(frozenset(area_cells(step.origin, step.colour)))
            else:
                places.append(frozenset({cell_of(step.colour, step.origin)}))
            if step.kind == StepKind.SWITCH:
                places.append(frozenset({step.target}))
            places.extend(frozenset({square}) for _, square in step.bumped)
        return tuple(places)

    # -- building ---------------------------------------------------------------------------------

    def _value(self, colour: int) -> int:
        return PAWN if self.sensing == PRESENCE else colour

    def _index_partials(self) -> dict[BoardKey, list[tuple[Move, tuple[Step, ...]]]]:
        index: dict[BoardKey, list[tuple[Move, tuple[Step, ...]]]] = {}
        for move in self.moves:
            steps = move.steps
            count = len(steps)
            if count < 2:
                continue
            if count <= _ALL_SUBSETS_UP_TO:
                chosen = [c for size in range(1, count) for c in combinations(range(count), size)]
            else:
                chosen = [tuple(range(size)) for size in range(1, count)]
                chosen += [(i,) for i in range(1, count)]
            for done in chosen:
                key = self._steps_key([steps[i] for i in done])
                if key is None:
                    continue
                remaining = tuple(step for i, step in enumerate(steps) if i not in done)
                entries = index.setdefault(key, [])
                if all(m is not move for m, _ in entries):
                    entries.append((move, remaining))
        return index

    # A board is keyed by how it differs from the position: the track and safety squares that
    # differ, and the START and HOME areas that differ.  Keys of part-done moves are built from
    # their steps alone, without building whole positions: a Hasbro team 7 has hundreds of moves.

    def _board_key(self, board: Occupancy) -> BoardKey:
        base = self.base
        squares = tuple((cell, board[cell]) for cell in SQUARE_CELLS if board[cell] != base[cell])
        areas = tuple(
            (index, board[first : first + SPOTS_PER_AREA])
            for index, first in enumerate(AREA_STARTS)
            if board[first : first + SPOTS_PER_AREA] != base[first : first + SPOTS_PER_AREA]
        )
        return squares, areas

    def _steps_key(self, steps: Sequence[Step]) -> BoardKey | None:
        """The key of the board after only ``steps``, or None if they cannot stand alone."""
        truth = self.truth
        cells: dict[int, int] = {}
        areas: dict[int, list[int]] = {}

        def area(place: int, colour: int) -> list[int]:
            index = area_index(cell_of(colour, place))
            if index not in areas:
                first = AREA_STARTS[index]
                areas[index] = [v for v in truth[first : first + SPOTS_PER_AREA] if v != EMPTY]
            return areas[index]

        def leave(colour: int, place: int) -> bool:
            if place in (START, HOME):
                pawns = area(place, colour)
                if colour not in pawns:
                    return False
                pawns.remove(colour)
                return True
            cell = cell_of(colour, place)
            if cells.get(cell, truth[cell]) != colour:
                return False
            cells[cell] = EMPTY
            return True

        def arrive(colour: int, place: int) -> bool:
            if place in (START, HOME):
                pawns = area(place, colour)
                pawns.append(colour)
                return len(pawns) <= SPOTS_PER_AREA
            cell = cell_of(colour, place)
            if cells.get(cell, truth[cell]) != EMPTY:
                return False
            cells[cell] = colour
            return True

        for step in steps:
            if not leave(step.colour, step.origin):
                return None
            if step.swapped >= 0 and not (
                leave(step.swapped, step.target) and arrive(step.swapped, step.origin)
            ):
                return None
            for colour, square in step.bumped:
                if not (leave(colour, square) and arrive(colour, START)):
                    return None
            if not arrive(step.colour, step.final):
                return None
        seen = self._value
        base = self.base
        squares = tuple(
            sorted(
                (cell, EMPTY if v == EMPTY else seen(v))
                for cell, v in cells.items()
                if (EMPTY if v == EMPTY else seen(v)) != base[cell]
            )
        )
        changed_areas = []
        for index in sorted(areas):
            pawns = sorted(seen(v) for v in areas[index])
            contents = tuple(pawns) + (EMPTY,) * (SPOTS_PER_AREA - len(pawns))
            first = AREA_STARTS[index]
            if contents != base[first : first + SPOTS_PER_AREA]:
                changed_areas.append((index, contents))
        return squares, tuple(changed_areas)

    def _allowance(self, index: int, move: Move) -> _Allowance:
        base = self.base
        result = sense(self.result_truths[index], self.sensing)
        allowance = _Allowance()
        cells = allowance.cells
        changed = {cell for cell in SQUARE_CELLS if base[cell] != result[cell]}

        def allow(cell: int, value: int) -> None:
            cells.setdefault(cell, {base[cell], result[cell]}).add(value)

        for cell in changed:
            allow(cell, result[cell])
        for step in move.steps:
            mover = self._value(step.colour)
            if step.origin not in (START, HOME):
                allow(cell_of(step.colour, step.origin), EMPTY)
            bumped_cells = {square for _, square in step.bumped}
            for _, square in step.bumped:
                allow(square, EMPTY)
            if step.kind == StepKind.SWITCH:
                allow(step.target, EMPTY)
                # The opponent put on the origin, before the mover's slide sweeps it away.
                allow(step.origin, self._value(step.swapped))
            way = [p for p in step.path if p not in (START, HOME)]
            if step.slide is not None:
                way += list(step.slide.squares)
            for place in way:
                cell = cell_of(step.colour, place)
                if base[cell] == EMPTY or cell in changed or cell in bumped_cells:
                    allow(cell, mover)
                if place < TRACK_SQUARES and cell in bumped_cells:
                    allow(cell, EMPTY)
        # START and HOME: each may lose the pawns that leave it and gain the pawns that come,
        # in any order (a Sorry! that sweeps the mover's own pawn back to START does both).
        leaving: Counter[tuple[int, int]] = Counter()
        coming: Counter[tuple[int, int]] = Counter()
        for step in move.steps:
            if step.origin in (START, HOME):
                leaving[
                    (area_index(cell_of(step.colour, step.origin)), self._value(step.colour))
                ] += 1
            if step.final in (START, HOME):
                coming[
                    (area_index(cell_of(step.colour, step.final)), self._value(step.colour))
                ] += 1
            for colour, _ in step.bumped:
                coming[(area_index(cell_of(colour, START)), self._value(colour))] += 1
        for area, first in enumerate(AREA_STARTS):
            before = _area_counts(base, first)
            flows = [key for key in set(leaving) | set(coming) if key[0] == area]
            if flows:
                limits = {value: (count, count) for value, count in before.items()}
                for _, value in flows:
                    count = before[value]
                    limits[value] = (count - leaving[(area, value)], count + coming[(area, value)])
                allowance.areas[area] = limits
        return allowance

"""Move recognition: which legal move did the players make on the physical board?

A :class:`Recogniser` is made for one turn: the position, the legal moves of the scanned card
and the board's layout.  Feed it every snapshot with its time; each call returns a decision:

* :class:`Waiting` - the board shows the position, or is changing;
* :class:`InProgress` - the board is part-way through some legal moves: a split 7 with one part
  done (for as long as the players like), or a pawn being walked, lifted, slid (for up to
  ``patience`` seconds of standing still);
* :class:`Recognised` - the board has shown exactly the result of one legal move for ``settle``
  seconds;
* :class:`Ambiguous` - it shows a result that several legal moves with different outcomes share
  (a presence board cannot see colours on the track), or it looks unchanged after the pawns of
  a switch were lifted (a presence board cannot see a switch at all): the companion must ask;
* :class:`Mismatch` - it has been stable and matches nothing legal: the corrections towards the
  nearest acceptable board, first one first, updated with every change until the board fits;
* :class:`Takeback` - it shows the position before the last move (``previous``).

Nothing is accepted that has not been stable for the settle time, and nothing but an exact
legal result: bumped pawns back in START, slid pawns at the slide's end, swept pawns in START.
The decision depends only on the debounced board and the time (see debounce.py), so flicker
shorter than ``flicker`` seconds changes nothing, and ``tick(at)`` lets a stable board be
accepted when no new reading comes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from pawnlight.rules.moves import Move, Options, Step
from pawnlight.rules.position import Position

from .cells import AREA_STARTS, EMPTY, SPOTS_PER_AREA, SQUARE_CELLS, area_index
from .debounce import Debouncer
from .guidance import Correction, corrections
from .layout import Layout
from .snapshot import Occupancy, read_occupancy, sense, true_occupancy
from .targets import MoveTargets


@dataclass(frozen=True)
class Waiting:
    """Nothing to decide: the board shows the position, or is still changing."""


@dataclass(frozen=True)
class InProgress:
    """The board is part-way through these moves; ``remaining[i]`` are the steps of
    ``moves[i]`` not done yet.  ``partial``: whole parts of a split are done (a stage people
    may pause at); otherwise pawns are in motion (walked, in the hand, sliding)."""

    moves: tuple[Move, ...]
    remaining: tuple[tuple[Step, ...], ...]
    partial: bool


@dataclass(frozen=True)
class Recognised:
    """The players made ``move``.  ``alternatives``: other legal moves with the very same
    result (a split 7 that is also a straight 7, say), which no board can tell apart and which
    change nothing in the game."""

    move: Move
    alternatives: tuple[Move, ...] = ()


@dataclass(frozen=True)
class Ambiguous:
    """The board fits each of ``moves`` (one per distinct result): ask which.  ``unchanged``:
    the board also still looks like the position, so "no move yet" is an answer too."""

    moves: tuple[Move, ...]
    unchanged: bool = False


@dataclass(frozen=True)
class Mismatch:
    """The stable board fits nothing legal.  Do ``corrections`` in order (show the first);
    they lead to ``target``: the result of ``move``, or the position itself (``move`` None)."""

    corrections: tuple[Correction, ...]
    target: Position
    move: Move | None = None

    @property
    def first(self) -> Correction | None:
        return self.corrections[0] if self.corrections else None


@dataclass(frozen=True)
class Takeback:
    """The board is back at the position before the last move."""

    position: Position


Decision = Waiting | InProgress | Recognised | Ambiguous | Mismatch | Takeback


class _Fit(Enum):
    """What a stable board is, next to the turn's position and legal moves."""

    POSITION = "the position before the move"
    RESULT = "a legal move's result"
    PREVIOUS = "the position before the last move (a takeback)"
    PARTIAL = "part of a legal move, the rest still to do"
    TRANSIT = "on the way of a legal move"
    FOREIGN = "nothing legal"


_CACHE_LIMIT = 4096


class Recogniser:
    """Recognises one turn's move from a stream of snapshots (see the module docstring).

    ``options``: the legal moves of the scanned card (an Options or a list of moves; none for a
    turn that can only be forfeited, or to guide the board back to ``position``).
    ``previous``: the position before the last move, to recognise a takeback.
    Times are seconds as floats from any clock, passed in; they must not go backwards.
    """

    def __init__(
        self,
        layout: Layout,
        position: Position,
        options: Options | Sequence[Move] = (),
        *,
        previous: Position | None = None,
        settle: float = 0.3,
        flicker: float = 0.05,
        patience: float = 2.0,
    ) -> None:
        if not 0 <= flicker < settle <= patience:
            raise ValueError("need 0 <= flicker < settle <= patience")
        self.layout = layout
        self.position = position
        self.moves: tuple[Move, ...] = tuple(
            options.moves if isinstance(options, Options) else options
        )
        self.previous = previous
        self.settle = settle
        self.patience = patience
        self.targets = MoveTargets(position, self.moves, layout.sensing)
        self.expected: Occupancy = self.targets.base
        self._previous_board = (
            None if previous is None else sense(true_occupancy(previous), layout.sensing)
        )
        self._debounce = Debouncer(flicker, reference=self.expected)
        self._mismatch_active = False
        self._kinds: dict[Occupancy, tuple[_Fit, object]] = {}
        self._mismatches: dict[Occupancy, Mismatch] = {}
        #: On-the-way boards known not to be a long split part-way (see _decide).
        self._stuck: set[Occupancy] = set()
        self.decision: Decision = Waiting()

    # -- the stream -------------------------------------------------------------------------------

    def feed(self, reading: Sequence[int], at: float, now: float | None = None) -> Decision:
        """A reading of all 112 sensor channels taken at time ``at``, decided at ``now`` (the
        later of ``at`` and the last tick when not given): a reading the board timed may arrive
        after ticks later than it (see debounce)."""
        return self.feed_occupancy(read_occupancy(self.layout, reading), at, now)

    def feed_occupancy(self, occupancy: Occupancy, at: float, now: float | None = None) -> Decision:
        self._debounce.feed(occupancy, at)
        return self.tick(max(self._debounce.now, at if now is None else now))

    def tick(self, at: float) -> Decision:
        """Let time pass without a new reading: a board stable long enough is decided."""
        self._debounce.advance(at)
        self.decision = self._decide(at)
        return self.decision

    def prepare(self) -> None:
        """Do the one-off indexing now (a Hasbro team 7 may have hundreds of legal moves), for
        instance while the player reads the card, rather than at the board's first change."""
        self.targets.prepare()

    @property
    def board(self) -> Occupancy | None:
        """The debounced board (None before the first reading)."""
        return self._debounce.board

    @property
    def settled(self) -> bool:
        """The latest reading is decided: no change waits to be taken in, and at the last
        reading or tick the board had been still for ``settle`` (true before any reading)."""
        debounce = self._debounce
        if debounce.board is None:
            return True
        return not debounce.pending and debounce.held(debounce.now) >= self.settle

    # -- deciding ---------------------------------------------------------------------------------

    def _decide(self, at: float) -> Decision:
        board = self._debounce.board
        if board is None:
            return Waiting()
        held = self._debounce.held(at)
        settled = held >= self.settle
        kind, found = self._classify(board)
        if kind == _Fit.TRANSIT and (self._mismatch_active or held >= self.patience):
            # Standing still part-way: a long split played in an unusual order is still fine.
            moving: tuple[Move, ...] = found  # type: ignore[assignment]
            partial = () if board in self._stuck else self.targets.partial_among(board, moving)
            if partial:
                kind, found = _Fit.PARTIAL, partial
                self._kinds[board] = (kind, found)
            else:
                self._stuck.add(board)
                kind = _Fit.FOREIGN
        if kind == _Fit.FOREIGN:
            if self._mismatch_active or settled:
                self._mismatch_active = True
                return self._mismatch(board)
            return Waiting()
        self._mismatch_active = False
        if kind == _Fit.POSITION:
            return self._unchanged() if settled else Waiting()
        if kind == _Fit.RESULT:
            return self._verdict(found) if settled else Waiting()  # type: ignore[arg-type]
        if kind == _Fit.PREVIOUS:
            assert self.previous is not None
            return Takeback(self.previous) if settled else Waiting()
        if kind == _Fit.PARTIAL:
            pairs: tuple[tuple[Move, tuple[Step, ...]], ...] = found  # type: ignore[assignment]
            return InProgress(tuple(m for m, _ in pairs), tuple(r for _, r in pairs), True)
        moving = found  # type: ignore[assignment]
        return InProgress(moving, tuple(m.steps for m in moving), False)

    def _classify(self, board: Occupancy) -> tuple[_Fit, object]:
        known = self._kinds.get(board)
        if known is not None:
            return known
        targets = self.targets
        result: tuple[_Fit, object]
        if board == self.expected:
            result = (_Fit.POSITION, None)
        elif moves := targets.results(board):
            result = (_Fit.RESULT, moves)
        elif board == self._previous_board:
            result = (_Fit.PREVIOUS, None)
        elif partial := targets.partial(board):
            result = (_Fit.PARTIAL, partial)
        elif moving := targets.on_the_way(board):
            result = (_Fit.TRANSIT, moving)
        else:
            result = (_Fit.FOREIGN, None)
        if len(self._kinds) >= _CACHE_LIMIT:
            self._kinds.clear()
        self._kinds[board] = result
        return result

    def _handled(
        self, moves: Sequence[Move], squares_only: bool = False, glimpses: bool = False
    ) -> list[Move]:
        """The moves all of whose pawns were lifted while the board was away from the position
        (``squares_only``: all of whose pawns on track and safety squares; ``glimpses``: or
        seen lifted for less than the flicker time, see Debouncer.glimpsed).

        A presence board sees where pawns stand, not which pawn was replaced: after a Sorry!
        onto one of two red pawns, or an 11's switch, the squares people lifted pawns from are
        the only trace of which move it was.
        """
        touched = self._debounce.touched
        if glimpses:
            touched |= self._debounce.glimpsed
        found = []
        for move in moves:
            places = self.targets.disturbed(move)
            if squares_only:
                squares = [cells for cells in places if len(cells) == 1]
                places = tuple(squares) or places  # a move of areas alone needs them touched
            if all(cells & touched for cells in places):
                found.append(move)
        return found

    def _verdict(self, moves: Sequence[Move]) -> Decision:
        distinct = _distinct(moves)
        if len(distinct) > 1:
            handled = self._handled(moves)
            if handled:
                moves = handled
                distinct = _distinct(handled)
        if len(distinct) > 1:
            return Ambiguous(distinct)
        chosen = distinct[0]
        return Recognised(chosen, tuple(m for m in moves if m is not chosen))

    def _unchanged(self) -> Decision:
        """The board looks like the position: was a move made that it cannot show?

        A pawn taken from a START or HOME and another put back there changes nothing anyone
        can see (the spots are interchangeable, and a hand that puts one in and takes one out
        is quicker than the sensors), so people may not do it at all: only the squares of such
        a move need to have been lifted.  (A Sorry! from START onto a pawn of the mover's own
        colour: lifting that pawn and putting it back is the whole move.)  A lift glimpsed for
        less than the flicker time counts too: for a move that ends where it began (a 4 back
        onto a slide that carries the pawn home again) that lift is the only trace, and on a
        busy Pi its readings can arrive together.  The answer is only ever a question, "no
        move yet" one of its answers.
        """
        suspects = self._handled(self.targets.invisible, squares_only=True, glimpses=True)
        if not suspects:
            return Waiting()
        return Ambiguous(_distinct(suspects), unchanged=True)

    # -- guidance ---------------------------------------------------------------------------------

    def _mismatch(self, board: Occupancy) -> Mismatch:
        known = self._mismatches.get(board)
        if known is None:
            known = self._nearest(board)
            if len(self._mismatches) >= _CACHE_LIMIT:
                self._mismatches.clear()
            self._mismatches[board] = known
        return known

    def _nearest(self, board: Occupancy) -> Mismatch:
        """Guidance towards the nearest acceptable board: the position, or a legal result when
        the board is closer to that.

        Nearest means fewest corrections; between equally near boards, the one that agrees with
        more of the track and safety squares (the START and HOME counts are what people get
        wrong after a bump); then a result the board is visibly on its way to (a pawn counted
        one square short is guided on, not back); then the position itself, rather than a guess
        at which move was meant.
        """
        targets = self.targets
        sensing = self.layout.sensing
        base = self.expected
        changed = _differing(board, base)
        preferred = _one_result(targets, targets.on_the_way(board))

        def candidate(
            truth: Occupancy, sensed: Occupancy, rank: int, move: Move | None
        ) -> tuple[tuple[int, int, int], Mismatch]:
            found = corrections(board, truth, sensing)
            squares = _discrepancies(board, sensed, changed | _differing(sensed, base))[1]
            target = self.position if move is None else move.after
            return (len(found), squares, rank), Mismatch(found, target, move)

        best_key, best = candidate(targets.truth, base, 1, None)
        if preferred is not None:
            key, found = candidate(
                targets.result_truth[preferred], preferred, 0, _simplest(targets.results(preferred))
            )
            if key < best_key:
                best_key, best = key, found
        ranked: list[tuple[int, int, int, Occupancy]] = []
        for result in targets.result_index:
            if result != preferred:
                bound, squares = _discrepancies(board, result, changed | _differing(result, base))
                ranked.append((bound, squares, len(ranked), result))
        ranked.sort()
        for bound, squares, _, result in ranked:
            if (bound, squares) >= best_key[:2]:
                break  # no later candidate can be nearer
            key, found = candidate(
                targets.result_truth[result], result, 2, _simplest(targets.results(result))
            )
            if key < best_key:
                best_key, best = key, found
        return best


def _differing(a: Occupancy, b: Occupancy) -> set[int]:
    return {cell for cell, (x, y) in enumerate(zip(a, b, strict=True)) if x != y}


def _discrepancies(board: Occupancy, target: Occupancy, cells: set[int]) -> tuple[int, int]:
    """A lower bound of the corrections from ``board`` to the sensed ``target`` (each fixes at
    most one surplus and one shortage), and how many track and safety squares differ."""
    discrepancies = 0
    squares = 0
    areas = set()
    for cell in cells:
        if cell in SQUARE_CELLS:
            have, want = board[cell], target[cell]
            if have != want:
                squares += 1
                discrepancies += 1 if EMPTY in (have, want) else 2
        else:
            areas.add(area_index(cell))
    for index in areas:
        first = AREA_STARTS[index]
        have_counts = Counter(board[first : first + SPOTS_PER_AREA])
        want_counts = Counter(target[first : first + SPOTS_PER_AREA])
        have_counts.pop(EMPTY, None)
        want_counts.pop(EMPTY, None)
        discrepancies += sum(((have_counts - want_counts) + (want_counts - have_counts)).values())
    return (discrepancies + 1) // 2, squares


def _one_result(targets: MoveTargets, moving: Sequence[Move]) -> Occupancy | None:
    results = {sense(true_occupancy(m.after), targets.sensing) for m in moving}
    results.discard(targets.base)
    return results.pop() if len(results) == 1 else None


def _simplest(moves: Sequence[Move]) -> Move:
    """Of moves with the same result, the one with fewest parts (then the generator's order)."""
    return min(moves, key=lambda m: len(m.steps))


def _distinct(moves: Sequence[Move]) -> tuple[Move, ...]:
    """One move per distinct resulting position, the simplest of each."""
    by_result: dict[Position, list[Move]] = {}
    for move in moves:
        by_result.setdefault(move.after, []).append(move)
    return tuple(_simplest(group) for group in by_result.values())

"""The people at a physical board, for recognition tests.

:class:`PhysicalBoard` (devices/sim/board.py, the one model of pawns on a board) holds real
pawns on real cells (START and HOME pawns on particular spots).  :func:`act_out` turns a legal
move into what people actually do: lift pawns, walk them square by square, drag them along
slides, put bumped and swept pawns back in START before or after, lift both pawns of a switch,
play a split 7's parts in either order or interleaved; it returns the board after every single
lift or put.  :func:`timeline` gives those boards times, with short and long pauses and sensor
flicker, and :func:`run` feeds a timeline to a recogniser the way the companion does.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from pawnlight.board.cells import CELLS, EMPTY, area_cells, cell_of, cells_of
from pawnlight.board.layout import Layout
from pawnlight.board.recognise import Decision, Recogniser
from pawnlight.board.snapshot import reading_for
from pawnlight.devices.sim.board import PhysicalBoard
from pawnlight.rules.board import HOME, START, Place
from pawnlight.rules.moves import Move, StepKind
from pawnlight.rules.position import Position

# -- acting out a move ----------------------------------------------------------------------------


@dataclass
class _Journey:
    """One pawn's trip: lifted from ``origin``, maybe put down on ``via`` squares on the way,
    put on ``end``.  Origins and ends in START or HOME are areas: any spot will do."""

    colour: int
    origin: tuple[int, int]  # (colour, place) as the rules name it
    end: tuple[int, int]
    via: list[int] = field(default_factory=list)  # cells
    stage: int = 0  # 0: on origin; 1..len(via): on via[stage-1] or in hand; done when finished
    in_hand: bool = False
    at: int = -1  # the cell it stands on when not in hand
    done: bool = False


def _journeys(board: PhysicalBoard, move: Move, rng: random.Random, walk: float) -> list[_Journey]:
    """The pawn trips of a move; a pawn moved twice (placed by one part, bumped by the next)
    makes one trip."""
    journeys: list[_Journey] = []

    def arriving_at(colour: int, place: int) -> _Journey | None:
        for journey in journeys:
            if journey.end == (colour, place):
                return journey
        return None

    for step in move.steps:
        # A pawn bumped by this step may have been put there by an earlier one.
        earlier_journeys = list(journeys)
        mover = arriving_at(step.colour, step.origin) if step.origin not in (START, HOME) else None
        via: list[int] = []
        if rng.random() < walk:
            via += [cell_of(step.colour, p) for p in step.path[:-1] if p not in (START, HOME)]
        if step.slide is not None:
            via.append(step.target)
            if rng.random() < walk:
                via += [square for square in step.slide.squares[1:-1]]
        if mover is not None:
            mover.via += [cell_of(mover.end[0], mover.end[1]), *via]
            mover.end = (step.colour, step.final)
        else:
            journeys.append(
                _Journey(step.colour, (step.colour, step.origin), (step.colour, step.final), via)
            )
        if step.kind == StepKind.SWITCH:
            # The opponent put on the origin may then be swept by the mover's slide.
            swapped = _Journey(
                step.swapped, (step.swapped, step.target), (step.swapped, step.origin)
            )
            journeys.append(swapped)
            earlier_journeys.append(swapped)
        for colour, square in step.bumped:
            earlier = next((j for j in earlier_journeys if j.end == (colour, square)), None)
            if earlier is not None:
                earlier.via.append(square)
                earlier.end = (colour, START)
            else:
                journeys.append(_Journey(colour, (colour, square), (colour, START)))
    return journeys


def act_out(
    position: Position, move: Move, rng: random.Random, walk: float = 0.5
) -> list[tuple[int, ...]]:
    """Every board (true colours, per cell) from the position to the move's result, one lift
    or put at a time, in a random but physically possible order."""
    board = PhysicalBoard.from_position(position, rng)
    journeys = _journeys(board, move, rng, walk)
    for journey in journeys:
        colour, place = journey.origin
        if place in (START, HOME):
            spots = [c for c in area_cells(place, colour) if board.cells[c] == colour]
            taken = {j.at for j in journeys if j.at >= 0}
            journey.at = rng.choice([c for c in spots if c not in taken])
        else:
            journey.at = cell_of(colour, place)
    states = [tuple(board.cells)]
    while not all(j.done for j in journeys):
        choices = []
        for journey in journeys:
            if journey.done:
                continue
            if not journey.in_hand:
                choices.append(("lift", journey, -1))
                continue
            target = _next_place(board, journey)
            if target is not None:
                choices.append(("put", journey, target))
        kind, journey, target = rng.choice(choices)
        if kind == "lift":
            assert board.cells[journey.at] == journey.colour
            board.cells[journey.at] = EMPTY
            journey.in_hand = True
        else:
            board.cells[target] = journey.colour
            journey.in_hand = False
            journey.at = target
            if journey.stage >= len(journey.via):
                journey.done = True
            else:
                journey.stage += 1
        states.append(tuple(board.cells))
    return states


def _next_place(board: PhysicalBoard, journey: _Journey) -> int | None:
    """Where a pawn in the hand is put next: the next free via square, else its end."""
    while journey.stage < len(journey.via):
        cell = journey.via[journey.stage]
        if board.cells[cell] == EMPTY:
            return cell
        journey.stage += 1  # taken: counted over, not put down
    colour, place = journey.end
    if place in (START, HOME):
        free = [c for c in area_cells(place, colour) if board.cells[c] == EMPTY]
        return free[0] if free else None
    cell = cell_of(colour, place)
    return cell if board.cells[cell] == EMPTY else None


# -- time -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Event:
    at: float
    cells: tuple[int, ...]
    #: True for a flicker reading (a sensor bouncing), which the recogniser must ignore.
    flicker: bool = False


def timeline(
    states: list[tuple[int, ...]],
    rng: random.Random,
    *,
    start: float = 0.0,
    long_pause: float = 0.25,
    flicker: float = 0.2,
    short_only: set[int] | None = None,
    settle: float = 0.3,
) -> list[Event]:
    """Times for a sequence of boards: mostly pauses shorter than the settle time, sometimes
    long ones (up to 1.5 s, never for states in ``short_only``), and flicker in the pauses."""
    events = [Event(start, states[0])]
    at = start + rng.uniform(0.4, 0.8)  # the board rests at the position first
    for index, cells in enumerate(states[1:], start=1):
        events.append(Event(at, cells))
        if index == len(states) - 1:
            break
        if rng.random() < long_pause and not (short_only and index in short_only):
            gap = rng.uniform(settle + 0.05, 1.5)
        else:
            gap = rng.uniform(0.06, settle - 0.05)
        if rng.random() < flicker and gap > 0.1:
            events.extend(_flicker(cells, at + rng.uniform(0.01, gap - 0.08), rng))
        at += gap
    return events


def _flicker(cells: tuple[int, ...], at: float, rng: random.Random) -> list[Event]:
    """A sensor (or two) bouncing for a few milliseconds."""
    bounced = list(cells)
    for cell in rng.sample(range(CELLS), rng.choice((1, 1, 2))):
        bounced[cell] = rng.choice([v for v in (EMPTY, 0, 1, 2, 3) if v != cells[cell]])
    length = rng.uniform(0.001, 0.03)
    return [Event(at, tuple(bounced), True), Event(at + length, cells, True)]


def run(
    recogniser: Recogniser, events: list[Event], layout: Layout, ticks: bool = True
) -> list[tuple[float, Decision]]:
    """Feed every event (with a tick just before each next one); the decisions with times."""
    decisions: list[tuple[float, Decision]] = []
    for index, event in enumerate(events):
        decisions.append((event.at, recogniser.feed(reading_for(layout, event.cells), event.at)))
        if ticks and index + 1 < len(events):
            before_next = events[index + 1].at - 0.001
            if before_next > event.at:
                decisions.append((before_next, recogniser.tick(before_next)))
    return decisions


# -- driving a recogniser by hand -----------------------------------------------------------------


class Table:
    """A recogniser at a physical board, driven by hand: ``lift``, ``put``, ``wait``.

    Places are named like people name them: ``"T12"``, ``"red S2"``, ``"blue START"``.  Every
    action first lets ``pause`` seconds pass, then changes the board and feeds the reading; it
    returns the recogniser's decision.
    """

    def __init__(
        self,
        layout: Layout,
        position: Position,
        options,
        *,
        previous: Position | None = None,
        **settings,
    ) -> None:
        self.layout = layout
        self.board = PhysicalBoard.from_position(position)
        self.recogniser = Recogniser(layout, position, options, previous=previous, **settings)
        self.now = 0.0
        self.hand: list[int] = []
        self.decision: Decision = self.recogniser.feed(self.board.reading(layout), self.now)

    def _cell(self, where: str, lifting: bool) -> int:
        cells = list(cells_of(Place.parse(where)))
        if len(cells) == 1:
            return cells[0]
        wanted = (lambda v: v != EMPTY) if lifting else (lambda v: v == EMPTY)
        return next(cell for cell in cells if wanted(self.board.cells[cell]))

    def _feed(self) -> Decision:
        self.decision = self.recogniser.feed(self.board.reading(self.layout), self.now)
        return self.decision

    def lift(self, where: str, pause: float = 0.15) -> Decision:
        self.now += pause
        cell = self._cell(where, lifting=True)
        assert self.board.cells[cell] != EMPTY, f"no pawn on {where}"
        self.hand.append(self.board.cells[cell])
        self.board.cells[cell] = EMPTY
        return self._feed()

    def put(self, where: str, colour: int | None = None, pause: float = 0.15) -> Decision:
        """Put a pawn from the hand (the last one lifted, or the one of ``colour``)."""
        self.now += pause
        cell = self._cell(where, lifting=False)
        assert self.board.cells[cell] == EMPTY, f"{where} is taken"
        if colour is None:
            colour = self.hand.pop()
        elif colour in self.hand:
            self.hand.remove(colour)
        self.board.cells[cell] = colour
        return self._feed()

    def move(self, source: str, target: str, pause: float = 0.15) -> Decision:
        self.lift(source, pause)
        return self.put(target, pause=pause)

    def walk(self, squares: list[str], pause: float = 0.15) -> Decision:
        """Lift the pawn from the first square and put it down on each of the others in turn."""
        self.lift(squares[0], pause)
        for index, square in enumerate(squares[1:]):
            self.put(square, pause=pause)
            if index < len(squares) - 2:
                self.lift(square, pause)
        return self.decision

    def wait(self, seconds: float) -> Decision:
        self.now += seconds
        self.decision = self.recogniser.tick(self.now)
        return self.decision

    def settle(self) -> Decision:
        return self.wait(self.recogniser.settle + 0.01)

    def flicker(self, where: str, length: float = 0.01, pause: float = 0.05) -> Decision:
        """A sensor bouncing: the place reads the opposite for ``length`` seconds."""
        self.now += pause
        cell = cells_of(Place.parse(where))[0]
        original = self.board.cells[cell]
        self.board.cells[cell] = 0 if original == EMPTY else EMPTY
        self._feed()
        self.now += length
        self.board.cells[cell] = original
        return self._feed()

"""A physical board and the people at it, for recognition tests.

:class:`PhysicalBoard` holds real pawns on real cells (START and HOME pawns on particular
spots).  :func:`act_out` turns a legal move into what people actually do: lift pawns, walk them
square by square, drag them along slides, put bumped and swept pawns back in START before or
after, lift both pawns of a switch, play a split 7's parts in either order or interleaved; it
returns the board after every single lift or put.  :func:`timeline` gives those boards times,
with short and long pauses and sensor flicker, and :func:`run` feeds a timeline to a
recogniser the way the companion does.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from pawnlight.board.cells import CELLS, EMPTY, area_cells, cell_of
from pawnlight.board.layout import Layout
from pawnlight.board.recognise import Decision, Recogniser
from pawnlight.board.snapshot import Occupancy, canonical, reading_for, sense
from pawnlight.rules.board import HOME, START
from pawnlight.rules.moves import SWITCH, Move
from pawnlight.rules.position import Position


class PhysicalBoard:
    def __init__(self, position: Position, rng: random.Random | None = None) -> None:
        self.cells = [EMPTY] * CELLS
        for colour, place in position.items():
            if place in (START, HOME):
                free = [c for c in area_cells(place, colour) if self.cells[c] == EMPTY]
                cell = rng.choice(free) if rng else free[0]
            else:
                cell = cell_of(colour, place)
            self.cells[cell] = colour

    def occupancy(self, sensing: str) -> Occupancy:
        return sense(canonical(self.cells), sensing)

    def reading(self, layout: Layout) -> tuple[int, ...]:
        return reading_for(layout, tuple(self.cells))


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
        if step.kind == SWITCH:
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
    board = PhysicalBoard(position, rng)
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

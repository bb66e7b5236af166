"""LED frames: what every one of the board's 132 LEDs shows, as a function of time.

A frame is a tuple of 132 ``(r, g, b)`` tuples indexed by LED (the layout says which LED sits
under which place).  Everything that moves - blinking, breathing, chasing, the celebration - is
computed from the ``at`` value passed in, never from a timer, so a frame is a pure function of
the game, the recogniser's decision and the time, and tests can look at any instant.

The colours and patterns are documented, with a picture, in docs/leds.md.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from pawnlight.rules.board import HOME, START, TRACK_SQUARES
from pawnlight.rules.moves import Move, Options, Step
from pawnlight.rules.position import Position

from .cells import LEDS, SLIDE_CHANNEL_SQUARES, Spot, area_cells, cell_of
from .guidance import CHECK, LIFT, MOVE, PUT, Correction
from .layout import Layout
from .recognise import Ambiguous, Decision, InProgress, Mismatch, Recognised

RGB = tuple[int, int, int]
Frame = tuple[RGB, ...]

OFF: RGB = (0, 0, 0)
WHITE: RGB = (255, 255, 255)
#: Amber: a slide that would fire.
SLIDE_WARNING: RGB = (255, 90, 0)
#: Magenta: faults (a reading of no known colour, an error), never a pawn colour.
ERROR: RGB = (255, 0, 150)
#: The pawn colours as LEDs, red, blue, yellow, green (rules.board.COLOURS order).
PAWN_COLOURS: tuple[RGB, ...] = ((255, 0, 0), (0, 60, 255), (255, 170, 0), (0, 200, 40))

#: Patterns, in hertz (blinks per second) and seconds.
BUMP_BLINK_HZ = 2.0  # pawns that would be bumped or swept: white, on half the time
LIFT_BLINK_HZ = 4.0  # a square to clear: fast white
PUT_BLINK_HZ = 1.5  # a place to fill: slow, in the colour of the pawn that belongs there
CHECK_BLINK_HZ = 4.0  # a pawn whose colour cannot be read: fast magenta
TURN_BREATH_PERIOD = 2.0  # the player's START spots breathe in the player's colour
SLIDE_CHASE_STEP = 0.15  # seconds per LED of the amber chase along a slide channel
CANDIDATE_PERIOD = 1.0  # an ambiguous board shows each candidate move for this long
DIM = 0.25  # pawns that can move, and corrections after the first
TURN_LOW, TURN_HIGH = 0.08, 0.45  # breathing range of the turn indicator


def scale(rgb: RGB, factor: float) -> RGB:
    return (round(rgb[0] * factor), round(rgb[1] * factor), round(rgb[2] * factor))


def blink(at: float, hz: float, duty: float = 0.5) -> bool:
    """On for the first ``duty`` of every period; a pure function of time."""
    return (at * hz) % 1.0 < duty


def breathe(at: float, period: float, low: float, high: float) -> float:
    """A smooth rise and fall between ``low`` and ``high``, lowest at multiples of ``period``."""
    return low + (high - low) * (1 - math.cos(2 * math.pi * at / period)) / 2


class Canvas:
    """A frame being painted; later paint covers earlier paint."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.leds: list[RGB] = [OFF] * LEDS

    def cell(self, cell: int, rgb: RGB) -> None:
        self.leds[self.layout.led_of[cell]] = rgb

    def place(self, colour: int, place: int, rgb: RGB) -> None:
        """A pawn's place: a square, or every spot of its START or HOME."""
        if place in (START, HOME):
            for cell in area_cells(place, colour):
                self.cell(cell, rgb)
        else:
            self.cell(cell_of(colour, place), rgb)

    def spot(self, spot: Spot, rgb: RGB) -> None:
        for cell in spot.cells():
            self.cell(cell, rgb)

    def slide_channel(self, square: int, rgb: RGB) -> None:
        self.leds[self.layout.slide_led(square)] = rgb

    def frame(self) -> Frame:
        return tuple(self.leds)


# -- the turn -------------------------------------------------------------------------------------


def _turn(canvas: Canvas, player: int, at: float) -> None:
    level = breathe(at, TURN_BREATH_PERIOD, TURN_LOW, TURN_HIGH)
    canvas.place(player, START, scale(PAWN_COLOURS[player], level))


def _steps(canvas: Canvas, steps: Iterable[Step], at: float) -> None:
    """Paint steps: movable pawns dim, destinations bright, slides chasing, bumps blinking."""
    steps = list(steps)
    for step in steps:
        if step.origin not in (START, HOME):
            canvas.place(step.colour, step.origin, scale(PAWN_COLOURS[step.colour], DIM))
    for step in steps:
        canvas.place(step.colour, step.final, PAWN_COLOURS[step.colour])
    for step in steps:
        if step.slide is None:
            continue
        canvas.cell(step.slide.triangle, SLIDE_WARNING)
        channel = step.slide.channel
        lit = int(at / SLIDE_CHASE_STEP) % (len(channel) + 1)
        for index, square in enumerate(channel):
            canvas.slide_channel(square, SLIDE_WARNING if index < lit else OFF)
    if blink(at, BUMP_BLINK_HZ):
        for step in steps:
            for _, square in step.bumped:
                canvas.cell(square, WHITE)
            if step.swapped >= 0:
                canvas.cell(step.target, WHITE)


def turn_frame(layout: Layout, player: int, moves: Options | Sequence[Move], at: float) -> Frame:
    """Whose turn it is and every legal move of the scanned card."""
    canvas = Canvas(layout)
    _turn(canvas, player, at)
    _steps(canvas, (step for move in _moves(moves) for step in move.steps), at)
    return canvas.frame()


def progress_frame(layout: Layout, player: int, progress: InProgress, at: float) -> Frame:
    """Part-way through a move: only the steps still to do of the moves still possible (after
    a split 7's first part, the choices for the second)."""
    canvas = Canvas(layout)
    _turn(canvas, player, at)
    _steps(canvas, (step for steps in progress.remaining for step in steps), at)
    return canvas.frame()


def candidates_frame(layout: Layout, player: int, ambiguous: Ambiguous, at: float) -> Frame:
    """A board that fits several moves: each candidate in turn, the others dim."""
    canvas = Canvas(layout)
    _turn(canvas, player, at)
    moves = ambiguous.moves
    shown = int(at / CANDIDATE_PERIOD) % len(moves) if moves else 0
    for index, move in enumerate(moves):
        if index != shown:
            for step in move.steps:
                canvas.place(step.colour, step.final, scale(PAWN_COLOURS[step.colour], DIM))
    if moves:
        _steps(canvas, moves[shown].steps, at)
    return canvas.frame()


def recognised_frame(layout: Layout, move: Move) -> Frame:
    """The move made: where its pawns ended, steady."""
    canvas = Canvas(layout)
    for step in move.steps:
        canvas.place(step.colour, step.final, PAWN_COLOURS[step.colour])
    return canvas.frame()


# -- guidance, errors, the end --------------------------------------------------------------------


def guidance_frame(
    layout: Layout, corrections: Sequence[Correction], at: float, player: int = -1
) -> Frame:
    """Corrections: the first one blinking (clear: fast white; fill: slow, in the colour that
    belongs there; unreadable: fast magenta), the rest dim so the whole job is visible."""
    canvas = Canvas(layout)
    if player >= 0:
        _turn(canvas, player, at)
    for index, correction in enumerate(corrections):
        _correction(canvas, correction, at, first=index == 0)
    if corrections:
        _correction(canvas, corrections[0], at, first=True)  # on top of everything
    return canvas.frame()


def _correction(canvas: Canvas, correction: Correction, at: float, first: bool) -> None:
    colour = PAWN_COLOURS[correction.colour] if correction.colour >= 0 else WHITE
    if correction.action == CHECK:
        assert correction.source is not None
        if first:
            canvas.spot(correction.source, ERROR if blink(at, CHECK_BLINK_HZ) else OFF)
        else:
            canvas.spot(correction.source, scale(ERROR, DIM))
        return
    if correction.action in (LIFT, MOVE):
        assert correction.source is not None
        if first:
            canvas.spot(correction.source, WHITE if blink(at, LIFT_BLINK_HZ) else OFF)
        else:
            canvas.spot(correction.source, scale(WHITE, DIM))
    if correction.action in (PUT, MOVE):
        assert correction.target is not None
        if first:
            canvas.spot(correction.target, colour if blink(at, PUT_BLINK_HZ, 0.7) else OFF)
        else:
            canvas.spot(correction.target, scale(colour, DIM))


def error_frame(layout: Layout, at: float, spots: Iterable[Spot] = ()) -> Frame:
    """Something is wrong that guidance cannot fix: the given spots blink magenta, or, with no
    spots, the whole track breathes magenta."""
    canvas = Canvas(layout)
    spots = list(spots)
    if spots:
        for spot in spots:
            canvas.spot(spot, ERROR if blink(at, CHECK_BLINK_HZ) else OFF)
    else:
        level = breathe(at, 1.0, 0.1, 1.0)
        for square in range(TRACK_SQUARES):
            canvas.cell(square, scale(ERROR, level))
    return canvas.frame()


def celebration_frame(layout: Layout, winner: int, at: float) -> Frame:
    """The end: comets of the winner's colour race round the track, the winner's HOME flashes,
    the slide channels twinkle."""
    canvas = Canvas(layout)
    colour = PAWN_COLOURS[winner]
    head = at * 20.0  # squares per second
    for comet in range(3):
        lead = head + comet * TRACK_SQUARES / 3
        for tail in range(8):
            square = int(lead - tail) % TRACK_SQUARES
            canvas.cell(square, scale(colour, 1.0 - tail / 8))
    canvas.place(winner, HOME, WHITE if blink(at, 3.0) else colour)
    tick = int(at * 8)
    for index, square in enumerate(SLIDE_CHANNEL_SQUARES):
        if (index * 7 + tick * 13) % 5 == 0:
            canvas.slide_channel(square, WHITE)
    return canvas.frame()


# -- one call for the companion -------------------------------------------------------------------


def frame(
    layout: Layout,
    player: int,
    moves: Options | Sequence[Move],
    decision: Decision | None,
    at: float,
) -> Frame:
    """The frame for a turn in progress: pick the picture that fits the recogniser's decision."""
    if isinstance(decision, Mismatch):
        return guidance_frame(layout, decision.corrections, at, player)
    if isinstance(decision, InProgress):
        return progress_frame(layout, player, decision, at)
    if isinstance(decision, Ambiguous):
        return candidates_frame(layout, player, decision, at)
    if isinstance(decision, Recognised):
        return recognised_frame(layout, decision.move)
    return turn_frame(layout, player, moves, at)


def position_frame(layout: Layout, position: Position) -> Frame:
    """Every pawn's place lit in its colour: a board test, and a picture of a position."""
    canvas = Canvas(layout)
    for colour, place in position.items():
        if place in (START, HOME):
            continue
        canvas.place(colour, place, PAWN_COLOURS[colour])
    for colour in position.colours:
        for place in (START, HOME):
            cells = area_cells(place, colour)
            for cell in cells[: position.count(colour, place)]:
                canvas.cell(cell, PAWN_COLOURS[colour])
    return canvas.frame()


def _moves(moves: Options | Sequence[Move]) -> Sequence[Move]:
    return moves.moves if isinstance(moves, Options) else moves

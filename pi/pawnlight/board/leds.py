"""LED frames: what every one of the board's 132 LEDs shows, as a function of time.

A frame is a tuple of 132 ``(r, g, b)`` tuples indexed by LED (the layout says which LED sits
under which place).  Everything that moves - blinking, breathing, chasing, the celebration - is
computed from the ``at`` value passed in, never from a timer, so a frame is a pure function of
the game, the recogniser's decision and the time, and tests can look at any instant.

Each ``*_picture`` function paints a :class:`Picture`; its ``frame`` is the frame.  That is the
one way to a frame (``record=False`` skips noting what each lit place means, for a caller that
only wants the frame).

The colours and patterns are documented, with a picture, in docs/leds.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum
from typing import NamedTuple

from pawnlight.rules.board import HOME, START, TRACK_SQUARES, Place, Slide
from pawnlight.rules.moves import Move, Options, Step
from pawnlight.rules.position import Position

from . import led_patterns
from .cells import (
    CELL_KEYS,
    CELLS,
    LEDS,
    SLIDE_CHANNEL_SQUARES,
    area_cells,
    cell_of,
    cells_of,
    slide_led_key,
)
from .effects import (
    OFF,
    RGB,
    Animation,
    Frame,
    Scene,
    blink,
    blinking,
    breathe,
    breathing,
    chase_lit,
    chasing,
    scale,
)
from .effects import SceneEffect as SceneEffect  # re-exported: callers import them from here
from .effects import dim as dim
from .effects import dimmed_scene as dimmed_scene
from .guidance import Correction, Fix
from .layout import Layout
from .recognise import Ambiguous, Decision, InProgress, Mismatch, Recognised

#: What a paint animates: one effect, or a pattern's effects drawn in order over the same LEDs.
Effect = Animation | tuple[Animation, ...]

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


class Lit(NamedTuple):
    """What a lit place means (its Role) and the colour of the
    pawn it is about (a colour index, -1 for none)."""

    role: Role
    colour: int = -1


class Role(StrEnum):
    """What a lit place means: the values of GET /api/state's ``lit`` (docs/api.md,
    'GET /api/state', 'What is lit')."""

    TURN = "turn"  # the player's START, breathing
    PAWN = "pawn"  # a pawn that can move, dim
    DESTINATION = "destination"  # where a pawn may go
    HINT = "hint"  # the one move suggested (a hint, or the computer's choice)
    SLIDE = "slide"  # a slide that would fire: triangle and channel
    BUMP = "bump"  # a pawn that would go back to START
    SWITCH = "switch"  # the pawn an 11 would switch with
    CHOICE = "choice"  # an ambiguous board: a candidate move's end
    MOVED = "moved"  # the move just recognised
    CORRECTION = "correction"  # a place to clear or fill to put the board right
    CHECK = "check"  # a pawn whose colour cannot be read
    POSITION = "position"  # a pawn where the game has it (the board test, a finished game)
    CELEBRATION = "celebration"  # the winner's comets
    ERROR = "error"  # something guidance cannot fix
    ASK = "ask"  # the board asks for a second press (New game)


ASK_BLINK_HZ = 2.0


class Canvas:
    """A frame being painted; later paint covers earlier paint.

    Every paint names what the place means, and a place painted dark by a blink still counts
    as lit: ``lit`` is the same at every instant, ``frame()`` the picture at this one.  A paint
    with an ``effect`` also describes its animation, so ``scene()`` is the whole picture for
    every instant: the board runs it instead of the Pi sending 25 frames a second.
    """

    def __init__(self, layout: Layout, record: bool = True, patterns: bool = False) -> None:
        self.layout = layout
        self.leds: list[RGB] = [OFF] * LEDS
        self.base: list[RGB] = [OFF] * LEDS  # what lies under the effects
        self._effects: dict[Animation, list[int]] = {}
        self._effect_of: dict[int, tuple[Animation, ...]] = {}
        #: The group of an effect drawn after another on the same LEDs (a pattern's gate): one
        #: per first effect, so the scene always draws the pair in their order.
        self._after: dict[Animation, int] = {}
        #: Colour-free patterns as well as colours (led_patterns.py, the owner's setting).
        self.patterns = patterns
        #: False once something moves that no effect describes (the celebration's comets):
        #: such a picture goes out as frames.
        self.still = True
        self.lit: dict[str, Lit] = {}
        #: Keep what the lit places mean (the state's ``lit``); off for the LED frames alone,
        #: which are painted up to 25 times a second.
        self.record = record

    def _paint(self, index: int, rgb: RGB | None, effect: Effect | None) -> None:
        for old in self._effect_of.pop(index, ()):
            self._effects[old].remove(index)
        if effect is None:
            assert rgb is not None
            self.base[index] = rgb
        else:
            effects = (effect,) if isinstance(effect, Animation) else effect
            if len(effects) > 1:
                group = self._after.setdefault(effects[0], len(self._after))
                effects = (effects[0], *(e._replace(group=group) for e in effects[1:]))
            for each in effects:
                self._effects.setdefault(each, []).append(index)
            self._effect_of[index] = effects
        if rgb is not None:
            self.leds[index] = rgb

    def coloured(self, rgb: RGB, colour: int, at: float) -> tuple[RGB, Effect | None]:
        """A place lit steady in a pawn's colour: with patterns on, its colour's dips too."""
        if not self.patterns or colour < 0:
            return rgb, None
        pattern = led_patterns.steady(rgb, colour)
        return led_patterns.now(pattern, at), pattern

    def cell(
        self, cell: int, rgb: RGB | None, lit: Lit | None = None, effect: Effect | None = None
    ) -> None:
        """Paint a cell: ``rgb`` now (None: leave what is under, a blink's dark half), and
        ``effect`` the animation it is an instant of."""
        self._paint(self.layout.led_of[cell], rgb, effect)
        if lit is not None and self.record:
            self.lit[CELL_KEYS[cell]] = lit

    def claim(self, cell: int, lit: Lit) -> None:
        """A place that is lit at other instants (a blink's dark half, a passing comet)."""
        if self.record:
            self.lit[CELL_KEYS[cell]] = lit

    def place(
        self,
        colour: int,
        place: int,
        rgb: RGB | None,
        lit: Lit | None = None,
        effect: Effect | None = None,
    ) -> None:
        """A pawn's place: a square, or every spot of its START or HOME."""
        if place in (START, HOME):
            for cell in area_cells(place, colour):
                self.cell(cell, rgb, lit, effect)
        else:
            self.cell(cell_of(colour, place), rgb, lit, effect)

    def spot(
        self, place: Place, rgb: RGB | None, lit: Lit | None = None, effect: Effect | None = None
    ) -> None:
        """A place named on its own: a square, or every spot of a whole START or HOME."""
        for cell in cells_of(place):
            self.cell(cell, rgb, lit, effect)

    def slide_channel(
        self, square: int, rgb: RGB, lit: Lit | None = None, effect: Effect | None = None
    ) -> None:
        self._paint(self.layout.slide_led(square), rgb, effect)
        if lit is not None and self.record:
            self.lit[slide_led_key(square)] = lit

    def frame(self) -> Frame:
        return tuple(self.leds)

    def scene(self) -> Scene | None:
        if not self.still:
            return None
        effects = tuple(
            (e.kind, e.period_ms, e.a, e.b, e.on, e.off, tuple(leds))
            for e, leds in self._effects.items()
            if leds
        )
        return Scene(tuple(self.base), effects)

    def picture(self) -> Picture:
        return Picture(self.frame(), dict(self.lit), self.scene())


class Picture(NamedTuple):
    """One painting: the LED frame at an instant, what every lit place means, and the scene
    the board can run for every instant (None where no effect describes what moves)."""

    frame: Frame
    lit: dict[str, Lit]
    scene: Scene | None = None


# -- the turn -------------------------------------------------------------------------------------


def _turn(canvas: Canvas, player: int, at: float) -> None:
    colour = PAWN_COLOURS[player]
    level = breathe(at, TURN_BREATH_PERIOD, TURN_LOW, TURN_HIGH)
    effect = breathing(colour, TURN_BREATH_PERIOD, TURN_LOW, TURN_HIGH)
    canvas.place(player, START, scale(colour, level), Lit(Role.TURN, player), effect)


def _steps(canvas: Canvas, steps: Iterable[Step], at: float, role: Role = Role.DESTINATION) -> None:
    """Paint steps: movable pawns dim, destinations bright, slides chasing, bumps blinking."""
    steps = list(steps)
    for step in steps:
        if step.origin not in (START, HOME):
            rgb, effect = canvas.coloured(scale(PAWN_COLOURS[step.colour], DIM), step.colour, at)
            canvas.place(step.colour, step.origin, rgb, Lit(Role.PAWN, step.colour), effect)
    for step in steps:
        rgb, effect = canvas.coloured(PAWN_COLOURS[step.colour], step.colour, at)
        canvas.place(step.colour, step.final, rgb, Lit(role, step.colour), effect)
    for step in steps:
        if step.slide is not None:
            _slide(canvas, step.slide, at)
    on = blink(at, BUMP_BLINK_HZ)
    # With patterns on, the blink's dark half is dark: an even blink, whatever lies under.
    bump = blinking(WHITE, BUMP_BLINK_HZ, off=OFF if canvas.patterns else None)
    for step in steps:
        hit = [(square, Lit(Role.BUMP, colour)) for colour, square in step.bumped]
        if step.swapped >= 0:
            hit.append((step.target, Lit(Role.SWITCH, step.swapped)))
        for square, meaning in hit:
            # The blink's dark half leaves what lies under it, and the square is still lit.
            canvas.cell(square, WHITE if on else bump.off, meaning, bump)


def _slide(canvas: Canvas, slide: Slide, at: float) -> None:
    """A slide that would fire: its triangle steady amber and a chase down its channel; with
    patterns on, the triangle is the chase's first LED (the lights run, then all go dark)."""
    lit = Lit(Role.SLIDE, slide.colour)
    chase = chasing(SLIDE_WARNING, SLIDE_CHASE_STEP, slide.triangle)
    channel = slide.channel
    if canvas.patterns:
        count = chase_lit(at, SLIDE_CHASE_STEP, len(channel) + 1)
        canvas.cell(slide.triangle, SLIDE_WARNING if count > 0 else OFF, lit, chase)
        count -= 1
    else:
        canvas.cell(slide.triangle, SLIDE_WARNING, lit)
        count = chase_lit(at, SLIDE_CHASE_STEP, len(channel))
    for index, square in enumerate(channel):
        canvas.slide_channel(square, SLIDE_WARNING if index < count else OFF, lit, chase)


def turn_picture(
    layout: Layout,
    player: int,
    moves: Options | Sequence[Move],
    at: float,
    role: Role = Role.DESTINATION,
    record: bool = True,
    patterns: bool = False,
) -> Picture:
    """Whose turn it is and every legal move of the scanned card (``patterns``: the colour-free
    patterns too, led_patterns.py)."""
    canvas = Canvas(layout, record, patterns)
    _turn(canvas, player, at)
    _steps(canvas, (step for move in _moves(moves) for step in move.steps), at, role)
    return canvas.picture()


def progress_picture(
    layout: Layout,
    player: int,
    progress: InProgress,
    at: float,
    record: bool = True,
    patterns: bool = False,
) -> Picture:
    """Part-way through a move: only the steps still to do of the moves still possible (after
    a split 7's first part, the choices for the second)."""
    canvas = Canvas(layout, record, patterns)
    _turn(canvas, player, at)
    _steps(canvas, (step for steps in progress.remaining for step in steps), at)
    return canvas.picture()


def candidates_picture(
    layout: Layout,
    player: int,
    ambiguous: Ambiguous,
    at: float,
    record: bool = True,
    chosen: Move | None = None,
    patterns: bool = False,
) -> Picture:
    """A board that fits several moves: each candidate in turn, the others dim; ``chosen``
    (the one the board's Hint button stepped to) lit alone, steady, for Confirm to take."""
    canvas = Canvas(layout, record, patterns)
    _turn(canvas, player, at)
    moves = ambiguous.moves
    if chosen is not None and chosen in moves:
        shown = moves.index(chosen)
    else:
        shown = int(at / CANDIDATE_PERIOD) % len(moves) if moves else 0
    for index, move in enumerate(moves):
        if index != shown:
            for step in move.steps:
                dimmed = scale(PAWN_COLOURS[step.colour], DIM)
                rgb, effect = canvas.coloured(dimmed, step.colour, at)
                lit = Lit(Role.CHOICE, step.colour)
                canvas.place(step.colour, step.final, rgb, lit, effect)
    if moves:
        _steps(canvas, moves[shown].steps, at, Role.CHOICE)
    # Each candidate is shown in turn: every place any of them lights is lit.
    for move in moves if record else ():
        shadow = Canvas(layout)
        _steps(shadow, move.steps, 0.0, Role.CHOICE)
        for key, lit in shadow.lit.items():
            canvas.lit.setdefault(key, lit)
    return canvas.picture()


def recognised_picture(
    layout: Layout, move: Move, record: bool = True, at: float = 0.0, patterns: bool = False
) -> Picture:
    """The move made: where its pawns ended, steady."""
    canvas = Canvas(layout, record, patterns)
    for step in move.steps:
        rgb, effect = canvas.coloured(PAWN_COLOURS[step.colour], step.colour, at)
        canvas.place(step.colour, step.final, rgb, Lit(Role.MOVED, step.colour), effect)
    return canvas.picture()


# -- guidance, errors, the end --------------------------------------------------------------------


def guidance_picture(
    layout: Layout,
    corrections: Sequence[Correction],
    at: float,
    player: int = -1,
    record: bool = True,
    patterns: bool = False,
) -> Picture:
    """Corrections: the first one blinking (clear: fast white; fill: slow, in the colour that
    belongs there; unreadable: fast magenta), the rest dim so the whole job is visible.  With
    ``patterns``, a place to fill flashes its colour's count, an unreadable pawn pulses."""
    canvas = Canvas(layout, record, patterns)
    if player >= 0:
        _turn(canvas, player, at)
    for index, correction in enumerate(corrections):
        _correction(canvas, correction, at, first=index == 0)
    if corrections:
        _correction(canvas, corrections[0], at, first=True)  # on top of everything
    return canvas.picture()


def _correction(canvas: Canvas, correction: Correction, at: float, first: bool) -> None:
    colour = PAWN_COLOURS[correction.colour] if correction.colour >= 0 else WHITE
    if correction.action == Fix.CHECK:
        assert correction.source is not None
        lit = Lit(Role.CHECK, correction.colour)
        if first and canvas.patterns:  # a smooth pulse: apart from a place to clear's flicker
            level = breathe(at, led_patterns.CHECK_PULSE, 0.1, 1.0)
            effect = breathing(ERROR, led_patterns.CHECK_PULSE, 0.1, 1.0)
            canvas.spot(correction.source, scale(ERROR, level), lit, effect)
        elif first:
            rgb = ERROR if blink(at, CHECK_BLINK_HZ) else OFF
            canvas.spot(correction.source, rgb, lit, blinking(ERROR, CHECK_BLINK_HZ))
        else:
            canvas.spot(correction.source, scale(ERROR, DIM), lit)
        return
    lit = Lit(Role.CORRECTION, correction.colour)
    if correction.action in (Fix.LIFT, Fix.MOVE):
        assert correction.source is not None
        if first:
            rgb = WHITE if blink(at, LIFT_BLINK_HZ) else OFF
            canvas.spot(correction.source, rgb, lit, blinking(WHITE, LIFT_BLINK_HZ))
        else:
            canvas.spot(correction.source, scale(WHITE, DIM), lit)
    if correction.action in (Fix.PUT, Fix.MOVE):
        assert correction.target is not None
        if first and canvas.patterns and correction.colour >= 0:
            pattern = led_patterns.flashes(colour, correction.colour)
            canvas.spot(correction.target, led_patterns.now(pattern, at), lit, pattern)
        elif first:
            rgb = colour if blink(at, PUT_BLINK_HZ, 0.7) else OFF
            canvas.spot(correction.target, rgb, lit, blinking(colour, PUT_BLINK_HZ, 0.7))
        else:
            rgb, still = canvas.coloured(scale(colour, DIM), correction.colour, at)
            canvas.spot(correction.target, rgb, lit, still)


def error_picture(
    layout: Layout, at: float, spots: Iterable[Place] = (), record: bool = True
) -> Picture:
    """Something is wrong that guidance cannot fix: the given spots blink magenta, or, with no
    spots, the whole track breathes magenta."""
    canvas = Canvas(layout, record)
    spots = list(spots)
    lit = Lit(Role.ERROR)
    if spots:
        for spot in spots:
            rgb = ERROR if blink(at, CHECK_BLINK_HZ) else OFF
            canvas.spot(spot, rgb, lit, blinking(ERROR, CHECK_BLINK_HZ))
    else:
        level = breathe(at, 1.0, 0.1, 1.0)
        effect = breathing(ERROR, 1.0, 0.1, 1.0)
        for square in range(TRACK_SQUARES):
            canvas.cell(square, scale(ERROR, level), lit, effect)
    return canvas.picture()


def ask_picture(layout: Layout, at: float, record: bool = True) -> Picture:
    """The board asks "really?": the whole track blinks white until the second press."""
    canvas = Canvas(layout, record)
    on = blink(at, ASK_BLINK_HZ)
    effect = blinking(WHITE, ASK_BLINK_HZ)
    for square in range(TRACK_SQUARES):
        canvas.cell(square, WHITE if on else OFF, Lit(Role.ASK), effect)
    return canvas.picture()


def celebration_picture(layout: Layout, winner: int, at: float, record: bool = True) -> Picture:
    """The end: comets of the winner's colour race round the track, the winner's HOME flashes,
    the slide channels twinkle."""
    canvas = Canvas(layout, record)
    canvas.still = False  # comets and twinkles: no effect describes them, frames go out
    colour = PAWN_COLOURS[winner]
    lit = Lit(Role.CELEBRATION, winner)
    for square in range(TRACK_SQUARES):
        canvas.claim(square, lit)  # the comets pass over every square
    head = at * 20.0  # squares per second
    for comet in range(3):
        lead = head + comet * TRACK_SQUARES / 3
        for tail in range(8):
            square = int(lead - tail) % TRACK_SQUARES
            canvas.cell(square, scale(colour, 1.0 - tail / 8), lit)
    canvas.place(winner, HOME, WHITE if blink(at, 3.0) else colour, lit)
    tick = int(at * 8)
    for index, square in enumerate(SLIDE_CHANNEL_SQUARES):
        on = (index * 7 + tick * 13) % 5 == 0
        canvas.slide_channel(square, WHITE if on else OFF, lit)
    return canvas.picture()


# -- one call for the companion -------------------------------------------------------------------


def picture(
    layout: Layout,
    player: int,
    moves: Options | Sequence[Move],
    decision: Decision | None,
    at: float,
    role: Role = Role.DESTINATION,
    record: bool = True,
    chosen: Move | None = None,
    patterns: bool = False,
) -> Picture:
    """The picture for a turn in progress: the one that fits the recogniser's decision
    (``chosen``: of several candidates, the one stepped to on the board; ``patterns``: the
    colour-free patterns too)."""
    if isinstance(decision, Mismatch):
        return guidance_picture(layout, decision.corrections, at, player, record, patterns)
    if isinstance(decision, InProgress):
        return progress_picture(layout, player, decision, at, record, patterns)
    if isinstance(decision, Ambiguous):
        return candidates_picture(layout, player, decision, at, record, chosen, patterns)
    if isinstance(decision, Recognised):
        return recognised_picture(layout, decision.move, record, at, patterns)
    return turn_picture(layout, player, moves, at, role, record, patterns)


def position_picture(
    layout: Layout,
    position: Position,
    record: bool = True,
    at: float = 0.0,
    patterns: bool = False,
) -> Picture:
    """Every pawn's place lit in its colour: a board test, and a picture of a position."""
    canvas = Canvas(layout, record, patterns)
    for colour, place in position.items():
        if place in (START, HOME):
            continue
        rgb, effect = canvas.coloured(PAWN_COLOURS[colour], colour, at)
        canvas.place(colour, place, rgb, Lit(Role.POSITION, colour), effect)
    for colour in position.colours:
        rgb, effect = canvas.coloured(PAWN_COLOURS[colour], colour, at)
        for place in (START, HOME):
            cells = area_cells(place, colour)
            for cell in cells[: position.count(colour, place)]:
                canvas.cell(cell, rgb, Lit(Role.POSITION, colour), effect)
    return canvas.picture()


def led_colours(layout: Layout, frame: Sequence[RGB]) -> dict[str, str]:
    """A frame as ``#rrggbb`` by place key (``T4``, ``start:red:1``, ``slide:T10``): the form of
    GET /api/sim/leds, and what the board picture draws."""
    colours: dict[str, str] = {}

    def hex_of(index: int) -> str:
        r, g, b = frame[index] if index < len(frame) else OFF
        return f"#{r:02x}{g:02x}{b:02x}"

    for cell in range(CELLS):
        colours[CELL_KEYS[cell]] = hex_of(layout.led_of[cell])
    for square, index in zip(SLIDE_CHANNEL_SQUARES, layout.slide_led_of, strict=True):
        colours[slide_led_key(square)] = hex_of(index)
    return colours


def _moves(moves: Options | Sequence[Move]) -> Sequence[Move]:
    return moves.moves if isinstance(moves, Options) else moves

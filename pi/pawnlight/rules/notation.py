"""The move notation shown to people and stored in game records, and its parser.

A move is one or more parts joined by commas (a split 7 has two or more).  A part is::

    [C:]FROM-TO[>END]      a move along the board: forward, backward, out of START, or Sorry!
    FROM<>TO[>END]         an 11's switch of the pawn on FROM with the opponent on TO

``FROM`` and ``TO`` are the place names of docs/coordinates.md, 'Places' (``T7``, ``S2``,
``start``, ``home``).  ``C:`` is the colour's initial (``R``, ``B``, ``Y``, ``G``), written when
``FROM`` is not a track square, since only a track square tells whose pawn stands there.
``>END`` shows a slide to its end.

Examples: ``T7-T14``, ``R:start-T4``, ``T58-T1>T4``, ``T2-S3``, ``R:S2-T0``, ``T7<>T30``,
``T3-T6,T20-T24``.  ``parse_move(move_text(move), position) == move`` for every legal move.
"""

from __future__ import annotations

from ..errors import PawnlightError
from .board import (
    BACKWARD_PATHS,
    FORWARD_PATHS,
    INITIALS,
    MAX_BACKWARD,
    MAX_FORWARD,
    PLACE_NAMES,
    START,
    TRACK_SQUARES,
    parse_place,
    place_name,
    start_circle,
)
from .moves import Move, Step, StepKind, apply_step, make_step, make_switch
from .position import Position

_SWITCH = StepKind.SWITCH  # bound once: written for every move played


class NotationError(PawnlightError, ValueError):
    """A move text that does not describe a move in the given position."""


def step_text(step: Step) -> str:
    origin = step.origin
    prefix = "" if origin < TRACK_SQUARES else f"{INITIALS[step.colour]}:"
    joint = "<>" if step.kind == _SWITCH else "-"
    text = f"{prefix}{PLACE_NAMES[origin]}{joint}{PLACE_NAMES[step.target]}"
    if step.slide is not None:
        text += f">{PLACE_NAMES[step.slide.end]}"
    return text


def move_text(move: Move) -> str:
    """A move in the notation: ``T7-T14``, ``R:start-T4``, ``T3-T6,T20-T24``."""
    steps = move.steps
    if len(steps) == 1:
        return step_text(steps[0])
    return ",".join(step_text(step) for step in steps)


def parse_move(notation: str, position: Position, teams: bool = False) -> Move:
    """The move a text describes in ``position``; NotationError says what does not fit.

    Parsing rebuilds the move with the same step builders the generator uses, so a parsed move
    equals the generated one.  It does not check that the move is legal for a card: compare with
    the legal moves for that.
    """
    if not isinstance(notation, str) or not notation.strip():
        raise NotationError("empty move text")
    steps: list[Step] = []
    here = position
    for part in notation.strip().split(","):
        step, here = _parse_step(part.strip(), here, teams)
        steps.append(step)
    return Move(tuple(steps), position, here)


def _parse_step(part: str, position: Position, teams: bool) -> tuple[Step, Position]:
    colour = -1
    body = part
    if len(part) > 2 and part[1] == ":":
        initial = part[0].upper()
        if initial not in INITIALS:
            raise NotationError(f"{part!r}: unknown colour initial {part[0]!r}")
        colour = INITIALS.index(initial)
        body = part[2:]
    slide_end = None
    if ">" in body.replace("<>", ""):
        body, _, end_text = body.rpartition(">")
        slide_end = _place_in(end_text, part)
    switch = "<>" in body
    origin_text, sep, target_text = body.partition("<>" if switch else "-")
    if not sep:
        raise NotationError(f"{part!r}: expected FROM-TO or FROM<>TO")
    origin = _place_in(origin_text, part)
    target = _place_in(target_text, part)
    occupancy = position.track_occupancy()
    if origin < TRACK_SQUARES:
        standing = occupancy[origin]
        if standing < 0:
            raise NotationError(f"{part!r}: no pawn on {place_name(origin)}")
        if colour >= 0 and colour != standing:
            raise NotationError(f"{part!r}: the pawn on {place_name(origin)} is not that colour")
        colour = standing
    elif colour < 0:
        raise NotationError(f"{part!r}: name the colour, e.g. R:{origin_text}")
    elif origin not in position.pawns(colour):
        raise NotationError(f"{part!r}: no such pawn on {place_name(origin)}")
    if switch:
        if origin >= TRACK_SQUARES or target >= TRACK_SQUARES or occupancy[target] < 0:
            raise NotationError(f"{part!r}: a switch exchanges two pawns on the track")
        step = make_switch(occupancy, colour, origin, target)
    else:
        built = _build_move(position, occupancy, colour, origin, target, teams)
        if built is None:
            raise NotationError(f"{part!r}: no pawn can make that move")
        step = built
    expected_end = step.slide.end if step.slide is not None else None
    if slide_end != expected_end:
        shown = "no slide" if expected_end is None else f"a slide to {place_name(expected_end)}"
        raise NotationError(f"{part!r}: the move ends with {shown}")
    return step, apply_step(position, step)


def _build_move(
    position: Position, occupancy: list[int], colour: int, origin: int, target: int, teams: bool
) -> Step | None:
    candidates: list[tuple[StepKind, tuple[int, ...]]] = []
    if origin == START:
        if target >= TRACK_SQUARES:
            return None
        kind = StepKind.START_OUT if target == start_circle(colour) else StepKind.SORRY
        candidates.append((kind, (target,)))
    else:
        for kind, paths, longest in (
            (StepKind.FORWARD, FORWARD_PATHS, MAX_FORWARD),
            (StepKind.BACKWARD, BACKWARD_PATHS, MAX_BACKWARD),
        ):
            for count in range(1, longest + 1):
                path = paths[colour][origin][count]
                if path is not None and path[-1] == target:
                    candidates.append((kind, path))
                    break
    for kind, path in candidates:
        # allow_own: a Hasbro team Sorry! may replace one's own pawn; legality is checked later.
        built = make_step(position, occupancy, colour, kind, origin, path, teams, origin == START)
        if built is not None:
            return built[0]
    return None


def _place_in(name: str, part: str) -> int:
    try:
        return parse_place(name)
    except ValueError as error:
        raise NotationError(f"{part!r}: {error}") from None

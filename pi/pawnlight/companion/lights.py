"""Which LED picture the companion shows: a pure function of its state and the time.

One painting gives both the LED frame and what every lit place means (``Picture.lit``): the
LEDs show the frame, the state's ``lit`` (and so the page) is drawn from the same painting, so
the page can never highlight a place the board does not light, or miss one it does.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..board import leds
from ..board.layout import Layout
from ..board.recognise import Decision, Mismatch
from ..rules.board import COLOURS
from ..rules.game import Game
from ..rules.moves import Move
from .phases import CompanionPhase

Frame = leds.Frame
Picture = leds.Picture


class _Settings(Protocol):
    brightness: float


class Lit(Protocol):
    """What the picture is painted from: the companion (machine.Companion) as the LEDs see it.
    A protocol, so the machine can paint its frames without this module importing it."""

    layout: Layout
    phase: str
    decision: Decision
    warning: str | None
    guided: Move | None
    asking_until: float | None
    now: float
    settings: _Settings

    @property
    def game(self) -> Game | None: ...


def picture_for(companion: Lit, at: float, record: bool = True) -> Picture:
    """The LED picture now; ``record=False`` paints the frame alone (the LEDs, many times a
    second), the same painting without keeping what each place means."""
    layout = companion.layout
    game = companion.game
    decision = companion.decision
    dark = leds.Canvas(layout).picture()
    if companion.asking_until is not None and at < companion.asking_until:
        return leds.ask_picture(layout, at, record)
    if game is None or companion.phase not in (
        CompanionPhase.SETUP,
        CompanionPhase.DRAW,
        CompanionPhase.MOVE,
        CompanionPhase.CHOOSE,
        CompanionPhase.OVER,
    ):
        if companion.phase == CompanionPhase.LEADER:
            return leds.error_picture(layout, at, (), record) if companion.warning else dark
        return dark
    if companion.phase == CompanionPhase.OVER:
        result = game.result
        if result is not None and result.winners:
            return leds.celebration_picture(layout, result.winners[0], at, record)
        return leds.position_picture(layout, game.position, record)
    if isinstance(decision, Mismatch):
        return leds.guidance_picture(layout, decision.corrections, at, game.turn, record)
    if companion.phase == CompanionPhase.SETUP:
        return leds.position_picture(layout, game.position, record)
    moves = game.legal if companion.phase in (CompanionPhase.MOVE, CompanionPhase.CHOOSE) else ()
    role = leds.Role.DESTINATION
    if companion.guided is not None and companion.phase == CompanionPhase.MOVE:
        moves = (companion.guided,)  # the computer's move, or a hint: only that one lit
        role = leds.Role.HINT
    return leds.picture(layout, game.turn, moves, decision, at, role, record)


def frame_for(companion: Lit, at: float) -> Frame:
    return picture_for(companion, at, record=False).frame


def lit_json(picture: Picture) -> dict[str, str]:
    """``lit`` of GET /api/state: place key -> role (CONTRACT section 5)."""
    return {key: lit.role.value for key, lit in sorted(picture.lit.items())}


def lit_colours_json(picture: Picture) -> dict[str, str]:
    """The colour of the pawn each lit place is about, where there is one (the page rings a
    destination in the moving pawn's colour, as the LED shows it)."""
    return {key: COLOURS[lit.colour] for key, lit in sorted(picture.lit.items()) if lit.colour >= 0}


def lit_state(companion: Lit) -> dict[str, Any]:
    if companion.settings.brightness <= 0:  # the owner turned the LEDs off: nothing is lit
        return {"lit": {}, "lit_colours": {}}
    picture = picture_for(companion, companion.now)
    return {"lit": lit_json(picture), "lit_colours": lit_colours_json(picture)}


def dimmed(frame: Frame, brightness: float) -> Frame:
    """The owner's brightness setting, applied last (the firmware then caps total current)."""
    if brightness >= 0.999:
        return frame
    return tuple(leds.scale(rgb, brightness) for rgb in frame)

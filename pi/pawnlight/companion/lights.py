"""Which LED picture the companion shows: a pure function of its state and the time.

One painting gives both the LED frame and what every lit place means (``Picture.lit``): the
LEDs show the frame, the state's ``lit`` (and so the page) is drawn from the same painting, so
the page can never highlight a place the board does not light, or miss one it does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..board import leds
from ..board.layout import Layout
from ..board.recognise import Decision, Mismatch
from ..rules.game import Game
from ..rules.moves import Move
from .config import Settings, full_brightness
from .phases import CompanionPhase

Frame = leds.Frame
Picture = leds.Picture


class Paintable(Protocol):
    """What the picture is painted from: the companion's table (table.Table) as the LEDs see
    it.  A protocol, so the painting needs nothing of the turn loop but these."""

    @property
    def layout(self) -> Layout: ...
    @property
    def phase(self) -> CompanionPhase: ...
    @property
    def decision(self) -> Decision: ...
    @property
    def warning(self) -> str | None: ...
    @property
    def guided(self) -> Move | None: ...
    @property
    def asking_until(self) -> float | None: ...
    @property
    def game(self) -> Game | None: ...
    @property
    def choices(self) -> tuple[Move, ...]: ...
    @property
    def choice_shown(self) -> int | None: ...
    @property
    def settings(self) -> Settings: ...


def picture_for(companion: Paintable, at: float, record: bool = True) -> Picture:
    """The LED picture now; ``record=False`` paints the frame alone (the LEDs, many times a
    second), the same painting without keeping what each place means."""
    layout = companion.layout
    game = companion.game
    decision = companion.decision
    patterns = companion.settings.patterns  # the colour-free patterns too (led_patterns.py)
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
        return leds.position_picture(layout, game.position, record, at, patterns)
    if isinstance(decision, Mismatch):
        return leds.guidance_picture(layout, decision.corrections, at, game.turn, record, patterns)
    if companion.phase == CompanionPhase.SETUP:
        return leds.position_picture(layout, game.position, record, at, patterns)
    moves: Sequence[Move] = ()
    if companion.phase in (CompanionPhase.MOVE, CompanionPhase.CHOOSE):
        moves = game.legal
    role = leds.Role.DESTINATION
    if companion.guided is not None and companion.phase == CompanionPhase.MOVE:
        moves = (companion.guided,)  # the computer's move, or a hint: only that one lit
        role = leds.Role.HINT
    chosen = None
    if companion.phase == CompanionPhase.CHOOSE and companion.choice_shown is not None:
        chosen = companion.choices[companion.choice_shown]
    return leds.picture(layout, game.turn, moves, decision, at, role, record, chosen, patterns)


def frame_for(companion: Paintable, at: float) -> Frame:
    return picture_for(companion, at, record=False).frame


def dimmed(frame: Frame, brightness: float) -> Frame:
    """The owner's brightness setting, applied last (the firmware then caps total current)."""
    if full_brightness(brightness):
        return frame
    return tuple(leds.scale(rgb, brightness) for rgb in frame)


def dimmed_scene(scene: leds.Scene, brightness: float) -> leds.Scene:
    """A scene at the owner's brightness, with the same cut-off as a frame's."""
    return scene if full_brightness(brightness) else leds.dimmed_scene(scene, brightness)

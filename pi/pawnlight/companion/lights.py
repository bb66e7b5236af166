"""Which LED picture the companion shows: a pure function of its state and the time."""

from __future__ import annotations

from ..board import leds
from ..board.recognise import Mismatch
from .machine import CHOOSE, DRAW, LEADER, MOVE, OVER_PHASE, SETUP, Companion

Frame = leds.Frame


def frame_for(companion: Companion, at: float) -> Frame:
    layout = companion.layout
    game = companion.game
    decision = companion.decision
    dark = tuple([leds.OFF] * leds.LEDS)
    if game is None or companion.phase not in (SETUP, DRAW, MOVE, CHOOSE, OVER_PHASE):
        if companion.phase == LEADER:
            return leds.error_frame(layout, at, ()) if companion.warning else dark
        return dark
    if companion.phase == OVER_PHASE:
        result = game.result
        if result is not None and result.winners:
            return leds.celebration_frame(layout, result.winners[0], at)
        return leds.position_frame(layout, game.position)
    if isinstance(decision, Mismatch):
        return leds.guidance_frame(layout, decision.corrections, at, game.turn)
    if companion.phase == SETUP:
        return leds.position_frame(layout, game.position)
    moves = game.legal if companion.phase in (MOVE, CHOOSE) else ()
    if companion.guided is not None and companion.phase == MOVE:
        moves = (companion.guided,)  # the computer's move, or a hint: only that one lit
    return leds.frame(layout, game.turn, moves, decision, at)


def dimmed(frame: Frame, brightness: float) -> Frame:
    """The owner's brightness setting, applied last (the firmware then caps total current)."""
    if brightness >= 0.999:
        return frame
    return tuple(leds.scale(rgb, brightness) for rgb in frame)

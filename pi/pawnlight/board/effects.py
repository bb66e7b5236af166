"""The pieces LED pictures are made of: colours, the time functions of a blink, a breath and a
chase, the effects the board runs itself (LED_SCENE, docs/protocol.md) and a scene.

Every time function follows the board's own whole-millisecond rule (``protocol.render_scene``),
so the Pi's frame at an instant and the board's drawing of the scene agree.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from pawnlight.firmware import protocol

RGB = tuple[int, int, int]
Frame = tuple[RGB, ...]

OFF: RGB = (0, 0, 0)


def scale(rgb: RGB, factor: float) -> RGB:
    return (round(rgb[0] * factor), round(rgb[1] * factor), round(rgb[2] * factor))


def blink(at: float, hz: float, duty: float = 0.5) -> bool:
    """On for the first ``duty`` of every period; a pure function of time, by the board's own
    rule for a BLINK effect (whole milliseconds), so the Pi's frame and the board's agree."""
    period = round(1000 / hz)
    return (round(at * 1000) % period) * 256 < min(255, round(duty * 256)) * period


def chase_lit(at: float, step: float, count: int) -> int:
    """How many LEDs of a chase of ``count`` are lit at ``at`` (the board's CHASE rule)."""
    return (round(at * 1000) // round(step * 1000)) % (count + 1)


def breathe(at: float, period: float, low: float, high: float) -> float:
    """A smooth rise and fall between ``low`` and ``high``, lowest at multiples of ``period``."""
    return low + (high - low) * (1 - math.cos(2 * math.pi * at / period)) / 2


def dim(rgb: RGB, factor: float) -> RGB:
    """``rgb`` at the owner's brightness ``factor``: as :func:`scale`, except that a channel that
    is lit stays at least 1 while ``factor`` is above 0, so a dim LED at the night level is still
    lit (and a 25 % LED still apart from a full one: docs/leds.md, "Brightness and night")."""
    if factor <= 0:
        return OFF
    r, g, b = rgb
    return (
        max(1, round(r * factor)) if r else 0,
        max(1, round(g * factor)) if g else 0,
        max(1, round(b * factor)) if b else 0,
    )


class Animation(NamedTuple):
    """An animation the board runs itself (an LED_SCENE effect, docs/protocol.md): BLINK,
    BREATHE or CHASE with the protocol's parameters.  ``group`` keeps two effects of the same
    look apart (two slides' chases must not run as one long chase)."""

    kind: int
    period_ms: int
    a: int
    b: int
    on: RGB
    off: RGB | None
    group: int = -1


def blinking(on: RGB, hz: float, duty: float = 0.5, off: RGB | None = OFF) -> Animation:
    """``on`` for the first ``duty`` of each period, else ``off`` (None: what lies under)."""
    return Animation(protocol.BLINK, round(1000 / hz), min(255, round(duty * 256)), 0, on, off)


def breathing(rgb: RGB, period: float, low: float, high: float) -> Animation:
    """``rgb`` rising from ``low`` to ``high`` of its brightness and back, lowest at t = 0."""
    return Animation(
        protocol.BREATHE, round(period * 1000), round(low * 255), round(high * 255), rgb, OFF
    )


def chasing(rgb: RGB, step: float, group: int) -> Animation:
    """LEDs lit one after another along their list, then all dark, ``step`` seconds each."""
    return Animation(protocol.CHASE, round(step * 1000), 0, 0, rgb, OFF, group)


#: One effect of a scene as protocol.encode_scene takes it: (kind, period_ms, a, b, on, off, the
#: LEDs it runs on).
SceneEffect = tuple[int, int, int, int, RGB, RGB | None, tuple[int, ...]]


class Scene(NamedTuple):
    """A picture the board animates itself: the still ``base`` and the ``effects`` drawn over
    it, as protocol.encode_scene takes them.  The Pi sends it once; the board runs it."""

    base: Frame
    effects: tuple[SceneEffect, ...]

    def frame_at(self, ms: int) -> Frame:
        """What the board shows ``ms`` into the scene (protocol.render_scene, as the Pico)."""
        flat = bytes(c for rgb in self.base for c in rgb)
        out = protocol.render_scene(flat, self.effects, ms, bytearray(len(flat)))
        return tuple((out[i], out[i + 1], out[i + 2]) for i in range(0, len(out), 3))


def dimmed_scene(scene: Scene, brightness: float) -> Scene:
    """The scene at the owner's brightness (as companion.lights.dimmed does to a frame)."""
    if brightness >= 1.0:
        return scene
    base = tuple(dim(rgb, brightness) for rgb in scene.base)
    effects = tuple(
        (
            kind,
            period,
            a,
            b,
            dim(on, brightness),
            None if off is None else dim(off, brightness),
            leds,
        )
        for kind, period, a, b, on, off, leds in scene.effects
    )
    return Scene(base, effects)

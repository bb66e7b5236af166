"""LED patterns for colour-blind players: every kind of light and every pawn colour told apart by
its rhythm too, not by its hue alone (the owner's ``patterns`` setting; docs/leds.md, "Patterns
for colour-blind players").

The colours are counted in seating order: red 1, blue 2, yellow 3, green 4.  A place lit in a
pawn's colour shows its count every 2.4 s:

* **steady** (a destination, a hint, a move just made, a pawn where the game has it, a pawn that
  can move): on, with ``count`` short dark dips at the end of each cycle;
* **flashes** (guidance: the place to fill): dark, with ``count`` short flashes at the end of
  each cycle.

The kinds without a colour keep rhythms of their own: a pawn that would be bumped blinks evenly
(on, dark, 2 Hz), a place to clear flickers (4 Hz), an unreadable pawn pulses smoothly, and a
slide runs: its triangle and channel light one after another, then all go dark.

Each pattern is a pair of LED_SCENE blinks drawn in order over one LED (docs/protocol.md): a
fast one that beats every 0.3 s slot and a slow gate that keeps the beat to the last ``count``
slots of the cycle.  So the board runs the patterns itself, and :func:`now` (the same rule,
``protocol.render_scene``) gives the Pi's frame at any instant: a pure function of the time.
"""

from __future__ import annotations

from pawnlight.firmware import protocol

from .effects import OFF, RGB, Animation

#: One beat of a colour's count, and the cycle it repeats in (whole milliseconds).
SLOT_MS = 300
CYCLE_MS = 2400
#: The share of a slot (of 256) a dip is dark (120 ms), and a flash lit (180 ms).
DIP = 102
FLASH = 154
#: The colour-free kinds' rhythms (hertz), and an unreadable pawn's smooth pulse (seconds).
BUMP_HZ = 2.0
CHECK_PULSE = 1.0

Pattern = tuple[Animation, ...]


def count(colour: int) -> int:
    """How many dips or flashes say ``colour`` (0 red .. 3 green, rules.board.COLOURS)."""
    return colour + 1


def _gate(colour: int) -> int:
    """The slow blink's share (of 256) before the last ``count`` slots of the cycle."""
    return 256 - count(colour) * 256 * SLOT_MS // CYCLE_MS


def steady(rgb: RGB, colour: int) -> Pattern:
    """``rgb`` on, with ``count(colour)`` dark dips at the end of every cycle."""
    return (
        Animation(protocol.BLINK, SLOT_MS, DIP, 0, OFF, rgb),
        Animation(protocol.BLINK, CYCLE_MS, _gate(colour), 0, rgb, None),
    )


def flashes(rgb: RGB, colour: int) -> Pattern:
    """Dark, with ``count(colour)`` flashes of ``rgb`` at the end of every cycle."""
    return (
        Animation(protocol.BLINK, SLOT_MS, FLASH, 0, rgb, OFF),
        Animation(protocol.BLINK, CYCLE_MS, _gate(colour), 0, OFF, None),
    )


def now(pattern: Pattern, at: float, under: RGB = OFF) -> RGB:
    """What an LED running ``pattern`` over ``under`` shows at ``at`` seconds: the board's rule."""
    effects = [(a.kind, a.period_ms, a.a, a.b, a.on, a.off, (0,)) for a in pattern]
    out = protocol.render_scene(bytes(under), effects, round(at * 1000), bytearray(3))
    return (out[0], out[1], out[2])

"""The root of pawnlight's own exceptions.

Every exception class pawnlight defines derives from :class:`PawnlightError`, so a caller can
tell "pawnlight refused or failed, and says why" (``except PawnlightError``) from a bug.  Each
class keeps the built-in base it had (``ValueError`` for bad input, ``RuntimeError`` for a
state that cannot go on), so ``except ValueError`` still catches what it always caught.
``tests/test_errors.py`` checks that no class escapes the root.

The one exception: the firmware's classes (``pawnlight.firmware.protocol.FramingError`` and
the rest) run on the Pico under MicroPython, where this package does not exist.
"""

from __future__ import annotations


class PawnlightError(Exception):
    """Something pawnlight refused or could not do; the message says what, in plain words."""

"""Events the board link reports to the rest of the daemon.

A link is built with an ``emit(event)`` callable and calls it (from its own thread for the
serial link) with one of these small immutable values. ``at`` is ``time.monotonic()`` (or the
link's injected clock) when the Pi received the news. Channel numbers are the firmware's
0-based sensor channels; mapping them to squares is the board layout's job.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

#: The board's buttons, by the names ``ButtonPressed`` (devices.controls), the companion's
#: ``Pressed`` and the config file's ``[pins]`` use.
BUTTONS = ("confirm", "undo", "new_game", "hint")


@dataclass(frozen=True, slots=True)
class SensorChanged:
    """One sensor channel settled on a new value (0/1 on presence boards, a 16-bit reading
    on colour boards). ``board_ms`` (firmware 1.2 on): the board's uptime in ms when it first
    read the new value (before its debounce), the clock of its heartbeats: changes are ordered
    and timed by it, however late the Pi reads them; None from an older board."""

    channel: int
    value: int
    at: float
    board_ms: int | None = None


@dataclass(frozen=True, slots=True)
class SensorSnapshot:
    """Every channel's current value, sent after each (re)connect and on request."""

    values: tuple[int, ...]
    at: float


@dataclass(frozen=True, slots=True)
class CardRead:
    """A card was newly put on the reader; uid is upper-case hex, e.g. ``"04A1B2C3D4E5F6"``."""

    uid: str
    at: float


@dataclass(frozen=True, slots=True)
class LinkState:
    """The link came up (``up=True``, after a good HELLO) or went down; ``detail`` says why.

    ``firmware`` is the board's firmware version when known.
    """

    up: bool
    detail: str
    firmware: str | None


@dataclass(frozen=True, slots=True)
class FirmwareError:
    """The board reported a problem (codes in ``pawnlight.firmware.protocol``, ``E_*``)."""

    code: int
    message: str
    at: float


BoardEvent = SensorChanged | SensorSnapshot | CardRead | LinkState | FirmwareError
EmitFn = Callable[[BoardEvent], None]

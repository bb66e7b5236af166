"""What every board link offers: the serial driver, the in-process fake, future variants.

Code that drives the board depends on :class:`BoardLink` only, so tests of higher layers can
use :class:`~pawnlight.devices.sim.fake_link.FakeBoardLink` instead of a Pico.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, Self

from pawnlight.board.leds import RGB
from pawnlight.errors import PawnlightError
from pawnlight.firmware import protocol as P


class ProtocolVersionError(PawnlightError, RuntimeError):
    """The board's firmware speaks a protocol major version this driver does not."""


@dataclass(frozen=True, slots=True)
class BoardInfo:
    """What the board said about itself in its HELLO."""

    firmware: str
    protocol: tuple[int, int]
    kind: str  # "presence", "colour" or "unconfigured"
    channels: int
    leds: int
    card_reader: bool
    boot_id: int


@dataclass(frozen=True, slots=True)
class LinkStats:
    """Counters for the diagnostics page. Totals since the link object was created."""

    connected: bool = False
    frames_in: int = 0
    frames_out: int = 0
    bytes_in: int = 0
    bytes_out: int = 0
    crc_failures: int = 0
    resyncs: int = 0
    retransmits: int = 0
    duplicates: int = 0
    old_frames: int = 0  # frames older than the last accepted one: refused, never delivered
    malformed: int = 0
    reconnects: int = 0
    firmware_restarts: int = 0
    heartbeat_timeouts: int = 0
    reader_failures: int = 0
    # As last reported by the board in its heartbeat (its own view of the link).
    board_uptime_ms: int = 0
    board_crc_failures: int = 0
    board_retransmits: int = 0
    board_queued: int = 0
    board_mem_free_min: int = 0  # lowest free heap in bytes since boot (firmware 1.1.1 on)


class BoardLink(Protocol):
    """What the daemon and the diagnostics use of a board: the serial driver
    (serial_link.SerialBoardLink) and the in-process fake (sim.fake_link.FakeBoardLink) both are
    one; tests/devices/test_link_parts.py checks that they stay so."""

    def start(self) -> None: ...

    def stop(self) -> None: ...

    def send_leds(self, frame: Sequence[RGB]) -> None: ...

    def send_scene(
        self, base: Sequence[RGB], effects: Sequence[tuple[Any, ...]], phase_ms: int = 0
    ) -> None: ...

    def request_snapshot(self) -> None: ...

    def wait_connected(self, timeout: float = 5.0) -> BoardInfo: ...

    def stats(self) -> LinkStats: ...

    @property
    def board(self) -> BoardInfo | None: ...

    def __enter__(self) -> Self: ...

    def __exit__(self, *exc: object) -> None: ...


def scene_payloads(
    base: Sequence[RGB], effects: Sequence[tuple[Any, ...]], phase_ms: int
) -> tuple[bytes, bytes]:
    """A scene as an LED_SCENE payload, and its picture at ``phase_ms`` as an LED_FRAME payload
    (for a board whose firmware runs no scenes); ValueError for a scene that does not fit."""
    try:
        payload = P.encode_scene(P.encode_leds(base), effects, phase_ms)
    except P.MessageError as error:
        raise ValueError(str(error)) from None
    _phase, still, parsed = P.decode_scene(payload)
    return payload, bytes(P.render_scene(still, parsed, phase_ms, bytearray(len(still))))


def check_frame(frame: Sequence[RGB], leds: int | None) -> None:
    """Raise ValueError unless frame is a sequence of (r, g, b) with 0..255 components."""
    if leds is not None and len(frame) > leds:
        raise ValueError(f"LED frame has {len(frame)} colours, the board has {leds} LEDs")
    for i, colour in enumerate(frame):
        if len(colour) != 3 or not all(
            isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 255 for c in colour
        ):
            raise ValueError(f"LED {i}: {colour!r} is not an (r, g, b) tuple of 0..255")

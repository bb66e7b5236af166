"""The board's time on the Pi's clock.

A 1.2 board times each sensor change (``SensorChanged.board_ms``, its uptime in ms when it first
read the change): two touches 200 ms apart stay 200 ms apart however late a busy Pi reads them.
The owner maps that time onto its own clock by an offset, ``pi_time - board_ms / 1000``: each
change read gives one, at least the true offset (a read is never early), so the smallest seen is
the closest to it, and a change read late is placed when it happened, never later.  The mapping
starts again on a new boot of the board (the owner resets it on every link event; a board time
that goes backwards is a new boot too), and lets go of its best offset by ``DRIFT`` seconds a
second, so the two crystals drifting apart never push the board's times into the past.
"""

from __future__ import annotations

#: How fast the best offset may rise, in seconds a second (500 ppm): more than two crystals
#: and the kernel's slewing of the Pi's monotonic clock drift apart, little enough that a read
#: 0.2 s late after a minute's quiet is still placed within 30 ms of when it happened.
DRIFT = 0.0005


class BoardClock:
    """Maps one boot's ``board_ms`` onto the Pi's clock (see the module docstring)."""

    def __init__(self) -> None:
        self._offset: float | None = None
        self._last_ms = 0
        self._tuned = 0.0

    def reset(self) -> None:
        """A new boot (or link): its uptime starts again, so does the mapping."""
        self._offset = None

    def place(self, read_at: float, board_ms: int) -> float:
        """When a change the board timed at ``board_ms`` and the Pi read at ``read_at``
        happened, on the Pi's clock: never after ``read_at``."""
        if self._offset is not None and board_ms < self._last_ms:
            self._offset = None  # the board restarted (or its u32 ms wrapped after 49 days)
        seen = read_at - board_ms / 1000
        if self._offset is None:
            self._offset = seen
        else:
            self._offset = min(seen, self._offset + DRIFT * max(0.0, read_at - self._tuned))
        self._tuned, self._last_ms = read_at, board_ms
        return min(read_at, self._offset + board_ms / 1000)

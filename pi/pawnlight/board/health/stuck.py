"""A sensor stuck on "pawn": it has read a pawn, unchanged, while the rest of the board moved.

A pawn may stand still for a long time, so time alone proves nothing; but a channel that reads
a pawn through a long stretch of play in which many other channels changed, on a place where
the game says no pawn belongs, is most likely a shorted wire or a latched sensor.  The
detector is pure: feed it every reading with its time, ask it at any time.

    detector = StuckSensorDetector(layout)            # 10 min and 30 changes elsewhere
    detector.observe(values, at)                      # every reading (all 112 values)
    detector.suspects(at, pawn_cells(game.position))  # -> (StuckSensor, ...)

``expected_pawns`` are the cells where the game has a pawn: those are never suspects.  START
and HOME spots are left out by default: pawns wait there for whole games, and the game does
not say which of an area's four spots they stand on.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pawnlight.board.cells import CELL_NAMES, CELLS, EMPTY, START_BASE
from pawnlight.board.layout import Layout
from pawnlight.board.snapshot import true_occupancy
from pawnlight.rules.position import Position

from .sensing import Sensing

#: START and HOME spots: pawns rest there for good.
AREA_CELLS = frozenset(range(START_BASE, CELLS))


def pawn_cells(position: Position) -> frozenset[int]:
    """The cells where a game position has a pawn: the ``expected_pawns`` of a game."""
    return frozenset(cell for cell, what in enumerate(true_occupancy(position)) if what != EMPTY)


@dataclass(frozen=True)
class StuckSensor:
    cell: int
    channel: int
    value: int  # what it keeps reading
    since: float  # when it last changed (or when watching began)
    changes_elsewhere: int  # changes of other channels since then

    def as_json(self, sensing: Sensing, at: float) -> dict[str, Any]:
        """For the diagnostics page and ``GET /api/diagnostics``."""
        return {
            "cell": CELL_NAMES[self.cell],
            "channel": self.channel,
            "value": self.value,
            "minutes": round((at - self.since) / 60, 1),
            "changes_elsewhere": self.changes_elsewhere,
            "text": self.describe(sensing, at),
        }

    def describe(self, sensing: Sensing, at: float) -> str:
        minutes = (at - self.since) / 60
        return (
            f"{sensing.name(self.channel)} has read a pawn for {minutes:.0f} min while other "
            f"sensors changed {self.changes_elsewhere} times: if no pawn stands there, its "
            "sensor or wire is stuck"
        )


class StuckSensorDetector:
    def __init__(
        self,
        layout: Layout,
        *,
        quiet_for: float = 600.0,
        activity: int = 30,
        ignore: Iterable[int] = AREA_CELLS,
    ) -> None:
        """``quiet_for`` seconds without a change while ``activity`` changes happened
        elsewhere make a channel that reads a pawn a suspect; cells in ``ignore`` never are."""
        self.sensing = Sensing(layout)
        self.quiet_for = quiet_for
        self.activity = activity
        self.ignore = frozenset(ignore)
        self._values: list[int] | None = None
        self._since: list[float] = []
        self._mark: list[int] = []  # the change counter when each channel last changed
        self._changes = 0

    def observe(self, values: Sequence[int], at: float) -> None:
        """A reading of every channel at time ``at`` (seconds, any monotonic clock)."""
        if self._values is None or len(values) != len(self._values):
            self._values = list(values)
            self._since = [at] * len(values)
            self._mark = [0] * len(values)
            return
        moved = self.sensing.moved
        for channel, value in enumerate(values):
            if moved(channel, self._values[channel], value):
                self._changes += 1
                self._since[channel] = at
                self._mark[channel] = self._changes
                self._values[channel] = value

    def suspects(self, at: float, expected_pawns: Collection[int] = ()) -> tuple[StuckSensor, ...]:
        """Channels reading a pawn with no change for ``quiet_for`` while ``activity`` other
        changes happened, on cells that are neither ignored nor expected to hold a pawn."""
        if self._values is None:
            return ()
        found = []
        cell_of = self.sensing.cell_of_channel
        for channel, value in enumerate(self._values):
            cell = cell_of[channel]
            if cell in self.ignore or cell in expected_pawns:
                continue
            if not self.sensing.reads_pawn(channel, value):
                continue
            elsewhere = self._changes - self._mark[channel]
            if at - self._since[channel] >= self.quiet_for and elsewhere >= self.activity:
                found.append(StuckSensor(cell, channel, value, self._since[channel], elsewhere))
        return tuple(sorted(found, key=lambda s: s.cell))

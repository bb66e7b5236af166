"""Wire faults on a colour board: a reading no sensor can give, named with its place and pin.

A DRV5055 drives its output between 0.2 V and VCC - 0.2 V (readings 3972 .. 61563 at 16
bits), whatever magnet stands over it.  Every mux input has a 100 kOhm pull-up to 3.3 V, so a
broken or unplugged output wire reads the top of the scale; a wire shorted to ground reads 0.
The colour layout names those readings (``broken`` and ``shorted`` in colour.toml): the layout
reads them as UNKNOWN, never as a pawn, and this module says which place and which pin to
check.  It looks at every place, START and HOME spots included, in play (the companion), in
``pawnlight sensor-test`` and in ``pawnlight doctor``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pawnlight.board.cells import CELL_NAMES
from pawnlight.board.chips import adc_pin, chip_input
from pawnlight.board.layout import BROKEN, Layout

from .board_words import cell_words


@dataclass(frozen=True)
class WireFault:
    cell: int
    channel: int
    value: int
    kind: str  # layout.BROKEN or layout.SHORTED

    def pin(self, layout: Layout) -> str:
        """``channel 20, U2 I4, pin 5, on ADC GP26``: where to look with a meter."""
        where = f"channel {self.channel}, {chip_input(layout.sensing, self.channel)}"
        adc = adc_pin(self.channel)
        return f"{where}, on ADC GP{adc}" if adc is not None else where

    def describe(self, layout: Layout) -> str:
        """One line a builder can act on: the place in board words, the pin, what to check."""
        place = f"{CELL_NAMES[self.cell]} ({cell_words(self.cell)}; {self.pin(layout)})"
        chip = chip_input(layout.sensing, self.channel)
        if self.kind == BROKEN:
            return (
                f"broken sensor wire: {place} reads {self.value}, above anything a sensor can "
                f"drive. Check the sensor's output wire to {chip.ref} {chip.label} (pin "
                f"{chip.pin}): broken, unplugged, or shorted to 3.3 V; and the sensor's own "
                "power. The place counts as unknown, never as a pawn, until it reads right."
            )
        return (
            f"shorted sensor wire: {place} reads {self.value}, below anything a sensor can "
            f"drive. Check the sensor's output wire to {chip.ref} {chip.label} (pin "
            f"{chip.pin}) for a short to GND. The place counts as unknown, never as a pawn, "
            "until it reads right."
        )

    def as_json(self, layout: Layout) -> dict[str, Any]:
        """For the state's warning, the diagnostics page and ``GET /api/diagnostics``."""
        return {
            "cell": CELL_NAMES[self.cell],
            "channel": self.channel,
            "value": self.value,
            "kind": self.kind,
            "text": self.describe(layout),
        }


def wire_faults(layout: Layout, values: Sequence[int]) -> tuple[WireFault, ...]:
    """Every place whose channel reads what no sensor can give, in cell order (empty on a
    presence board, or with a layout that names no such readings)."""
    if not layout.colour_sensing or len(values) != len(layout.channel_of):
        return ()
    found = []
    for cell, channel in enumerate(layout.channel_of):
        kind = layout.fault(cell, values[channel])
        if kind is not None:
            found.append(WireFault(cell, channel, values[channel], kind))
    return tuple(found)


def warning(layout: Layout, faults: Sequence[WireFault]) -> str | None:
    """The players' warning for the faults found: the first in full, and how many more."""
    if not faults:
        return None
    more = len(faults) - 1
    also = ""
    if more:
        names = ", ".join(CELL_NAMES[f.cell] for f in faults[1:6])
        also = f" Also {names}{' and more' if more > 5 else ''}: see the diagnostics page."
    return (
        f"{faults[0].describe(layout)} The game waits until it reads right: fix the wire, "
        f"the board needs no restart.{also}"
    )

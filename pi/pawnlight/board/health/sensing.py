"""What a raw sensor reading means to the tests: "a pawn is there" and "it really changed".

Presence boards read 0 or 1, and any change is real.  Colour boards read 16-bit values that
wobble: a change counts only when it is a good part of the way from empty to the nearest
colour's band, so ADC noise (and the firmware's tolerance) never looks like a pawn.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pawnlight.board.cells import CELLS, EMPTY
from pawnlight.board.chips import chip_input
from pawnlight.board.layout import Layout

from .board_words import named


@dataclass(frozen=True)
class Sensing:
    layout: Layout
    #: The cell each channel reads.
    cell_of_channel: tuple[int, ...] = field(init=False)
    #: Colour boards: per channel, the smallest change that counts as a pawn coming or going.
    thresholds: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        cells = [0] * CELLS
        for cell, channel in enumerate(self.layout.channel_of):
            cells[channel] = cell
        object.__setattr__(self, "cell_of_channel", tuple(cells))
        thresholds = [1] * CELLS
        if self.layout.colour_sensing:
            for cell, channel in enumerate(self.layout.channel_of):
                bands = self.layout.bands[cell]
                middle = bands.empty.middle
                # Half the way to the nearest colour: a weak magnet crosses it, noise does not.
                nearest = min(abs(band.middle - middle) for band in bands.colours)
                thresholds[channel] = max(1, nearest // 2)
        object.__setattr__(self, "thresholds", tuple(thresholds))

    @property
    def colour(self) -> bool:
        return self.layout.colour_sensing

    def reads_pawn(self, channel: int, value: int) -> bool:
        """The channel says something stands on its place (any colour, or an unknown reading);
        never a reading no sensor can give (a wire fault, health.wires)."""
        cell = self.cell_of_channel[channel]
        if self.layout.fault(cell, value) is not None:
            return False
        return self.layout.classify(cell, value) != EMPTY

    def moved(self, channel: int, before: int, after: int) -> bool:
        """A real change between two readings of one channel, not noise."""
        return abs(after - before) >= self.thresholds[channel]

    def name(self, channel: int) -> str:
        """``T12 (the 3rd square of red's long slide; channel 12, U2 D4, pin 3)``: the place
        in board words, and where to look with a meter."""
        where = chip_input(self.layout.sensing, channel)
        return named(self.cell_of_channel[channel], f"channel {channel}, {where}")

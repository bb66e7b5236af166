"""The board model: from sensor readings to moves, guidance and LED frames.

Pure code: no I/O, no threads, no clock.  Time is only ever a value passed in.

* :mod:`.layout` - which sensor channel and LED belong to each place (TOML files, checked);
* :mod:`.snapshot` - a reading of all sensors as an occupancy of the board's cells;
* :mod:`.recognise` - which legal move the players made, from a stream of snapshots;
* :mod:`.guidance` - the corrections that bring a board to a position, one at a time;
* :mod:`.leds` - a frame for every LED as a function of time; :mod:`.render_svg` draws one.

See docs/board-model.md and docs/leds.md.
"""

from .cells import CELLS, EMPTY, LEDS, PAWN, UNKNOWN, cells_of, place_of_cell
from .guidance import Correction, Fix, corrections, guide_to
from .layout import Layout, LayoutError, load_layout
from .leds import (
    Frame,
    Picture,
    celebration_picture,
    error_picture,
    guidance_picture,
    picture,
    position_picture,
    turn_picture,
)
from .recognise import (
    Ambiguous,
    Decision,
    InProgress,
    Mismatch,
    Recognised,
    Recogniser,
    Takeback,
    Waiting,
)
from .snapshot import Occupancy, expected_occupancy, read_occupancy

__all__ = [
    "CELLS",
    "EMPTY",
    "LEDS",
    "PAWN",
    "UNKNOWN",
    "Ambiguous",
    "Correction",
    "Decision",
    "Fix",
    "Frame",
    "InProgress",
    "Layout",
    "LayoutError",
    "Mismatch",
    "Occupancy",
    "Picture",
    "Recognised",
    "Recogniser",
    "Takeback",
    "Waiting",
    "celebration_picture",
    "cells_of",
    "corrections",
    "error_picture",
    "expected_occupancy",
    "guidance_picture",
    "guide_to",
    "load_layout",
    "picture",
    "place_of_cell",
    "position_picture",
    "read_occupancy",
    "turn_picture",
]

"""The board-health page's content, in words a builder reads on a phone.

``GET /diagnostics`` shows the owner's ``diagnostics()``: this turns it into what the page says -
"connected: yes", each counter in words with what it means when it is not zero, and every
sensor by its place (``T12``, ``red-S2``) with its reading and the chip pin that reads it, the
places that read a pawn first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pawnlight.board.cells import CELL_NAMES, CELLS, EMPTY
from pawnlight.board.chips import chip_input
from pawnlight.board.health.board_words import cell_words
from pawnlight.board.health.counters import COUNTER_HINTS, counter_name, uptime_words
from pawnlight.board.layout import SHIPPED, Layout


@dataclass(frozen=True)
class Counter:
    name: str  # "CRC failures"
    value: int | str
    hint: str | None  # what to look at, for a counter that matters and is not zero


@dataclass(frozen=True)
class Sensor:
    place: str  # "T12", or "channel 12" when the layout is not known here
    channel: int
    reading: int
    pawn: bool  # the reading means something stands there
    pin: str  # "U2 D4, pin 3": where its wire goes
    words: str = ""  # "the 3rd square of red's long slide": the place as people say it


def connected_words(info: Mapping[str, Any]) -> str:
    link = info.get("link") or {}
    return "yes" if link.get("connected") else "no"


def counters(info: Mapping[str, Any]) -> list[Counter]:
    """The counters that are not zero (numbers only: ``connected`` is said in words)."""
    link = info.get("link") or {}
    shown = []
    for key, value in link.items():
        if isinstance(value, bool) or not isinstance(value, int) or not value:
            continue
        if key == "board_uptime_ms":
            shown.append(Counter("board up for", uptime_words(value), None))
            continue
        shown.append(Counter(counter_name(key), value, COUNTER_HINTS.get(key)))
    return shown


def _layout(info: Mapping[str, Any]) -> Layout | None:
    name = info.get("layout")
    board = info.get("board") or {}
    for candidate in (name, board.get("kind")):
        if candidate in SHIPPED:
            return Layout.named(candidate)
    return None


def sensors(info: Mapping[str, Any]) -> list[Sensor]:
    """Every channel by its place, the places reading a pawn first, then in board order."""
    values: Sequence[int] = info.get("sensors") or ()
    if len(values) != CELLS:
        return []
    layout = _layout(info)
    if layout is None:  # a layout file of the owner's own: channels are all we know
        return [Sensor(f"channel {ch}", ch, v, False, "") for ch, v in enumerate(values)]
    found = []
    for cell, channel in enumerate(layout.channel_of):
        value = int(values[channel])
        pawn = layout.classify(cell, value) != EMPTY
        pin = str(chip_input(layout.sensing, channel))
        found.append(Sensor(CELL_NAMES[cell], channel, value, pawn, pin, cell_words(cell)))
    return sorted(found, key=lambda sensor: not sensor.pawn)

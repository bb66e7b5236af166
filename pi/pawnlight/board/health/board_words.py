"""Places as a builder finds them on the board: the code and its board words.

The diagnostics name every place by its code (``T12``, ``red-S2``, ``red-start-1``: the
layout files, the sensor maps and the tests' arguments use them) followed by how people at
the table say it (pawnlight.rules.words), so a builder with the board in front of them finds
the place without counting squares: ``T12 (the 3rd square of red's long slide)``.
"""

from __future__ import annotations

from pawnlight.board.cells import (
    CELL_NAMES,
    LEDS,
    SLIDE_CHANNEL_SQUARES,
    parse_cell_name,
    place_of_cell,
)
from pawnlight.board.layout import Layout
from pawnlight.rules.words import place_words, square_words

SLIDE_PREFIX = "slide-T"  # a slide channel's LED: ``slide-T41``


def cell_words(cell: int) -> str:
    """``the 3rd square of red's long slide``, ``red's 2nd safety square``, ``red START,
    spot 1``."""
    place = place_of_cell(cell)
    words = place_words(place.number, place.colour)
    return f"{words}, spot {place.spot}" if place.spot else words


def named(cell: int, more: str = "") -> str:
    """``T12 (the 3rd square of red's long slide)``: the code, then the board words, and
    ``more`` with them (``"channel 12, U2 D4, pin 3"``)."""
    return f"{CELL_NAMES[cell]} ({cell_words(cell)}{'; ' + more if more else ''})"


def led_place(place: str) -> str:
    """An LED's place (a cell's name or ``slide-T41``) with its board words."""
    if place.startswith(SLIDE_PREFIX) and place[len(SLIDE_PREFIX) :].isdigit():
        square = int(place[len(SLIDE_PREFIX) :])
        return f"{place} (the slide channel by {square_words(square)})"
    try:
        return named(parse_cell_name(place))
    except ValueError:
        return place


def led_place_names(layout: Layout) -> tuple[str, ...]:
    """The place under each LED index, by a layout: cell names and ``slide-T<n>`` (the names
    the LED test, the wiring file's LED chain and ``led_place`` use)."""
    names = [""] * LEDS
    for cell, led in enumerate(layout.led_of):
        names[led] = CELL_NAMES[cell]
    for index, square in enumerate(SLIDE_CHANNEL_SQUARES):
        names[layout.slide_led_of[index]] = f"{SLIDE_PREFIX}{square}"
    return tuple(names)

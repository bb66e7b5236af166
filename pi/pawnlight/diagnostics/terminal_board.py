"""The 112 sensor channels drawn as the board, in a terminal.

Each place sits where it sits on the board (pawnlight.board.geometry), 6 characters per
square (7 on colour boards, whose readings need more room) and 2 lines per row, seen from
above.  A presence board shows ``●`` for a pawn and
``·`` for none; a colour board shows what the reading means (R, B, Y, G, ``·`` empty, ``?``
between bands) and the reading in hundreds, e.g. ``B215`` for 21500.  Suspected stuck sensors
are marked ``!``.  With ``colour=True`` ANSI colours make pawns stand out.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from pawnlight.board.cells import CELLS, EMPTY, UNKNOWN
from pawnlight.board.geometry import CELL_CENTRES, GRID
from pawnlight.board.layout import Layout

SQUARE = 6  # characters per board square
COLOUR_SQUARE = 7
ROWS_PER_SQUARE = 2
WIDTH = 4  # characters per place
LETTERS = {EMPTY: "·", UNKNOWN: "?", 0: "R", 1: "B", 2: "Y", 3: "G"}
ANSI = {0: "\x1b[1;31m", 1: "\x1b[1;34m", 2: "\x1b[1;33m", 3: "\x1b[1;32m", UNKNOWN: "\x1b[35m"}
PAWN_ANSI = "\x1b[1;36m"
STUCK_ANSI = "\x1b[1;41m"
RESET = "\x1b[0m"


def place_text(layout: Layout, cell: int, value: int) -> tuple[str, int]:
    """The 4 characters for a place, and what its reading means (EMPTY, PAWN, a colour...)."""
    meaning = layout.classify(cell, value)
    if not layout.colour_sensing:
        return (" ·  " if meaning == EMPTY else " ●  "), meaning
    return f"{LETTERS[meaning]}{min(value // 100, 999):>3}", meaning


def positions(square: int = SQUARE) -> list[tuple[int, int]]:
    """(row, column) of each cell's text on the canvas, ``square`` characters per square."""
    spots = []
    for x, y in CELL_CENTRES[:CELLS]:
        spots.append((int(y * ROWS_PER_SQUARE), round(x * square - WIDTH / 2)))
    return spots


def render(
    layout: Layout,
    values: Sequence[int] | None,
    stuck: Collection[int] = (),
    colour: bool = False,
) -> str:
    """The board as text; ``values`` by channel (None: no reading yet), ``stuck`` cells."""
    rows = GRID * ROWS_PER_SQUARE
    square = COLOUR_SQUARE if layout.colour_sensing else SQUARE
    canvas = [[" "] * (GRID * square + 2) for _ in range(rows)]
    styles: dict[tuple[int, int], str] = {}
    for cell, (row, column) in enumerate(positions(square)):
        if values is None:
            text, meaning = " -- ", EMPTY
        else:
            text, meaning = place_text(layout, cell, values[layout.channel_of[cell]])
        if cell in stuck:
            text = "!" + text[1:]
        for offset, char in enumerate(text):
            canvas[row][column + offset] = char
        style = ""
        if cell in stuck:
            style = STUCK_ANSI
        elif meaning in ANSI:
            style = ANSI[meaning]
        elif meaning != EMPTY:
            style = PAWN_ANSI
        if style:
            styles[(row, column)] = style
    lines = []
    for row, chars in enumerate(canvas):
        if not colour:
            lines.append("".join(chars).rstrip())
            continue
        out = []
        column = 0
        while column < len(chars):
            style = styles.get((row, column))
            if style:
                out.append(style + "".join(chars[column : column + WIDTH]) + RESET)
                column += WIDTH
            else:
                out.append(chars[column])
                column += 1
        lines.append("".join(out).rstrip())
    while lines and not lines[-1].strip():
        lines.pop()
    while lines and not lines[0].strip():
        lines.pop(0)
    return "\n".join(lines)

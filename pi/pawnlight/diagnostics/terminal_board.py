"""The 112 sensor channels drawn as the board, in 80 columns and 18 lines of a terminal.

Seen from above, red's side at the top, as the sensor drawings in hardware/ show it: each of
the 16 x 16 squares is 4 characters wide and one line high, with the side each colour owns
written round the edge (T0 is the top-left corner and the track runs clockwise).  A place is
one character: on a presence board ``●`` for a pawn and ``·`` for none; on a colour board what
the reading means (``R``, ``B``, ``Y``, ``G``, ``·`` empty, ``?`` between bands).  A START or
HOME circle's four spots sit side by side in their square (spots 1 to 4, left to right).
Suspected stuck sensors are ``!``, places with no reading yet ``-``.  With ``colour=True``
ANSI colours make pawns stand out.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from pawnlight.board.cells import CELLS, EMPTY, SPOTS_PER_AREA, START_BASE, UNKNOWN
from pawnlight.board.geometry import CELL_CENTRES, GRID
from pawnlight.board.layout import Layout

SQUARE = 4  # characters per board square
MARGIN = 7  # the left edge's labels ("green  ")
WIDTH = MARGIN + GRID * SQUARE + 6  # 77: the right edge's labels ("  blue")
HEIGHT = GRID + 2  # the board's rows and a label line above and below
LETTERS = {EMPTY: "·", UNKNOWN: "?", 0: "R", 1: "B", 2: "Y", 3: "G"}
ANSI = {0: "\x1b[1;31m", 1: "\x1b[1;34m", 2: "\x1b[1;33m", 3: "\x1b[1;32m", UNKNOWN: "\x1b[35m"}
PAWN_ANSI = "\x1b[1;36m"
STUCK_ANSI = "\x1b[1;41m"
RESET = "\x1b[0m"


def glyph(layout: Layout, cell: int, value: int) -> tuple[str, int]:
    """The character for a place, and what its reading means (EMPTY, PAWN, a colour...)."""
    meaning = layout.classify(cell, value)
    if not layout.colour_sensing:
        return ("·" if meaning == EMPTY else "●"), meaning
    return LETTERS[meaning], meaning


def positions() -> list[tuple[int, int]]:
    """(row, column) of each cell's character on the board's 16 lines, margin included."""
    spots = []
    for cell, (x, y) in enumerate(CELL_CENTRES[:CELLS]):
        if cell < START_BASE:
            spots.append((int(y), MARGIN + int(x) * SQUARE + 1))
            continue
        # A circle's four spots, side by side in the square holding its centre.
        first = cell - (cell - START_BASE) % SPOTS_PER_AREA
        cx = sum(CELL_CENTRES[c][0] for c in range(first, first + SPOTS_PER_AREA)) / 4
        cy = sum(CELL_CENTRES[c][1] for c in range(first, first + SPOTS_PER_AREA)) / 4
        spots.append((int(cy), MARGIN + int(cx) * SQUARE + (cell - first)))
    return spots


def _label_line(left: str, middle: str, right: str) -> str:
    inner = GRID * SQUARE
    line = [" "] * inner
    line[1 : 1 + len(left)] = left
    start = (inner - len(middle)) // 2
    line[start : start + len(middle)] = middle
    line[inner - len(right) - 2 : inner - 2] = right
    return (" " * MARGIN + "".join(line)).rstrip()


def render(
    layout: Layout,
    values: Sequence[int] | None,
    stuck: Collection[int] = (),
    colour: bool = False,
) -> str:
    """The board as text; ``values`` by channel (None: no reading yet), ``stuck`` cells."""
    canvas = [[" "] * (GRID * SQUARE + MARGIN) for _ in range(GRID)]
    styles: dict[tuple[int, int], str] = {}
    for cell, (row, column) in enumerate(positions()):
        if values is None:
            char, meaning = "-", EMPTY
        else:
            char, meaning = glyph(layout, cell, values[layout.channel_of[cell]])
        if cell in stuck:
            char = "!"
        canvas[row][column] = char
        style = ""
        if cell in stuck:
            style = STUCK_ANSI
        elif meaning in ANSI:
            style = ANSI[meaning]
        elif meaning != EMPTY:
            style = PAWN_ANSI
        if style and colour:
            styles[(row, column)] = style
    sides = {GRID // 2 - 1: ("green", "blue"), GRID // 2: ("side", "side")}
    lines = [_label_line("T0 →", "red's side", "T15")]
    for row, chars in enumerate(canvas):
        left, right = sides.get(row, ("", ""))
        chars[: len(left)] = left
        text = "".join(styles[(row, c)] + ch + RESET if (row, c) in styles else ch
                       for c, ch in enumerate(chars))  # fmt: skip
        lines.append((text + "  " + right).rstrip())
    lines.append(_label_line("T45", "yellow's side", "← T30"))
    return "\n".join(lines)

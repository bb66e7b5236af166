"""Draw LED frames onto a picture of the board, as SVG.

The squares sit where geometry.py puts them (the 16 x 16 grid, T0 top-left, clockwise); each
place is filled with the colour of its LED in the frame, dark when the LED is off.  Pawns can be
drawn on top as white-ringed discs.  Used for docs/leds.md; regenerate the picture with::

    python -m pawnlight.board.render_svg            # writes docs/leds.svg
    python -m pawnlight.board.render_svg out.svg
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple
from xml.sax.saxutils import escape

from pawnlight.rules import EDITIONS, legal_options
from pawnlight.rules.board import HOME, SLIDES, START
from pawnlight.rules.position import Position

from .cells import CELLS, SAFETY_BASE, START_BASE, area_cells
from .geometry import (
    AREA_RADIUS,
    CELL_CENTRES,
    GRID,
    SLIDE_LED_CENTRES,
    area_centre,
    square_centre,
)
from .guidance import corrections
from .layout import Layout
from .leds import (
    PAWN_COLOURS,
    RGB,
    Frame,
    celebration_frame,
    guidance_frame,
    progress_frame,
    turn_frame,
)
from .recognise import InProgress
from .snapshot import expected_occupancy, true_occupancy
from .targets import MoveTargets, apply_steps

UNIT = 26  # pixels per square
UNLIT = "#2b2f36"
BACKGROUND = "#15171a"
LINE = "#59606b"


class Panel(NamedTuple):
    title: str
    caption: str
    frame: Frame
    position: Position | None = None


def _hex(rgb: RGB) -> str:
    return UNLIT if rgb == (0, 0, 0) else "#{:02x}{:02x}{:02x}".format(*rgb)


def _board(layout: Layout, frame: Frame, position: Position | None, x0: float, y0: float) -> list:
    """SVG elements of one board whose top-left corner is at (x0, y0) pixels."""

    def at(x: float, y: float) -> tuple[float, float]:
        return x0 + x * UNIT, y0 + y * UNIT

    def led(cell: int) -> str:
        return _hex(frame[layout.led_of[cell]])

    parts = [
        f'<rect x="{x0}" y="{y0}" width="{GRID * UNIT}" height="{GRID * UNIT}" '
        f'fill="{BACKGROUND}" rx="6"/>'
    ]
    half = 0.45 * UNIT
    for cell in range(START_BASE):
        x, y = at(*CELL_CENTRES[cell])
        stroke = LINE if cell < SAFETY_BASE else _hex(PAWN_COLOURS[(cell - SAFETY_BASE) // 5])
        parts.append(
            f'<rect x="{x - half:.1f}" y="{y - half:.1f}" width="{2 * half:.1f}" '
            f'height="{2 * half:.1f}" rx="3" fill="{led(cell)}" stroke="{stroke}" '
            'stroke-width="1"/>'
        )
    for slide in SLIDES:
        (ax, ay), (bx, by) = (at(*square_centre(s)) for s in (slide.triangle, slide.end))
        colour = _hex(PAWN_COLOURS[slide.colour])
        parts.append(
            f'<line x1="{ax:.1f}" y1="{ay:.1f}" x2="{bx:.1f}" y2="{by:.1f}" stroke="{colour}" '
            'stroke-width="3" stroke-opacity="0.45" stroke-linecap="round"/>'
        )
    for index, (cx, cy) in enumerate(SLIDE_LED_CENTRES):
        x, y = at(cx, cy)
        fill = _hex(frame[layout.slide_led_of[index]])
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{0.11 * UNIT:.1f}" fill="{fill}"/>')
    for colour in range(4):
        for place, word in ((START, "START"), (HOME, "HOME")):
            x, y = at(*area_centre(place, colour))
            parts.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{AREA_RADIUS * UNIT:.1f}" fill="none" '
                f'stroke="{_hex(PAWN_COLOURS[colour])}" stroke-width="1.5"/>'
            )
            parts.append(
                f'<text x="{x:.1f}" y="{y + AREA_RADIUS * UNIT + 9:.1f}" font-size="8" '
                f'fill="{LINE}" text-anchor="middle">{word}</text>'
            )
            for cell in area_cells(place, colour):
                sx, sy = at(*CELL_CENTRES[cell])
                parts.append(
                    f'<circle cx="{sx:.1f}" cy="{sy:.1f}" r="{0.3 * UNIT:.1f}" '
                    f'fill="{led(cell)}" stroke="{LINE}" stroke-width="0.8"/>'
                )
    for square in (0, 15, 30, 45):
        x, y = at(*square_centre(square))
        parts.append(
            f'<text x="{x:.1f}" y="{y + 3:.1f}" font-size="8" fill="#aab" '
            f'text-anchor="middle">T{square}</text>'
        )
    if position is not None:
        parts.extend(_pawns(position, at))
    return parts


def _pawns(position: Position, at) -> list:
    cells = true_occupancy(position)
    parts = []
    for cell in range(CELLS):
        colour = cells[cell]
        if colour < 0:
            continue
        x, y = at(*CELL_CENTRES[cell])
        parts.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{0.2 * UNIT:.1f}" '
            f'fill="{_hex(PAWN_COLOURS[colour])}" stroke="#ffffff" stroke-width="2"/>'
        )
    return parts


def render(layout: Layout, frame: Frame, position: Position | None = None, title: str = "") -> str:
    """One board as a standalone SVG document."""
    return render_panels(layout, [Panel(title, "", frame, position)], columns=1)


def render_panels(layout: Layout, panels: Sequence[Panel], columns: int = 2) -> str:
    """Several boards side by side, each with a title and a caption, as one SVG document."""
    size = GRID * UNIT
    gap, head, foot = 24, 26, 34
    rows = (len(panels) + columns - 1) // columns
    width = columns * size + (columns + 1) * gap
    height = rows * (size + head + foot) + gap
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
    ]
    for index, panel in enumerate(panels):
        row, column = divmod(index, columns)
        x0 = gap + column * (size + gap)
        y0 = gap + row * (size + head + foot) + head
        parts.append(
            f'<text x="{x0}" y="{y0 - 8}" font-size="14" font-weight="bold" '
            f'fill="#222">{escape(panel.title)}</text>'
        )
        parts.extend(_board(layout, panel.frame, panel.position, x0, y0))
        for number, line in enumerate(panel.caption.split("\n")):
            parts.append(
                f'<text x="{x0}" y="{y0 + size + 14 + 13 * number}" font-size="11" '
                f'fill="#444">{escape(line)}</text>'
            )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


# -- the pictures in docs/leds.md -----------------------------------------------------------------


def example_panels(layout: Layout) -> list[Panel]:
    """The frames shown in docs/leds.md, each at an instant when its blinking LEDs are on."""
    hasbro = EDITIONS["hasbro-2002"]
    position = Position.from_json(
        {
            "red": ["T19", "T40", "start", "start"],
            "blue": ["T26", "T33", "start", "start"],
            "green": ["T45", "T52", "home", "start"],
        }
    )
    options = legal_options(position, 0, "5", hasbro)
    panels = [
        Panel(
            "Red drew a 5",
            "T19-T24>T28 slides (amber chase) and sweeps blue T26 (white blink);\n"
            "T40-T45 bumps green T45. Red START breathes: red's turn.",
            turn_frame(layout, 0, options, 1.1),
            position,
        )
    ]
    seven = Position.from_json(
        {"red": ["T5", "T20", "T40", "start"], "yellow": ["T50", "start", "start", "start"]}
    )
    moves = legal_options(seven, 0, "7", hasbro).moves
    first = next(m for m in moves if len(m.steps) == 2 and m.steps[0].path[-1] == 8)
    after_first = apply_steps(seven, first.steps[:1])
    assert after_first is not None
    pairs = MoveTargets(seven, moves, layout.sensing).partial(
        expected_occupancy(after_first, layout.sensing)
    )
    progress = InProgress(tuple(m for m, _ in pairs), tuple(r for _, r in pairs), True)
    panels.append(
        Panel(
            "Split 7: first part T5-T8 done",
            "The second part's choices, 4 squares for another pawn:\n"
            "destinations steady in red, the pawns that can go dim.",
            progress_frame(layout, 0, progress, 1.1),
            after_first,
        )
    )
    wanted = Position.from_json({"red": ["T12", "T30", "start", "start"]})
    knocked = Position.from_json({"red": ["T13", "T30", "start", "start"]})
    fixes = corrections(
        expected_occupancy(knocked, layout.sensing), true_occupancy(wanted), layout.sensing
    )
    panels.append(
        Panel(
            "Guidance: " + fixes[0].text,
            "Source blinks fast white (clear it), target blinks slowly\n"
            "in the colour that belongs there (fill it).",
            guidance_frame(layout, fixes, 0.1, 0),
            knocked,
        )
    )
    panels.append(
        Panel(
            "Green wins",
            "Comets of the winner's colour race round the track,\n"
            "the winner's HOME flashes, the slide channels twinkle.",
            celebration_frame(layout, 3, 0.9),
        )
    )
    return panels


def repository_docs() -> Path:
    return Path(__file__).resolve().parents[3] / "docs"


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    target = Path(args[0]) if args else repository_docs() / "leds.svg"
    layout = Layout.named("presence")
    target.write_text(render_panels(layout, example_panels(layout)), encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

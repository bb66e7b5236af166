"""Pictures of LED frames for docs/leds.md: several boards side by side, with captions.

Each board is drawn by the one board renderer (board/svg.py, the same as the phone page's and
the simulator's) on its dark theme, every place glowing in the colour of its LED in the frame.
Regenerate the picture with::

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
from pawnlight.rules.position import Position
from pawnlight.rules.words import sentence

from .geometry import GRID
from .guidance import corrections
from .layout import Layout
from .leds import (
    Frame,
    celebration_picture,
    guidance_picture,
    led_colours,
    progress_picture,
    turn_picture,
)
from .recognise import InProgress
from .snapshot import expected_occupancy, true_occupancy
from .svg import DARK, render_board
from .targets import MoveTargets, apply_steps

UNIT = 26  # pixels per square


class Panel(NamedTuple):
    title: str
    caption: str
    frame: Frame
    position: Position | None = None


def render(layout: Layout, frame: Frame, position: Position | None = None, title: str = "") -> str:
    """One board as a standalone SVG document."""
    return render_panels(layout, [Panel(title, "", frame, position)], columns=1)


def render_panels(layout: Layout, panels: Sequence[Panel], columns: int = 2) -> str:
    """Several boards side by side, each with a title and a caption, as one SVG document."""
    size = GRID * UNIT
    gap, head, foot = 24, 26, 60
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
        pawns = panel.position.to_json() if panel.position is not None else None
        parts.append(
            render_board(
                pawns,
                leds=led_colours(layout, panel.frame),
                theme=DARK,
                label=panel.title,
                at=(x0, y0, size),
            )
        )
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
            turn_picture(layout, 0, options, 1.1).frame,
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
            progress_picture(layout, 0, progress, 1.1).frame,
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
            "Guidance: a knocked pawn",
            sentence(fixes[0].text).replace(" to ", "\nto ", 1) + ".\n"
            "Source blinks fast white (clear it), target blinks slowly\n"
            "in the colour that belongs there (fill it).",
            guidance_picture(layout, fixes, 0.1, 0).frame,
            knocked,
        )
    )
    panels.append(
        Panel(
            "Green wins",
            "Comets of the winner's colour race round the track,\n"
            "the winner's HOME flashes, the slide channels twinkle.",
            celebration_picture(layout, 3, 0.9).frame,
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

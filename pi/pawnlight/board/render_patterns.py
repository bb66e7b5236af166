"""The picture of the colour-free LED patterns for docs/leds.md: one timeline strip per kind of
light (and per colour where the kind has one), drawn in grey - the brightness alone, as a player
who cannot tell the hues apart sees it - with the LED's colour as a thin line under it.

Every strip is the LED of a real picture (board/leds.py with ``patterns`` on) drawn from its scene
by the board's own rule, so the picture is what the board shows.  Regenerate it with::

    python -m pawnlight.board.render_patterns            # writes docs/led-patterns.svg
    python -m pawnlight.board.render_patterns out.svg
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from xml.sax.saxutils import escape

from pawnlight.firmware import protocol
from pawnlight.rules import EDITIONS, legal_options
from pawnlight.rules.board import COLOURS, START, Place
from pawnlight.rules.position import Position

from .cells import CELL_KEYS, area_cells
from .effects import RGB, Scene
from .guidance import Correction, Fix
from .layout import Layout
from .leds import Picture, Role, guidance_picture, turn_picture

SPAN_MS, STEP_MS = 4800, 25  # two of the colours' 2.4 s cycles, sampled every 25 ms
LABEL, ROW, PX = 190, 22, 0.15  # label width, row height, pixels per millisecond

Row = tuple[str, Scene, int]


def led_at(scene: Scene, led: int, ms: int) -> RGB:
    """One LED of a scene at ``ms``, by the board's rule (the others of each effect keep their
    places in its list: a chase's order)."""
    effects = [(*e[:6], tuple(0 if i == led else 9999 for i in e[6])) for e in scene.effects]
    out = protocol.render_scene(bytes(scene.base[led]), effects, ms, bytearray(3))
    return (out[0], out[1], out[2])


def _led(layout: Layout, picture: Picture, role: Role, channel: bool = False) -> int:
    keys = sorted(k for k, lit in picture.lit.items() if lit.role == role)
    key = next(k for k in keys if k.startswith("slide:") == channel)
    if channel:
        return layout.slide_led(int(key.removeprefix("slide:T")))
    return layout.led_of[CELL_KEYS.index(key)]


def _scene(picture: Picture) -> Scene:
    assert picture.scene is not None  # every picture here is one the board runs itself
    return picture.scene


def rows(layout: Layout, patterns: bool = True) -> list[Row]:
    """Every kind of light, and every colour where the kind has one: its scene and LED."""
    found: list[Row] = []
    hasbro = EDITIONS["hasbro-2002"]
    for colour, name in enumerate(COLOURS):
        # A pawn on its side's fifth square, moving 2: a plain destination.
        alone = Position.from_json({name: [f"T{15 * colour + 5}", "home", "home", "home"]})
        turn = turn_picture(
            layout, colour, legal_options(alone, colour, "2", hasbro), 0.0, patterns=patterns
        )
        found.append((f"destination, {name}", _scene(turn), _led(layout, turn, Role.DESTINATION)))
    for colour, name in enumerate(COLOURS):
        put = (Correction(Fix.PUT, None, Place(15 * colour + 7), colour),)
        fill = guidance_picture(layout, put, 0.0, patterns=patterns)
        found.append((f"place to fill, {name}", _scene(fill), _led(layout, fill, Role.CORRECTION)))
    five = Position.from_json(
        {
            "red": ["T19", "T40", "start", "start"],
            "blue": ["T26", "T33", "start", "start"],
            "green": ["T45", "T52", "home", "start"],
        }
    )
    # Red's 5 from T19 slides from T24 (sweeping blue off T26) and bumps green on T45.
    slide = turn_picture(layout, 0, legal_options(five, 0, "5", hasbro), 0.0, patterns=patterns)
    found += [
        ("pawn that can move, red", _scene(slide), _led(layout, slide, Role.PAWN)),
        ("slide: triangle", _scene(slide), _led(layout, slide, Role.SLIDE)),
        ("slide: channel, 1st", _scene(slide), _led(layout, slide, Role.SLIDE, channel=True)),
        ("bump", _scene(slide), _led(layout, slide, Role.BUMP)),
        ("turn (START breathes)", _scene(slide), layout.led_of[area_cells(START, 0)[0]]),
    ]
    clear = guidance_picture(layout, (Correction(Fix.LIFT, Place(40), None),), 0.0)
    found.append(("place to clear", _scene(clear), _led(layout, clear, Role.CORRECTION)))
    check = (Correction(Fix.CHECK, Place(40), None, -1),)
    unreadable = guidance_picture(layout, check, 0.0, patterns=patterns)
    found.append(("unreadable pawn", _scene(unreadable), _led(layout, unreadable, Role.CHECK)))
    return found


def _hex(rgb: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def render(found: Sequence[Row], title: str) -> str:
    """The strips: grey for the brightness (the pattern), a thin line of the LED's colour."""
    width = LABEL + round(SPAN_MS * PX) + 10
    height = 40 + ROW * len(found) + 24
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="#15171a"/>',
        f'<text x="8" y="18" fill="#eeebe4" font-size="13" font-weight="700">'
        f"{escape(title)}</text>",
    ]
    for index, (label, scene, led) in enumerate(found):
        y = 32 + index * ROW
        parts.append(f'<text x="8" y="{y + 13}" fill="#d8d4cb">{escape(label)}</text>')
        samples = [led_at(scene, led, ms) for ms in range(0, SPAN_MS, STEP_MS)]
        start = 0
        for end in range(1, len(samples) + 1):  # one rectangle per run of one colour
            if end < len(samples) and samples[end] == samples[start]:
                continue
            rgb = samples[start]
            x, w = round(LABEL + start * STEP_MS * PX, 2), round((end - start) * STEP_MS * PX, 2)
            grey = _hex((max(rgb),) * 3)
            parts.append(
                f'<rect x="{x}" y="{y}" width="{w}" height="14" fill="{grey}"/>'
                f'<rect x="{x}" y="{y + 15}" width="{w}" height="3" fill="{_hex(rgb)}"/>'
            )
            start = end
    axis = 32 + ROW * len(found) + 10
    for second in range(SPAN_MS // 1000 + 1):
        x = LABEL + second * 1000 * PX
        parts.append(
            f'<line x1="{x}" y1="30" x2="{x}" y2="{axis - 8}" stroke="#59606b" stroke-width="0.5"/>'
            f'<text x="{x}" y="{axis + 4}" fill="#aab0bb" text-anchor="middle">{second} s</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def repository_docs() -> Path:
    return Path(__file__).resolve().parents[3] / "docs"


TITLE = "LED patterns for colour-blind players: brightness over 4.8 s (grey), colour below"


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    target = Path(args[0]) if args else repository_docs() / "led-patterns.svg"
    target.write_text(render(rows(Layout.named("presence")), TITLE), encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

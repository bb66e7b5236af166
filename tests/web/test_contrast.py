"""Issue #48: the page's colours are readable: WCAG 2 AA contrast, 4.5:1 for text (3:1 for large
text) and 3:1 for the graphics that carry meaning, in the light and the dark theme.

The colours are read from web/static/style.css and the board picture's palette (board/svg.py),
so a colour changed there is checked here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pawnlight.board import svg

CSS = (Path(__file__).parents[2] / "web" / "static" / "style.css").read_text(encoding="utf-8")
TEXT, LARGE_TEXT, GRAPHICS = 4.5, 3.0, 3.0
#: Text at least 18.66 px bold is large text (WCAG): the turn pill's 20 px, weight 800.
LARGE = (".turn.",)
#: Rules whose text sits on another rule's background (the top bar's), by selector prefix; the
#: turn pill's own rule is checked through its colours (.turn.c-red ...).
ON = {".brand": ".topbar", ".topbar ": ".topbar", ".conn": ".topbar", ".turn": None}


def luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def over(colour: str, ground: str, opacity: float) -> str:
    """``colour`` at ``opacity`` over ``ground``: a tinted mark as the eye sees it."""
    mixed = (
        round(int(colour[i : i + 2], 16) * opacity + int(ground[i : i + 2], 16) * (1 - opacity))
        for i in (1, 3, 5)
    )
    return "#" + "".join(f"{c:02x}" for c in mixed)


def variables(block: str) -> dict[str, str]:
    return dict(re.findall(r"--([a-z-]+):\s*(#[0-9a-fA-F]{6})\s*;", block))


LIGHT = variables(CSS[CSS.index(":root {") : CSS.index("}", CSS.index(":root {"))])
_DARK_AT = CSS.index("@media (prefers-color-scheme: dark)")
DARK = {**LIGHT, **variables(CSS[_DARK_AT : CSS.index("}", _DARK_AT)])}
THEMES = {"light": LIGHT, "dark": DARK}
#: The rules (innermost blocks) and their declarations.
RULES = [
    (selector.strip(), dict(re.findall(r"([a-z-]+)\s*:\s*([^;]+)", body)))
    for selector, body in re.findall(
        r"([^{}]+)\{([^{}]*)\}", re.sub(r"/\*.*?\*/", "", CSS, flags=re.S)
    )
]


def resolve(value: str | None, theme: dict[str, str]) -> str | None:
    """A declaration's colour (a variable or #rrggbb), or None (currentColor, rgba, none)."""
    if value is None:
        return None
    value = value.replace("!important", "").strip()
    found = re.fullmatch(r"var\(--([a-z-]+)\)", value)
    if found:
        return theme.get(found.group(1))
    return value.lower() if re.fullmatch(r"#[0-9a-fA-F]{6}", value) else None


def test_the_themes_are_read():
    assert LIGHT["bg"] == "#f4f1ea" and DARK["bg"] == "#131417"
    assert len(RULES) > 100
    turn = dict(RULES)[".turn"]
    assert turn["font-size"].strip() == "20px" and turn["font-weight"].strip() == "800"


@pytest.mark.parametrize("theme", THEMES)
def test_every_text_colour_is_readable_where_it_is_written(theme):
    """A rule's text on its own background, else on the page and on a panel."""
    colours = THEMES[theme]
    failures = []
    for selector, rule in RULES:
        text = resolve(rule.get("color"), colours)
        if text is None:
            continue
        ground = resolve(rule.get("background") or rule.get("background-color"), colours)
        container = next((ON[p] for p in ON if selector.startswith(p)), "")
        if ground is None and container is None:
            continue
        if ground is None and container:
            ground = resolve(dict(RULES)[container]["background"], colours)
        grounds = [ground] if ground else [colours["bg"], colours["surface"]]
        need = LARGE_TEXT if selector.startswith(LARGE) else TEXT
        for under in grounds:
            if contrast(text, under) < need:
                failures.append(f"{selector}: {text} on {under} {contrast(text, under):.2f}")
    assert failures == []


@pytest.mark.parametrize("theme", THEMES)
def test_every_border_that_means_something_stands_out(theme):
    """The legend's keys and the marks' borders: 3:1 against the panel they sit on."""
    colours = THEMES[theme]
    failures = []
    for selector, rule in RULES:
        for name in ("border", "outline"):
            found = re.search(r"(var\(--[a-z-]+\)|#[0-9a-fA-F]{6})", rule.get(name, ""))
            line = resolve(found.group(1), colours) if found else None
            if line is None or not selector.startswith(".key-"):
                continue
            if contrast(line, colours["surface"]) < GRAPHICS:
                failures.append(f"{selector}: {line} {contrast(line, colours['surface']):.2f}")
    assert failures == []


@pytest.mark.parametrize("colour", sorted(svg.FILL))
def test_the_board_pictures_letters_and_marks_are_readable(colour):
    """The letters on the pawns and on lit places (a colour told apart without seeing it), and
    the outlines that bound pawns and slides on the board's squares."""
    fill = svg.FILL[colour]
    assert contrast(svg.INK[colour], fill) >= TEXT  # the pawn's letter
    for ground in (svg.SQUARE, over(fill, svg.SQUARE, 0.28)):  # a lit place's letter
        assert contrast(svg.LETTER[colour], ground) >= TEXT
    for ground in (svg.SQUARE, svg.BOARD):
        assert contrast(svg.NEAR_BLACK, ground) >= GRAPHICS  # pawn and triangle outlines
        assert contrast(svg.AMBER, ground) >= GRAPHICS  # a slide's outline

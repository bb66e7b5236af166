"""The board as SVG text: a pure function of a position (like python-chess's chess.svg).

Everything sits where pawnlight.board.geometry puts it on the 16 x 16 grid (T0 top-left, the
track clockwise), so the picture matches the real board and its LEDs.  The drawing uses
presentation attributes only (no <style>), so it looks the same inline in a page, behind the
page's Content-Security-Policy, and standalone at /api/board.svg.

Elements carry names for scripts and tests: every square and area has ``data-place`` (``T4``,
``S2:red``, ``start:red``, ``home:red``), pawns ``data-pawn``/``data-at``, LED overlays
``data-led`` (the simulator's LED keys), highlights ``data-dest``/``data-bump``/``data-slide``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from pawnlight.board.cells import (
    AREAS,
    CELL_KEYS,
    CELLS,
    SAFETY_BASE,
    SLIDE_CHANNEL_SQUARES,
    START_BASE,
    area_cells,
    cells_of,
    slide_led_key,
)
from pawnlight.board.geometry import (
    AREA_RADIUS,
    CELL_CENTRES,
    GRID,
    SLIDE_LED_CENTRES,
    area_centre,
    place_centre,
    square_centre,
)
from pawnlight.i18n.marks import N_, NN_
from pawnlight.i18n.message import Message, count_msg, msg
from pawnlight.rules import phrases
from pawnlight.rules.board import (
    COLOURS,
    SLIDES,
    START,
    TRACK_SQUARES,
    Place,
    diamond_square,
)

from .leds import Role
from .marks import NO_MARKS, Marks
from .places import describe, pawn_places

SCALE = 10  # SVG units per board square: keeps coordinates short and readable
SIZE = GRID * SCALE

#: Pawn colours on screen: the LED colours are too dark or too bright to read on a light board.
FILL = {"red": "#d7263d", "blue": "#1e63d6", "yellow": "#f2c200", "green": "#16984a"}
TINT = {"red": "#fbd3d7", "blue": "#d3e0fb", "yellow": "#fbefb4", "green": "#cdeedb"}
#: Letters on the pawns, so colours can be told apart without seeing colour.
INK = {"red": "#ffffff", "blue": "#ffffff", "yellow": "#1b1b1b", "green": "#1b1b1b"}
#: The same letters on a lit place (a destination, a place to fill): the colours' text shades,
#: readable on the light board (web/static/style.css's --red ...; tests/web/test_contrast.py).
LETTER = {"red": "#a3162a", "blue": "#1d4fb8", "yellow": "#7a5d00", "green": "#0f6a35"}
BOARD = "#efe8d8"
SQUARE = "#fffdf8"
LINE = "#b3aa96"
TEXT = "#4a4436"
AMBER = "#e05a00"  # the LEDs' slide warning, dark enough to stand out on a square (3:1)
NEAR_BLACK = "#1b1b1b"  # outlines, the centre's words, the guidance arrows
SLIDE_LED_OFF = "#8d8672"  # an unlit slide-channel LED, still visible as a dot
_HEX = re.compile(r"#[0-9a-fA-F]{6}")


@dataclass(frozen=True)
class Theme:
    """The board's own colours; the pawns, slides and marks keep theirs (one palette)."""

    board: str
    square: str
    line: str
    text: str
    slide_led_off: str


#: The phone page and the simulator: a light board.
LIGHT = Theme(BOARD, SQUARE, LINE, TEXT, SLIDE_LED_OFF)
#: Pictures of LED frames (docs/leds.svg): lights show best on a dark board.
DARK = Theme("#15171a", "#2b2f36", "#59606b", "#aab0bb", "#2b2f36")


@dataclass(frozen=True)
class Centre:
    """What the middle of the board shows: whose turn and the card (either may be absent)."""

    colour: str | None = None
    card: str | None = None
    caption: str = ""


#: The words drawn on the board, marked for the catalogs (docs/rules.md's glossary): the
#: caller's ``words`` (a gettext) says them in the page's language.
START_WORD = N_("START")
HOME_WORD = N_("HOME")
NO_CARD = N_("no card")


def _same(text: str) -> str:
    return text


def _n(value: float) -> str:
    """A coordinate in SVG units, short."""
    text = f"{value * SCALE:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _xy(point: tuple[float, float]) -> tuple[str, str]:
    return _n(point[0]), _n(point[1])


def _glow(value: object) -> tuple[str, float] | None:
    """How an LED of colour ``#rrggbb`` looks on screen, as (hue at full strength, opacity),
    or None for an LED that is off or a value that is no colour.

    A dim LED is a faint light, not a dark colour: drawn as its darker RGB it would look
    black on the board, so it is drawn in its hue, more or less transparent.
    """
    if not isinstance(value, str) or not _HEX.fullmatch(value):
        return None
    rgb = [int(value[i : i + 2], 16) for i in (1, 3, 5)]
    peak = max(rgb)
    if peak == 0:
        return None
    full = "#" + "".join(f"{round(c * 255 / peak):02x}" for c in rgb)
    return full, round(0.2 + 0.75 * peak / 255, 2)


def _led_paint(value: object, off: str = "none") -> str:
    glow = _glow(value)
    if glow is None:
        return f'fill="{off}" fill-opacity="1"'
    return f'fill="{glow[0]}" fill-opacity="{glow[1]}"'


def _square(key: str, point: tuple[float, float], fill: str, stroke: str, extra: str) -> str:
    x, y = point
    return (
        f'<rect data-place="{key}" x="{_n(x - 0.46)}" y="{_n(y - 0.46)}" width="{_n(0.92)}" '
        f'height="{_n(0.92)}" rx="{_n(0.08)}" fill="{fill}" stroke="{stroke}" '
        f'stroke-width="{_n(0.04)}"{extra}/>'
    )


#: What a screen reader hears of a square or area: its name, and who stands there.
SQUARE_EMPTY = N_("%(place)s, empty")
SQUARE_PAWN = N_("%(place)s, %(colour)s pawn")
BOARD_SAID = N_("The board. %(pawns)s.")
AREA_PAWNS = NN_("%(place)s, %(num)s %(colour)s pawn", "%(place)s, %(num)s %(colour)s pawns")


def _cell_attrs(key: str, interactive: bool, occupant: Message | None, language: str = "en") -> str:
    """Class, and for the simulator keyboard access and a spoken name (in ``language``)."""
    if not interactive:
        return ' class="cell"'
    place = Place.parse(key)
    named = phrases.place(place.number, place.colour, phrases.NAMED)
    where = named.render(language)
    said = occupant or msg(SQUARE_EMPTY)
    label = Message(said.id, tuple(sorted((*said.values, ("place", named)))), plural=said.plural)
    label_text = label.render(language)
    return (
        f' class="cell" role="button" tabindex="0" data-words={quoteattr(where)} '
        f"aria-label={quoteattr(label_text)}"
    )


def _squares(
    parts: list[str],
    occupants: Mapping[str, Message],
    interactive: bool,
    theme: Theme,
    language: str = "en",
) -> None:
    for square in range(TRACK_SQUARES):
        key = CELL_KEYS[square]
        attrs = _cell_attrs(key, interactive, occupants.get(key), language)
        parts.append(_square(key, square_centre(square), theme.square, theme.line, attrs))
    for cell in range(SAFETY_BASE, START_BASE):
        key = CELL_KEYS[cell]
        name = COLOURS[Place.parse(key).colour]
        attrs = _cell_attrs(key, interactive, occupants.get(key), language)
        parts.append(_square(key, CELL_CENTRES[cell], TINT[name], FILL[name], attrs))


def _areas(
    parts: list[str],
    counts: Mapping[str, int],
    interactive: bool,
    theme: Theme,
    words: Callable[[str], str] = _same,
    language: str = "en",
) -> None:
    for place, colour in AREAS:
        name = COLOURS[colour]
        word = words(START_WORD if place == START else HOME_WORD)
        key = Place(place, colour).key
        count = counts.get(key, 0)
        occupant = count_msg(AREA_PAWNS, count, colour=phrases.colour(colour))
        cx, cy = _xy(area_centre(place, colour))
        parts.append(
            f'<circle data-place="{key}" cx="{cx}" cy="{cy}" r="{_n(AREA_RADIUS)}" '
            f'fill="{TINT[name]}" stroke="{FILL[name]}" stroke-width="{_n(0.08)}"'
            f"{_cell_attrs(key, interactive, occupant, language)}/>"
        )
        x, y = area_centre(place, colour)
        parts.append(
            f'<text x="{_n(x)}" y="{_n(y + AREA_RADIUS + 0.4)}" font-size="{_n(0.36)}" '
            f'font-weight="700" fill="{theme.text}" text-anchor="middle" '
            f'letter-spacing="{_n(0.03)}" '
            f'pointer-events="none">{escape(word)}</text>'
        )


def _slides(parts: list[str]) -> None:
    """The painted slides: a bar from the triangle to the end circle, in the slide's colour."""
    parts.append('<g class="slides" pointer-events="none" opacity="0.85">')
    for slide in SLIDES:
        colour = FILL[COLOURS[slide.colour]]
        (ax, ay), (bx, by) = square_centre(slide.triangle), square_centre(slide.end)
        length = math.hypot(bx - ax, by - ay)
        dx, dy = (bx - ax) / length, (by - ay) / length
        parts.append(
            f'<line x1="{_n(ax)}" y1="{_n(ay)}" x2="{_n(bx)}" y2="{_n(by)}" stroke="{colour}" '
            f'stroke-width="{_n(0.2)}"/>'
        )
        tip = (ax + dx * 0.34, ay + dy * 0.34)
        left = (ax - dx * 0.26 - dy * 0.3, ay - dy * 0.26 + dx * 0.3)
        right = (ax - dx * 0.26 + dy * 0.3, ay - dy * 0.26 - dx * 0.3)
        points = " ".join(",".join(_xy(p)) for p in (tip, left, right))
        parts.append(f'<polygon points="{points}" fill="{colour}"/>')
        parts.append(f'<circle cx="{_n(bx)}" cy="{_n(by)}" r="{_n(0.24)}" fill="{colour}"/>')
    parts.append("</g>")


def _diamonds(parts: list[str], theme: Theme) -> None:
    """The diamond squares of the classic boards, one past each safety entry."""
    parts.append('<g class="diamonds" pointer-events="none">')
    for colour in range(4):
        x, y = square_centre(diamond_square(colour))
        r = 0.3
        points = " ".join(
            ",".join(_xy(p)) for p in ((x, y - r), (x + r, y), (x, y + r), (x - r, y))
        )
        parts.append(
            f'<polygon data-diamond="T{diamond_square(colour)}" points="{points}" '
            f'fill="{theme.square}" stroke="{FILL[COLOURS[colour]]}" stroke-width="{_n(0.07)}"/>'
        )
    parts.append("</g>")


def _leds(parts: list[str], leds: Mapping[str, Any], theme: Theme) -> None:
    """What the real board's LEDs show, over the squares (the simulator)."""
    parts.append('<g class="leds" pointer-events="none">')
    for cell in range(START_BASE):
        key = CELL_KEYS[cell]
        x, y = CELL_CENTRES[cell]
        parts.append(
            f'<rect class="led" data-led="{key}" x="{_n(x - 0.46)}" y="{_n(y - 0.46)}" '
            f'width="{_n(0.92)}" height="{_n(0.92)}" rx="{_n(0.08)}" '
            f"{_led_paint(leds.get(key))}/>"
        )
    for place, colour in AREAS:
        for cell in area_cells(place, colour):
            key = CELL_KEYS[cell]
            cx, cy = _xy(CELL_CENTRES[cell])
            parts.append(
                f'<circle class="led" data-led="{key}" cx="{cx}" cy="{cy}" r="{_n(0.39)}" '
                f"{_led_paint(leds.get(key))}/>"
            )
    for square, centre in zip(SLIDE_CHANNEL_SQUARES, SLIDE_LED_CENTRES, strict=True):
        key = slide_led_key(square)
        cx, cy = _xy(centre)
        parts.append(
            f'<circle class="led slide-led" data-led="{key}" cx="{cx}" cy="{cy}" '
            f'r="{_n(0.13)}" {_led_paint(leds.get(key), theme.slide_led_off)} '
            f'stroke="{NEAR_BLACK}" stroke-width="{_n(0.02)}"/>'
        )
    parts.append("</g>")


def _place_point(key: str) -> tuple[tuple[float, float], bool]:
    """The centre of a place key and whether it is a whole START or HOME area."""
    place = Place.parse(key)
    return place_centre(place), place.is_area and not place.spot


def _marks(parts: list[str], marks: Marks) -> None:
    """The LEDs' highlights, drawn as a page can show them steadily: destinations ringed in the
    moving colour, the slide that would fire in amber, pawns that would move dashed."""
    parts.append('<g class="marks" pointer-events="none">')
    for squares in marks.slides:
        first, last = square_centre(squares[0]), square_centre(squares[-1])
        parts.append(
            f'<g class="mark slide-fire" data-slide="T{squares[0]}">'
            f'<line x1="{_n(first[0])}" y1="{_n(first[1])}" x2="{_n(last[0])}" '
            f'y2="{_n(last[1])}" stroke="{AMBER}" stroke-width="{_n(0.12)}" '
            f'stroke-dasharray="{_n(0.18)} {_n(0.12)}"/>'
            f'<rect x="{_n(first[0] - 0.44)}" y="{_n(first[1] - 0.44)}" width="{_n(0.88)}" '
            f'height="{_n(0.88)}" rx="{_n(0.1)}" fill="none" stroke="{AMBER}" '
            f'stroke-width="{_n(0.1)}"/></g>'
        )
    for key in sorted(marks.origins):
        (x, y), area = _place_point(key)
        radius = AREA_RADIUS + 0.1 if area else 0.44
        parts.append(
            f'<circle class="mark from" data-from="{key}" cx="{_n(x)}" cy="{_n(y)}" '
            f'r="{_n(radius)}" fill="none" stroke="{NEAR_BLACK}" stroke-width="{_n(0.05)}" '
            f'stroke-dasharray="{_n(0.1)} {_n(0.08)}"/>'
        )
    for key, colour in sorted(marks.destinations.items()):
        (x, y), area = _place_point(key)
        stroke = FILL.get(colour, NEAR_BLACK)
        if area:
            parts.append(
                f'<circle class="mark dest" data-dest="{key}" cx="{_n(x)}" cy="{_n(y)}" '
                f'r="{_n(AREA_RADIUS + 0.08)}" fill="none" stroke="{stroke}" '
                f'stroke-width="{_n(0.16)}"/>'
            )
            continue
        parts.append(
            f'<rect class="mark dest" data-dest="{key}" x="{_n(x - 0.41)}" y="{_n(y - 0.41)}" '
            f'width="{_n(0.82)}" height="{_n(0.82)}" rx="{_n(0.1)}" fill="{stroke}" '
            f'fill-opacity="0.28" stroke="{stroke}" stroke-width="{_n(0.14)}"/>'
        )
    parts.append("</g>")


def _bumps(parts: list[str], marks: Marks) -> None:
    """Pawns that would be bumped: a black-and-white ring over the pawn (it blinks on the page,
    as the LED blinks white)."""
    for key in sorted(marks.bumped):
        (x, y), _ = _place_point(key)
        parts.append(
            f'<g class="mark bump" data-bump="{key}" pointer-events="none">'
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(0.45)}" fill="none" stroke="#ffffff" '
            f'stroke-width="{_n(0.14)}"/>'
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(0.54)}" fill="none" stroke="{NEAR_BLACK}" '
            f'stroke-width="{_n(0.06)}"/></g>'
        )


def _pawn(colour: str, at: str, point: tuple[float, float], radius: float) -> str:
    x, y = _xy(point)
    return (
        f'<g class="pawn" data-pawn="{colour}" data-at="{at}">'
        f'<circle cx="{x}" cy="{y}" r="{_n(radius)}" fill="{FILL[colour]}" stroke="{NEAR_BLACK}" '
        f'stroke-width="{_n(0.05)}"/>'
        f'<text x="{x}" y="{_n(point[1] + radius * 0.38)}" font-size="{_n(radius * 1.05)}" '
        f'font-weight="700" fill="{INK[colour]}" text-anchor="middle">'
        f"{colour[0].upper()}</text></g>"
    )


def _pawns(parts: list[str], pawns: Mapping[str, Any] | None) -> None:
    parts.append('<g class="pawns" pointer-events="none">')
    used: dict[Place, int] = {}
    for colour, number in sorted(pawn_places(pawns)):
        name, place = COLOURS[colour], Place(number, colour)
        if place.is_area:
            spots = cells_of(place)
            index = used.get(place, 0)
            used[place] = index + 1
            if index >= len(spots):
                continue  # more than four: a bad report; four drawn say enough
            parts.append(_pawn(name, place.key, CELL_CENTRES[spots[index]], 0.3))
        else:
            parts.append(_pawn(name, place.key, place_centre(place), 0.34))
    parts.append("</g>")


UNKNOWN_PAWN = "#8a8a8a"


def _named(guidance: list[Any] | None) -> dict[str, str]:
    """The colour each correction's words give the pawn it moves, by where that pawn stands: a
    presence board cannot see a colour, but the words name one, and the drawing says the same."""
    named: dict[str, str] = {}
    for item in guidance or ():
        if isinstance(item, Mapping) and isinstance(item.get("from"), str):
            colour = item.get("colour")
            if isinstance(colour, str) and colour in FILL:
                named.setdefault(item["from"], colour)
    return named


def _sensed_pawns(parts: list[str], sensed: list[Any], named: Mapping[str, str]) -> None:
    """The pawns as the board senses them (a misplaced pawn where it really stands, in the
    colour its correction names; one whose colour nothing tells in grey with a "?")."""
    parts.append('<g class="pawns sensed" pointer-events="none">')
    used: dict[str, int] = {}
    for item in sensed:
        if not isinstance(item, Mapping) or not isinstance(item.get("at"), str):
            continue
        key, colour = item["at"], item.get("colour")
        if colour not in FILL:
            colour = named.get(key)
        try:
            point, area = _place_point(key)
        except ValueError:
            continue
        if area:
            spots = cells_of(Place.parse(key))
            index = used.get(key, 0)
            used[key] = index + 1
            if index >= len(spots):
                continue
            point = CELL_CENTRES[spots[index]]
        radius = 0.3 if area else 0.34
        if colour in FILL:
            parts.append(_pawn(colour, key, point, radius))
            continue
        x, y = _xy(point)
        parts.append(
            f'<g class="pawn" data-pawn="unknown" data-at="{escape(key)}">'
            f'<circle cx="{x}" cy="{y}" r="{_n(radius)}" fill="{UNKNOWN_PAWN}" '
            f'stroke="{NEAR_BLACK}" stroke-width="{_n(0.05)}"/>'
            f'<text x="{x}" y="{_n(point[1] + radius * 0.38)}" '
            f'font-size="{_n(radius * 1.05)}" font-weight="700" fill="#ffffff" '
            f'text-anchor="middle">?</text></g>'
        )
    parts.append("</g>")


def _centre(
    parts: list[str], centre: Centre, theme: Theme, words: Callable[[str], str] = _same
) -> None:
    """A card in the middle of the board: the card drawn, in the colour of the player."""
    stroke = FILL.get(centre.colour or "", theme.line)
    parts.append('<g class="centre" pointer-events="none">')
    parts.append(
        f'<rect x="{_n(6.7)}" y="{_n(5.9)}" width="{_n(2.6)}" height="{_n(3.6)}" '
        f'rx="{_n(0.3)}" fill="#ffffff" stroke="{stroke}" stroke-width="{_n(0.14)}"/>'
    )
    if centre.card:
        label = "Sorry!" if centre.card == "sorry" else centre.card
        size = 0.75 if len(label) > 2 else 1.6
        parts.append(
            f'<text data-centre-card="{escape(centre.card)}" x="{_n(8)}" '
            f'y="{_n(7.7 + size * 0.35)}" font-size="{_n(size)}" font-weight="800" '
            f'fill="{NEAR_BLACK}" text-anchor="middle">{escape(label)}</text>'
        )
    else:
        parts.append(
            f'<text x="{_n(8)}" y="{_n(7.85)}" font-size="{_n(0.42)}" fill="{theme.text}" '
            f'text-anchor="middle">{escape(words(NO_CARD))}</text>'
        )
    if centre.caption:
        fill = FILL.get(centre.colour or "", theme.text)
        if centre.colour == "yellow":
            fill = "#8a6d00"  # yellow text on a light board is unreadable
        parts.append(
            f'<text x="{_n(8)}" y="{_n(10.25)}" font-size="{_n(0.5)}" font-weight="700" '
            f'fill="{fill}" text-anchor="middle">{escape(centre.caption)}</text>'
        )
    parts.append("</g>")


#: Where each LED key sits (the keys of GET /api/sim/leds and of the state's ``lit``).
LIT_POINTS: dict[str, tuple[float, float]] = {
    **{CELL_KEYS[cell]: CELL_CENTRES[cell] for cell in range(CELLS)},
    **{
        slide_led_key(square): centre
        for square, centre in zip(SLIDE_CHANNEL_SQUARES, SLIDE_LED_CENTRES, strict=True)
    },
}
_SPOT_KEYS = frozenset(CELL_KEYS[START_BASE:])
_SLIDE_LED_KEYS = frozenset(slide_led_key(square) for square in SLIDE_CHANNEL_SQUARES)
#: Roles drawn as a filled square (or spot) in the pawn's colour: the LED shows that colour.
_FILLED = {Role.DESTINATION, Role.HINT, Role.CHOICE, Role.MOVED, Role.POSITION}
MAGENTA = "#d1008a"  # the LEDs' fault colour
GOLD = "#e0a800"


def _letter(point: tuple[float, float], colour: str | None) -> str:
    """The colour's letter on a lit place, as on the pawns: told apart without seeing colour."""
    if colour not in LETTER:
        return ""
    x, y = point
    return (
        f'<text class="lit-letter" x="{_n(x)}" y="{_n(y + 0.17)}" font-size="{_n(0.46)}" '
        f'font-weight="700" fill="{LETTER[colour]}" text-anchor="middle">'
        f"{colour[0].upper()}</text>"
    )


#: Lit roles that name a colour and carry its letter.
_LETTERED = {Role.TURN, Role.CORRECTION}


def _lit_mark(key: str, role: str, colour: str | None) -> str:
    """One lit place as the page draws it (``data-lit`` names the LED it stands for), with the
    colour's letter where it names a colour, and a slide's triangle: shapes, not hue alone."""
    mark = _lit_shape(key, role, colour)
    point = LIT_POINTS.get(key)
    if not mark or point is None or key in _SLIDE_LED_KEYS:
        return mark
    if role in _FILLED or role in _LETTERED:
        return mark + _letter(point, colour)
    if role == Role.SLIDE:
        x, y = point
        corners = ((x - 0.2, y - 0.24), (x - 0.2, y + 0.24), (x + 0.24, y))
        points = " ".join(f"{_n(a)},{_n(b)}" for a, b in corners)
        return mark + (
            f'<polygon class="lit-slide" points="{points}" fill="{AMBER}" '
            f'stroke="{NEAR_BLACK}" stroke-width="{_n(0.03)}"/>'
        )
    return mark


def _lit_shape(key: str, role: str, colour: str | None) -> str:
    """The mark itself: a filled square for a place in a colour, rings for a bump, dashes for a
    correction."""
    point = LIT_POINTS.get(key)
    if point is None:
        return ""
    x, y = point
    spot = key in _SPOT_KEYS
    channel = key in _SLIDE_LED_KEYS
    paint = FILL.get(colour or "", NEAR_BLACK)
    attrs = f'class="lit role-{role}" data-lit="{escape(key)}" data-role="{escape(role)}"'
    if channel:
        fill = AMBER if role == Role.SLIDE else GOLD
        return (
            f'<circle {attrs} cx="{_n(x)}" cy="{_n(y)}" r="{_n(0.17)}" fill="{fill}" '
            f'stroke="{NEAR_BLACK}" stroke-width="{_n(0.03)}"/>'
        )
    if role in _FILLED:
        width = 0.2 if role == Role.HINT else 0.14
        dash = f' stroke-dasharray="{_n(0.16)} {_n(0.08)}"' if role == Role.CHOICE else ""
        if spot:
            return (
                f'<circle {attrs} cx="{_n(x)}" cy="{_n(y)}" r="{_n(0.42)}" fill="{paint}" '
                f'fill-opacity="0.3" stroke="{paint}" stroke-width="{_n(width)}"{dash}/>'
            )
        return (
            f'<rect {attrs} x="{_n(x - 0.41)}" y="{_n(y - 0.41)}" width="{_n(0.82)}" '
            f'height="{_n(0.82)}" rx="{_n(0.1)}" fill="{paint}" fill-opacity="0.28" '
            f'stroke="{paint}" stroke-width="{_n(width)}"{dash}/>'
        )
    if role == Role.TURN:
        return (
            f'<circle {attrs} cx="{_n(x)}" cy="{_n(y)}" r="{_n(0.44)}" fill="{paint}" '
            f'fill-opacity="0.25" stroke="{paint}" stroke-width="{_n(0.1)}"/>'
        )
    if role == Role.PAWN:
        return (
            f'<circle {attrs} cx="{_n(x)}" cy="{_n(y)}" r="{_n(0.46)}" fill="none" '
            f'stroke="{NEAR_BLACK}" stroke-width="{_n(0.06)}" '
            f'stroke-dasharray="{_n(0.1)} {_n(0.08)}"/>'
        )
    if role == Role.SLIDE:
        return (
            f'<rect {attrs} x="{_n(x - 0.44)}" y="{_n(y - 0.44)}" width="{_n(0.88)}" '
            f'height="{_n(0.88)}" rx="{_n(0.1)}" fill="none" stroke="{AMBER}" '
            f'stroke-width="{_n(0.12)}"/>'
        )
    if role in (Role.BUMP, Role.SWITCH):
        return (
            f'<g {attrs}><circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(0.45)}" fill="none" '
            f'stroke="#ffffff" stroke-width="{_n(0.14)}"/>'
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(0.54)}" fill="none" stroke="{NEAR_BLACK}" '
            f'stroke-width="{_n(0.06)}"/></g>'
        )
    if role == Role.CORRECTION:
        return (
            f'<rect {attrs} x="{_n(x - 0.47)}" y="{_n(y - 0.47)}" width="{_n(0.94)}" '
            f'height="{_n(0.94)}" rx="{_n(0.12)}" fill="none" stroke="{paint}" '
            f'stroke-width="{_n(0.1)}" stroke-dasharray="{_n(0.14)} {_n(0.08)}"/>'
        )
    fills: dict[str, str] = {Role.CHECK: MAGENTA, Role.ERROR: MAGENTA, Role.CELEBRATION: GOLD}
    fill = fills.get(role, "#ffffff")
    return (
        f'<rect {attrs} x="{_n(x - 0.44)}" y="{_n(y - 0.44)}" width="{_n(0.88)}" '
        f'height="{_n(0.88)}" rx="{_n(0.1)}" fill="{fill}" fill-opacity="0.45" '
        f'stroke="{fill}" stroke-width="{_n(0.06)}"/>'
    )


#: Lit roles drawn over the pawns (a ring round the pawn that would go back to START).
_OVER = {Role.BUMP, Role.SWITCH}


def _lit(parts: list[str], lit: Mapping[str, Any], colours: Mapping[str, Any], over: bool) -> None:
    """What the board's LEDs light now, one mark per lit LED (the state's ``lit``): under the
    pawns, or (``over``) the rings that go over them."""
    parts.append(f'<g class="lit-{"over" if over else "places"}" pointer-events="none">')
    for key, role in sorted(lit.items()):
        if isinstance(key, str) and isinstance(role, str) and (role in _OVER) == over:
            colour = colours.get(key)
            parts.append(_lit_mark(key, role, colour if isinstance(colour, str) else None))
    parts.append("</g>")


def _guide_point(key: object) -> tuple[float, float] | None:
    if not isinstance(key, str):
        return None
    try:
        return _place_point(key)[0]
    except (ValueError, IndexError, KeyError):
        return None


def _guidance(parts: list[str], guidance: list[Any]) -> None:
    """The corrections as arrows from where a pawn is to where it belongs, numbered in the
    order the LEDs show them; the misplaced pawn ringed; the first arrow pulses."""
    parts.append('<g class="guidance" pointer-events="none">')
    marked: set[object] = set()  # START filled with four pawns: one mark, not four
    for index, item in enumerate(guidance):
        if not isinstance(item, Mapping):
            continue
        if item.get("from") is None and item.get("to") in marked:
            continue
        marked.add(item.get("to"))
        source, target = _guide_point(item.get("from")), _guide_point(item.get("to"))
        colour = item.get("colour")
        paint = FILL.get(colour, NEAR_BLACK) if isinstance(colour, str) else NEAR_BLACK
        first = " first" if index == 0 else ""
        parts.append(f'<g class="guide{first}" data-guide="{index + 1}">')
        if source is not None:
            parts.append(
                f'<circle class="misplaced" data-misplaced="{escape(str(item.get("from")))}" '
                f'cx="{_n(source[0])}" cy="{_n(source[1])}" r="{_n(0.56)}" fill="none" '
                f'stroke="{paint}" stroke-width="{_n(0.14)}"/>'
            )
        if source is not None and target is not None:
            (ax, ay), (bx, by) = source, target
            length = math.hypot(bx - ax, by - ay) or 1.0
            dx, dy = (bx - ax) / length, (by - ay) / length
            sx, sy = ax + dx * 0.56, ay + dy * 0.56
            ex, ey = bx - dx * 0.5, by - dy * 0.5
            head = [
                (ex, ey),
                (ex - dx * 0.45 - dy * 0.28, ey - dy * 0.45 + dx * 0.28),
                (ex - dx * 0.45 + dy * 0.28, ey - dy * 0.45 - dx * 0.28),
            ]
            parts.append(
                f'<line class="arrow" data-arrow="{escape(str(item.get("from")))}>'
                f'{escape(str(item.get("to")))}" x1="{_n(sx)}" y1="{_n(sy)}" '
                f'x2="{_n(ex - dx * 0.3)}" y2="{_n(ey - dy * 0.3)}" stroke="{paint}" '
                f'stroke-width="{_n(0.16)}" stroke-linecap="round"/>'
            )
            points = " ".join(",".join(_xy(p)) for p in head)
            parts.append(
                f'<polygon points="{points}" fill="{paint}" stroke="{NEAR_BLACK}" '
                f'stroke-width="{_n(0.02)}"/>'
            )
        elif target is not None:
            parts.append(
                f'<circle class="wanted" cx="{_n(target[0])}" cy="{_n(target[1])}" '
                f'r="{_n(0.56)}" fill="none" stroke="{paint}" stroke-width="{_n(0.14)}" '
                f'stroke-dasharray="{_n(0.2)} {_n(0.1)}"/>'
            )
        badge = source or target
        if badge is not None:
            bx, by = badge[0] - 0.42, badge[1] - 0.42
            parts.append(
                f'<circle cx="{_n(bx)}" cy="{_n(by)}" r="{_n(0.24)}" fill="{NEAR_BLACK}"/>'
                f'<text x="{_n(bx)}" y="{_n(by + 0.12)}" font-size="{_n(0.32)}" '
                f'font-weight="700" fill="#ffffff" text-anchor="middle">{index + 1}</text>'
            )
        parts.append("</g>")
    parts.append("</g>")


def render_board(
    pawns: Mapping[str, Any] | None,
    *,
    diamonds: bool = False,
    marks: Marks = NO_MARKS,
    leds: Mapping[str, Any] | None = None,
    centre: Centre | None = None,
    interactive: bool = False,
    label: str | None = None,
    lit: Mapping[str, Any] | None = None,
    lit_colours: Mapping[str, Any] | None = None,
    guidance: list[Any] | None = None,
    sensed: list[Any] | None = None,
    theme: Theme | None = None,
    at: tuple[float, float, float] | None = None,
    words: Callable[[str], str] | None = None,
    language: str = "en",
) -> str:
    """The whole board as one ``<svg>`` element.

    ``pawns`` is the pawn-list form of docs/coordinates.md, 'Places' (``{"red": ["start", "T7",
    "S2", "home"], ...}``; a simulated board may hold fewer pawns). ``diamonds`` draws the classic
    editions' diamond squares; ``marks`` the highlights of some moves; ``leds`` (the simulator's LED
    keys to ``#rrggbb``) what the real LEDs show; ``lit`` (LED key -> role: the state's ``lit``,
    with ``lit_colours``) what they mean, one mark per lit LED; ``guidance`` the corrections as
    arrows, over ``sensed`` (the pawns where the board senses them, drawn instead of ``pawns`` when
    given); ``interactive`` makes the squares and areas buttons.  ``theme`` picks the board's
    colours (LIGHT, DARK); ``at`` (x, y, size) places the board in a bigger picture.
    ``words`` (a gettext) says the words drawn on it (START, HOME) in the page's language, and
    ``language`` what a screen reader hears of it (each place's name and who stands there).
    """
    say = words or _same
    occupants: dict[str, Message] = {}
    counts: dict[str, int] = {}
    for colour, number in pawn_places(pawns):
        place = Place(number, colour)
        key = place.key
        if place.is_area:
            counts[key] = counts.get(key, 0) + 1
        else:
            occupants[key] = msg(SQUARE_PAWN, colour=phrases.colour(colour))
    description = label or msg(BOARD_SAID, pawns=describe(pawns, language)).render(language)
    role = 'role="group"' if interactive else 'role="img"'
    theme = theme or LIGHT
    if at is not None:  # a board inside a bigger picture: where, and how big
        x, y, size = at
        role += f' x="{x:g}" y="{y:g}" width="{size:g}" height="{size:g}"'
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="0 0 {SIZE} {SIZE}" '
        f'{role} aria-label={quoteattr(description)} font-family="system-ui, sans-serif">',
        f"<title>{escape(description)}</title>",
        f'<rect width="{SIZE}" height="{SIZE}" rx="{_n(0.3)}" fill="{theme.board}"/>',
    ]
    _squares(parts, occupants, interactive, theme, language)
    _areas(parts, counts, interactive, theme, say, language)
    _slides(parts)
    if diamonds:
        _diamonds(parts, theme)
    if leds is not None:
        _leds(parts, leds, theme)
    if centre is not None:
        _centre(parts, centre, theme, say)
    if marks:
        _marks(parts, marks)
    if lit:
        _lit(parts, lit, lit_colours or {}, over=False)
    if sensed is not None:
        _sensed_pawns(parts, sensed, _named(guidance))
    else:
        _pawns(parts, pawns)
    if marks.bumped:
        _bumps(parts, marks)
    if lit:
        _lit(parts, lit, lit_colours or {}, over=True)
    if guidance:
        _guidance(parts, guidance)
    parts.append("</svg>")
    return "\n".join(parts)

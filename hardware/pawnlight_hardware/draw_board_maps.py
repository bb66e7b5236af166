"""Drawings of the board from underneath the builder's eyes: sensors by chip, and the LED chain.

Both are drawn from the wiring data on the board geometry (pawnlight.board.geometry), seen
from above as the players see it: when the board lies face down on the bench, left and right
swap.  The sensor map gives every place its channel and chip input, tinted by chip, so a
harness can be checked by eye; the LED map follows the data line from LED 0 to 131, drawing
the long hops (a wire of its own) dashed and marking where 5 V is fed in.
"""

from __future__ import annotations

import math

from pawnlight.board.cells import (
    AREAS,
    CELL_NAMES,
    LEDS,
    SLIDE_CHANNEL_SQUARES,
    START_BASE,
    area_cells,
    parse_cell_name,
)
from pawnlight.board.chips import chip_input
from pawnlight.board.geometry import (
    AREA_RADIUS,
    CELL_CENTRES,
    GRID,
    SLIDE_LED_CENTRES,
    area_centre,
    led_hole,
)
from pawnlight.board.svg import FILL
from pawnlight.rules.board import COLOURS, SLIDES, START

from .svg import Svg
from .wiring import BoardWiring, Wiring

UNIT = 54  # pixels per board square
MARGIN = 30
TITLE = 46
#: The pawn colours: the one palette of every board picture (pawnlight.board.svg).
INK = FILL
#: One tint per chip, distinct next to each other.
TINTS = (
    "#fde2e2", "#dbe9ff", "#fff2c4", "#dcf5e0", "#efe0ff", "#ffe4cc", "#d8f3f3",
    "#f5d9ec", "#e6f0c8", "#e3e3f7", "#ffd9d0", "#d2ecff", "#f7efd2", "#daf0e6",
)  # fmt: skip
#: A hop longer than this (in squares) is a separate wire, not the next LED along.
HOP = 1.3


def _at(x: float, y: float) -> tuple[float, float]:
    return MARGIN + x * UNIT, TITLE + y * UNIT


def _board_outline(svg: Svg) -> None:
    x0, y0 = _at(0, 0)
    svg.rect(x0, y0, GRID * UNIT, GRID * UNIT, fill="#fafafa", stroke="#888888", rx=6)
    for slide in SLIDES:
        (ax, ay), (bx, by) = (_at(*CELL_CENTRES[s]) for s in (slide.triangle, slide.end))
        svg.line(ax, ay, bx, by, stroke=INK[COLOURS[slide.colour]], stroke_width=4,
                 stroke_opacity=0.25, stroke_linecap="round")  # fmt: skip
    for place, colour in AREAS:
        x, y = _at(*area_centre(place, colour))
        svg.circle(x, y, AREA_RADIUS * UNIT, fill="none", stroke=INK[COLOURS[colour]],
                   stroke_width=1.5)  # fmt: skip
        word = "START" if place == START else "HOME"
        svg.text(x, y + AREA_RADIUS * UNIT + 11, word, size=9, anchor="middle",
                 fill=INK[COLOURS[colour]])  # fmt: skip


def _cell_shape(svg: Svg, cell: int, fill: str, stroke: str) -> tuple[float, float]:
    x, y = _at(*CELL_CENTRES[cell])
    if cell < START_BASE:
        half = 0.46 * UNIT
        svg.rect(x - half, y - half, 2 * half, 2 * half, rx=4, fill=fill, stroke=stroke,
                 stroke_width=1)  # fmt: skip
    else:
        svg.circle(x, y, 0.34 * UNIT, fill=fill, stroke=stroke, stroke_width=1)
    return x, y


def sensor_map(board: BoardWiring, wiring: Wiring) -> str:
    """Every place with its channel and chip input, tinted by chip."""
    columns = 4 if board.chips[0].enable is None else 2
    legend_rows = math.ceil(len(board.chips) / columns)
    svg = Svg(2 * MARGIN + GRID * UNIT, TITLE + GRID * UNIT + 40 + 22 * legend_rows)
    part = board.chips[0].part
    svg.text(MARGIN, 28, f"{board.sensing.capitalize()} board: sensor channels and the "
             f"{part} input that reads each place", size=17, weight="bold")  # fmt: skip
    _board_outline(svg)
    per_chip = board.inputs_per_chip
    for number, chip in enumerate(board.chips):
        for index, name in enumerate(chip.inputs):
            if name == "-":
                continue
            cell = parse_cell_name(name)
            channel = number * per_chip + index
            where = chip_input(board.sensing, channel)
            stroke = "#777777" if cell < 60 else INK[COLOURS[((cell - 60) // 5) % 4]]
            if cell >= START_BASE:
                stroke = "#777777"
            x, y = _cell_shape(svg, cell, TINTS[number % len(TINTS)], stroke)
            if cell < START_BASE:
                svg.text(x, y - 12, CELL_NAMES[cell].replace("-", " "), size=8,
                         anchor="middle", fill="#555555")  # fmt: skip
                svg.text(x, y + 4, str(channel), size=14, anchor="middle", weight="bold")
                svg.text(x, y + 17, f"{where.ref} {where.label}", size=9, anchor="middle",
                         fill="#333333")  # fmt: skip
            else:
                svg.text(x, y + 1, str(channel), size=11, anchor="middle", weight="bold")
                svg.text(x, y + 11, f"{where.ref} {where.label}", size=7, anchor="middle",
                         fill="#333333")  # fmt: skip
    y = TITLE + GRID * UNIT + 22
    svg.text(MARGIN, y, f"Big number: the channel. Below it: chip and input "
             f"({'D0..D7' if per_chip == 8 else 'I0..I15'}); the chip pin numbers are in "
             "wiring.md. Seen from above.", size=11, fill="#444444")  # fmt: skip
    width = (GRID * UNIT) / columns
    for number, chip in enumerate(board.chips):
        row, column = divmod(number, columns)
        x = MARGIN + column * width
        yy = y + 14 + row * 22
        svg.rect(x, yy, 16, 14, fill=TINTS[number % len(TINTS)], stroke="#777777")
        first, last = number * per_chip, number * per_chip + per_chip - 1
        extra = f", /E GP{chip.enable}, COMMON GP{chip.adc}" if chip.enable is not None else ""
        svg.text(x + 22, yy + 11, f"{chip.ref}: channels {first}-{last}{extra}", size=11)
    return svg.document()


def led_position(name: str) -> tuple[float, float]:
    """Board coordinates (squares) of the LED hole of a wiring place name (board/geometry.py)."""
    if name.startswith("slide-T"):
        return SLIDE_LED_CENTRES[SLIDE_CHANNEL_SQUARES.index(int(name[7:]))]
    return led_hole(parse_cell_name(name))


def hops(wiring: Wiring) -> list[tuple[int, float]]:
    """(LED index, distance from the previous LED in squares) for every separate wire."""
    found = []
    for index in range(1, len(wiring.led_chain)):
        (ax, ay), (bx, by) = (led_position(wiring.led_chain[i]) for i in (index - 1, index))
        distance = math.hypot(bx - ax, by - ay)
        if distance > HOP:
            found.append((index, distance))
    return found


def led_map(wiring: Wiring) -> str:
    """The WS2812B chain in data order, its long hops and its power feeds."""
    svg = Svg(2 * MARGIN + GRID * UNIT, TITLE + GRID * UNIT + 78)
    svg.text(MARGIN, 28, "LED chain: data order from LED 0, power feeds, separate wires",
             size=17, weight="bold")  # fmt: skip
    _board_outline(svg)
    for place, colour in AREAS:
        for cell in area_cells(place, colour):
            x, y = _at(*CELL_CENTRES[cell])
            svg.circle(x, y, 0.34 * UNIT, fill="none", stroke="#cccccc")
    for cell in range(START_BASE):
        x, y = _at(*CELL_CENTRES[cell])
        half = 0.46 * UNIT
        svg.rect(x - half, y - half, 2 * half, 2 * half, rx=4, fill="none", stroke="#dddddd")
    long_hops = {index for index, _ in hops(wiring)}
    points = [_at(*led_position(name)) for name in wiring.led_chain]
    for index in range(1, len(points)):
        (ax, ay), (bx, by) = points[index - 1], points[index]
        if index in long_hops:
            svg.line(ax, ay, bx, by, stroke="#8e44ad", stroke_width=1.6,
                     stroke_dasharray="6 4")  # fmt: skip
        else:
            svg.line(ax, ay, bx, by, stroke="#555555", stroke_width=2)
        # A small arrow head halfway, pointing downstream.
        mx, my = (ax + bx) / 2, (ay + by) / 2
        length = max(math.hypot(bx - ax, by - ay), 1e-9)
        ux, uy = (bx - ax) / length, (by - ay) / length
        paint = "#8e44ad" if index in long_hops else "#555555"
        svg.polygon([(mx + 5 * ux, my + 5 * uy), (mx - 4 * ux - 4 * uy, my - 4 * uy + 4 * ux),
                     (mx - 4 * ux + 4 * uy, my - 4 * uy - 4 * ux)], fill=paint)  # fmt: skip
    injected = set(wiring.power_injection)
    for index, (x, y) in enumerate(points):
        slide = wiring.led_chain[index].startswith("slide-")
        radius = 7 if slide else 10
        if index in injected:
            svg.circle(x, y, radius + 5, fill="none", stroke="#e67e22", stroke_width=3)
        svg.circle(x, y, radius, fill="#ffffff", stroke="#333333", stroke_width=1.2)
        svg.text(x, y + 3, str(index), size=7 if slide else 9 if index < 100 else 8,
                 anchor="middle", weight="bold")  # fmt: skip
    x0, y0 = points[0]
    svg.arrow(x0 - 26, y0 - 26, x0 - 10, y0 - 10, "#c0392b", 2)
    svg.text(x0 - 26, y0 - 30, "data in", size=10, fill="#c0392b")
    y = TITLE + GRID * UNIT + 22
    svg.line(MARGIN, y - 4, MARGIN + 30, y - 4, stroke="#555555", stroke_width=2)
    svg.text(MARGIN + 38, y, "next LED along the row: a short 3-wire link (5 V, data, GND)",
             size=11)  # fmt: skip
    svg.line(MARGIN, y + 16, MARGIN + 30, y + 16, stroke="#8e44ad", stroke_width=1.6,
             stroke_dasharray="6 4")  # fmt: skip
    svg.text(MARGIN + 38, y + 20, "a hop: a separate 3-wire cable (lengths in wiring.md)",
             size=11)  # fmt: skip
    svg.circle(MARGIN + 15, y + 38, 8, fill="none", stroke="#e67e22", stroke_width=3)
    svg.text(MARGIN + 38, y + 42, f"5 V and GND fed from the supply at LEDs "
             f"{', '.join(str(i) for i in wiring.power_injection)}; data in at LED 0 through "
             f"{wiring.resistor_ohms} Ω", size=11)  # fmt: skip
    assert len(points) == LEDS
    return svg.document()

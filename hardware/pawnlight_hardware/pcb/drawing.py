"""A circuit drawn as a net-label schematic (SVG): every part a box, every pin a stub named by
its net, so two pins with the same label are joined.  Read with the netlist beside it: the
drawing is made from the same circuit objects, part by part.

(SKiDL can draw a placed-and-routed schematic too, but it takes about 25 s for a strip and
minutes for a hub, and its wires cross the page; labels read better here.)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..svg import Svg

ROW = 13.0  # px per pin row
BOX_W = 150.0
STUB = 18.0
COLUMN_W = BOX_W + STUB + 170.0
COLUMN_H = 1500.0
POWER = ("+5V", "+3V3", "+3V3_SENS", "5V_IN")


@dataclass(frozen=True)
class DrawnPart:
    ref: str
    value: str
    symbol: str
    pins: tuple[tuple[str, str, str], ...]  # (number, name, net or "" when unconnected)


def _order(part: DrawnPart) -> tuple[int, str, int]:
    letters = part.ref.rstrip("0123456789")
    rank = {"A": 0, "U": 1, "J": 2, "RN": 3, "F": 4, "Q": 5, "D": 6, "R": 7, "C": 8}
    return rank.get(letters, 9), letters, int(part.ref[len(letters) :] or 0)


def _net_colour(net: str) -> str:
    if not net:
        return "#999999"
    if net == "GND":
        return "#333333"
    if net in POWER:
        return "#b3261e"
    return "#1f5fa8"


def draw(title: str, parts: list[DrawnPart]) -> str:
    """The SVG text of a circuit's parts, in columns: ICs, connectors, then the small parts."""
    placed: list[tuple[float, float, DrawnPart]] = []
    x, y = 20.0, 60.0
    for part in sorted(parts, key=_order):
        height = ROW * (len(part.pins) + 1) + 10
        if y + height > COLUMN_H and y > 60:
            x, y = x + COLUMN_W, 60.0
        placed.append((x, y, part))
        y += height + 14
    width = x + COLUMN_W + 20
    height = max(COLUMN_H, y) + 40
    svg = Svg(width, height)
    svg.text(20, 30, title, size=18, weight="bold")
    svg.text(
        20,
        48,
        "pins with the same label are one net; grey: not connected",
        size=11,
        fill="#555555",
    )
    for left, top, part in placed:
        box_h = ROW * (len(part.pins) + 1) + 6
        svg.rect(left, top, BOX_W, box_h, fill="#fffbe6", stroke="#8a6d00", stroke_width=1)
        svg.text(left + 4, top + 12, f"{part.ref}  {part.value}", size=11, weight="bold")
        for row, (number, name, net) in enumerate(part.pins):
            py = top + ROW * (row + 1) + 9
            label = f"{number} {name}" if name and name != "~" else number
            svg.text(left + 6, py, label, size=10, fill="#444444")
            colour = _net_colour(net)
            svg.line(left + BOX_W, py - 3, left + BOX_W + STUB, py - 3, stroke=colour)
            svg.text(left + BOX_W + STUB + 3, py, net or "no connection", size=10, fill=colour)
    return svg.document()

"""The 1:1 drilling template: every sensor's pilot hole, every LED hole and every printed part's
outline, in board millimetres (pawnlight.board.geometry), with a scale bar to check the print.

``template_svg`` draws the whole board on one sheet (1 user unit = 1 mm; print it at 100 % on a
plotter or at a copy shop); ``template_pdf`` cuts the same drawing into A4 pages (3 across, 2
down) to print at 100 % ("actual size", no fitting) on any printer, trim along the frame and tape
together.  Both are drawn from one list of shapes, so they cannot disagree.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from pawnlight.board import geometry

from . import underside
from .parts import (
    CUP_SIDE_MM,
    LED_HOLE_MM,
    PILOT_HOLE_MM,
    TRAY_RADIUS_MM,
    Part,
    led_positions,
    sensor_positions,
)

BOARD_MM = geometry.GRID * geometry.SQUARE_MM
MARGIN_MM = 15.0
SCALE_BAR_MM = 100.0
PT_PER_MM = 72 / 25.4
A4 = (210.0, 297.0)
COLUMNS, ROWS = 3, 2
TILE = (BOARD_MM / COLUMNS, BOARD_MM / ROWS)  # 176 x 264 mm of board on each page


@dataclass(frozen=True)
class Circle:
    x: float
    y: float
    r: float
    kind: str  # "pilot", "led", "tray"
    width: float = 0.25


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    width: float = 0.25
    grey: bool = False


@dataclass(frozen=True)
class Text:
    x: float
    y: float
    size: float
    words: str


Shape = Circle | Line | Text


def shapes(parts: Sequence[Part]) -> list[Shape]:
    """The template in board millimetres."""
    drawn: list[Shape] = []
    edge = BOARD_MM
    for x1, y1, x2, y2 in ((0, 0, edge, 0), (edge, 0, edge, edge), (edge, edge, 0, edge),
                           (0, edge, 0, 0)):  # fmt: skip
        drawn.append(Line(x1, y1, x2, y2, 0.5))
    for part in parts:
        x, y = part.centre
        if part.shape == "tray":
            drawn.append(Circle(x, y, TRAY_RADIUS_MM, "tray", 0.2))
        else:
            h = CUP_SIDE_MM / 2
            corners = [(x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)]
            for (ax, ay), (bx, by) in zip(corners, corners[1:] + corners[:1], strict=True):
                drawn.append(Line(ax, ay, bx, by, 0.2, grey=True))
    for name, (x, y) in sensor_positions():
        drawn.append(Circle(x, y, PILOT_HOLE_MM / 2, "pilot"))
        drawn.append(Line(x - 4, y, x + 4, y))
        drawn.append(Line(x, y - 4, x, y + 4))
        drawn.append(Text(x + 1.2, y + 4.2, 2.2, name))
    for number, (_name, (x, y)) in enumerate(led_positions()):
        drawn.append(Circle(x, y, LED_HOLE_MM / 2, "led"))
        drawn.append(Text(x - 1.6, y + 0.8, 2.2, str(number)))
    return drawn


def _scale_bar(x: float, y: float) -> list[Shape]:
    bar: list[Shape] = [Line(x, y, x + SCALE_BAR_MM, y, 0.4)]
    for tick in range(0, int(SCALE_BAR_MM) + 1, 10):
        drawn_height = 3.0 if tick % 50 == 0 else 1.8
        bar.append(Line(x + tick, y, x + tick, y - drawn_height, 0.3))
    bar.append(
        Text(x + SCALE_BAR_MM + 4, y, 3.0, f"{SCALE_BAR_MM:g} mm: measure it; print at 100 %")
    )
    return bar


def _escape_xml(words: str) -> str:
    return words.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def template_svg(parts: Sequence[Part]) -> str:
    """The whole board on one sheet, 1:1 (the SVG's user unit is the millimetre)."""
    width = BOARD_MM + 2 * MARGIN_MM
    height = BOARD_MM + 2 * MARGIN_MM + 15
    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" '
        f'width="{width:g}mm" height="{height:g}mm" viewBox="0 0 {width:g} {height:g}">',
        f'<g transform="translate({MARGIN_MM:g} {MARGIN_MM:g})" fill="none" stroke="#000">',
    ]
    for shape in shapes(parts):
        if isinstance(shape, Circle):
            dash = ' stroke-dasharray="2 1.5"' if shape.kind == "tray" else ""
            out.append(
                f'<circle class="{shape.kind}" cx="{shape.x:.2f}" cy="{shape.y:.2f}" '
                f'r="{shape.r:g}" stroke-width="{shape.width:g}"{dash}/>'
            )
        elif isinstance(shape, Line):
            colour = ' stroke="#999"' if shape.grey else ""
            out.append(
                f'<line x1="{shape.x1:.2f}" y1="{shape.y1:.2f}" x2="{shape.x2:.2f}" '
                f'y2="{shape.y2:.2f}" stroke-width="{shape.width:g}"{colour}/>'
            )
        else:
            out.append(
                f'<text x="{shape.x:.2f}" y="{shape.y:.2f}" font-size="{shape.size:g}" '
                f'font-family="sans-serif" fill="#000" stroke="none">{_escape_xml(shape.words)}'
                "</text>"
            )
    out.append("</g>")
    bar_x, bar_y = MARGIN_MM, MARGIN_MM + BOARD_MM + 12
    for shape in _scale_bar(bar_x, bar_y):
        if isinstance(shape, Line) and shape.x2 - shape.x1 == SCALE_BAR_MM:
            out.append(
                f'<line id="scale-bar" x1="{shape.x1:g}" y1="{shape.y1:g}" x2="{shape.x2:g}" '
                f'y2="{shape.y2:g}" stroke="#000" stroke-width="{shape.width:g}"/>'
            )
        elif isinstance(shape, Line):
            out.append(
                f'<line x1="{shape.x1:g}" y1="{shape.y1:g}" x2="{shape.x2:g}" y2="{shape.y2:g}" '
                f'stroke="#000" stroke-width="{shape.width:g}"/>'
            )
        elif isinstance(shape, Text):
            out.append(
                f'<text x="{shape.x:g}" y="{shape.y:g}" font-size="{shape.size:g}" '
                f'font-family="sans-serif">{_escape_xml(shape.words)}</text>'
            )
    out.append(
        f'<text x="{MARGIN_MM:g}" y="{MARGIN_MM - 5:g}" font-size="4" font-family="sans-serif">'
        "pawnlight drilling template, seen from above: pilot holes 1.5 mm at the crosses, LED "
        "holes 5 mm at the numbered circles (the LED chain's order); grey: the printed parts"
        "</text>"
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _pdf_text(words: str) -> str:
    return words.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _pdf_shapes(drawn: Sequence[Shape], dx: float, dy: float) -> list[str]:
    """PDF operators for shapes in mm, moved by (dx, dy) mm on an A4 page (y down in mm)."""
    k = PT_PER_MM

    def at(x: float, y: float) -> str:
        return f"{(x + dx) * k:.2f} {(A4[1] - (y + dy)) * k:.2f}"

    ops = []
    for shape in drawn:
        if isinstance(shape, Line):
            grey = "0.6 G " if shape.grey else "0 G "
            ops.append(f"{grey}{shape.width * k:.2f} w {at(shape.x1, shape.y1)} m "
                       f"{at(shape.x2, shape.y2)} l S")  # fmt: skip
        elif isinstance(shape, Circle):
            c = 0.5523 * shape.r
            x, y, r = shape.x, shape.y, shape.r
            ops.append(
                f"0 G {shape.width * k:.2f} w {at(x + r, y)} m "
                f"{at(x + r, y + c)} {at(x + c, y + r)} {at(x, y + r)} c "
                f"{at(x - c, y + r)} {at(x - r, y + c)} {at(x - r, y)} c "
                f"{at(x - r, y - c)} {at(x - c, y - r)} {at(x, y - r)} c "
                f"{at(x + c, y - r)} {at(x + r, y - c)} {at(x + r, y)} c S"
            )
        else:
            ops.append(f"BT /F1 {shape.size * k:.2f} Tf {at(shape.x, shape.y)} Td "
                       f"({_pdf_text(shape.words)}) Tj ET")  # fmt: skip
    return ops


def pages(parts: Sequence[Part]) -> list[str]:
    """Each A4 page's content stream: its tile of the board, clipped, with its frame to trim
    along, where it goes, and the scale bar."""
    drawn = shapes(parts)
    left = (A4[0] - TILE[0]) / 2
    top = 12.0
    streams = []
    for row in range(ROWS):
        for column in range(COLUMNS):
            x0, y0 = column * TILE[0], row * TILE[1]
            dx, dy = left - x0, top - y0
            k = PT_PER_MM
            clip = (f"{left * k:.2f} {(A4[1] - top - TILE[1]) * k:.2f} {TILE[0] * k:.2f} "
                    f"{TILE[1] * k:.2f} re W n")  # fmt: skip
            ops = ["q", clip, *_pdf_shapes(drawn, dx, dy), "Q"]
            frame = [Line(x0, y0, x0 + TILE[0], y0, 0.15), Line(x0 + TILE[0], y0,
                     x0 + TILE[0], y0 + TILE[1], 0.15), Line(x0 + TILE[0], y0 + TILE[1], x0,
                     y0 + TILE[1], 0.15), Line(x0, y0 + TILE[1], x0, y0, 0.15)]  # fmt: skip
            ops += _pdf_shapes(frame, dx, dy)
            label = (f"pawnlight drilling template, page {row * COLUMNS + column + 1} of "
                     f"{ROWS * COLUMNS}: row {row + 1}, column {column + 1} (seen from above; "
                     "trim along the frame and butt the pages)")  # fmt: skip
            ops += _pdf_shapes([Text(left, top - 4, 2.8, label)], 0, 0)
            bar_y = top + TILE[1] + 10
            bar = _scale_bar(left, bar_y)
            ops.append("% scale-bar")
            ops += _pdf_shapes(bar[:1], 0, 0)
            ops += _pdf_shapes(bar[1:], 0, 0)
            streams.append("\n".join(ops))
    return streams


def template_pdf(parts: Sequence[Part]) -> bytes:
    """The template on A4 pages, a plain uncompressed PDF (written by hand: no dependency)."""
    streams = pages(parts)
    width, height = (f"{A4[0] * PT_PER_MM:.2f}", f"{A4[1] * PT_PER_MM:.2f}")
    objects: list[bytes] = []
    count = len(streams)
    page_ids = [4 + 2 * index for index in range(count)]
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    kids = " ".join(f"{number} 0 R" for number in page_ids)
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {count} >>".encode())
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    for index, stream in enumerate(streams):
        data = stream.encode("latin-1", "replace")
        page = (
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {width} {height}] "
            f"/Resources << /Font << /F1 3 0 R >> >> /Contents {page_ids[index] + 1} 0 R >>"
        )
        objects.append(page.encode())
        objects.append(b"<< /Length %d >>\nstream\n" % len(data) + data + b"\nendstream")
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    out += (
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n"
    ).encode()
    return bytes(out)


def scale_bar_points(stream: str) -> float:
    """The scale bar's length on a page, in points (what a test or a reader measures)."""
    lines = stream.splitlines()
    line = lines[lines.index("% scale-bar") + 1]
    words = line.split()
    m = words.index("m")
    x1, x2 = float(words[m - 2]), float(words[m + 1])
    return math.fabs(x2 - x1)


def panel_svg() -> str:
    """The bottom panel at 1:1, seen from above like the drilling template (mark it on the
    panel's top face, the one against the frame): the hatch opening to cut, the holes for the
    hatch cover's screws, the feet and the panel screws, with their positions in mm."""
    size = underside.DECK_OUTER_MM
    corner = underside.DECK_CORNER_MM  # the panel's corner in board mm: positions stay the board's
    shift = MARGIN_MM - corner
    width = size + 2 * MARGIN_MM
    height = size + 2 * MARGIN_MM + 15
    cx, cy = underside.hatch_centre()
    w, h = underside.HATCH_OPENING_MM
    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" '
        f'width="{width:g}mm" height="{height:g}mm" viewBox="0 0 {width:g} {height:g}">',
        f'<g transform="translate({shift:g} {shift:g})" fill="none" stroke="#000" '
        'font-family="sans-serif">',
        f'<rect id="panel" x="{corner:g}" y="{corner:g}" width="{size:g}" height="{size:g}" '
        'stroke-width="0.5"/>',
        f'<rect id="hatch" x="{cx - w / 2:.2f}" y="{cy - h / 2:.2f}" width="{w:g}" '
        f'height="{h:g}" stroke-width="0.5" stroke-dasharray="4 2"/>',
        f'<text x="{cx - w / 2:.2f}" y="{cy - h / 2 - 3:.2f}" font-size="4" fill="#000" '
        f'stroke="none">cut out: hatch {w:g} x {h:g} mm, corner at x {cx - w / 2:.1f}, '
        f"y {cy - h / 2:.1f}</text>",
    ]
    holes = [("hatch-screw", p, underside.HATCH_SCREW_MM) for p in underside.hatch_screws()]
    holes += [("foot", p, underside.FOOT_SCREW_MM) for p in underside.feet()]
    holes += [("panel-screw", p, underside.FOOT_SCREW_MM) for p in underside.panel_screws()]
    for kind, (x, y), diameter in holes:
        out.append(
            f'<circle class="{kind}" cx="{x:.2f}" cy="{y:.2f}" r="{diameter / 2:g}" '
            'stroke-width="0.3"/>'
        )
        out.append(f'<line x1="{x - 3:.2f}" y1="{y:.2f}" x2="{x + 3:.2f}" y2="{y:.2f}" '
                   'stroke-width="0.15"/>')  # fmt: skip
        out.append(f'<line x1="{x:.2f}" y1="{y - 3:.2f}" x2="{x:.2f}" y2="{y + 3:.2f}" '
                   'stroke-width="0.15"/>')  # fmt: skip
        if kind == "foot":
            out.append(
                f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{underside.FOOT_DIAMETER_MM / 2:g}" '
                'stroke="#999" stroke-width="0.25" stroke-dasharray="2 1.5"/>'
            )
    out.append("</g>")
    bar_x, bar_y = MARGIN_MM, MARGIN_MM + size + 12
    for shape in _scale_bar(bar_x, bar_y):
        if isinstance(shape, Line):
            ident = ' id="scale-bar"' if shape.x2 - shape.x1 == SCALE_BAR_MM else ""
            out.append(
                f'<line{ident} x1="{shape.x1:g}" y1="{shape.y1:g}" x2="{shape.x2:g}" '
                f'y2="{shape.y2:g}" stroke="#000" stroke-width="{shape.width:g}"/>'
            )
        elif isinstance(shape, Text):
            out.append(
                f'<text x="{shape.x:g}" y="{shape.y:g}" font-size="{shape.size:g}" '
                f'font-family="sans-serif">{_escape_xml(shape.words)}</text>'
            )
    out.append(
        f'<text x="{MARGIN_MM:g}" y="{MARGIN_MM - 5:g}" font-size="4" font-family="sans-serif">'
        f"pawnlight bottom panel, {size:g} x {size:g} mm, seen from above (mark its top face): "
        f"cut the dashed hatch; {underside.HATCH_SCREW_MM:g} mm holes for the hatch cover, "
        f"{underside.FOOT_SCREW_MM:g} mm for the feet (grey) and the panel screws</text>"
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"

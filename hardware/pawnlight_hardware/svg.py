"""A small SVG writer for the hardware drawings: deterministic text, so a test can compare."""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

FONT = "DejaVu Sans, Verdana, sans-serif"


def _n(value: float) -> str:
    """Numbers with at most one decimal, no trailing zeros: stable across platforms."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


class Svg:
    def __init__(self, width: float, height: float, background: str = "#ffffff") -> None:
        self.width = width
        self.height = height
        self.parts: list[str] = [
            f'<rect width="{_n(width)}" height="{_n(height)}" fill="{background}"/>'
        ]

    def _attrs(self, extra: dict[str, object]) -> str:
        out = []
        for key, value in extra.items():
            if value is None:
                continue
            name = key.rstrip("_").replace("_", "-")
            text = _n(value) if isinstance(value, float | int) else str(value)
            out.append(f" {name}={quoteattr(text)}")
        return "".join(out)

    def rect(self, x: float, y: float, w: float, h: float, **style: object) -> None:
        self.parts.append(
            f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}"{self._attrs(style)}/>'
        )

    def circle(self, x: float, y: float, r: float, **style: object) -> None:
        self.parts.append(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}"{self._attrs(style)}/>')

    def line(self, x1: float, y1: float, x2: float, y2: float, **style: object) -> None:
        self.parts.append(
            f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}"{self._attrs(style)}/>'
        )

    def polyline(self, points: list[tuple[float, float]], **style: object) -> None:
        text = " ".join(f"{_n(x)},{_n(y)}" for x, y in points)
        self.parts.append(f'<polyline points="{text}" fill="none"{self._attrs(style)}/>')

    def polygon(self, points: list[tuple[float, float]], **style: object) -> None:
        text = " ".join(f"{_n(x)},{_n(y)}" for x, y in points)
        self.parts.append(f'<polygon points="{text}"{self._attrs(style)}/>')

    def text(
        self,
        x: float,
        y: float,
        content: str,
        size: float = 12,
        anchor: str = "start",
        fill: str = "#222222",
        weight: str | None = None,
        **style: object,
    ) -> None:
        self.parts.append(
            f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" text-anchor="{anchor}" '
            f'fill="{fill}"{self._attrs({"font_weight": weight, **style})}>'
            f"{escape(content)}</text>"
        )

    def arrow(self, x1: float, y1: float, x2: float, y2: float, colour: str, width=1.5) -> None:
        """A line with a small filled head at (x2, y2)."""
        self.line(x1, y1, x2, y2, stroke=colour, stroke_width=width)
        dx, dy = x2 - x1, y2 - y1
        length = max((dx * dx + dy * dy) ** 0.5, 1e-9)
        ux, uy = dx / length, dy / length
        size = 4 + 2 * width
        left = (x2 - ux * size - uy * size / 2, y2 - uy * size + ux * size / 2)
        right = (x2 - ux * size + uy * size / 2, y2 - uy * size - ux * size / 2)
        self.polygon([(x2, y2), left, right], fill=colour)

    def document(self) -> str:
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(self.width)}" '
            f'height="{_n(self.height)}" viewBox="0 0 {_n(self.width)} {_n(self.height)}" '
            f'font-family="{FONT}">'
        )
        return "\n".join([head, *self.parts, "</svg>"]) + "\n"

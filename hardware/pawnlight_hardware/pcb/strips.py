"""The sensor strips: small boards that carry the sensors and LEDs of a run of places.

Every strip is one of five designs, each drawn once from red's quarter of the board and turned a
quarter clockwise for each next colour (the board's geometry turns the same way,
:mod:`pawnlight.board.geometry`), so the four sides share them:

* ``track-a``: track squares 0..4 of a side (T0..T4 on red's side), with the slide-channel LEDs
  of squares 2 and 3;
* ``track-b``: squares 5..9, no slide LEDs;
* ``track-c``: squares 10..14, with the slide LEDs of squares 10, 11 and 12;
* ``lane``: the five safety squares S1..S5;
* ``area``: the four spots of a START or HOME circle (the same design for both).

A design's coordinates are millimetres in red's frame, with the design's origin at its first
sensor: a strip mounted at :attr:`StripInstance.origin` and turned by
:attr:`StripInstance.quarters` puts every sensor under its place's centre and every LED under its
LED hole (:data:`SENSORS_MM`, :func:`led_hole_mm`).  Nothing here needs KiCad.
"""

from __future__ import annotations

from dataclasses import dataclass

from pawnlight.board.cells import SLIDE_CHANNEL_SQUARES, parse_cell_name
from pawnlight.board.geometry import GRID, SENSORS_MM, SQUARE_MM, led_hole_mm
from pawnlight.rules.board import COLOURS, SIDE

Point = tuple[float, float]

#: The board's centre in millimetres, the point the colours' quarters turn about.
CENTRE_MM = GRID * SQUARE_MM / 2
#: Track squares per strip: five squares make a strip about 180 mm long, a third of a side.
SLOTS = 5


def turn_mm(point: Point, quarters: int) -> Point:
    """A board point (mm) turned about the board's centre by quarter turns clockwise."""
    x, y = point
    for _ in range(quarters % 4):
        x, y = 2 * CENTRE_MM - y, x
    return x, y


def turn_offset(offset: Point, quarters: int) -> Point:
    """An offset (mm) turned by quarter turns clockwise (x right, y down)."""
    dx, dy = offset
    for _ in range(quarters % 4):
        dx, dy = -dy, dx
    return dx, dy


@dataclass(frozen=True)
class StripDesign:
    """One strip board: where its parts sit, in its own millimetres (red's frame)."""

    name: str
    title: str
    #: The sensors, in slot order (the order of the strip's SEN0.. lines).
    sensors: tuple[Point, ...]
    #: Each slot's own LED, in slot order (the order of the place LEDs' data chain).
    leds: tuple[Point, ...]
    #: The slide-channel LEDs, in the order of their own data chain, and the slot each is beside.
    slide_leds: tuple[Point, ...]
    slide_slots: tuple[int, ...]


@dataclass(frozen=True)
class StripInstance:
    """One strip on the board: its design, which places it reads and where it is mounted."""

    name: str  # e.g. "red-track-a", "blue-home"
    design: StripDesign
    places: tuple[str, ...]  # place names by slot
    slides: tuple[str, ...]  # LED names ("slide-T2") by slide slot
    #: Where the design's origin (its first sensor) lies on the board, in board mm.
    origin: Point
    quarters: int

    def to_board(self, local: Point) -> Point:
        """A point of the design (mm) on the board (mm)."""
        dx, dy = turn_offset(local, self.quarters)
        return self.origin[0] + dx, self.origin[1] + dy


def _sensor_mm(name: str) -> Point:
    return SENSORS_MM[parse_cell_name(name)]


def _relative(points: list[Point], origin: Point) -> tuple[Point, ...]:
    return tuple((round(x - origin[0], 4), round(y - origin[1], 4)) for x, y in points)


def _runs() -> list[tuple[str, str, list[str], list[str]]]:
    """Red's strips: (instance suffix, design name, places by slot, slide LEDs)."""
    runs = []
    for design, first in (("track-a", 0), ("track-b", 5), ("track-c", 10)):
        squares = range(first, first + SLOTS)
        slides = [f"slide-T{s}" for s in squares if s in SLIDE_CHANNEL_SQUARES]
        runs.append((design, design, [f"T{s}" for s in squares], slides))
    runs.append(("lane", "lane", [f"red-S{i}" for i in range(1, 6)], []))
    runs.append(("start", "area", [f"red-start-{i}" for i in range(1, 5)], []))
    runs.append(("home", "area", [f"red-home-{i}" for i in range(1, 5)], []))
    return runs


_TITLES = {
    "track-a": "track squares 0-4 of a side, with the slide LEDs of squares 2 and 3",
    "track-b": "track squares 5-9 of a side",
    "track-c": "track squares 10-14 of a side, with the slide LEDs of squares 10-12",
    "lane": "the five safety squares of a colour",
    "area": "the four spots of a START or HOME circle",
}


def _designs() -> dict[str, StripDesign]:
    designs: dict[str, StripDesign] = {}
    for _suffix, name, places, slides in _runs():
        if name in designs:
            continue
        origin = _sensor_mm(places[0])
        slide_squares = [int(s[len("slide-T") :]) for s in slides]
        squares = [int(p[1:]) if p.startswith("T") else -1 for p in places]
        designs[name] = StripDesign(
            name=name,
            title=_TITLES[name],
            sensors=_relative([_sensor_mm(p) for p in places], origin),
            leds=_relative([led_hole_mm(p) for p in places], origin),
            slide_leds=_relative([led_hole_mm(s) for s in slides], origin),
            slide_slots=tuple(squares.index(s) for s in slide_squares),
        )
    return designs


#: The five designs, by name.
DESIGNS: dict[str, StripDesign] = _designs()


def _rename(name: str, quarters: int) -> str:
    """A red place or LED name as the same place of the side or colour ``quarters`` on."""
    if name.startswith("slide-T"):
        return f"slide-T{int(name[len('slide-T') :]) + SIDE * quarters}"
    if name.startswith("T"):
        return f"T{int(name[1:]) + SIDE * quarters}"
    colour, rest = name.split("-", 1)
    assert colour == COLOURS[0]
    return f"{COLOURS[quarters]}-{rest}"


def _instances() -> tuple[StripInstance, ...]:
    found = []
    for quarters, colour in enumerate(COLOURS):
        for suffix, design_name, places, slides in _runs():
            design = DESIGNS[design_name]
            red_origin = _sensor_mm(places[0])
            found.append(
                StripInstance(
                    name=f"{colour}-{suffix}",
                    design=design,
                    places=tuple(_rename(p, quarters) for p in places),
                    slides=tuple(_rename(s, quarters) for s in slides),
                    origin=turn_mm(red_origin, quarters),
                    quarters=quarters,
                )
            )
    return tuple(found)


#: Every strip on the board: red's six, then blue's, yellow's and green's.
INSTANCES: tuple[StripInstance, ...] = _instances()


def covered_places() -> list[str]:
    """Every place a strip reads, for the check that each place is on exactly one strip."""
    return [p for strip in INSTANCES for p in strip.places]

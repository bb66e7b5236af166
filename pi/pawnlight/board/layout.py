"""Board layouts: which sensor channel and which LED belong to each place of a physical board.

A layout is a TOML file (see docs/board-model.md and hardware/layouts/).  Loading checks
everything a wiring mistake could break (every place mapped exactly once, no channel or LED used
twice, numbers in range, sane colour thresholds) and names the line of the first mistake:
tomllib reports syntax errors with a line but not the meaning of the values, so the loader finds
the offending key's line in the text itself.
"""

from __future__ import annotations

import dataclasses
import importlib.resources
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pawnlight.errors import PawnlightError
from pawnlight.rules.board import COLOURS

from .cells import (
    CELL_NAMES,
    CELLS,
    EMPTY,
    LEDS,
    PAWN,
    SLIDE_CHANNEL_SQUARES,
    SLIDE_LEDS,
    UNKNOWN,
    parse_cell_name,
)

PRESENCE = "presence"
COLOUR = "colour"
SENSINGS = (PRESENCE, COLOUR)
CHANNELS = CELLS  # one sensor per place: 112
SHIPPED = (PRESENCE, COLOUR)
_BAND_NAMES = ("empty", *COLOURS)
#: Readings no sensor can give: a wire fault, never a pawn (optional keys of [colour]).
BROKEN = "broken"  # above anything the sensor drives: output wire broken, or shorted to VCC
SHORTED = "shorted"  # below anything the sensor drives: output wire shorted to ground
_FAULT_NAMES = (BROKEN, SHORTED)


class LayoutError(PawnlightError, ValueError):
    """A layout file that cannot describe a board; the message starts with ``file:line:``."""

    def __init__(self, source: str, line: int | None, message: str) -> None:
        self.source = source
        self.line = line
        self.message = message
        where = f"{source}:{line}" if line is not None else source
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True)
class Band:
    """An inclusive range of sensor readings."""

    low: int
    high: int

    def __contains__(self, value: object) -> bool:
        return isinstance(value, int) and self.low <= value <= self.high

    @property
    def middle(self) -> int:
        return (self.low + self.high) // 2

    def overlaps(self, other: Band) -> bool:
        return self.low <= other.high and other.low <= self.high


@dataclass(frozen=True)
class ColourBands:
    """How an analog hall sensor's reading maps to empty or a pawn colour.

    Each colour's pawns carry a magnet of their own polarity and strength, so a reading falls
    in that colour's band; with no magnet the reading sits in the ``empty`` band.  Readings
    between bands are UNKNOWN: a fault, or a pawn on its way.
    """

    empty: Band
    colours: tuple[Band, Band, Band, Band]
    #: Readings above anything a sensor drives (a broken or unplugged output wire, pulled up)
    #: and below (an output wire shorted to ground).  They come before every other band: such a
    #: reading is UNKNOWN, never a pawn, even where calibration opened a colour's band to the
    #: end of the scale.  None: the layout names no such readings.
    broken: Band | None = None
    shorted: Band | None = None

    def fault(self, value: int) -> str | None:
        """``"broken"`` or ``"shorted"`` for a reading no sensor can give, else None."""
        if self.broken is not None and value in self.broken:
            return BROKEN
        if self.shorted is not None and value in self.shorted:
            return SHORTED
        return None

    def classify(self, value: int) -> int:
        if self.fault(value) is not None:
            return UNKNOWN
        if value in self.empty:
            return EMPTY
        for colour, band in enumerate(self.colours):
            if value in band:
                return colour
        return UNKNOWN

    def typical(self, what: int) -> int:
        """A reading well inside the band of ``what`` (EMPTY or a colour): for simulators."""
        return self.empty.middle if what == EMPTY else self.colours[what].middle

    def bands(self) -> tuple[Band, ...]:
        return (self.empty, *self.colours)


@dataclass(frozen=True)
class Layout:
    """One physical board's wiring, indexed by cell (see cells.py)."""

    name: str
    sensing: str
    #: The sensor channel of each cell.
    channel_of: tuple[int, ...]
    #: The LED of each cell.
    led_of: tuple[int, ...]
    #: The LED in the slide channel beside each square of SLIDE_CHANNEL_SQUARES, in that order.
    slide_led_of: tuple[int, ...]
    #: Presence boards: the reading of a channel with a pawn on it (1, or 0 for active-low).
    active: int = 1
    #: Colour boards: the reading bands of each channel (calibration may give each its own).
    bands: tuple[ColourBands, ...] = ()
    #: Colour boards: the sensor's resolution; readings are 0 .. 2**bits - 1.
    bits: int = 16
    source: str = ""

    @classmethod
    def named(cls, name: str) -> Layout:
        """One of the layouts shipped with pawnlight: ``"presence"`` or ``"colour"``."""
        if name not in SHIPPED:
            raise ValueError(f"no shipped layout {name!r} (expected one of {', '.join(SHIPPED)})")
        return _load_shipped(name)

    @property
    def colour_sensing(self) -> bool:
        return self.sensing == COLOUR

    def classify(self, cell: int, value: int) -> int:
        """What the reading of a cell's channel means: EMPTY, PAWN, a colour or UNKNOWN."""
        if self.sensing == PRESENCE:
            if value not in (0, 1):
                raise ValueError(f"presence reading {value!r} of {CELL_NAMES[cell]} is not 0 or 1")
            return PAWN if value == self.active else EMPTY
        return self.bands[cell].classify(value)

    def fault(self, cell: int, value: int) -> str | None:
        """A colour board's wire fault the reading of a cell's channel shows: ``"broken"``,
        ``"shorted"`` or None (also always None on a presence board)."""
        if self.sensing != COLOUR:
            return None
        return self.bands[cell].fault(value)

    def slide_led(self, square: int) -> int:
        return self.slide_led_of[SLIDE_CHANNEL_SQUARES.index(square)]

    def with_bands(self, bands: ColourBands, cells: Iterable[int] | None = None) -> Layout:
        """A copy whose colour bands are replaced (for calibration), for ``cells`` or all."""
        if self.sensing != COLOUR:
            raise ValueError("only colour layouts have reading bands")
        problem = _band_problem(bands, self.bits)
        if problem:
            raise ValueError(problem)
        chosen = set(range(CELLS) if cells is None else cells)
        new = tuple(
            _keep_faults(bands, old) if cell in chosen else old
            for cell, old in enumerate(self.bands)
        )
        return dataclasses.replace(self, bands=new)


def load_layout(path: str | Path) -> Layout:
    """Read and check a layout file; LayoutError names the file and line of any mistake."""
    path = Path(path)
    return parse_layout(path.read_text(encoding="utf-8"), str(path), path.stem)


def choose_layout(name: str | None, kind: str) -> Layout:
    """The layout a board plays with: the one ``name`` names (a shipped layout or a layout
    file), else the shipped layout of the board's own ``kind`` (presence or colour).  The
    daemon and the diagnostics both choose here; ValueError, in words, when there is none."""
    if name is None:
        if kind not in SHIPPED:
            raise ValueError(f"no shipped layout for a {kind!r} board: name a layout")
        return Layout.named(kind)
    if name in SHIPPED:
        return Layout.named(name)
    try:
        return load_layout(Path(name))
    except OSError as error:
        raise ValueError(
            f"{name!r} is neither {' nor '.join(SHIPPED)} nor a layout file I can read "
            f"({error.strerror or error})"
        ) from None


def _load_shipped(name: str) -> Layout:
    # Installed: the layouts ship as package data of pawnlight.layouts (hardware/layouts).
    # From the repository (also an editable install), they are read where they are kept.
    try:
        resource = importlib.resources.files("pawnlight.layouts") / f"{name}.toml"
        if resource.is_file():
            return parse_layout(resource.read_text(encoding="utf-8"), f"{name}.toml", name)
    except ModuleNotFoundError:
        pass
    return load_layout(repository_layouts() / f"{name}.toml")


def repository_layouts() -> Path:
    """hardware/layouts in a checkout: pi/pawnlight/board/layout.py is three levels down."""
    return Path(__file__).resolve().parents[3] / "hardware" / "layouts"


# -- parsing and checking -------------------------------------------------------------------------

_TABLES = {
    "board": {"sensing", "channels", "leds", "description"},
    "presence": {"active"},
    "colour": {"bits", *_BAND_NAMES, *_FAULT_NAMES},
    "places": None,  # keys are place names
    "slide-leds": None,  # keys are channel squares
}
_HEADER = re.compile(r"^\s*\[\s*([A-Za-z0-9_-]+)\s*\]")
_KEY = re.compile(r"""^\s*(?:"([^"]*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*=""")


def _key_lines(text: str) -> dict[tuple[str, ...], int]:
    """Line numbers of table headers ``(table,)`` and keys ``(table, key)`` in TOML text.

    Enough TOML for layout files: one table per header, one key per line.  Keys are matched
    case-sensitively as written.
    """
    lines: dict[tuple[str, ...], int] = {}
    table = ""
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line)
        if header:
            table = header.group(1)
            lines.setdefault((table,), number)
            continue
        key = _KEY.match(line)
        if key:
            name = next(g for g in key.groups() if g is not None)
            lines.setdefault((table, name), number)
    return lines


class _Checker:
    def __init__(self, text: str, source: str) -> None:
        self.source = source
        self.lines = _key_lines(text)

    def fail(self, message: str, *where: str) -> LayoutError:
        line = self.lines.get(tuple(where)) if where else None
        if line is None and len(where) > 1:
            line = self.lines.get((where[0],))
        return LayoutError(self.source, line, message)

    def table(self, data: Mapping[str, Any], name: str, required: bool = True) -> Mapping[str, Any]:
        value = data.get(name)
        if value is None:
            if required:
                raise self.fail(f"missing table [{name}]")
            return {}
        if not isinstance(value, Mapping):
            raise self.fail(f"{name} must be a table [{name}]", name)
        allowed = _TABLES[name]
        if allowed is not None:
            for key in value:
                if key not in allowed:
                    raise self.fail(
                        f"unknown key {key!r} in [{name}] (expected {', '.join(sorted(allowed))})",
                        name,
                        key,
                    )
        return value

    def integer(self, value: object, low: int, high: int, what: str, *where: str) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.fail(f"{what} must be a whole number, not {value!r}", *where)
        if not low <= value <= high:
            raise self.fail(f"{what} {value} is out of range {low}..{high}", *where)
        return value


def parse_layout(text: str, source: str = "<layout>", name: str | None = None) -> Layout:
    """Build a Layout from TOML text; LayoutError names ``source`` and the line of a mistake."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        found = re.search(r"at line (\d+)", str(error))
        raise LayoutError(source, int(found.group(1)) if found else None, str(error)) from None
    check = _Checker(text, source)
    for table in data:
        if table not in _TABLES:
            raise check.fail(
                f"unknown table [{table}] (expected {', '.join(f'[{t}]' for t in _TABLES)})", table
            )

    board = check.table(data, "board")
    sensing = board.get("sensing")
    if sensing not in SENSINGS:
        raise check.fail(
            f"sensing must be {' or '.join(repr(s) for s in SENSINGS)}, not {sensing!r}",
            "board",
            "sensing",
        )
    for key, count in (("channels", CHANNELS), ("leds", LEDS)):
        if key not in board:
            raise check.fail(f"[board] must say {key} = {count}", "board")
        if board[key] != count or isinstance(board[key], bool):
            raise check.fail(
                f"{key} = {board[key]!r}, but a pawnlight board has {count} {key}", "board", key
            )

    channel_of, led_of, led_users = _places(check, check.table(data, "places"))
    slide_led_of = _slide_leds(check, check.table(data, "slide-leds"), led_users)

    presence = check.table(data, "presence", required=False)
    colour = check.table(data, "colour", required=sensing == COLOUR)
    active, bits = 1, 16
    bands: tuple[ColourBands, ...] = ()
    if sensing == PRESENCE:
        if colour:
            raise check.fail("a presence layout has no [colour] table", "colour")
        active = check.integer(presence.get("active", 1), 0, 1, "active", "presence", "active")
    else:
        if presence:
            raise check.fail("a colour layout has no [presence] table", "presence")
        bits = check.integer(colour.get("bits", 16), 4, 24, "bits", "colour", "bits")
        bands = (_colour_bands(check, colour, bits),) * CELLS
    return Layout(
        name=name if name is not None else Path(source).stem,
        sensing=sensing,
        channel_of=channel_of,
        led_of=led_of,
        slide_led_of=slide_led_of,
        active=active,
        bands=bands,
        bits=bits,
        source=source,
    )


def _places(
    check: _Checker, places: Mapping[str, Any]
) -> tuple[tuple[int, ...], tuple[int, ...], dict[int, str]]:
    channel_of = [-1] * CELLS
    led_of = [-1] * CELLS
    channel_users: dict[int, str] = {}
    led_users: dict[int, str] = {}
    for key, value in places.items():
        try:
            cell = parse_cell_name(key)
        except ValueError as error:
            raise check.fail(str(error), "places", key) from None
        if channel_of[cell] >= 0:
            # tomllib rejects a repeated key, but T7 and t7 are the same place.
            raise check.fail(f"{CELL_NAMES[cell]} is mapped twice", "places", key)
        if not isinstance(value, Mapping) or set(value) != {"channel", "led"}:
            raise check.fail(
                f"{key} must be {{ channel = <0..{CHANNELS - 1}>, led = <0..{LEDS - 1}> }}",
                "places",
                key,
            )
        channel = check.integer(value["channel"], 0, CHANNELS - 1, "channel", "places", key)
        led = check.integer(value["led"], 0, LEDS - 1, "led", "places", key)
        for number, users, what in ((channel, channel_users, "channel"), (led, led_users, "LED")):
            if number in users:
                raise check.fail(
                    f"{key}: {what} {number} is already used by {users[number]}"
                    f"{_line_note(check, 'places', users[number])}",
                    "places",
                    key,
                )
            users[number] = key
        channel_of[cell] = channel
        led_of[cell] = led
    missing = [CELL_NAMES[cell] for cell, channel in enumerate(channel_of) if channel < 0]
    if missing:
        more = f" and {len(missing) - 6} more" if len(missing) > 6 else ""
        shown = ", ".join(missing[:6]) + more
        raise check.fail(f"[places] does not map {shown}", "places")
    return tuple(channel_of), tuple(led_of), led_users


def _slide_leds(
    check: _Checker, slide_leds: Mapping[str, Any], led_users: dict[int, str]
) -> tuple[int, ...]:
    leds = [-1] * SLIDE_LEDS
    expected = {f"T{square}": i for i, square in enumerate(SLIDE_CHANNEL_SQUARES)}
    for key, value in slide_leds.items():
        index = expected.get(key.upper())
        if index is None:
            raise check.fail(
                f"{key!r} is not a slide-channel square (expected one of {', '.join(expected)})",
                "slide-leds",
                key,
            )
        if leds[index] >= 0:
            raise check.fail(f"{key} is mapped twice", "slide-leds", key)
        led = check.integer(value, 0, LEDS - 1, "led", "slide-leds", key)
        if led in led_users:
            raise check.fail(
                f"{key}: LED {led} is already used by {led_users[led]}",
                "slide-leds",
                key,
            )
        led_users[led] = f"slide {key}"
        leds[index] = led
    missing = [name for name, index in expected.items() if leds[index] < 0]
    if missing:
        raise check.fail(f"[slide-leds] does not map {', '.join(missing)}", "slide-leds")
    return tuple(leds)


def _line_note(check: _Checker, table: str, key: str) -> str:
    line = check.lines.get((table, key))
    return f" (line {line})" if line is not None else ""


def _colour_bands(check: _Checker, table: Mapping[str, Any], bits: int) -> ColourBands:
    top = (1 << bits) - 1
    bands: list[Band] = []
    for name in _BAND_NAMES:
        value = table.get(name)
        if value is None:
            raise check.fail(f"[colour] must give the {name} band as [low, high]", "colour")
        low, high = _pair(check, value, name, "[low, high]")
        if not 0 <= low <= high <= top:
            raise check.fail(
                f"{name} = [{low}, {high}] must have 0 <= low <= high <= {top}"
                f" ({bits}-bit readings)",
                "colour",
                name,
            )
        bands.append(_apart(check, name, Band(low, high), bands))
    faults: dict[str, Band] = {}
    for name in _FAULT_NAMES:
        if name in table:
            faults[name] = _fault_band(check, table[name], name, bits, bands)
    return ColourBands(
        bands[0],
        (bands[1], bands[2], bands[3], bands[4]),
        broken=faults.get(BROKEN),
        shorted=faults.get(SHORTED),
    )


def _fault_band(check: _Checker, value: object, name: str, bits: int, bands: list[Band]) -> Band:
    """A ``broken`` band must reach the top of the scale and a ``shorted`` band start at 0 (a
    wire fault reads a rail), and neither may take a reading of empty or a colour."""
    top = (1 << bits) - 1
    end = f"[low, {top}]" if name == BROKEN else "[0, high]"
    low, high = _pair(check, value, name, end)
    rail = high == top if name == BROKEN else low == 0
    if not 0 <= low <= high <= top or not rail:
        raise check.fail(
            f"{name} = [{low}, {high}] must be {end} ({bits}-bit readings): "
            f"a wire fault reads the {'top' if name == BROKEN else 'bottom'} of the scale",
            "colour",
            name,
        )
    return _apart(check, name, Band(low, high), bands)


def _pair(check: _Checker, value: object, name: str, shape: str) -> tuple[int, int]:
    """A band's ``[low, high]`` as two whole numbers; ``shape`` is what the error asks for."""
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise check.fail(f"{name} must be {shape}, two whole numbers", "colour", name)
    return value[0], value[1]


def _apart(check: _Checker, name: str, band: Band, bands: list[Band]) -> Band:
    """``band``, once it takes no reading of the bands read before it (empty, then the colours,
    in _BAND_NAMES order)."""
    for other_name, other in zip(_BAND_NAMES, bands, strict=False):
        if band.overlaps(other):
            raise check.fail(
                f"{name} = [{band.low}, {band.high}] overlaps {other_name} = "
                f"[{other.low}, {other.high}]",
                "colour",
                name,
            )
    return band


def _keep_faults(bands: ColourBands, old: ColourBands) -> ColourBands:
    """New bands (calibration's) keep the layout's wire-fault readings unless they bring their
    own: the sensor's output range is physics, not something calibration measures."""
    return dataclasses.replace(
        bands,
        broken=bands.broken if bands.broken is not None else old.broken,
        shorted=bands.shorted if bands.shorted is not None else old.shorted,
    )


def _band_problem(bands: ColourBands, bits: int) -> str | None:
    top = (1 << bits) - 1
    named = list(zip(_BAND_NAMES, bands.bands(), strict=True))
    for i, (name, band) in enumerate(named):
        if not 0 <= band.low <= band.high <= top:
            return f"{name} band [{band.low}, {band.high}] is not within 0..{top}"
        for other_name, other in named[:i]:
            if band.overlaps(other):
                return f"{name} band overlaps the {other_name} band"
    return None

"""hardware/wiring.toml: the board's wiring as data, and the checks that keep it honest.

The wiring file says what a builder solders: which square's sensor goes to which chip input,
which Pico pin carries which signal, the LED chain's order, the Pi's header pins.  Three other
places say the same things in their own terms: the layouts (channel and LED of every place),
the firmware configs (pins and chain lengths) and the daemon's control pins.  ``problems()``
lists every disagreement, in words that name the chip pin or the file to fix; the tests in
tests/hardware/ require an empty list, and the drawings are generated from this data only when
it is consistent.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from pawnlight.board.cells import CELL_NAMES, LEDS, parse_cell_name
from pawnlight.board.chips import INPUTS, part_for
from pawnlight.board.health.board_words import led_place_names
from pawnlight.board.layout import CHANNELS, Layout
from pawnlight.devices.controls import ControlPins
from pawnlight.devices.firmware_configs import load_firmware_config
from pawnlight.errors import PawnlightError
from pawnlight.firmware import config as firmware_config

from .pins import PI_HEADER, PICO_PIN, parse_gp

UNUSED = "-"  # an input with no sensor on it (tie it to GND or VCC)


@dataclass(frozen=True)
class HeaderPin:
    """A control on the Raspberry Pi's header."""

    name: str
    bcm: int
    header: int
    to: str


@dataclass(frozen=True)
class PicoPin:
    gp: int
    signal: str  # the firmware config field, e.g. "presence.load" or "colour.select.2"
    to: str


@dataclass(frozen=True)
class Chip:
    ref: str
    part: str
    inputs: tuple[str, ...]  # place names (or "-") on D0..D7 / I0..I15
    enable: int | None = None  # muxes: the Pico pin on /E
    adc: int | None = None  # muxes: the Pico ADC pin on COMMON


@dataclass(frozen=True)
class BoardWiring:
    sensing: str  # "presence" or "colour"
    config: str  # firmware/configs/<config>
    layout: str  # a shipped layout name
    sensor: str
    pico: tuple[PicoPin, ...]
    chips: tuple[Chip, ...]
    #: The resistor from every chip input to 3.3 V, so a broken sensor wire reads a known
    #: level (no pawn, or off the colour scale) instead of floating.
    pullup_ohms: int
    #: The ceramic capacitor across VCC and GND at every sensor.
    bypass_nf: int

    @property
    def inputs_per_chip(self) -> int:
        return INPUTS[part_for(self.sensing)]


@dataclass(frozen=True)
class Wiring:
    pi: tuple[HeaderPin, ...]
    led_chain: tuple[str, ...]  # place names in data order; "slide-T2" for slide LEDs
    power_injection: tuple[int, ...]
    resistor_ohms: int
    capacitor_uf: int
    data_in: str
    boards: dict[str, BoardWiring]
    #: The resistor from the LED buffer's input to GND (holds the chain dark while the Pico
    #: is off).
    data_pulldown_ohms: int = 10000
    #: The card reader's SPI series resistors, and the lines that get one.
    card_series_ohms: int = 33
    card_series_lines: tuple[str, ...] = ("SCK", "MOSI", "SDA", "MISO")
    #: The sensor harnesses' connector, and the chip inputs each one carries.
    harness_connector: str = "JST XH 2.54 mm"
    harness_positions: int = 8
    source: str = ""


class WiringError(PawnlightError, ValueError):
    """A wiring file that cannot even be read as wiring (wrong shape, not wrong wires)."""


def repository_hardware() -> Path:
    """The hardware/ folder this package lives in (hardware/pawnlight_hardware/wiring.py):
    its data (wiring.toml, the OpenSCAD files) is not copied into a wheel, so the generators
    run from a checkout, installed with pip install -e hardware."""
    folder = Path(__file__).resolve().parent.parent
    if not (folder / "wiring.toml").is_file():
        raise WiringError(
            f"{folder / 'wiring.toml'} not found: the hardware generators read the repository's "
            "hardware/ folder; install them from a checkout with pip install -e hardware"
        )
    return folder


def load_wiring(path: str | Path | None = None) -> Wiring:
    path = Path(path) if path is not None else repository_hardware() / "wiring.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        return _parse(data, str(path))
    except (KeyError, TypeError, ValueError) as error:
        raise WiringError(f"{path}: {error}") from None


def _parse(data: dict[str, Any], source: str) -> Wiring:
    pi = tuple(
        HeaderPin(name, int(pin["bcm"]), int(pin["header"]), str(pin.get("to", "")))
        for name, pin in data["pi"].items()
    )
    leds = data["leds"]
    boards = {}
    for sensing in ("presence", "colour"):
        board = data[sensing]
        part = part_for(sensing)
        pico = tuple(
            PicoPin(parse_gp(gp), str(pin["signal"]), str(pin.get("to", "")))
            for gp, pin in board["pico"].items()
        )
        chips = tuple(
            Chip(
                str(chip["ref"]),
                part,
                tuple(str(name) for name in chip["inputs"]),
                parse_gp(chip["enable"]) if "enable" in chip else None,
                parse_gp(chip["adc"]) if "adc" in chip else None,
            )
            for chip in board["chips"]
        )
        pullup = int(board["pullup_ohms"])
        if pullup <= 0:
            raise ValueError(f"{sensing}.pullup_ohms must be a resistance: every input needs one")
        bypass = _positive(board, "bypass_nf", sensing)
        boards[sensing] = BoardWiring(
            sensing, board["config"], board["layout"], board["sensor"], pico, chips, pullup, bypass
        )
    card = data["card_reader"]
    harness = data["harness"]
    return Wiring(
        pi=pi,
        led_chain=tuple(str(name) for name in leds["chain"]),
        power_injection=tuple(int(i) for i in leds["power_injection"]),
        resistor_ohms=int(leds["resistor_ohms"]),
        capacitor_uf=int(leds["capacitor_uf"]),
        data_in=str(leds["data_in"]),
        boards=boards,
        data_pulldown_ohms=_positive(leds, "data_pulldown_ohms", "leds"),
        card_series_ohms=_positive(card, "series_ohms", "card_reader"),
        card_series_lines=tuple(str(line) for line in card["series_lines"]),
        harness_connector=str(harness["connector"]),
        harness_positions=_positive(harness, "positions", "harness"),
        source=source,
    )


def _positive(table: dict[str, Any], key: str, where: str) -> int:
    value = int(table[key])
    if value <= 0:
        raise ValueError(f"{where}.{key} must be above 0, not {value}")
    return value


# -- the checks -----------------------------------------------------------------------------------


def problems(wiring: Wiring, pins: ControlPins | None = None) -> list[str]:
    """Every disagreement between the wiring, the layouts, the firmware configs and the
    daemon's pins; empty when they agree."""
    found = check_pi(wiring, pins or ControlPins())
    for board in wiring.boards.values():
        layout = Layout.named(board.layout)
        config = load_firmware_config(board.config)
        found += check_sensors(board, layout, config)
        found += check_pico(board, config)
        found += check_leds(wiring, layout, config, board.sensing)
        if board.inputs_per_chip % wiring.harness_positions:
            found.append(
                f"[harness] {wiring.harness_positions}-way connectors do not divide a "
                f"{board.inputs_per_chip}-input chip's sensors ({board.sensing} board)"
            )
    return found


def check_pi(wiring: Wiring, pins: ControlPins) -> list[str]:
    found = []
    expected = {f.name: getattr(pins, f.name) for f in fields(ControlPins)}
    named = {pin.name: pin for pin in wiring.pi}
    if set(named) != set(expected):
        found.append(
            f"[pi] names {', '.join(sorted(named))}; the daemon's controls are "
            f"{', '.join(sorted(expected))}"
        )
    for name, pin in named.items():
        if name in expected and pin.bcm != expected[name]:
            found.append(
                f"[pi] {name} is on BCM {pin.bcm}, the daemon expects BCM {expected[name]} "
                "(pawnlight.devices.controls.ControlPins)"
            )
        if PI_HEADER.get(pin.bcm) != pin.header:
            found.append(
                f"[pi] {name}: BCM {pin.bcm} is header pin {PI_HEADER.get(pin.bcm)}, "
                f"not {pin.header}"
            )
    headers = [pin.header for pin in wiring.pi]
    for header in sorted({h for h in headers if headers.count(h) > 1}):
        found.append(f"[pi] header pin {header} is used twice")
    return found


def check_sensors(board: BoardWiring, layout: Layout, config: dict[str, Any]) -> list[str]:
    """Chip counts, and every place's sensor on the chip input its layout channel needs."""
    where = f"[{board.sensing}]"
    found = []
    per_chip = board.inputs_per_chip
    channels = config["channels"]
    if layout.sensing != board.sensing:
        found.append(f"{where} uses layout {board.layout!r}, a {layout.sensing} layout")
    if channels != CHANNELS:
        found.append(f"{board.config}: channels = {channels}, a board has {CHANNELS}")
    if board.sensing == "presence":
        configured = config["presence"]["chips"]
    else:
        configured = len(config["colour"]["muxes"])
    if len(board.chips) != configured:
        found.append(
            f"{where} wires {len(board.chips)} chips, {board.config} configures {configured}"
        )
    if len(board.chips) * per_chip < channels:
        found.append(
            f"{where} {len(board.chips)} x {per_chip} inputs cannot read {channels} channels"
        )
    seen: dict[int, str] = {}
    for number, chip in enumerate(board.chips):
        label = "I" if per_chip == 16 else "D"
        if chip.ref != f"U{number + 1}":
            found.append(f"{where} chip {number + 1} is called {chip.ref}, expected U{number + 1}")
        if len(chip.inputs) != per_chip:
            found.append(f"{where} {chip.ref} lists {len(chip.inputs)} inputs, not {per_chip}")
        for index, name in enumerate(chip.inputs):
            channel = number * per_chip + index
            pin = f"{chip.ref} {label}{index}"
            if name == UNUSED:
                if channel < channels:
                    found.append(f"{where} {pin} (channel {channel}) has no sensor")
                continue
            try:
                cell = parse_cell_name(name)
            except ValueError:
                found.append(f"{where} {pin}: unknown place {name!r}")
                continue
            if cell in seen:
                found.append(f"{where} {CELL_NAMES[cell]} is wired twice: {seen[cell]} and {pin}")
                continue
            seen[cell] = pin
            wanted = layout.channel_of[cell]
            if wanted != channel:
                found.append(
                    f"{where} {pin} reads {CELL_NAMES[cell]} as channel {channel}, "
                    f"but layout {board.layout!r} puts {CELL_NAMES[cell]} on channel {wanted}"
                )
    missing = [CELL_NAMES[cell] for cell in range(CHANNELS) if cell not in seen]
    if missing:
        found.append(f"{where} no chip input reads {', '.join(missing)}")
    return found


def _configured_pins(board: BoardWiring, config: dict[str, Any]) -> dict[str, int]:
    """Every pin field of a firmware config, by the name the wiring file uses for it."""
    pins: dict[str, int] = {"leds.pin": config["leds"]["pin"]}
    if board.sensing == "presence":
        for key in ("sck", "mosi", "miso", "load"):
            pins[f"presence.{key}"] = config["presence"][key]
    else:
        for index, pin in enumerate(config["colour"]["select"]):
            pins[f"colour.select.{index}"] = pin
    card = config.get("card_reader")
    if card is not None:
        for key in ("sck", "mosi", "miso", "cs", "rst"):
            if card.get(key) is not None:
                pins[f"card_reader.{key}"] = card[key]
    return pins


def check_pico(board: BoardWiring, config: dict[str, Any]) -> list[str]:
    """The Pico's pins: the same as the firmware config's, each used once, all usable."""
    where = f"[{board.sensing}.pico]"
    found = []
    wired = {pin.signal: pin.gp for pin in board.pico}
    configured = _configured_pins(board, config)
    for signal, gp in sorted(configured.items()):
        if signal not in wired:
            found.append(f"{where} does not wire {signal} (GP{gp} in {board.config})")
        elif wired[signal] != gp:
            found.append(f"{where} wires {signal} to GP{wired[signal]}, {board.config} says GP{gp}")
    for signal in sorted(set(wired) - set(configured)):
        found.append(f"{where} {signal}: no such pin in {board.config}")
    users: dict[int, list[str]] = {}
    for pin in board.pico:
        users.setdefault(pin.gp, []).append(pin.signal)
    if board.sensing == "colour":
        muxes = config["colour"]["muxes"]
        for number, chip in enumerate(board.chips):
            mux = muxes[number] if number < len(muxes) else {}
            for key, chip_gp in (("enable", chip.enable), ("adc", chip.adc)):
                if chip_gp != mux.get(key):
                    found.append(
                        f"[colour] {chip.ref} {key} is GP{chip_gp}, {board.config} muxes[{number}] "
                        f"says GP{mux.get(key)}"
                    )
            if chip.enable is not None:
                users.setdefault(chip.enable, []).append(f"{chip.ref} /E")
        adc_pins = {chip.adc for chip in board.chips if chip.adc is not None}
        for adc in sorted(adc_pins):
            users.setdefault(adc, []).append("mux COMMON")  # shared by design: counted once
            if adc not in firmware_config.ADC_PINS:
                found.append(f"[colour] GP{adc} is not an ADC pin {firmware_config.ADC_PINS}")
    for gp, signals in sorted(users.items()):
        if len(signals) > 1:
            found.append(f"{where} GP{gp} is used twice: {' and '.join(signals)}")
        if gp not in firmware_config.USABLE_PINS or gp not in PICO_PIN:
            found.append(f"{where} GP{gp} is not on the Pico's header")
    return found


def check_leds(wiring: Wiring, layout: Layout, config: dict[str, Any], sensing: str) -> list[str]:
    where = "[leds]"
    found = []
    count = config["leds"]["count"]
    if not len(wiring.led_chain) == count == LEDS:
        found.append(
            f"{where} chain has {len(wiring.led_chain)} LEDs, the {sensing} config "
            f"{count}, a board {LEDS}"
        )
    by_layout = led_place_names(layout)
    for index, name in enumerate(wiring.led_chain[:LEDS]):
        if name != by_layout[index]:
            found.append(
                f"{where} LED {index} is under {name}, layout {layout.name!r} puts it under "
                f"{by_layout[index]}"
            )
    repeated = sorted({n for n in wiring.led_chain if wiring.led_chain.count(n) > 1})
    if repeated:
        found.append(f"{where} chain lists {', '.join(repeated)} more than once")
    injection = wiring.power_injection
    if not injection or injection[0] != 0 or list(injection) != sorted(set(injection)):
        found.append(f"{where} power_injection must start at LED 0 and rise: {list(injection)}")
    if any(not 0 <= i < LEDS for i in injection):
        found.append(f"{where} power_injection names an LED outside 0..{LEDS - 1}")
    return found

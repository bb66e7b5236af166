"""hardware/wiring.md: the wiring data as tables to solder by, one row per wire or chip."""

from __future__ import annotations

from pawnlight.board.chips import (
    BUFFER,
    BUFFER_PINS,
    MUX_INPUT_PINS,
    MUX_PINS,
    SHIFT_REGISTER_INPUT_PINS,
    SHIFT_REGISTER_PINS,
)
from pawnlight.board.geometry import SQUARE_MM

from . import feeds, underside
from .draw_board_maps import hops
from .pins import PICO_PIN, PICO_POWER
from .power import SPARE_POSITIONS, TERMINAL_BLOCKS, blocks_for, rail_connections
from .wiring import BoardWiring, Wiring

HEADER = """\
# Wiring

*Generated from [wiring.toml](wiring.toml) by
`python -m pawnlight_hardware.docs --write`: edit the TOML and regenerate, never
this file. tests/hardware/ checks the TOML against the layouts, the firmware configs and the
daemon's pins, and that this file is up to date.*

Drawings: [wiring-presence.svg](wiring-presence.svg), [wiring-colour.svg](wiring-colour.svg)
(the block diagrams), [sensors-presence.svg](sensors-presence.svg),
[sensors-colour.svg](sensors-colour.svg) (which chip input reads each place) and
[leds.svg](leds.svg) (the LED chain). Parts: [bom.md](bom.md). How to build it:
[docs/assembly.md](../docs/assembly.md).

Pin numbers: chips as DIP packages (74HC165 DIP-16, CD74HC4067 DIP/SOIC-24; breakout boards
print the mux inputs as C0..C15 and COMMON as SIG), the Pico by its physical pins (pin 1 is GP0,
beside the USB socket), the Pi by its 40-pin header (pin 1 is 3.3 V, nearest the SD card).
"""


def _pi(wiring: Wiring) -> list[str]:
    lines = [
        "## Raspberry Pi",
        "",
        "The Pico plugs into one of the Pi's USB ports: that cable is the serial link and the "
        "Pico's power. The controls go to the Pi's header (BCM numbers are the daemon's "
        "defaults, `[pins]` in its config):",
        "",
        "| control | BCM | header pin | wire |",
        "|---|---:|---:|---|",
    ]
    for pin in wiring.pi:
        lines.append(f"| {pin.name.replace('_', ' ')} | {pin.bcm} | {pin.header} | {pin.to} |")
    return [*lines, ""]


def _data_pin(wiring: Wiring) -> str:
    """``"GP22 (pin 29)"``: the Pico pin that drives the LEDs (the same on every board)."""
    found = {
        pin.gp for board in wiring.boards.values() for pin in board.pico if pin.signal == "leds.pin"
    }
    if len(found) != 1:
        return "leds.pin"
    gp = found.pop()
    return f"GP{gp} (pin {PICO_PIN[gp]})"


def _buffer_line(wiring: Wiring) -> str:
    pins = BUFFER_PINS
    return (
        f"* The {BUFFER} (DIP-14): VCC (pin {pins['VCC']}) to 5 V with a 100 nF capacitor, "
        f"GND (pin {pins['GND']}) and /1OE (pin {pins['/1OE']}) to GND. Its other three "
        f"buffers are unused: tie their inputs 2A, 3A, 4A (pins {pins['2A']}, {pins['3A']}, "
        f"{pins['4A']}) and their /2OE, /3OE, /4OE (pins {pins['/2OE']}, {pins['/3OE']}, "
        f"{pins['/4OE']}) to GND, so no input floats; leave 2Y, 3Y, 4Y (pins {pins['2Y']}, "
        f"{pins['3Y']}, {pins['4Y']}) unconnected.\n"
        f"* **{_ohms(wiring.data_pulldown_ohms)} pull-down from 1A (pin {pins['1A']}) to GND**: "
        "while the Pico is off or still booting and the 5 V is on, the buffer's input would "
        "float and send noise down the chain (LEDs lit at random, with no current limit). The "
        "pull-down keeps the line low, every LED dark, until the firmware drives it."
    )


def _leds(wiring: Wiring) -> list[str]:
    data_in = wiring.data_in.replace("Pico leds.pin", f"Pico {_data_pin(wiring)}")
    lines = [
        "## LED chain",
        "",
        f"* Data: {data_in}. A {wiring.capacitor_uf} µF capacitor across 5 V and GND at LED 0.",
        _buffer_line(wiring),
        f"* 5 V and GND feed pairs ({feeds.FEED_WIRE}) from the terminal blocks to LEDs "
        f"{', '.join(str(i) for i in wiring.power_injection)}; the chain's own 3-core links "
        f"({feeds.LINK_WIRE}) carry data and the current between feeds. Feed lengths and the "
        'worst voltage drop: bom.md, "Power feeds".',
        "* Order: the track clockwise from T0 (0..59); each colour's safety lane inward, its "
        "HOME spots, back out over its START spots (13 per colour, 60..111); the slide "
        "channels from T2 round the board (112..131).",
        "",
        f"Hops, where the next LED is not the neighbour (a separate 3-wire cable; lengths at "
        f"{SQUARE_MM:g} mm squares, measure yours and add slack):",
        "",
        "| LED | from | to | squares | about |",
        "|---:|---|---|---:|---:|",
    ]
    chain = wiring.led_chain
    for index, distance in hops(wiring):
        centimetres = distance * SQUARE_MM / 10
        lines.append(
            f"| {index - 1} → {index} | {chain[index - 1]} | {chain[index]} | "
            f"{distance:.1f} | {centimetres:.0f} cm |"
        )
    return [*lines, ""]


def _card_reader(wiring: Wiring) -> list[str]:
    lines = ", ".join(wiring.card_series_lines)
    return [
        "## Card reader (MFRC522)",
        "",
        f"* {_ohms(wiring.card_series_ohms)} in series in each of {lines}, at the end that "
        "drives the line: SCK, MOSI and SDA beside the Pico, MISO beside the reader. They damp "
        "the ringing of the SPI wires and limit the current into a reader powered while the "
        "Pico is not.",
        "* VCC (3.3 V) and GND from the hub; IRQ unconnected. Pins: the Pico tables below.",
        "",
    ]


def _power(wiring: Wiring) -> list[str]:
    lines = [
        "## Power: terminal blocks",
        "",
        "Two rails of lever terminal blocks on the hub, 5 V and GND, with the same wires on "
        f"each (a wire pair per load), and {SPARE_POSITIONS} spare position per rail:",
        "",
        "| board | wires on each rail | positions | blocks per rail |",
        "|---|---|---:|---|",
    ]
    for board in wiring.boards.values():
        wires = rail_connections(board.sensing, wiring.power_injection)
        blocks = blocks_for(len(wires) + SPARE_POSITIONS)
        named = " + ".join(f"WAGO {TERMINAL_BLOCKS[size]} ({size}-way)" for size in blocks)
        lines.append(
            f"| {board.sensing} | {'; '.join(wires)} | {len(wires)} of {sum(blocks)} | {named} |"
        )
    cable = underside.usb_cable()
    lines += [
        "",
        f"The Pico's USB cable runs {cable.to_edge_mm:.0f} mm from its socket to the board's "
        f"right edge, {cable.through_frame_mm:.0f} mm through the frame and "
        f"{cable.to_pi_mm:.0f} mm to the Pi in its box: {cable.needed_mm:.0f} mm with slack, so "
        f"a {cable.buy_mm / 1000:g} m cable.",
        "",
    ]
    return lines


def _pico(board: BoardWiring) -> list[str]:
    lines = [
        "### Pico",
        "",
        "| GPIO | Pico pin | config field | to |",
        "|---|---:|---|---|",
    ]
    for pin in sorted(board.pico, key=lambda p: p.gp):
        lines.append(f"| GP{pin.gp} | {PICO_PIN[pin.gp]} | `{pin.signal}` | {pin.to} |")
    for chip in board.chips:
        if chip.enable is not None:
            lines.append(
                f"| GP{chip.enable} | {PICO_PIN[chip.enable]} | `colour.muxes` | "
                f"/E (pin {MUX_PINS['/E']}) of {chip.ref} |"
            )
    adc: dict[int, list[str]] = {}
    for chip in board.chips:
        if chip.adc is not None:
            adc.setdefault(chip.adc, []).append(chip.ref)
    for gp, refs in sorted(adc.items()):
        lines.append(
            f"| GP{gp} | {PICO_PIN[gp]} | `colour.muxes` (ADC) | COMMON (pin "
            f"{MUX_PINS['COMMON']}) of {', '.join(refs)} |"
        )
    if board.sensing == "presence":
        lines += [
            f"| 3V3_OUT | {PICO_POWER['3V3_OUT']} | | VCC of the hall switches, the 74HC165s "
            "and the MFRC522 |",
            f"| GND | {PICO_POWER['GND']} | | every ground (and the LED supply's GND) |",
        ]
    else:
        lines += [
            f"| 3V3_OUT | {PICO_POWER['3V3_OUT']} | | *in* from the 3.3 V buck converter, which "
            "also feeds the sensors, the muxes and the MFRC522 |",
            f"| 3V3_EN | {PICO_POWER['3V3_EN']} | | GND: switches the Pico's own regulator off, "
            "so the ADC's reference and the sensors share one rail (ratiometric readings) |",
            f"| AGND | {PICO_POWER['AGND']} | | the sensors' and muxes' ground |",
            f"| GND | {PICO_POWER['GND']} | | every other ground (and the supply's GND) |",
            "",
            "**Flashing this Pico**: with 3V3_EN on GND its own regulator is off, so USB alone "
            "does not start it. Either switch the board's 5 V supply on first (the buck then "
            "powers the Pico and USB carries the data: BOOTSEL and mpremote work as usual), or "
            "lift the Pico out of its header sockets and flash it on its own, where it is an "
            'ordinary Pico (docs/assembly.md, "Flashing the Pico").',
        ]
    return [*lines, ""]


def _chip_controls(board: BoardWiring, wiring: Wiring) -> list[str]:
    count = len(board.chips)
    if board.sensing == "presence":
        p = SHIFT_REGISTER_PINS
        return [
            "### 74HC165 chain",
            "",
            f"* /PL (pin {p['/PL']}) and CP (pin {p['CP']}) of all {count}: the Pico's load and "
            "SCK pins (one bus each, daisy-chained chip to chip).",
            f"* Q7 (pin {p['Q7']}) of U1 → the Pico's MISO; Q7 of U(k+1) → DS (pin {p['DS']}) "
            f"of Uk; DS of U{count} → GND. /Q7 (pin {p['/Q7']}) unconnected.",
            f"* /CE (pin {p['/CE']}) → GND; VCC (pin {p['VCC']}) → 3.3 V with a 100 nF "
            f"capacitor to GND (pin {p['GND']}) at every chip.",
            "* Hall switches: VCC → 3.3 V, GND → GND, OUT → the input below, and "
            f"{_nf(board.bypass_nf)} across VCC and GND at each switch (it draws its supply in "
            "pulses as it samples). The DRV5032FA has a push-pull output (it drives both ways).",
            *_harness_line(board, wiring),
            f"* Every input D0–D7 of every chip: {_ohms(board.pullup_ohms)} to 3.3 V (a 9-pin "
            "bussed resistor network per chip, common pin to 3.3 V). The switch overrides it; "
            "a broken or unplugged sensor wire then reads 1, no pawn, instead of floating.",
            "",
        ]
    p = MUX_PINS
    return [
        "### CD74HC4067 muxes",
        "",
        f"* S0 (pin {p['S0']}), S1 (pin {p['S1']}), S2 (pin {p['S2']}), S3 (pin {p['S3']}) "
        f"of all {count}: the Pico's four select pins (mind that S3 comes before S2).",
        f"* /E (pin {p['/E']}) of each mux: its own Pico pin; COMMON (pin {p['COMMON']}) to "
        "its ADC pin (several muxes share one: only one is enabled at a time).",
        f"* VCC (pin {p['VCC']}) → the 3.3 V rail with 100 nF to GND (pin {p['GND']}).",
        "* Analog hall sensors: VCC → the 3.3 V rail (the buck converter), GND → AGND, OUT → "
        f"the input below, {_nf(board.bypass_nf)} across VCC and GND at each sensor.",
        *_harness_line(board, wiring),
        f"* Every input I0–I15 of every mux: {_ohms(board.pullup_ohms)} to 3.3 V (two 9-pin "
        "bussed resistor networks per mux, common pins to 3.3 V). The sensor's output "
        "overrides it; a broken or unplugged sensor wire then reads the top of the scale "
        "(65535, above the 3.1 V a DRV5055 can drive) instead of floating: the layout's "
        "`broken` band, never a pawn; the game, `pawnlight doctor` and `sensor-test` name the "
        "place and this pin.",
        "",
    ]


def _harness_line(board: BoardWiring, wiring: Wiring) -> list[str]:
    per_chip = board.inputs_per_chip // wiring.harness_positions
    count = per_chip * len(board.chips)
    return [
        f"* Sensor harnesses: {count} ribbons of {wiring.harness_positions} OUT wires, "
        f"{per_chip} per chip, each with a {wiring.harness_connector} "
        f"{wiring.harness_positions}-way connector at the hub (inputs "
        + ("D0–D7" if per_chip == 1 else "I0–I7 and I8–I15")
        + "). Label each with its chip and inputs."
    ]


def _nf(value: int) -> str:
    return f"{value} nF" if value < 1000 else f"{value / 1000:g} µF"


def _ohms(value: int) -> str:
    return f"{value // 1000} kΩ" if value % 1000 == 0 else f"{value} Ω"


def _inputs(board: BoardWiring) -> list[str]:
    per_chip = board.inputs_per_chip
    pins = SHIFT_REGISTER_INPUT_PINS if per_chip == 8 else MUX_INPUT_PINS
    letter = "D" if per_chip == 8 else "I"
    lines = [f"### Sensor inputs ({letter}n, chip pin in brackets)", ""]
    for first in range(0, per_chip, 8):
        columns = range(first, min(first + 8, per_chip))
        lines.append(
            "| chip | channels | " + " | ".join(f"{letter}{i} ({pins[i]})" for i in columns) + " |"
        )
        lines.append("|---|---|" + "---|" * len(columns))
        for number, chip in enumerate(board.chips):
            base = number * per_chip
            lines.append(
                f"| {chip.ref} | {base + first}-{base + columns[-1]} | "
                + " | ".join(chip.inputs[i] for i in columns)
                + " |"
            )
        lines.append("")
    return lines


def _board(board: BoardWiring, wiring: Wiring) -> list[str]:
    title = {
        "presence": "Presence board (digital hall switches, 74HC165 chain)",
        "colour": "Colour board (analog hall sensors, CD74HC4067 muxes)",
    }[board.sensing]
    return [
        f"## {title}",
        "",
        f"Firmware config `firmware/configs/{board.config}`, layout `{board.layout}`, sensor "
        f"{board.sensor}. Picture: [sensors-{board.sensing}.svg](sensors-{board.sensing}.svg).",
        "",
        *_pico(board),
        *_chip_controls(board, wiring),
        *_inputs(board),
    ]


def wiring_markdown(wiring: Wiring) -> str:
    lines = [HEADER, *_pi(wiring), *_power(wiring), *_leds(wiring), *_card_reader(wiring)]
    for board in wiring.boards.values():
        lines += _board(board, wiring)
    return "\n".join(lines).rstrip("\n") + "\n"

"""The block diagram of a board's electronics, drawn from the wiring data.

Wires are drawn the way schematics name them: every used pin carries a coloured tag with its
net's name, and the part at the other end carries the same tag.  No wire has to be routed
across the page, and the drawing cannot disagree with wiring.toml because it is made from it.

Layout: the Raspberry Pi's header top left, the Pico's pinout in the middle (pin 1 top left, as
it lies with the USB socket up), the sensor chips on the right, the card reader, the LED driver
and the power along the bottom.
"""

from __future__ import annotations

from dataclasses import dataclass

from pawnlight.board.chips import MUX_PINS, SHIFT_REGISTER_PINS

from .pins import PI_HEADER, PICO_PIN, PICO_POWER
from .svg import Svg
from .wiring import BoardWiring, Wiring

WIDTH, HEIGHT = 1460, 1000
PIN_PITCH = 26
PICO_X, PICO_Y, PICO_W = 600, 120, 180
GREY = "#888888"
#: Net colours, by family.
COLOURS = {
    "card": "#8e44ad",
    "spi": "#1f77b4",
    "select": "#1f77b4",
    "enable": "#17a589",
    "adc": "#d35400",
    "led": "#c0392b",
    "power": "#b03a2e",
    "ground": "#333333",
    "unused": "#aaaaaa",
    "control": "#2e86c1",
}


@dataclass(frozen=True)
class Net:
    name: str
    family: str

    @property
    def colour(self) -> str:
        return COLOURS[self.family]


def net_of(signal: str) -> Net:
    """The short net name of a firmware config field, as the tags show it."""
    if signal.startswith("card_reader."):
        pin = signal.split(".")[1]
        return Net(f"RC {'SDA' if pin == 'cs' else pin.upper()}", "card")
    if signal == "leds.pin":
        return Net("LED DATA", "led")
    if signal.startswith("colour.select."):
        return Net(f"S{signal[-1]}", "select")
    names = {
        "presence.sck": Net("CLK", "spi"),
        "presence.miso": Net("SER IN", "spi"),
        "presence.load": Net("/LOAD", "spi"),
        "presence.mosi": Net("n.c.", "unused"),
    }
    return names[signal]


def _tag(svg: Svg, x: float, y: float, net: Net, side: str) -> None:
    """A net label at (x, y) pointing away from its pin: side "left" or "right"."""
    width = 7.2 * len(net.name) + 14
    x0 = x - width if side == "left" else x
    svg.rect(x0, y - 9, width, 18, rx=9, fill=net.colour, fill_opacity=0.14,
             stroke=net.colour, stroke_width=1.2)  # fmt: skip
    svg.text(x0 + width / 2, y + 4, net.name, size=11, anchor="middle", fill=net.colour,
             weight="bold")  # fmt: skip


# -- the Pico ---------------------------------------------------------------------------------


def _pico_labels() -> dict[int, str]:
    labels = {pin: f"GP{gp}" for gp, pin in PICO_PIN.items()}
    for name, pin in PICO_POWER.items():
        labels[pin] = name
    for pin in (3, 8, 13, 18, 23, 28):
        labels[pin] = "GND"
    labels[30] = "RUN"
    return labels


def _pico_pin_xy(pin: int) -> tuple[float, float, str]:
    """Where a Pico pin's stub ends, and on which side."""
    if pin <= 20:
        return PICO_X, PICO_Y + 30 + (pin - 1) * PIN_PITCH, "left"
    return PICO_X + PICO_W, PICO_Y + 30 + (40 - pin) * PIN_PITCH, "right"


def _pico(svg: Svg, nets: dict[int, Net]) -> None:
    height = 20 * PIN_PITCH + 34
    svg.rect(PICO_X, PICO_Y, PICO_W, height, rx=8, fill="#e8f5e9", stroke="#2e7d32",
             stroke_width=2)  # fmt: skip
    svg.rect(PICO_X + PICO_W / 2 - 22, PICO_Y - 12, 44, 18, rx=3, fill="#cfd8dc",
             stroke="#607d8b")  # fmt: skip
    cx, cy = PICO_X + PICO_W / 2, PICO_Y + height / 2
    svg.text(
        cx,
        cy,
        "Raspberry Pi Pico",
        size=15,
        anchor="middle",
        weight="bold",
        fill="#2e7d32",
        fill_opacity=0.55,
        transform=f"rotate(-90 {cx:g} {cy:g})",
    )
    labels = _pico_labels()
    for pin in range(1, 41):
        x, y, side = _pico_pin_xy(pin)
        used = pin in nets
        stub = -16 if side == "left" else 16
        svg.line(x, y, x + stub, y, stroke=nets[pin].colour if used else "#bbbbbb",
                 stroke_width=2.5 if used else 1)  # fmt: skip
        inner = x + 6 if side == "left" else x - 6
        svg.text(inner, y + 4, labels[pin], size=10, anchor="start" if side == "left" else "end",
                 fill="#222222" if used else "#999999")  # fmt: skip
        svg.text(x + stub / 2, y - 4, str(pin), size=8, anchor="middle", fill="#666666")
        if used:
            _tag(svg, x + stub - (4 if side == "left" else -4), y, nets[pin], side)


def _pico_nets(board: BoardWiring) -> dict[int, Net]:
    nets = {PICO_PIN[pin.gp]: net_of(pin.signal) for pin in board.pico}
    for chip in board.chips:
        if chip.enable is not None:
            nets[PICO_PIN[chip.enable]] = Net(f"/E {chip.ref}", "enable")
        if chip.adc is not None:
            nets[PICO_PIN[chip.adc]] = Net(f"ADC{chip.adc - 26}", "adc")
    nets[PICO_POWER["GND"]] = Net("GND", "ground")
    if board.sensing == "presence":
        nets[PICO_POWER["3V3_OUT"]] = Net("3V3", "power")
    else:
        nets[PICO_POWER["3V3_OUT"]] = Net("3V3 (buck)", "power")
        nets[PICO_POWER["3V3_EN"]] = Net("GND", "ground")
        nets[PICO_POWER["AGND"]] = Net("AGND", "ground")
    return nets


# -- the Raspberry Pi -------------------------------------------------------------------------


def _pi(svg: Svg, wiring: Wiring) -> None:
    x0, y0 = 30, 70
    svg.rect(x0, y0, 380, 300, rx=10, fill="#fdecea", stroke="#c62828", stroke_width=2)
    svg.text(x0 + 14, y0 + 24, "Raspberry Pi (Zero 2 W, 4 or 5)", size=14, weight="bold",
             fill="#c62828")  # fmt: skip
    svg.text(x0 + 14, y0 + 44, "40-pin header, BCM numbers; buttons close to GND",
             size=11, fill="#555555")  # fmt: skip
    grounds = {30: "GND", 34: "GND", 39: "GND"}
    rows = [(pin.header, f"BCM{pin.bcm}", pin.name.replace("_", " "), pin.to) for pin in wiring.pi]
    y = y0 + 70
    for header, bcm, name, to in rows:
        svg.circle(x0 + 22, y - 4, 6, fill="#ffffff", stroke="#c62828", stroke_width=1.5)
        svg.text(x0 + 22, y - 1, str(header), size=7, anchor="middle")
        svg.text(x0 + 36, y, f"{bcm}  {name}", size=12, weight="bold", fill="#2e86c1")
        svg.text(x0 + 36, y + 15, to, size=10, fill="#444444")
        y += 38
    svg.text(x0 + 14, y + 4, "GND on header pins " + ", ".join(str(p) for p in grounds),
             size=11, fill="#444444")  # fmt: skip
    assert all(PI_HEADER[pin.bcm] == pin.header for pin in wiring.pi)
    # The USB cable to the Pico.
    svg.polyline([(x0 + 380, 100), (PICO_X + PICO_W / 2, 100), (PICO_X + PICO_W / 2,
                  PICO_Y - 12)], stroke="#607d8b", stroke_width=3)  # fmt: skip
    svg.text(x0 + 390, 92, "USB cable: the serial link and the Pico's power", size=11,
             fill="#607d8b")  # fmt: skip


# -- the sensor chips -------------------------------------------------------------------------


def _shift_registers(svg: Svg, board: BoardWiring) -> None:
    x0, y0, box_w, box_h = 900, 90, 250, 44
    p = SHIFT_REGISTER_PINS
    svg.text(x0, y0 - 30, f"{len(board.chips)} x 74HC165, one chain", size=14, weight="bold")
    svg.text(x0, y0 - 14, "Q7 of each chip feeds DS of the one before; U1 feeds the Pico",
             size=10, fill="#555555")  # fmt: skip
    for number, chip in enumerate(board.chips):
        column, row = divmod(number, 7)
        x = x0 + column * (box_w + 30)
        y = y0 + (row if column == 0 else 6 - row) * (box_h + 26)
        svg.rect(x, y, box_w, box_h, rx=4, fill="#eef3fb", stroke="#1f77b4")
        places = [name for name in chip.inputs if name != "-"]
        svg.text(x + 8, y + 17, chip.ref, size=13, weight="bold", fill="#1f77b4")
        svg.text(x + 48, y + 17, f"D0-D7: {places[0]} .. {places[-1]}", size=10)
        first = number * 8
        svg.text(x + 8, y + 34, f"channels {first}-{first + 7}", size=10, fill="#555555")
    # The serial chain, drawn between boxes: up the first column, across, down the second.
    for number in range(1, len(board.chips)):
        column, row = divmod(number, 7)
        prev_column, prev_row = divmod(number - 1, 7)
        if column == prev_column == 0:
            middle = x0 + box_w / 2
            svg.arrow(middle, y0 + row * (box_h + 26), middle, y0 + prev_row * (box_h + 26) + box_h,
                      COLOURS["spi"])  # fmt: skip
        elif column == prev_column == 1:
            middle = x0 + box_w + 30 + box_w / 2
            ya = y0 + (6 - row) * (box_h + 26) + box_h
            yb = y0 + (6 - prev_row) * (box_h + 26)
            svg.arrow(middle, ya, middle, yb, COLOURS["spi"])
        else:
            across = y0 + 6 * (box_h + 26) + box_h / 2
            svg.arrow(x0 + box_w + 30, across, x0 + box_w, across, COLOURS["spi"])
    y = y0 + 7 * (box_h + 26) + 4
    _tag(svg, x0, y, Net("SER IN", "spi"), "right")
    svg.text(x0 + 74, y + 4, f"= Q7 (pin {p['Q7']}) of U1", size=11)
    _tag(svg, x0, y + 24, Net("CLK", "spi"), "right")
    svg.text(x0 + 74, y + 28, f"= CP (pin {p['CP']}) of every chip", size=11)
    _tag(svg, x0, y + 48, Net("/LOAD", "spi"), "right")
    svg.text(x0 + 74, y + 52, f"= /PL (pin {p['/PL']}) of every chip", size=11)
    svg.text(x0, y + 76, f"DS (pin {p['DS']}) of U{len(board.chips)}: GND.  /CE (pin "
             f"{p['/CE']}): GND.  VCC (pin {p['VCC']}): 3V3 + 100 nF.", size=11)  # fmt: skip
    svg.text(x0, y + 94, f"Under each place a hall switch ({board.sensor}):", size=11)
    svg.text(x0, y + 112, "VCC to 3V3, GND to GND, OUT to its chip's D input.", size=11)


def _muxes(svg: Svg, board: BoardWiring) -> None:
    x0, y0, box_w, box_h = 900, 90, 440, 52
    p = MUX_PINS
    svg.text(x0, y0 - 30, f"{len(board.chips)} x CD74HC4067 analog multiplexers", size=14,
             weight="bold")  # fmt: skip
    svg.text(x0, y0 - 14, "select lines shared; one enable each; COMMON to an ADC pin",
             size=10, fill="#555555")  # fmt: skip
    for number, chip in enumerate(board.chips):
        y = y0 + number * (box_h + 18)
        svg.rect(x0, y, box_w, box_h, rx=4, fill="#fdf2e9", stroke="#d35400")
        places = [name for name in chip.inputs if name != "-"]
        first = number * 16
        svg.text(x0 + 8, y + 18, chip.ref, size=13, weight="bold", fill="#d35400")
        svg.text(x0 + 46, y + 18, f"I0-I15: {places[0]} .. {places[-1]}", size=10)
        svg.text(x0 + 46, y + 36, f"channels {first}-{first + 15}", size=10, fill="#555555")
        assert chip.enable is not None and chip.adc is not None
        _tag(svg, x0 + 300, y + 16, Net(f"/E {chip.ref}", "enable"), "right")
        _tag(svg, x0 + 300, y + 38, Net(f"ADC{chip.adc - 26}", "adc"), "right")
    y = y0 + len(board.chips) * (box_h + 18) + 8
    for index, pin in enumerate(("S0", "S1", "S2", "S3")):
        _tag(svg, x0 + index * 50, y, Net(pin, "select"), "right")
    svg.text(x0 + 204, y + 4, f"= pins {p['S0']}, {p['S1']}, {p['S2']}, {p['S3']} of all",
             size=11)  # fmt: skip
    svg.text(x0, y + 28, f"/E = pin {p['/E']}, COMMON (SIG) = pin {p['COMMON']}, VCC (pin "
             f"{p['VCC']}) = 3V3 (buck), GND (pin {p['GND']}) = AGND", size=11)  # fmt: skip
    svg.text(x0, y + 46, f"Under each place an analog hall sensor ({board.sensor}):",
             size=11)  # fmt: skip
    svg.text(x0, y + 64, "VCC to 3V3 (buck), GND to AGND, OUT to its mux's I input, 100 nF.",
             size=11)  # fmt: skip


# -- card reader, LEDs, power -----------------------------------------------------------------


def _card_reader(svg: Svg, board: BoardWiring, wiring: Wiring) -> None:
    x0, y0 = 30, 420
    svg.rect(x0, y0, 250, 190, rx=8, fill="#f4ecf7", stroke="#8e44ad", stroke_width=2)
    svg.text(x0 + 12, y0 + 22, "MFRC522 card reader", size=14, weight="bold", fill="#8e44ad")
    svg.text(x0 + 12, y0 + 40, "under the board's 'scan here' mark", size=10, fill="#555555")
    rows = [("SDA", "RC SDA"), ("SCK", "RC SCK"), ("MOSI", "RC MOSI"), ("MISO", "RC MISO"),
            ("RST", "RC RST")]  # fmt: skip
    for index, (pin, net) in enumerate(rows):
        y = y0 + 64 + index * 22
        svg.text(x0 + 14, y + 4, pin, size=11)
        _tag(svg, x0 + 70, y, Net(net, "card"), "right")
    supply = "3V3" if board.sensing == "presence" else "3V3 (buck)"
    svg.text(x0 + 150, y0 + 68, f"3.3V: {supply}", size=11)
    svg.text(x0 + 150, y0 + 90, "GND: GND", size=11)
    svg.text(x0 + 150, y0 + 112, "IRQ: n.c.", size=11, fill=GREY)
    svg.text(x0 + 12, y0 + 176, f"{wiring.card_series_ohms} Ω in series: "
             + ", ".join(wiring.card_series_lines), size=10)  # fmt: skip


def _leds_and_power(svg: Svg, board: BoardWiring, wiring: Wiring) -> None:
    y0 = 750
    # Supply and terminal block.
    svg.rect(30, y0, 170, 90, rx=8, fill="#fbeee6", stroke="#b03a2e", stroke_width=2)
    svg.text(44, y0 + 24, "5 V supply", size=14, weight="bold", fill="#b03a2e")
    svg.text(44, y0 + 44, "sized in bom.md", size=11, fill="#555555")
    svg.text(44, y0 + 62, "(LED limit + Pi + board)", size=11, fill="#555555")
    svg.arrow(200, y0 + 45, 250, y0 + 45, "#b03a2e", 3)
    feeds = ["Pi (USB power lead)"]
    feeds += [f"LED {i} (5 V, GND)" for i in wiring.power_injection]
    if board.sensing == "colour":
        feeds.append("3.3 V buck, 2.5 A")
    svg.rect(250, y0 + 10, 120, 70 + 26 * len(feeds), rx=6, fill="#ffffff", stroke="#b03a2e",
             stroke_width=2)  # fmt: skip
    svg.text(310, y0 + 32, "terminal block", size=12, anchor="middle", weight="bold")
    svg.text(310, y0 + 48, "5 V and GND", size=11, anchor="middle")
    for index, feed in enumerate(feeds):
        y = y0 + 72 + index * 26
        svg.line(370, y, 420, y, stroke="#b03a2e", stroke_width=2)
        svg.text(426, y + 4, feed, size=11)
    # LED driver.
    x = 640
    svg.rect(x, y0 + 10, 190, 140, rx=6, fill="#fdedec", stroke="#c0392b", stroke_width=2)
    svg.text(x + 12, y0 + 32, "74AHCT125 (VCC 5 V)", size=13, weight="bold", fill="#c0392b")
    _tag(svg, x + 12, y0 + 56, Net("LED DATA", "led"), "right")
    svg.text(x + 100, y0 + 60, "→ 1A (pin 2)", size=11)
    svg.text(x + 12, y0 + 84, "/1OE (pin 1), GND (pin 7): GND", size=11)
    svg.text(x + 12, y0 + 104, "VCC (pin 14): 5 V + 100 nF", size=11)
    pulldown = wiring.data_pulldown_ohms
    label = f"{pulldown // 1000} kΩ" if pulldown % 1000 == 0 else f"{pulldown} Ω"
    svg.text(x + 12, y0 + 124, f"1A (pin 2): {label} to GND", size=11, weight="bold")
    svg.text(x + 12, y0 + 140, "(dark LEDs while the Pico is off)", size=10, fill=GREY)
    svg.arrow(x + 190, y0 + 70, x + 250, y0 + 70, "#c0392b", 2)
    svg.text(x + 196, y0 + 62, "1Y (pin 3)", size=10)
    svg.rect(x + 250, y0 + 58, 64, 24, rx=3, fill="#ffffff", stroke="#333333")
    svg.text(x + 282, y0 + 75, f"{wiring.resistor_ohms} Ω", size=11, anchor="middle")
    svg.arrow(x + 314, y0 + 70, x + 380, y0 + 70, "#c0392b", 2)
    svg.rect(x + 380, y0 + 20, 330, 110, rx=6, fill="#fef9e7", stroke="#b7950b", stroke_width=2)
    svg.text(x + 392, y0 + 42, f"{len(wiring.led_chain)} x WS2812B, one chain", size=13,
             weight="bold", fill="#9a7d0a")  # fmt: skip
    svg.text(x + 392, y0 + 62, "DIN of LED 0 (under T0); DOUT to DIN along leds.svg", size=11)
    svg.text(x + 392, y0 + 82, f"{wiring.capacitor_uf} µF across 5 V / GND at LED 0", size=11)
    svg.text(x + 392, y0 + 102, "5 V and GND fed in at LEDs "
             + ", ".join(str(i) for i in wiring.power_injection), size=11)  # fmt: skip
    svg.text(x + 392, y0 + 120, "GND of the supply, Pico and LEDs joined", size=11)
    if board.sensing == "colour":
        svg.rect(x, y0 + 160, 380, 90, rx=6, fill="#fbeee6", stroke="#b03a2e", stroke_width=2)
        svg.text(x + 12, y0 + 182, "3.3 V buck converter (2.5 A)", size=13, weight="bold",
                 fill="#b03a2e")  # fmt: skip
        svg.text(x + 12, y0 + 202, "out: 112 sensors, 7 muxes, MFRC522 and", size=11)
        svg.text(x + 12, y0 + 220, "the Pico's 3V3 pin (its 3V3_EN tied to GND):", size=11)
        svg.text(x + 12, y0 + 238, "one rail, so the readings are ratiometric", size=11)
    else:
        svg.text(x, y0 + 180, "Sensors, 74HC165s and the MFRC522 run on the Pico's 3V3 "
                 "(pin 36, 300 mA).", size=11)  # fmt: skip


def wiring_diagram(board: BoardWiring, wiring: Wiring) -> str:
    svg = Svg(WIDTH, HEIGHT)
    title = {
        "presence": "Presence board: digital hall switches, 74HC165 chain",
        "colour": "Colour board: analog hall sensors, CD74HC4067 muxes",
    }[board.sensing]
    svg.text(30, 36, f"pawnlight wiring - {title}", size=20, weight="bold")
    svg.text(30, 56, "Tags with the same name are one wire. Generated from hardware/wiring.toml.",
             size=12, fill="#555555")  # fmt: skip
    _pi(svg, wiring)
    _pico(svg, _pico_nets(board))
    if board.sensing == "presence":
        _shift_registers(svg, board)
    else:
        _muxes(svg, board)
    _card_reader(svg, board, wiring)
    _leds_and_power(svg, board, wiring)
    return svg.document()

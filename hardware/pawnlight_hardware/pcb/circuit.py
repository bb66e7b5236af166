"""The circuits of the sensor strips and the hub, in SKiDL, from hardware/wiring.toml.

SKiDL (a Python library for describing circuits as code) takes each part from KiCad 6's own
symbol libraries (Debian's ``kicad-symbols``), checks the circuit (its ERC) and writes the KiCad
netlist and a schematic drawing (SVG).  Every connection here follows from the wiring file and
the strip designs (:mod:`.strips`): the chip input of every place's sensor, the Pico's pins, the
LED chain's order.  The strips reach the hub over ribbon cables, one per strip, straight through
(pin n to pin n); :data:`STRIP_PINS` is that connector's pinout.

The fixes of issue #35 are in the hub: a pull-down on the LED buffer's input (the LEDs stay dark
while the Pico boots or is unplugged), series resistors on the card reader's SPI lines, a 100 nF
capacitor beside every chip, and the Pico powered and flashed only through its own USB socket
(its VBUS and VSYS are not wired to the board's 5 V, so the supply and the Pi's USB never feed
each other).
"""

from __future__ import annotations

import io
import logging
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pawnlight.errors import PawnlightError

from ..pins import PI_GROUND, PICO_PIN
from ..wiring import UNUSED, BoardWiring, Wiring
from .drawing import DrawnPart
from .strips import INSTANCES, StripDesign, StripInstance

#: Where Debian's kicad-symbols and kicad-footprints put KiCad 6's libraries.
KICAD_SHARE = Path("/usr/share/kicad")

#: The strip connector (2 x 8, 2.54 mm, a ribbon cable to the hub): pin -> signal.
STRIP_PINS: dict[int, str] = {
    1: "+5V", 2: "GND", 3: "+5V", 4: "GND", 5: "+3V3", 6: "GND",
    7: "DIN", 8: "DOUT", 9: "SDIN", 10: "SDOUT",
    11: "SEN0", 12: "SEN1", 13: "SEN2", 14: "SEN3", 15: "SEN4", 16: "GND",
}  # fmt: skip
PIN_OF: dict[str, int] = {
    name: pin for pin, name in STRIP_PINS.items() if name.startswith(("D", "S"))
}

#: Footprints (KiCad 6 library names).
FP = {
    "R": "Resistor_SMD:R_0805_2012Metric",
    "C": "Capacitor_SMD:C_0805_2012Metric",
    "CP": "Capacitor_THT:CP_Radial_D10.0mm_P5.00mm",
    "sensor": "Package_TO_SOT_SMD:SOT-23",
    "led": "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm",
    "strip": "Connector_IDC:IDC-Header_2x08_P2.54mm_Vertical",
    "165": "Package_SO:SOIC-16_3.9x9.9mm_P1.27mm",
    "4067": "Package_SO:SOIC-24W_7.5x15.4mm_P1.27mm",
    "125": "Package_SO:SOIC-14_3.9x8.7mm_P1.27mm",
    "rnet": "Resistor_THT:R_Array_SIP9",
    "pico": "pawnlight:RaspberryPi_Pico",
    # Bourns MF-RG400: a radial resettable fuse, 4.0 A hold, 8.0 A trip, 16 V (1812 families
    # stop at about 2.6 A hold).
    "fuse": "Fuse:Fuse_Bourns_MF-RG400",
    "power": "TerminalBlock_Phoenix:TerminalBlock_Phoenix_MKDS-1,5-2-5.08_1x02_P5.08mm_Horizontal",
    "reader": "Connector_PinSocket_2.54mm:PinSocket_1x08_P2.54mm_Vertical",
    # The Pi's cable: a shrouded header whose key slot takes the IDC socket's bump one way
    # round only (a bare 2 x 5 pin header took it either way).
    "controls": "Connector_IDC:IDC-Header_2x05_P2.54mm_Vertical",
    "buttons": "Connector_PinHeader_2.54mm:PinHeader_1x05_P2.54mm_Vertical",
    "2pin": "Connector_PinHeader_2.54mm:PinHeader_1x02_P2.54mm_Vertical",
    "buck": "Connector_PinSocket_2.54mm:PinSocket_1x03_P2.54mm_Vertical",
    "npn": "Package_TO_SOT_SMD:SOT-23",
    "diode": "Diode_SMD:D_SOD-123",
    "status": "LED_SMD:LED_0805_2012Metric",
}
SENSOR_SYMBOL = {"presence": "DRV5033FAxDBZ", "colour": "DRV5055A2xDBZxQ1"}
#: The card reader's SPI lines get this resistor in series, at the Pico.
READER_SERIES_OHMS = 33
#: The LED buffer's input is held low by this while the Pico is not driving it.
LED_PULLDOWN_OHMS = 10_000


class CircuitError(PawnlightError, RuntimeError):
    """The circuit cannot be made: no SKiDL, no KiCad symbol libraries, or wiring it can't use."""


@dataclass
class Checked:
    """A circuit's netlist and what its ERC said."""

    name: str
    netlist: str
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    parts: list[DrawnPart] = field(default_factory=list)


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.errors: list[str] = []
        self.warnings: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage().strip()
        (self.errors if record.levelno >= logging.ERROR else self.warnings).append(text)


def symbol_dir() -> Path:
    return Path(os.environ.get("KICAD6_SYMBOL_DIR", KICAD_SHARE / "symbols"))


def _skidl() -> Any:
    """SKiDL, imported quietly: it reads the symbol folders from the environment and would
    otherwise warn about every KiCad version it is not given."""
    symbols = symbol_dir()
    if not (symbols / "Device.kicad_sym").is_file():
        raise CircuitError(
            f"no KiCad 6 symbol libraries in {symbols}: apt-get install kicad-symbols "
            "(or set KICAD6_SYMBOL_DIR)"
        )
    for version in ("", "5", "6", "7", "8", "9", "10"):
        os.environ.setdefault(f"KICAD{version}_SYMBOL_DIR", str(symbols))
    # On import SKiDL opens log files named after the running script in the current folder
    # and reports on standard error: import it in a scratch folder, keep neither.
    here = Path.cwd()
    try:
        with tempfile.TemporaryDirectory() as scratch, redirect_stderr(io.StringIO()):
            os.chdir(scratch)
            try:
                import skidl
                from skidl.logger import stop_log_file_output

                stop_log_file_output()
            finally:
                os.chdir(here)
    except ImportError:
        raise CircuitError("SKiDL is not installed: pip install -e 'hardware[pcb]'") from None
    # Quiet the console handlers SKiDL made for its own loggers, not handlers it shares with the
    # root logger (a test's log capture, the daemon's): those must keep hearing everything else.
    shared = set(logging.getLogger().handlers)
    for name in ("skidl", "ERC_Logger"):
        for handler in logging.getLogger(name).handlers:
            if handler not in shared:
                handler.setLevel(logging.CRITICAL + 1)
    # SKiDL records the Python source line of every part and net through inspect.stack(),
    # which costs most of its time here and is not used: the netlist leaves it out.
    import skidl.circuit

    skidl.circuit.get_skidl_trace = lambda: []
    skidl.set_default_tool(skidl.KICAD6)
    return skidl


@contextmanager
def _circuit(name: str) -> Iterator[tuple[Any, Any]]:
    skidl = _skidl()
    circuit = skidl.Circuit(name=name)
    circuit.no_files = True
    circuit.track_src = False
    with circuit:
        yield skidl, circuit


def _check(skidl: Any, circuit: Any, name: str) -> Checked:
    collect = _Collect()
    erc = logging.getLogger("ERC_Logger")
    erc.addHandler(collect)
    try:
        circuit.ERC()
    finally:
        erc.removeHandler(collect)
    netlist = str(circuit.generate_netlist(do_backup=False))
    parts = []
    for part in circuit.parts:
        pins = []
        for pin in sorted(part.pins, key=lambda pin: _pin_order(str(pin.num))):
            net = pin.net.name if pin.is_connected() and pin.net is not None else ""
            label = _pin_label(str(part.name), str(pin.num), str(pin.name))
            pins.append((str(pin.num), label, "" if net.startswith("__NOCONNECT") else net))
        parts.append(DrawnPart(str(part.ref), str(part.value), str(part.name), tuple(pins)))
    return Checked(name, netlist, collect.errors, collect.warnings, parts)


#: The Pico's pins by physical number, for the drawings.
PICO_NAMES: dict[int, str] = {
    **{pin: f"GP{gp}" for gp, pin in PICO_PIN.items()},
    **{pin: "GND" for pin in (3, 8, 13, 18, 23, 28, 38)},
    30: "RUN", 33: "AGND", 35: "ADC_VREF", 36: "3V3_OUT", 37: "3V3_EN", 39: "VSYS", 40: "VBUS",
}  # fmt: skip


def _pin_label(symbol: str, number: str, name: str) -> str:
    """A pin's name in the drawings: the Pico's GPn, the strip connector's signal."""
    if symbol == "Conn_02x20_Counter_Clockwise" and number.isdigit():
        return PICO_NAMES.get(int(number), name)
    if symbol == "Conn_02x08_Odd_Even" and number.isdigit():
        return STRIP_PINS[int(number)]
    if name.startswith("Pin_") or name == "~":
        return ""
    return name.replace("~{", "/").replace("}", "")


def _pin_order(number: str) -> tuple[int, str]:
    return (int(number), "") if number.isdigit() else (10**6, number)


_TEMPLATES: dict[tuple[str, str], Any] = {}


class _Parts:
    """Part makers: every part of a kind with the same symbol, footprint and reference."""

    def __init__(self, skidl: Any) -> None:
        self.skidl = skidl

    def part(self, lib: str, symbol: str, ref: str, footprint: str, value: str = "") -> Any:
        key = (lib, symbol)
        if key not in _TEMPLATES:  # reading a symbol library is slow: once per process
            _TEMPLATES[key] = self.skidl.Part(lib, symbol, dest=self.skidl.TEMPLATE)
        part = _TEMPLATES[key]()
        part.ref = ref
        part.tag = ref  # a stable tag (SKiDL makes up a random one): the same netlist each run
        part.footprint = footprint
        part.value = value or symbol
        return part

    def r(self, ref: str, ohms: int) -> Any:
        return self.part("Device", "R", ref, FP["R"], _ohms(ohms))

    def c(self, ref: str, value: str = "100nF") -> Any:
        return self.part("Device", "C", ref, FP["C"], value)

    def net(self, name: str, power: bool = False) -> Any:
        net = self.skidl.Net(name)
        if power:
            net.drive = self.skidl.POWER
        return net


def _ohms(ohms: int) -> str:
    if ohms >= 1000 and ohms % 1000 == 0:
        return f"{ohms // 1000}k"
    if ohms >= 1000:
        return f"{ohms / 1000:g}k"
    return str(ohms)


# --- a strip ------------------------------------------------------------------------------------


def strip_refs(design: StripDesign) -> dict[str, list[str]]:
    """The references of a strip's parts by role, in slot order (the layout places them)."""
    return {
        "sensor": [f"U{i + 1}" for i in range(len(design.sensors))],
        "sensor_cap": [f"C{i + 1}" for i in range(len(design.sensors))],
        "led": [f"D{i + 1}" for i in range(len(design.leds))],
        "led_cap": [f"C{11 + i}" for i in range(len(design.leds))],
        "slide": [f"D{11 + i}" for i in range(len(design.slide_leds))],
        "slide_cap": [f"C{21 + i}" for i in range(len(design.slide_leds))],
        "bulk": ["C31"],
        "connector": ["J1"],
    }


def strip_circuit(design: StripDesign, sensing: str, sensor_part: str) -> Checked:
    """One strip design's circuit for a board kind ("presence" or "colour")."""
    refs = strip_refs(design)
    with _circuit(f"strip-{design.name}-{sensing}") as (skidl, circuit):
        p = _Parts(skidl)
        v5, gnd, v33 = p.net("+5V", True), p.net("GND", True), p.net("+3V3", True)
        connector = p.part(
            "Connector_Generic", "Conn_02x08_Odd_Even", "J1", FP["strip"], "to the hub"
        )
        nets = {"+5V": v5, "GND": gnd, "+3V3": v33}
        unused = {f"SEN{slot}" for slot in range(len(design.sensors), 5)}
        if not design.slide_leds:
            unused |= {"SDIN", "SDOUT"}
        for pin, signal in STRIP_PINS.items():
            if signal in unused:
                connector[pin] += circuit.NC  # no slide LEDs, or a 4-spot strip's SEN4
                continue
            if signal not in nets:
                nets[signal] = p.net(signal)
            nets[signal] += connector[pin]
        for slot in range(len(design.sensors)):
            sensor = p.part(
                "Sensor_Magnetic",
                SENSOR_SYMBOL[sensing],
                refs["sensor"][slot],
                FP["sensor"],
                sensor_part,
            )
            sensor["VCC"] += v33
            sensor["GND"] += gnd
            sensor["OUT"] += nets[f"SEN{slot}"]
            cap = p.c(refs["sensor_cap"][slot])
            cap[1] += v33
            cap[2] += gnd
        _led_chain(p, gnd, v5, nets["DIN"], nets["DOUT"], refs["led"], refs["led_cap"])
        if design.slide_leds:
            _led_chain(p, gnd, v5, nets["SDIN"], nets["SDOUT"], refs["slide"], refs["slide_cap"])
        bulk = p.c("C31", "10uF")
        bulk[1] += v5
        bulk[2] += gnd
        return _check(skidl, circuit, circuit.name)


def _led_chain(
    p: _Parts, gnd: Any, v5: Any, din: Any, dout: Any, leds: list[str], caps: list[str]
) -> None:
    data = din
    for index, (ref, cap_ref) in enumerate(zip(leds, caps, strict=True)):
        led = p.part("LED", "WS2812B", ref, FP["led"], "WS2812B")
        led["VDD"] += v5
        led["VSS"] += gnd
        led["DIN"] += data
        data = dout if index == len(leds) - 1 else p.net(f"D_{ref}")
        led["DOUT"] += data
        cap = p.c(cap_ref)
        cap[1] += v5
        cap[2] += gnd


# --- the LED chain through the strips -------------------------------------------------------------


@dataclass(frozen=True)
class Segment:
    """A run of the LED chain on one strip: its place LEDs (DIN..DOUT) or slide LEDs."""

    strip: StripInstance
    slide: bool

    @property
    def names(self) -> tuple[str, ...]:
        return self.strip.slides if self.slide else self.strip.places

    @property
    def din(self) -> int:
        return PIN_OF["SDIN" if self.slide else "DIN"]

    @property
    def dout(self) -> int:
        return PIN_OF["SDOUT" if self.slide else "DOUT"]


def chain_segments(wiring: Wiring, strips: tuple[StripInstance, ...] = INSTANCES) -> list[Segment]:
    """The strips' LED runs in the order the data passes them, from wiring.toml's chain.

    The hub joins one run's DOUT to the next run's DIN, so the chain must visit each run whole
    and in its slot order: anything else cannot be built from these strips, and says why."""
    where: dict[str, tuple[Segment, int]] = {}
    for strip in strips:
        for slide in (False, True):
            segment = Segment(strip, slide)
            for index, name in enumerate(segment.names):
                where[name] = (segment, index)
    order: list[Segment] = []
    expected = 0
    for position, name in enumerate(wiring.led_chain):
        if name not in where:
            raise CircuitError(f"[leds] chain LED {position} ({name}) is on no strip")
        segment, index = where[name]
        if not order or order[-1] != segment:
            if segment in order:
                raise CircuitError(
                    f"[leds] chain LED {position} ({name}) returns to strip {segment.strip.name} "
                    "after leaving it: a strip's LEDs must be consecutive in the chain"
                )
            order.append(segment)
            expected = 0
        if index != expected:
            raise CircuitError(
                f"[leds] chain LED {position} is {name}, but strip {segment.strip.name} "
                f"passes its data to {segment.names[expected]} next"
            )
        expected += 1
    listed = set(wiring.led_chain)
    missing = [name for name in where if name not in listed]
    if missing:
        raise CircuitError(f"[leds] chain leaves out {', '.join(sorted(missing))}")
    return order


# --- the hub ----------------------------------------------------------------------------------


def pico_pin(gp: int) -> int:
    return PICO_PIN[gp]


#: The Pico's ground pins and the others the hub wires (physical pin numbers).
PICO_GROUND = (3, 8, 13, 18, 23, 28, 38)
PICO_AGND, PICO_3V3, PICO_3V3_EN, PICO_VSYS, PICO_VBUS, PICO_RUN = 33, 36, 37, 39, 40, 30
PICO_ADC_VREF = 35


def strip_ref(index: int) -> str:
    """The hub's connector for strip ``INSTANCES[index]``."""
    return f"J{index + 1}"


def hub_circuit(wiring: Wiring, sensing: str) -> Checked:
    board = wiring.boards[sensing]
    with _circuit(f"hub-{sensing}") as (skidl, circuit):
        p = _Parts(skidl)
        v5, gnd, v33 = p.net("+5V", True), p.net("GND", True), p.net("+3V3", True)
        sensor_supply = v33
        refs = _Refs()

        # The Pico: powered and flashed through its own USB socket only.
        pico = p.part(
            "Connector_Generic",
            "Conn_02x20_Counter_Clockwise",
            "A1",
            FP["pico"],
            "Raspberry Pi Pico",
        )
        for pin in PICO_GROUND:
            pico[pin] += gnd
        pico[PICO_3V3] += v33
        for pin in (PICO_VBUS, PICO_VSYS, PICO_3V3_EN, PICO_RUN):
            pico[pin] += circuit.NC
        analog = sensing == "colour"
        pico[PICO_AGND] += gnd
        used = {PICO_3V3, PICO_AGND, PICO_ADC_VREF, *PICO_GROUND}
        used |= {PICO_VBUS, PICO_VSYS, PICO_3V3_EN, PICO_RUN}

        gp = _PicoNets(p, pico, used)

        signals = {pin.signal: pin.gp for pin in board.pico}

        # Power entry: terminal block, fuse, bulk capacitor on the LED supply.
        entry = p.part("Connector", "Screw_Terminal_01x02", "J30", FP["power"], "5 V in")
        fuse = p.part("Device", "Fuse", "F1", FP["fuse"], "MF-RG400 4A hold")
        raw = p.net("5V_IN")
        entry[1] += raw
        entry[2] += gnd
        fuse[1] += raw
        fuse[2] += v5
        bulk = p.part("Device", "C_Polarized", "C1", FP["CP"], f"{wiring.capacitor_uf}uF 10V")
        bulk[1] += v5
        bulk[2] += gnd
        if analog:
            # The analog sensors draw about 1 A at 3.3 V: their own buck module from 5 V.
            sensor_supply = p.net("+3V3_SENS", True)
            buck = p.part("Connector_Generic", "Conn_01x03", "J31", FP["buck"], "3.3 V buck")
            buck[1] += v5
            buck[2] += gnd
            buck[3] += sensor_supply
            cap = p.c(refs.c(), "10uF")
            cap[1] += sensor_supply
            cap[2] += gnd
            # One reference for the whole analog chain: the ADC measures against the sensors'
            # own rail, so a reading is the sensor's output as a fraction of its own supply
            # (the DRV5055 is ratiometric) whatever the buck's tolerance.  The Pico joins
            # ADC_VREF to its own 3.3 V through 200 ohm (R7 on its board): the two rails,
            # a few per cent apart, pass a fraction of a milliampere there.
            pico[PICO_ADC_VREF] += sensor_supply
        else:
            pico[PICO_ADC_VREF] += circuit.NC

        # The strips.
        sensor_net: dict[str, Any] = {}
        for index, strip in enumerate(INSTANCES):
            conn = p.part(
                "Connector_Generic",
                "Conn_02x08_Odd_Even",
                strip_ref(index),
                FP["strip"],
                strip.name,
            )
            for pin, signal in STRIP_PINS.items():
                if signal == "+5V":
                    conn[pin] += v5
                elif signal == "GND":
                    conn[pin] += gnd
                elif signal == "+3V3":
                    conn[pin] += sensor_supply
                elif signal.startswith("SEN"):
                    slot = int(signal[3:])
                    if slot < len(strip.places):
                        name = strip.places[slot]
                        sensor_net[name] = p.net(f"SEN_{name}")
                        conn[pin] += sensor_net[name]
                    else:
                        conn[pin] += circuit.NC
        _hub_leds(p, circuit, wiring, gp(signals["leds.pin"], "LED_GP"), v5, gnd, refs)

        # The chips that read the sensors.
        if analog:
            # The multiplexers and their pull-ups on the sensors' rail too (the ADC's
            # reference): a broken wire pulled up reads the top of the scale.
            _muxes(p, circuit, board, gp, signals, sensor_net, sensor_supply, gnd, refs)
        else:
            _shift_registers(p, circuit, board, gp, signals, sensor_net, v33, gnd, refs)

        # The card reader (MFRC522 module header), series resistors at the Pico.
        reader = p.part("Connector_Generic", "Conn_01x08", "J32", FP["reader"], "MFRC522")
        # The module's pin order: SDA(CS) SCK MOSI MISO IRQ GND RST 3.3V
        for pin, key in ((1, "cs"), (2, "sck"), (3, "mosi"), (4, "miso"), (7, "rst")):
            line = p.net(f"RC_{key.upper()}")
            resistor = p.r(refs.r(), READER_SERIES_OHMS)
            resistor[1] += gp(signals[f"card_reader.{key}"], f"RC_{key.upper()}_PICO")
            resistor[2] += line
            reader[pin] += line
        reader[5] += circuit.NC
        reader[6] += gnd
        reader[8] += v33

        _controls(p, wiring, v5, gnd, refs, circuit.NC)

        # Decoupling at the Pico's 3.3 V output.
        cap = p.c(refs.c(), "10uF")
        cap[1] += v33
        cap[2] += gnd
        for pin in range(1, 41):
            if pin not in used:
                pico[pin] += circuit.NC
        return _check(skidl, circuit, circuit.name)


class _PicoNets:
    """The net on each Pico GPIO, made when first asked for: ``gp(22, "LED_GP")``."""

    def __init__(self, p: _Parts, pico: Any, used: set[int]) -> None:
        self.p, self.pico, self.used = p, pico, used
        self.nets: dict[int, Any] = {}

    def __call__(self, number: int, name: str) -> Any:
        if number not in self.nets:
            self.nets[number] = self.p.net(name)
            self.pico[pico_pin(number)] += self.nets[number]
            self.used.add(pico_pin(number))
        return self.nets[number]


class _Refs:
    """Running reference numbers for the hub's small parts."""

    def __init__(self) -> None:
        self.next = {"R": 1, "C": 2, "RN": 1}

    def take(self, prefix: str) -> str:
        number = self.next[prefix]
        self.next[prefix] += 1
        return f"{prefix}{number}"

    def r(self) -> str:
        return self.take("R")

    def c(self) -> str:
        return self.take("C")


def _bypass(p: _Parts, refs: _Refs, supply: Any, gnd: Any) -> None:
    cap = p.c(refs.c())
    cap[1] += supply
    cap[2] += gnd


def _hub_leds(
    p: _Parts, circuit: Any, wiring: Wiring, pico_out: Any, v5: Any, gnd: Any, refs: _Refs
) -> None:
    """Pico -> 74AHCT125 (5 V) -> 330 ohm -> the strips' LED runs in chain order."""
    buffer = p.part("74xx", "74LS125", "U30", FP["125"], "74AHCT125")
    buffer[14] += v5
    buffer[7] += gnd
    _bypass(p, refs, v5, gnd)
    pulldown = p.r(refs.r(), LED_PULLDOWN_OHMS)
    pulldown[1] += pico_out
    pulldown[2] += gnd
    buffer[2] += pico_out
    buffer[1] += gnd  # /1OE: always on
    for unused_in in (5, 9, 12, 4, 10, 13):  # 2A 3A 4A and their /OE: tied low
        buffer[unused_in] += gnd
    for unused_out in (6, 8, 11):
        buffer[unused_out] += circuit.NC
    buffered = p.net("LED_BUF")
    buffer[3] += buffered
    series = p.r(refs.r(), wiring.resistor_ohms)
    series[1] += buffered
    data = p.net("LED_D0")
    series[2] += data
    segments = chain_segments(wiring)
    connectors = {strip.name: strip_ref(i) for i, strip in enumerate(INSTANCES)}
    parts = {part.ref: part for part in circuit.parts}
    for number, segment in enumerate(segments):
        conn = parts[connectors[segment.strip.name]]
        conn[segment.din] += data
        data = p.net(f"LED_D{number + 1}") if number + 1 < len(segments) else circuit.NC
        conn[segment.dout] += data
    for strip in INSTANCES:
        if not strip.slides:
            conn = parts[connectors[strip.name]]
            conn[PIN_OF["SDIN"]] += circuit.NC
            conn[PIN_OF["SDOUT"]] += circuit.NC


def _shift_registers(
    p: _Parts,
    circuit: Any,
    board: BoardWiring,
    gp: _PicoNets,
    signals: dict[str, int],
    sensor_net: dict[str, Any],
    v33: Any,
    gnd: Any,
    refs: _Refs,
) -> None:
    """The 74HC165 chain: U1's Q7 to the Pico, U(k+1)'s Q7 into Uk's DS, U14's DS to GND."""
    load = gp(signals["presence.load"], "SR_PL")
    clock = gp(signals["presence.sck"], "SR_CP")
    unused = pico_pin(signals["presence.mosi"])  # SPI1 claims it: left unconnected
    gp.pico[unused] += circuit.NC
    gp.used.add(unused)
    serial_in = gp(signals["presence.miso"], "SR_Q7")
    chips = []
    for chip in board.chips:
        part = p.part("74xx", "74HC165", chip.ref, FP["165"], "74HC165")
        part["VCC"] += v33
        part["GND"] += gnd
        part["~{PL}"] += load
        part["CP"] += clock
        part["~{CE}"] += gnd
        part["~{Q7}"] += circuit.NC
        _bypass(p, refs, v33, gnd)
        network = p.part(
            "Device", "R_Network08", refs.take("RN"), FP["rnet"], _ohms(board.pullup_ohms)
        )
        network["common"] += v33
        for index, name in enumerate(chip.inputs):
            line = sensor_net[name] if name != UNUSED else gnd
            part[f"D{index}"] += line
            network[f"R{index + 1}"] += line
        chips.append(part)
    chips[0]["Q7"] += serial_in
    for k in range(len(chips) - 1):
        link = p.net(f"SR_{chips[k + 1].ref}_Q7")
        chips[k + 1]["Q7"] += link
        chips[k]["DS"] += link
    chips[-1]["DS"] += gnd


def _muxes(
    p: _Parts,
    circuit: Any,
    board: BoardWiring,
    gp: _PicoNets,
    signals: dict[str, int],
    sensor_net: dict[str, Any],
    supply: Any,
    gnd: Any,
    refs: _Refs,
) -> None:
    """The CD74HC4067s: shared select lines, an enable and an ADC pin each (shared ADCs),
    powered with their pull-ups from ``supply`` (the sensors' rail)."""
    select = [gp(signals[f"colour.select.{i}"], f"MUX_S{i}") for i in range(4)]
    for chip in board.chips:
        part = p.part("74xx", "CD74HC4067M", chip.ref, FP["4067"], "CD74HC4067M")
        part["VCC"] += supply
        part["GND"] += gnd
        for i, line in enumerate(select):
            part[f"S{i}"] += line
        assert chip.enable is not None and chip.adc is not None
        part["~{E}"] += gp(chip.enable, f"MUX_EN_{chip.ref}")
        part["COM"] += gp(chip.adc, f"ADC_GP{chip.adc}")
        _bypass(p, refs, supply, gnd)
        networks = [
            p.part("Device", "R_Network08", refs.take("RN"), FP["rnet"], _ohms(board.pullup_ohms))
            for _ in range(2)
        ]
        for network in networks:
            network["common"] += supply
        for index, name in enumerate(chip.inputs):
            line = sensor_net[name] if name != UNUSED else gnd
            part[f"I{index}"] += line
            networks[index // 8][f"R{index % 8 + 1}"] += line


#: J33 is the Pi's own header, pins 29-38 (a 2 x 5 block of the 40-pin header): J33's pin k is
#: the Pi's pin ``PI_BLOCK_FIRST + k - 1``, so a straight 10-way IDC cable joins them pin for pin.
PI_BLOCK_FIRST = 29
PI_BLOCK_PINS = 10


def pi_block_nets(wiring: Wiring) -> dict[int, str | None]:
    """J33's pin -> its net: a [pi] line on the Pi pin wiring.toml gives it, GND on the Pi's
    ground pins, None (not connected) on a Pi pin the board does not use."""
    by_header = {pin.header: pin for pin in wiring.pi}
    nets: dict[int, str | None] = {}
    for k in range(1, PI_BLOCK_PINS + 1):
        pi_pin = PI_BLOCK_FIRST + k - 1
        line = by_header.get(pi_pin)
        if line is not None:
            nets[k] = f"PI_GPIO{line.bcm}_{line.name.upper()}"
        else:
            nets[k] = "GND" if pi_pin in PI_GROUND else None
    outside = sorted(set(by_header) - set(range(PI_BLOCK_FIRST, PI_BLOCK_FIRST + PI_BLOCK_PINS)))
    if outside:
        raise CircuitError(
            f"[pi] uses the Pi's pins {outside}, outside the block {PI_BLOCK_FIRST}-"
            f"{PI_BLOCK_FIRST + PI_BLOCK_PINS - 1} the hub's 10-way cable reaches"
        )
    return nets


def _controls(p: _Parts, wiring: Wiring, v5: Any, gnd: Any, refs: _Refs, nc: Any) -> None:
    """The Pi's controls: a 2 x 5 header wired as the Pi's pins 29-38 (:func:`pi_block_nets`),
    the buttons' header, the buzzer's transistor and the status LED (wiring.toml [pi])."""
    header = p.part("Connector_Generic", "Conn_02x05_Odd_Even", "J33", FP["controls"], "to the Pi")
    buttons = p.part("Connector_Generic", "Conn_01x05", "J34", FP["buttons"], "buttons")
    lines = {}
    for number, name in pi_block_nets(wiring).items():
        if name is None:
            header[number] += nc
        elif name == "GND":
            header[number] += gnd
        else:
            lines[name.split("_", 2)[2].lower()] = net = p.net(name)
            header[number] += net
    for number, name in enumerate(("confirm", "undo", "new_game", "hint")):
        buttons[number + 1] += lines[name]  # each button to GND: the Pi's pull-ups hold it high
    buttons[5] += gnd
    base = p.net("BUZZER_BASE")
    resistor = p.r(refs.r(), 1000)
    resistor[1] += lines["buzzer"]
    resistor[2] += base
    npn = p.part("Transistor_BJT", "MMBT3904", "Q1", FP["npn"], "MMBT3904")
    npn["B"] += base
    npn["E"] += gnd
    low = p.net("BUZZER_LOW")
    npn["C"] += low
    buzzer = p.part("Connector_Generic", "Conn_01x02", "J35", FP["2pin"], "buzzer (5 V active)")
    buzzer[1] += v5
    buzzer[2] += low
    flyback = p.part("Diode", "1N4148W", "D1", FP["diode"], "1N4148W")
    flyback["K"] += v5
    flyback["A"] += low
    anode = p.net("STATUS_ANODE")
    resistor = p.r(refs.r(), 330)
    resistor[1] += lines["status_led"]
    resistor[2] += anode
    # The status LED itself is where players see it, on the Pi's box beside the buttons: the
    # hub hangs parts down under the deck, so an LED on it would face the bottom panel.
    led = p.part("Connector_Generic", "Conn_01x02", "J36", FP["2pin"], "status LED")
    led[1] += anode
    led[2] += gnd

"""The chips that read the sensors, as the firmware numbers their inputs.

The firmware fixes the channel numbering (docs/firmware.md): on a presence board channel =
8 x chip + input of a 74HC165 chain (chip 0 is the one whose Q7 goes to the Pico), on a colour
board channel = 16 x mux + input of the CD74HC4067s.  The wiring data (hardware/wiring.toml)
names chips U1, U2, ... in that order, so ``U1`` is chip 0.  Knowing that, the diagnostics can
point a builder at a pin with a soldering iron: "channel 37 is U5 D5, pin 4".

Pin numbers are those of the DIP-16 74HC165 and of the DIP/SOIC-24 CD74HC4067 (breakout
boards label the mux inputs C0..C15 and COMMON as SIG).
"""

from __future__ import annotations

from dataclasses import dataclass

SHIFT_REGISTER = "74HC165"
MUX = "CD74HC4067"

#: 74HC165 (DIP-16): the parallel inputs D0..D7 and the control pins.
SHIFT_REGISTER_INPUT_PINS: tuple[int, ...] = (11, 12, 13, 14, 3, 4, 5, 6)
SHIFT_REGISTER_PINS: dict[str, int] = {
    "/PL": 1,  # parallel load, active low: the Pico's load pin
    "CP": 2,  # clock: the Pico's SPI SCK
    "/Q7": 7,  # inverted serial output: not used
    "GND": 8,
    "Q7": 9,  # serial output: to DS of the previous chip, or the Pico's MISO for chip 0
    "DS": 10,  # serial input: from Q7 of the next chip (GND on the last one)
    "/CE": 15,  # clock enable, active low: tied to GND
    "VCC": 16,
}

#: CD74HC4067 (DIP/SOIC-24): the inputs I0..I15 and the control pins.
MUX_INPUT_PINS: tuple[int, ...] = (9, 8, 7, 6, 5, 4, 3, 2, 23, 22, 21, 20, 19, 18, 17, 16)
MUX_PINS: dict[str, int] = {
    "COMMON": 1,  # SIG on breakout boards: to the ADC pin
    "S0": 10,
    "S1": 11,
    "GND": 12,
    "S3": 13,  # S3 before S2: the datasheet's order, an easy one to get wrong
    "S2": 14,
    "/E": 15,  # enable, active low
    "VCC": 24,
}

#: 74AHCT125 (DIP-14): the quad buffer that lifts the LED data line to 5 V.  Only buffer 1 is
#: used; the others' inputs must not float (a floating CMOS input can oscillate and draw current).
BUFFER = "74AHCT125"
BUFFER_PINS: dict[str, int] = {
    "/1OE": 1, "1A": 2, "1Y": 3, "/2OE": 4, "2A": 5, "2Y": 6, "GND": 7,
    "3Y": 8, "3A": 9, "/3OE": 10, "4Y": 11, "4A": 12, "/4OE": 13, "VCC": 14,
}  # fmt: skip

INPUTS = {SHIFT_REGISTER: 8, MUX: 16}

#: The Pico ADC pin (GPn) on each mux's COMMON, U1 first, as firmware/configs/colour.json and
#: hardware/wiring.toml have them (tests/hardware/test_wiring.py keeps the three in step): a
#: wire fault names it, since a fault of the whole ADC line shows on every mux sharing it.
MUX_ADC_PINS: tuple[int, ...] = (26, 26, 26, 27, 27, 28, 28)


@dataclass(frozen=True)
class ChipInput:
    """One input pin of one chip: where a sensor's output wire is soldered."""

    chip: int  # 0-based position in the firmware's numbering
    part: str
    input: int

    @property
    def ref(self) -> str:
        """The reference designator: U1 is chip 0."""
        return f"U{self.chip + 1}"

    @property
    def label(self) -> str:
        """The input's name on the datasheet: D0..D7 or I0..I15."""
        return f"{'D' if self.part == SHIFT_REGISTER else 'I'}{self.input}"

    @property
    def pin(self) -> int:
        pins = SHIFT_REGISTER_INPUT_PINS if self.part == SHIFT_REGISTER else MUX_INPUT_PINS
        return pins[self.input]

    def __str__(self) -> str:
        return f"{self.ref} {self.label}, pin {self.pin}"


def part_for(sensing: str) -> str:
    """The chip that reads a board's sensors: ``presence`` or ``colour``."""
    if sensing == "presence":
        return SHIFT_REGISTER
    if sensing == "colour":
        return MUX
    raise ValueError(f"unknown sensing {sensing!r} (presence or colour)")


def adc_pin(channel: int) -> int | None:
    """The Pico ADC pin (GPn) that reads a colour board's channel, None if out of range."""
    mux = channel // INPUTS[MUX]
    return MUX_ADC_PINS[mux] if 0 <= mux < len(MUX_ADC_PINS) else None


def chip_input(sensing: str, channel: int) -> ChipInput:
    """Which chip input reads a sensor channel, by the firmware's numbering."""
    part = part_for(sensing)
    chip, pin = divmod(channel, INPUTS[part])
    return ChipInput(chip, part, pin)

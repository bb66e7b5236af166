"""Physical pin numbers of the two boards' headers, for wiring tables a builder can follow."""

from __future__ import annotations

#: Raspberry Pi 40-pin header: BCM GPIO number -> physical pin.
PI_HEADER: dict[int, int] = {
    2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 0: 27, 5: 29, 6: 31,
    13: 33, 19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26,
    1: 28, 12: 32, 16: 36, 20: 38, 21: 40,
}  # fmt: skip
#: Its ground pins.
PI_GROUND: tuple[int, ...] = (6, 9, 14, 20, 25, 30, 34, 39)

#: Raspberry Pi Pico: GPn -> physical pin (pin 1 is GP0, next to the USB socket).
PICO_PIN: dict[int, int] = {
    0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16,
    13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29, 26: 31,
    27: 32, 28: 34,
}  # fmt: skip
#: The Pico's power pins.
PICO_POWER: dict[str, int] = {
    "GND": 38,  # also 3, 8, 13, 18, 23, 28
    "AGND": 33,  # the ADC's ground: the analog sensors' ground returns here
    "ADC_VREF": 35,
    "3V3_OUT": 36,
    "3V3_EN": 37,
    "VSYS": 39,
    "VBUS": 40,
}


def parse_gp(name: str) -> int:
    """``"GP22"`` -> 22; ValueError for anything else."""
    text = name.strip().upper()
    if not text.startswith("GP") or not text[2:].isdigit():
        raise ValueError(f"{name!r} is not a Pico pin name like GP22")
    return int(text[2:])

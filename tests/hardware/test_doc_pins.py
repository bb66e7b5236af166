"""The pin numbers a builder solders by, wherever the docs give them, agree with the wiring data.

Each pin is checked where it is written: a chip input (``U2 D4, pin 3``), a Pi control (``BCM 12,
pin 32``), a Pico pin (``GP22 (pin 29)``) and a chip's named pin (``VCC (pin 14)``) in a line
or paragraph about that chip.  A doc that gets one wrong fails here, naming the file and line.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pawnlight.board.chips import (
    BUFFER,
    BUFFER_PINS,
    MUX,
    MUX_INPUT_PINS,
    MUX_PINS,
    SHIFT_REGISTER,
    SHIFT_REGISTER_INPUT_PINS,
    SHIFT_REGISTER_PINS,
)
from pawnlight_hardware.pins import PI_GROUND, PI_HEADER, PICO_PIN
from pawnlight_hardware.wiring import load_wiring, repository_hardware

ROOT = repository_hardware().parent
DOCS = sorted(
    [
        *ROOT.glob("docs/*.md"),
        *ROOT.glob("hardware/*.md"),
        ROOT / "README.md",
        ROOT / "hardware" / "wiring.toml",
    ]
)
WIRING = load_wiring()

CHIP_INPUT = re.compile(r"\bU(\d+) ([DI])(\d+), pin (\d+)")
PI_CONTROL = re.compile(r"\bBCM (\d+)(?:, | \()pin (\d+)")
PICO = re.compile(r"\bGP(\d+)(?: \(|, | / )pin (\d+)")
NAMED_PIN = re.compile(r"(?<![\w/])(/?[A-Z0-9_]+) \(pin (\d+)\)")
NAMED_PINS = re.compile(r"((?:/?[0-9A-Z]+, )+/?[0-9A-Z]+) \(pins ((?:\d+, )+\d+)\)")
#: Words that say which chip the named pins after them belong to.
CONTEXT: dict[str, dict[str, int] | dict[str, tuple[int, ...]]] = {
    SHIFT_REGISTER: SHIFT_REGISTER_PINS,
    MUX: MUX_PINS,
    "mux": MUX_PINS,
    BUFFER: BUFFER_PINS,
    "BCM": {"GND": PI_GROUND},
    "header": {"GND": PI_GROUND},
}
CONTEXT_WORD = re.compile("|".join(re.escape(word) for word in CONTEXT))


def _lines(path: Path) -> list[tuple[int, str]]:
    return list(enumerate(path.read_text(encoding="utf-8").splitlines(), 1))


def _where(path: Path, number: int) -> str:
    return f"{path.relative_to(ROOT)}:{number}"


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_chip_inputs_have_their_pin(path):
    for number, line in _lines(path):
        for chip, kind, index, pin in CHIP_INPUT.findall(line):
            pins = SHIFT_REGISTER_INPUT_PINS if kind == "D" else MUX_INPUT_PINS
            assert int(index) < len(pins), f"{_where(path, number)}: no input {kind}{index}"
            assert int(pin) == pins[int(index)], (
                f"{_where(path, number)}: U{chip} {kind}{index} is pin {pins[int(index)]}, "
                f"not {pin}"
            )


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_pi_controls_are_where_wiring_toml_puts_them(path):
    wired = {(pin.bcm, pin.header) for pin in WIRING.pi}
    for number, line in _lines(path):
        for bcm, header in PI_CONTROL.findall(line):
            assert PI_HEADER[int(bcm)] == int(header), (
                f"{_where(path, number)}: BCM {bcm} is header pin {PI_HEADER[int(bcm)]}"
            )
            assert (int(bcm), int(header)) in wired, (
                f"{_where(path, number)}: BCM {bcm} is not a control in wiring.toml"
            )


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_pico_pins_have_their_number(path):
    used = {pin.gp for board in WIRING.boards.values() for pin in board.pico}
    for number, line in _lines(path):
        for gp, pin in PICO.findall(line):
            assert PICO_PIN[int(gp)] == int(pin), (
                f"{_where(path, number)}: GP{gp} is pin {PICO_PIN[int(gp)]}, not {pin}"
            )
            assert int(gp) in used, f"{_where(path, number)}: GP{gp} is not in wiring.toml"


def _named(line: str) -> list[tuple[int, str, int]]:
    """(position, pin name, number) of every ``NAME (pin N)`` and ``A, B (pins N, M)``."""
    found = [(m.start(), m.group(1), int(m.group(2))) for m in NAMED_PIN.finditer(line)]
    for match in NAMED_PINS.finditer(line):
        names = match.group(1).split(", ")
        numbers = [int(n) for n in match.group(2).split(", ")]
        assert len(names) == len(numbers), f"{line!r}: names and pins do not pair up"
        found += [(match.start(), n, p) for n, p in zip(names, numbers, strict=True)]
    return sorted(found)


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_named_chip_pins_match_the_chip_being_described(path):
    checked = 0
    for paragraph in path.read_text(encoding="utf-8").split("\n\n"):
        chip = None  # the chip (or header) the text last named, within this paragraph
        for line in paragraph.splitlines():
            words = [(m.start(), m.group(0)) for m in CONTEXT_WORD.finditer(line)]
            for at, name, pin in _named(line):
                for start, word in words:
                    if start < at:
                        chip = word
                if chip is None or name not in CONTEXT[chip]:
                    continue
                allowed = CONTEXT[chip][name]
                allowed = allowed if isinstance(allowed, tuple) else (allowed,)
                assert pin in allowed, f"{path.relative_to(ROOT)}: {chip} {name} is pin {allowed}"
                checked += 1
            if words:
                chip = words[-1][1]
    if path.name in ("assembly.md", "wiring.md"):
        assert checked >= 5, f"{path.name}: expected chip pins to check, found {checked}"


def test_the_assembly_guide_wires_every_button_it_counts():
    text = " ".join((ROOT / "docs" / "assembly.md").read_text(encoding="utf-8").split())
    buttons = [pin for pin in WIRING.pi if "button" in pin.to]
    words = {3: "three", 4: "four", 5: "five"}
    assert f"{words[len(buttons)]} buttons" in text
    for pin in buttons:
        assert f"{pin.name.replace('_', ' ')} (BCM {pin.bcm}, pin {pin.header})" in text


def test_the_led_data_pin_is_given_as_a_pin_not_a_config_field():
    for path in DOCS:
        if path.suffix == ".md":
            assert "Pico leds.pin" not in path.read_text(encoding="utf-8"), path.name
    wiring_md = (ROOT / "hardware" / "wiring.md").read_text(encoding="utf-8")
    assert "Pico GP22 (pin 29)" in wiring_md
    assert f"VCC (pin {BUFFER_PINS['VCC']})" in wiring_md and "unused" in wiring_md

"""hardware/wiring.toml agrees with the layouts, the firmware configs and the daemon's pins."""

from __future__ import annotations

import dataclasses

import pytest

from pawnlight.board.cells import CELL_NAMES, LEDS
from pawnlight.board.chips import MUX, SHIFT_REGISTER, chip_input
from pawnlight.board.health.board_words import led_place_names
from pawnlight.board.layout import CHANNELS, Layout
from pawnlight.devices.controls import ControlPins
from pawnlight_hardware.wiring import (
    Chip,
    PicoPin,
    Wiring,
    WiringError,
    load_firmware_config,
    load_wiring,
    problems,
    repository_hardware,
)

WIRING = load_wiring()
BOARDS = sorted(WIRING.boards)


def with_board(wiring: Wiring, sensing: str, **changes) -> Wiring:
    board = dataclasses.replace(wiring.boards[sensing], **changes)
    return dataclasses.replace(wiring, boards={**wiring.boards, sensing: board})


def test_the_shipped_wiring_agrees_with_everything():
    assert problems(WIRING) == []


@pytest.mark.parametrize("sensing", BOARDS)
def test_chip_count_times_inputs_is_the_channel_count(sensing):
    board = WIRING.boards[sensing]
    config = load_firmware_config(board.config)
    per_chip = {"presence": 8, "colour": 16}[sensing]
    assert board.inputs_per_chip == per_chip
    assert len(board.chips) * per_chip == config["channels"] == CHANNELS
    configured = (
        config["presence"]["chips"] if sensing == "presence" else len(config["colour"]["muxes"])
    )
    assert len(board.chips) == configured


@pytest.mark.parametrize("sensing", BOARDS)
def test_every_channel_is_wired_exactly_once_where_the_layout_wants_it(sensing):
    board = WIRING.boards[sensing]
    layout = Layout.named(board.layout)
    channels = {}
    for number, chip in enumerate(board.chips):
        for index, name in enumerate(chip.inputs):
            channels[name] = number * board.inputs_per_chip + index
    assert sorted(channels) == sorted(CELL_NAMES)
    assert sorted(channels.values()) == list(range(CHANNELS))
    for cell, name in enumerate(CELL_NAMES):
        assert layout.channel_of[cell] == channels[name], name


@pytest.mark.parametrize("sensing", BOARDS)
def test_pico_pins_are_the_configs_and_none_is_used_twice(sensing):
    board = WIRING.boards[sensing]
    config = load_firmware_config(board.config)
    used = [pin.gp for pin in board.pico]
    used += [chip.enable for chip in board.chips if chip.enable is not None]
    assert len(used) == len(set(used))
    adc = {chip.adc for chip in board.chips if chip.adc is not None}
    assert not adc & set(used)
    wired = {pin.signal: pin.gp for pin in board.pico}
    assert wired["leds.pin"] == config["leds"]["pin"]
    for key in ("sck", "mosi", "miso", "cs", "rst"):
        assert wired[f"card_reader.{key}"] == config["card_reader"][key]
    if sensing == "presence":
        for key in ("sck", "mosi", "miso", "load"):
            assert wired[f"presence.{key}"] == config["presence"][key]
    else:
        select = [wired[f"colour.select.{i}"] for i in range(4)]
        assert select == config["colour"]["select"]
        muxes = [{"enable": chip.enable, "adc": chip.adc} for chip in board.chips]
        assert muxes == config["colour"]["muxes"]


@pytest.mark.parametrize("sensing", BOARDS)
def test_the_led_chain_is_the_layouts(sensing):
    layout = Layout.named(WIRING.boards[sensing].layout)
    config = load_firmware_config(WIRING.boards[sensing].config)
    assert len(WIRING.led_chain) == config["leds"]["count"] == LEDS
    assert WIRING.led_chain == led_place_names(layout)


def test_the_pi_pins_are_the_daemons_defaults():
    defaults = ControlPins()
    assert {pin.name: pin.bcm for pin in WIRING.pi} == dataclasses.asdict(defaults)


def test_a_swapped_pair_of_sensor_wires_is_named():
    board = WIRING.boards["presence"]
    first = board.chips[0]
    swapped = ("T1", "T0", *first.inputs[2:])
    wiring = with_board(
        WIRING, "presence", chips=(dataclasses.replace(first, inputs=swapped), *board.chips[1:])
    )
    found = problems(wiring)
    assert len(found) == 2
    assert "U1 D0 reads T1 as channel 0" in found[0]
    assert "puts T1 on channel 1" in found[0]


def test_a_missing_and_a_doubled_sensor_are_named():
    board = WIRING.boards["colour"]
    last = board.chips[-1]
    doubled = (*last.inputs[:-1], "T0")
    wiring = with_board(
        WIRING, "colour", chips=(*board.chips[:-1], dataclasses.replace(last, inputs=doubled))
    )
    found = problems(wiring)
    assert any("T0 is wired twice: U1 I0 and U7 I15" in p for p in found)
    assert any("no chip input reads green-home-4" in p for p in found)


def test_a_pico_pin_that_differs_from_the_config_is_named():
    board = WIRING.boards["presence"]
    pico = tuple(
        PicoPin(21, pin.signal, pin.to) if pin.signal == "leds.pin" else pin for pin in board.pico
    )
    found = problems(with_board(WIRING, "presence", pico=pico))
    assert found == ["[presence.pico] wires leds.pin to GP21, presence.json says GP22"]


def test_a_pico_pin_used_twice_is_named():
    board = WIRING.boards["colour"]
    chips = (dataclasses.replace(board.chips[0], enable=7), *board.chips[1:])
    found = problems(with_board(WIRING, "colour", chips=chips))
    assert "[colour.pico] GP7 is used twice: colour.select.0 and U1 /E" in found


def test_a_chip_too_few_is_named():
    board = WIRING.boards["presence"]
    found = problems(with_board(WIRING, "presence", chips=board.chips[:-1]))
    assert "[presence] wires 13 chips, presence.json configures 14" in found


def test_pi_pins_must_be_the_daemons():
    pins = dataclasses.replace(ControlPins(), buzzer=18)
    found = problems(WIRING, pins)
    assert found == [
        "[pi] buzzer is on BCM 19, the daemon expects BCM 18 "
        "(pawnlight.devices.controls.ControlPins)"
    ]


def test_an_led_out_of_order_is_named():
    chain = list(WIRING.led_chain)
    chain[3], chain[4] = chain[4], chain[3]
    found = problems(dataclasses.replace(WIRING, led_chain=tuple(chain)))
    # Both layouts disagree, about both LEDs.
    assert sum("LED 3 is under T4" in p for p in found) == 2
    assert sum("LED 4 is under T3" in p for p in found) == 2


def test_chip_inputs_name_the_pin_to_solder():
    assert str(chip_input("presence", 37)) == "U5 D5, pin 4"
    assert str(chip_input("presence", 0)) == "U1 D0, pin 11"
    assert str(chip_input("colour", 37)) == "U3 I5, pin 4"
    assert str(chip_input("colour", 111)) == "U7 I15, pin 16"
    assert chip_input("presence", 8).part == SHIFT_REGISTER
    assert chip_input("colour", 8).part == MUX


def test_unused_inputs_are_allowed_only_past_the_last_channel():
    board = WIRING.boards["presence"]
    spare = Chip("U15", SHIFT_REGISTER, ("-",) * 8)
    found = problems(with_board(WIRING, "presence", chips=(*board.chips, spare)))
    assert found == ["[presence] wires 15 chips, presence.json configures 14"]


def test_every_chip_input_has_a_pull_up(tmp_path):
    for board in load_wiring().boards.values():
        assert board.pullup_ohms > 0
    text = (repository_hardware() / "wiring.toml").read_text()
    broken = tmp_path / "wiring.toml"
    broken.write_text(text.replace("pullup_ohms = 10000\n", ""))
    with pytest.raises(WiringError, match="pullup_ohms"):
        load_wiring(broken)


def test_the_adc_pins_wire_faults_name_are_the_wirings_and_the_firmwares():
    from pawnlight.board.chips import MUX_ADC_PINS, adc_pin

    board = WIRING.boards["colour"]
    assert tuple(chip.adc for chip in board.chips) == MUX_ADC_PINS
    config = load_firmware_config(board.config)
    assert tuple(mux["adc"] for mux in config["colour"]["muxes"]) == MUX_ADC_PINS
    assert adc_pin(0) == 26 and adc_pin(111) == 28 and adc_pin(112) is None


def test_harness_connectors_must_divide_a_chips_inputs():
    assert problems(dataclasses.replace(WIRING, harness_positions=5)) == [
        "[harness] 5-way connectors do not divide a 8-input chip's sensors (presence board)",
        "[harness] 5-way connectors do not divide a 16-input chip's sensors (colour board)",
    ]


@pytest.mark.parametrize(
    ("line", "key"),
    [
        ("data_pulldown_ohms = 10000\n", "data_pulldown_ohms"),
        ("series_ohms = 33\n", "series_ohms"),
        ("bypass_nf = 100\n", "bypass_nf"),
    ],
)
def test_the_protective_parts_cannot_be_dropped_from_the_wiring(tmp_path, line, key):
    text = (repository_hardware() / "wiring.toml").read_text()
    assert line in text
    for value, message in (("", key), (f"{key} = 0\n", "must be above 0")):
        broken = tmp_path / "wiring.toml"
        broken.write_text(text.replace(line, value))
        with pytest.raises(WiringError, match=message):
            load_wiring(broken)


def test_the_generators_outside_a_checkout_say_how_to_install_them(tmp_path, monkeypatch):
    """Installed from a wheel, the generators have no hardware/ folder beside them: one clear
    error naming the install from a checkout, not a missing file deep in a traceback."""
    import pawnlight_hardware.wiring as wiring_module

    monkeypatch.setattr(wiring_module, "__file__", str(tmp_path / "pkg" / "wiring.py"))
    with pytest.raises(wiring_module.WiringError, match="pip install -e hardware"):
        wiring_module.load_wiring()

"""The generated netlists (hub + strips, both board kinds) wire what hardware/wiring.toml says.

The written KiCad netlists are read back and followed as a builder's ribbon cables would be:
a place's sensor output on its strip -> the strip connector's pin -> the same pin of the hub's
connector for that strip -> the chip input.  Pin numbers of the chips are the datasheets'."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from pawnlight_hardware.pcb.circuit import KICAD_SHARE, STRIP_PINS, strip_ref
from pawnlight_hardware.pcb.netlist import Netlist
from pawnlight_hardware.pcb.strips import INSTANCES
from pawnlight_hardware.pins import PICO_PIN
from pawnlight_hardware.wiring import load_wiring

pytestmark = [
    pytest.mark.skipif(
        importlib.util.find_spec("skidl") is None, reason="SKiDL missing (the pcb extra)"
    ),
    pytest.mark.skipif(
        not (KICAD_SHARE / "symbols" / "Device.kicad_sym").is_file(),
        reason="KiCad 6 symbol libraries missing (apt-get install kicad-symbols)",
    ),
]

WIRING = load_wiring()
#: 74HC165 D0..D7 and CD74HC4067 I0..I15 pin numbers (TI datasheets).
HC165_D = (11, 12, 13, 14, 3, 4, 5, 6)
HC4067_I = (9, 8, 7, 6, 5, 4, 3, 2, 23, 22, 21, 20, 19, 18, 17, 16)
SIGNAL_PIN = {name: pin for pin, name in STRIP_PINS.items()}


@pytest.fixture(scope="session")
def built(pcb_written):
    """Every netlist written once (tests/hardware/conftest.py), read back; and the ERC counts
    per board."""
    return pcb_written.netlists, pcb_written.erc


@pytest.fixture
def netlists(built) -> dict[str, Netlist]:
    return built[0]


def test_every_board_has_a_netlist_and_a_clean_erc(built):
    netlists, erc = built
    expected = {"hub-presence", "hub-colour"}
    expected |= {
        f"strip-{d}-{k}"
        for d in ("track-a", "track-b", "track-c", "lane", "area")
        for k in ("presence", "colour")
    }
    assert set(netlists) == expected == set(erc)
    assert all(errors == 0 for errors, _ in erc.values()), erc


def _sensor_reaches(netlists: dict[str, Netlist], sensing: str) -> dict[str, set[tuple[str, str]]]:
    """place -> the hub pins its sensor output reaches through its strip and ribbon."""
    hub = netlists[f"hub-{sensing}"]
    reached = {}
    for index, strip in enumerate(INSTANCES):
        board = netlists[f"strip-{strip.design.name}-{sensing}"]
        for slot, place in enumerate(strip.places):
            out = board.net_of(f"U{slot + 1}", 2)  # the sensor's OUT (SOT-23 pin 2)
            strip_pins = {pin for ref, pin in board.pins_on(out) if ref == "J1"}
            assert len(strip_pins) == 1, f"{strip.name} U{slot + 1} reaches {strip_pins}"
            (pin,) = strip_pins
            hub_net = hub.net_of(strip_ref(index), pin)
            assert hub_net is not None, f"{place}: hub {strip_ref(index)} pin {pin} is open"
            reached[place] = hub.pins_on(hub_net) - {(strip_ref(index), pin)}
    return reached


@pytest.mark.parametrize("sensing", ["presence", "colour"])
def test_every_sensor_reaches_the_chip_input_wiring_toml_names(netlists, sensing):
    board = WIRING.boards[sensing]
    reached = _sensor_reaches(netlists, sensing)
    inputs = HC165_D if sensing == "presence" else HC4067_I
    expected_places = set()
    for chip in board.chips:
        for index, place in enumerate(chip.inputs):
            if place == "-":
                continue
            expected_places.add(place)
            chips = {(ref, pin) for ref, pin in reached[place] if ref.startswith("U")}
            assert chips == {(chip.ref, str(inputs[index]))}, (place, chips)
            # and a pull-up resistor (a network's pin) on the same line, nothing else
            others = {ref[:2] for ref, _ in reached[place] - chips}
            assert others == {"RN"}, (place, reached[place])
    assert expected_places == set(reached)


@pytest.mark.parametrize("sensing", ["presence", "colour"])
def test_the_pico_pins_are_wiring_tomls(netlists, sensing):
    hub = netlists[f"hub-{sensing}"]
    board = WIRING.boards[sensing]
    chips = [c.ref for c in board.chips]
    for pin in board.pico:
        net = hub.net_of("A1", PICO_PIN[pin.gp])
        on = hub.pins_on(net) - {("A1", str(PICO_PIN[pin.gp]))}
        if pin.signal == "presence.mosi":
            assert net is None or not on, "SPI1's MOSI stays unconnected"
        elif pin.signal == "presence.sck":
            assert {(c, "2") for c in chips} <= on
        elif pin.signal == "presence.load":
            assert {(c, "1") for c in chips} <= on
        elif pin.signal == "presence.miso":
            assert on == {("U1", "9")}
        elif pin.signal.startswith("colour.select."):
            number = int(pin.signal.rsplit(".", 1)[1])
            assert on == {(c, str((10, 11, 14, 13)[number])) for c in chips}
        elif pin.signal == "leds.pin":
            buffer_in = {(ref, p) for ref, p in on if ref == "U30"}
            assert buffer_in == {("U30", "2")}
            assert any(ref.startswith("R") for ref, _ in on), "the pull-down on the buffer input"
        elif pin.signal.startswith("card_reader."):
            (resistor,) = on  # a series resistor, then the reader's header
            other = hub.pins_on(hub.net_of(resistor[0], "2" if resistor[1] == "1" else "1"))
            assert any(ref == "J32" for ref, _ in other), pin.signal
        else:  # pragma: no cover - a signal this test does not know
            pytest.fail(f"unchecked signal {pin.signal}")
    if sensing == "colour":
        for chip in board.chips:
            assert chip.enable is not None and chip.adc is not None
            assert (chip.ref, "15") in hub.pins_on(hub.net_of("A1", PICO_PIN[chip.enable]))
            assert (chip.ref, "1") in hub.pins_on(hub.net_of("A1", PICO_PIN[chip.adc]))
    else:
        for k in range(len(chips) - 1):  # U(k+1) Q7 -> Uk DS
            assert (chips[k], "10") in hub.pins_on(hub.net_of(chips[k + 1], 9))
        assert hub.net_of(chips[-1], 10) == "GND"


@pytest.mark.parametrize("sensing", ["presence", "colour"])
def test_the_led_data_passes_the_leds_in_wiring_tomls_order(netlists, sensing):
    """From the buffer's 330 ohm resistor through every strip and back, LED by LED."""
    hub = netlists[f"hub-{sensing}"]
    connectors = {strip_ref(i): strip for i, strip in enumerate(INSTANCES)}
    visited: list[str] = []
    net = "LED_D0"
    came_from: tuple[str, str] | None = None
    for _ in range(len(INSTANCES) * 2 + 1):
        ends = [(r, p) for r, p in hub.pins_on(net) - {came_from} if r in connectors]
        if not ends:
            break
        ((ref, pin),) = ends
        strip = connectors[ref]
        board = netlists[f"strip-{strip.design.name}-{sensing}"]
        slide = STRIP_PINS[int(pin)] == "SDIN"
        assert STRIP_PINS[int(pin)] in ("DIN", "SDIN")
        data = board.net_of("J1", pin)
        names = strip.slides if slide else strip.places
        prefix = 11 if slide else 1
        for slot, name in enumerate(names):
            led = f"D{prefix + slot}"
            assert (led, "4") in board.pins_on(data), f"{strip.name}: {name} is not next"
            visited.append(name)
            data = board.net_of(led, 2)  # DOUT
        out_pin = SIGNAL_PIN["SDOUT" if slide else "DOUT"]
        assert (("J1", str(out_pin))) in board.pins_on(data)
        came_from = (ref, str(out_pin))
        net = hub.net_of(ref, out_pin)
        if net is None:
            break
    assert visited == list(WIRING.led_chain)


def test_the_erc_counts_errors():
    """A circuit with two outputs driving one net: the ERC collector reports an error."""
    from pawnlight_hardware.pcb.circuit import _check, _circuit, _Parts

    with _circuit("two-drivers") as (skidl, circuit):
        p = _Parts(skidl)
        net = p.net("FIGHT")
        for ref in ("U1", "U2"):
            chip = p.part("74xx", "74HC165", ref, "x:y")
            chip["Q7"] += net
        result = _check(skidl, circuit, "two-drivers")
    assert result.errors, result.warnings


def test_a_chain_a_strip_cannot_carry_is_refused():
    import dataclasses

    from pawnlight_hardware.pcb.circuit import CircuitError, chain_segments

    chain = list(WIRING.led_chain)
    chain[0], chain[1] = chain[1], chain[0]
    with pytest.raises(CircuitError, match="passes its data to T0"):
        chain_segments(dataclasses.replace(WIRING, led_chain=tuple(chain)))


def test_files_are_not_left_in_the_working_folder(netlists, tmp_path, monkeypatch):
    """SKiDL writes log files beside the running script unless told not to."""
    from pawnlight_hardware.pcb.circuit import _skidl

    monkeypatch.chdir(tmp_path)
    _skidl()
    assert list(Path(tmp_path).iterdir()) == []


def test_the_colour_hubs_analog_chain_is_on_the_sensors_rail(netlists):
    """One reference (issue #45): the Pico's ADC_VREF, every multiplexer's VCC, every pull-up
    network's common pin and every strip connector's sensor supply pin are one net, the
    buck's +3V3_SENS; so a reading is the sensor's output as a fraction of its own supply. The
    presence hub leaves ADC_VREF alone (its chips read logic levels)."""
    from pawnlight_hardware.pcb.circuit import PICO_ADC_VREF

    def net_of(hub: Netlist, ref: str, pin: str) -> str | None:
        found = [name for name, nodes in hub.nets.items() if (ref, pin) in nodes]
        return found[0] if found else None

    hub = netlists["hub-colour"]
    assert net_of(hub, "J31", "3") == "+3V3_SENS"  # the buck module's output
    assert net_of(hub, "A1", str(PICO_ADC_VREF)) == "+3V3_SENS"
    muxes = [r for r, c in hub.components.items() if c.value == "CD74HC4067M"]
    assert len(muxes) == 7
    assert {net_of(hub, ref, "24") for ref in muxes} == {"+3V3_SENS"}  # VCC, pin 24
    networks = [r for r in hub.components if r.startswith("RN")]
    assert len(networks) == 14
    assert {net_of(hub, ref, "1") for ref in networks} == {"+3V3_SENS"}  # the common pin
    supply_pin = str(SIGNAL_PIN["+3V3"])
    assert {net_of(hub, strip_ref(k), supply_pin) for k in range(24)} == {"+3V3_SENS"}
    # The Pico's own 3.3 V is a separate rail that feeds no part of the analog chain.
    analog = set(muxes) | set(networks) | {strip_ref(k) for k in range(24)}
    assert not {ref for ref, _ in hub.nets["+3V3"]} & analog
    assert net_of(netlists["hub-presence"], "A1", str(PICO_ADC_VREF)) is None

"""The hub's cable to the Raspberry Pi fits the Pi: J33 is a contiguous 2 x 5 block of the Pi's
40-pin header, so a straight 10-way IDC cable joins J33's pin k to the Pi's pin 28 + k, and
every one of those ten pins is checked net by net against the Pi's own pinout (the table below,
from the Raspberry Pi's GPIO documentation, written out here apart from the project's code)."""

from __future__ import annotations

import pytest

from pawnlight_hardware.pcb.circuit import PI_BLOCK_FIRST, pi_block_nets
from pawnlight_hardware.pins import PI_GROUND, PI_HEADER
from pawnlight_hardware.wiring import load_wiring

#: The Raspberry Pi's 40-pin header (every model since the B+), physical pin -> function.
PI_40 = {
    1: "3V3", 2: "5V", 3: "GPIO2", 4: "5V", 5: "GPIO3", 6: "GND", 7: "GPIO4", 8: "GPIO14",
    9: "GND", 10: "GPIO15", 11: "GPIO17", 12: "GPIO18", 13: "GPIO27", 14: "GND",
    15: "GPIO22", 16: "GPIO23", 17: "3V3", 18: "GPIO24", 19: "GPIO10", 20: "GND",
    21: "GPIO9", 22: "GPIO25", 23: "GPIO11", 24: "GPIO8", 25: "GND", 26: "GPIO7",
    27: "GPIO0", 28: "GPIO1", 29: "GPIO5", 30: "GND", 31: "GPIO6", 32: "GPIO12",
    33: "GPIO13", 34: "GND", 35: "GPIO19", 36: "GPIO16", 37: "GPIO26", 38: "GPIO20",
    39: "GND", 40: "GPIO21",
}  # fmt: skip

WIRING = load_wiring()
#: What each of the board's Pi lines is, by BCM number (wiring.toml [pi]).
LINES = {pin.bcm: pin for pin in WIRING.pi}


def expected(pi_pin: int) -> str | None:
    """The net a pin of J33 must carry, from the Pi's table alone."""
    function = PI_40[pi_pin]
    if function == "GND":
        return "GND"
    if function in ("5V", "3V3"):
        return function  # never in the block: the test below refuses it
    bcm = int(function.removeprefix("GPIO"))
    line = LINES.get(bcm)
    return None if line is None else f"PI_GPIO{bcm}_{line.name.upper()}"


def test_the_projects_own_pin_table_agrees_with_the_pis():
    for bcm, pin in PI_HEADER.items():
        assert PI_40[pin] == f"GPIO{bcm}", pin
    assert {p for p, f in PI_40.items() if f == "GND"} == set(PI_GROUND)


def test_every_pi_line_the_board_uses_is_in_the_block_with_its_bcm_number():
    block = range(PI_BLOCK_FIRST, PI_BLOCK_FIRST + 10)
    assert PI_BLOCK_FIRST % 2 == 1, "a 2 x 5 block starts on an odd pin, pin 1 of the cable"
    for pin in WIRING.pi:
        assert pin.header in block, pin.name
        assert PI_40[pin.header] == f"GPIO{pin.bcm}", pin.name


def test_j33_is_the_pis_block_pin_for_pin():
    nets = pi_block_nets(WIRING)
    assert sorted(nets) == list(range(1, 11))
    for k, net in nets.items():
        pi_pin = PI_BLOCK_FIRST + k - 1
        want = expected(pi_pin)
        assert want not in ("5V", "3V3"), f"J33 pin {k} meets the Pi's {want} rail"
        assert net == want, f"J33 pin {k} (Pi pin {pi_pin}, {PI_40[pi_pin]})"
    # Every line the board uses reaches the Pi, and two grounds return beside them.
    assert {n for n in nets.values() if n and n != "GND"} == {
        f"PI_GPIO{p.bcm}_{p.name.upper()}" for p in WIRING.pi
    }
    assert list(nets.values()).count("GND") >= 2


@pytest.mark.parametrize("sensing", ["presence", "colour"])
def test_the_written_hub_netlist_wires_j33_as_the_pis_header(pcb_written, sensing):
    hub = pcb_written.netlists[f"hub-{sensing}"]
    for k in range(1, 11):
        pi_pin = PI_BLOCK_FIRST + k - 1
        net = hub.net_of("J33", k)
        want = expected(pi_pin)
        if want is None:
            assert net is None or hub.pins_on(net) == {("J33", str(k))}, f"J33 pin {k}"
        else:
            assert net == want, f"J33 pin {k} (Pi pin {pi_pin}, {PI_40[pi_pin]}): {net}"
    # The buttons' header and the buzzer and status LED hang on the same lines.
    confirm = hub.net_of("J33", 1)
    assert ("J34", "1") in hub.pins_on(confirm)


def test_a_pi_line_outside_the_block_is_refused():
    from dataclasses import replace

    from pawnlight_hardware.pcb.circuit import CircuitError

    moved = replace(WIRING.pi[0], header=11, bcm=17)
    wiring = replace(WIRING, pi=(moved, *WIRING.pi[1:]))
    with pytest.raises(CircuitError, match="outside the block 29-38"):
        pi_block_nets(wiring)


@pytest.mark.parametrize("sensing", ["presence", "colour"])
def test_j33_is_a_shrouded_keyed_header(pcb_written, sensing):
    """The hub's end of the Pi's cable goes in one way round only: a shrouded IDC header whose
    key slot takes the socket's bump (a bare pin header took it either way round)."""
    from pawnlight_hardware.pcb.circuit import KICAD_SHARE
    from pawnlight_hardware.pcb.layout import load_footprint

    footprint = pcb_written.netlists[f"hub-{sensing}"].components["J33"].footprint
    assert footprint == "Connector_IDC:IDC-Header_2x05_P2.54mm_Vertical"
    library, name = footprint.split(":")
    assert (KICAD_SHARE / "footprints" / f"{library}.pretty" / f"{name}.kicad_mod").is_file()
    shroud = load_footprint(footprint)
    assert sorted(int(pad.number) for pad in shroud.pads) == list(range(1, 11))
    # The shroud's outline (its silkscreen, round the pins with the key's notch) is wider
    # than the two rows of pins.
    xs = [p.X for item in shroud.graphicItems if item.layer == "F.SilkS"
          for p in (getattr(item, "start", None), getattr(item, "end", None)) if p]  # fmt: skip
    assert max(xs) - min(xs) > 2.54 + 4


def test_turned_round_at_the_pi_the_hubs_ground_meets_two_gpios():
    """What docs/pcb.md says of the Pi's end, which no key holds: turned round, J33's pin k is
    on the Pi's pin 67 - k, and the hub's GND reaches GPIO 13 and GPIO 26 (the status LED's
    output)."""
    nets = pi_block_nets(WIRING)
    turned = {67 - (PI_BLOCK_FIRST + k - 1): net for k, net in nets.items()}
    grounded = sorted(PI_40[pin] for pin, net in turned.items() if net == "GND")
    assert grounded == ["GPIO13", "GPIO26"]
    assert LINES[26].name == "status_led"

"""The sensor test finds every injected dead, stuck and swapped sensor, and nothing else."""

from __future__ import annotations

import pytest

from pawnlight.board.cells import CELLS, parse_cell_name
from pawnlight.board.health import sensor_test
from pawnlight.board.health.sensing import Sensing
from pawnlight.board.health.sensor_test import (
    Crosstalk,
    Dead,
    Placement,
    Stuck,
    Swapped,
    Unseen,
    WireFault,
    analyse,
    summary,
)
from pawnlight.board.layout import Layout
from pawnlight.devices.sim.board import SensorFaults
from pawnlight.diagnostics.procedures import run_sensor_test

from .harness import (
    FakeRig,
    expected_sensor_findings,
    firmware_rig,
    random_sensor_faults,
)

PRESENCE = Layout.named("presence")
COLOUR = Layout.named("colour")
LAYOUTS = {"presence": PRESENCE, "colour": COLOUR}


def c(name: str) -> int:
    return parse_cell_name(name)


@pytest.mark.parametrize("kind", LAYOUTS)
def test_a_healthy_board_reports_nothing(kind):
    rig = FakeRig(LAYOUTS[kind])
    report = run_sensor_test(rig.view, rig.hand, rig.layout)
    assert report.tested == tuple(range(CELLS))
    assert report.findings == ()
    assert report.ok


@pytest.mark.parametrize("kind", LAYOUTS)
@pytest.mark.parametrize("seed", range(4))
def test_every_injected_fault_is_found_and_nothing_else(kind, seed):
    layout = LAYOUTS[kind]
    faults = random_sensor_faults(seed)
    rig = FakeRig(layout, faults, seed=seed)
    report = run_sensor_test(rig.view, rig.hand, layout)
    assert set(report.findings) == expected_sensor_findings(layout, faults)
    assert len(report.findings) == len(set(report.findings))


def test_through_the_real_firmware_over_the_pty():
    faults = SensorFaults(
        dead=frozenset({c("T5"), c("green-home-4")}),
        stuck=frozenset({c("red-S2")}),
        swapped=((c("T20"), c("T21")), (c("blue-start-1"), c("yellow-S3"))),
    )
    with firmware_rig(PRESENCE, faults) as (view, _link, hand, _eye):
        report = run_sensor_test(view, hand, PRESENCE)
    assert set(report.findings) == expected_sensor_findings(PRESENCE, faults)


def test_a_colour_board_through_the_real_firmware():
    # Colour boards scan and debounce slower: test the faulty places and some good ones.
    faults = SensorFaults(
        dead=frozenset({c("T7")}),
        stuck=frozenset({c("red-home-1")}),
        swapped=((c("T30"), c("blue-S4")),),
    )
    cells = [c(n) for n in ("T6", "T7", "T8", "red-home-1", "red-home-2", "T30", "blue-S4")]
    with firmware_rig(COLOUR, faults, seed=5) as (view, _link, hand, _eye):
        report = run_sensor_test(view, hand, COLOUR, cells)
    assert set(report.findings) == expected_sensor_findings(COLOUR, faults)


def test_only_the_places_tested_can_be_dead():
    faults = SensorFaults(dead=frozenset({c("T5"), c("T50")}))
    rig = FakeRig(PRESENCE, faults)
    report = run_sensor_test(rig.view, rig.hand, PRESENCE, range(10))
    assert report.findings == (Dead(c("T5")),)


# -- the analysis alone ---------------------------------------------------------------------------


def board(*on: int, size: int = CELLS) -> tuple[int, ...]:
    return tuple(1 if ch in on else 0 for ch in range(size))


def test_crosstalk_is_a_pawn_read_on_its_own_channel_and_a_neighbours():
    sensing = Sensing(PRESENCE)
    empty = board()
    steps = [Placement(cell, empty, board(cell), empty) for cell in range(CELLS)]
    steps[10] = Placement(10, empty, board(10, 11), empty)
    report = analyse(sensing, empty, steps)
    assert report.findings == (Crosstalk(10, 11),)
    assert "also read on T11" in sensor_test.describe(sensing, report.findings[0])


def test_a_latching_sensor_that_stays_on_is_stuck():
    sensing = Sensing(PRESENCE)
    empty = board()
    steps = []
    for cell in range(CELLS):
        latched = board(3) if cell > 3 else empty  # on since the pawn stood on T3
        placed = board(3, cell) if cell > 3 else board(cell)
        lifted = board(3) if cell >= 3 else empty
        steps.append(Placement(cell, latched, placed, lifted))
    report = analyse(sensing, empty, steps)
    assert report.findings == (Stuck(3, 1),)


def test_a_one_way_miswire_is_one_swapped_finding_and_one_dead():
    # T8's sensor is wired to T9's channel, and T9's own sensor is dead.
    sensing = Sensing(PRESENCE)
    empty = board()
    steps = [Placement(cell, empty, board(cell), empty) for cell in range(CELLS)]
    steps[8] = Placement(8, empty, board(9), empty)
    steps[9] = Placement(9, empty, empty, empty)
    report = analyse(sensing, empty, steps)
    assert report.findings == (Dead(8), Unseen(9, (8,)), Swapped(8, 9))
    unseen = sensor_test.describe(sensing, report.findings[1])
    assert unseen.startswith("unseen: a pawn on T9 (the triangle of red's long slide) was read")
    assert "Its own channel (channel 9, U2 D1, pin 12) read T8's pawn instead" in unseen


def test_compound_faults_name_every_place_they_touch_through_the_command(capsys):
    """T1's pawn shows on T2's channel, T2's pawn is never seen: both places are named."""
    from pawnlight.cli import main

    argv = ["sensor-test", "--sim", "--cells", "T0..T3", "--fault", "swap:T1/T2"]
    assert main([*argv, "--fault", "dead:T2"]) == 1
    out = capsys.readouterr().out
    words = " ".join(out.split())
    assert "dead: T1 (the triangle of red's short slide; channel 1, U1 D1, pin 12)" in words
    assert "unseen: a pawn on T2 (the 1st square of red's short slide) was read by no" in words
    assert "swapped: a pawn on T1 (the triangle of red's short slide) is read on T2" in words
    assert max(len(line) for line in out.splitlines()) <= 80


def test_a_stuck_colour_sensor_gets_colour_board_advice():
    sensing = Sensing(COLOUR)
    text = sensor_test.describe(sensing, Stuck(3, 8250))
    assert "latching" not in text and "reads a pawn (8250)" not in text
    assert "reads 8250 (a red pawn's reading)" in text
    assert "U1 I3, pin 6" in text
    presence = sensor_test.describe(Sensing(PRESENCE), Stuck(3, 1))
    assert "latching sensor" in presence and "(1)" not in presence


def test_the_summary_says_a_crossed_pair_once_with_its_chip_pins():
    sensing = Sensing(PRESENCE)
    report = sensor_test.SensorReport((), (Swapped(20, 21), Swapped(21, 20), Dead(5)))
    lines = summary(sensing, report)
    assert len(lines) == 2
    assert lines[0].startswith("swapped pair: T20 and T21")
    assert "U3 D4, pin 3" in lines[0] and "U3 D5, pin 4" in lines[0]


def test_colour_noise_is_not_a_pawn():
    sensing = Sensing(COLOUR)
    empty = tuple(32768 for _ in range(CELLS))
    wobbly = tuple(32768 + (900 if ch % 2 else -900) for ch in range(CELLS))
    steps = []
    for cell in range(CELLS):
        placed = list(wobbly)
        placed[COLOUR.channel_of[cell]] = 21000  # a blue pawn
        steps.append(Placement(cell, empty, tuple(placed), wobbly))
    assert analyse(sensing, empty, steps).findings == ()


def test_a_broken_wire_is_named_with_its_place_and_pin_never_as_a_pawn():
    """Issue #32, 5: the pull-up takes a broken wire above anything a sensor drives; the test
    says so for a START spot and a track square, and calls neither dead, stuck nor a pawn."""
    faults = SensorFaults(broken=frozenset({c("red-start-1"), c("T5")}))
    rig = FakeRig(COLOUR, faults)
    report = run_sensor_test(rig.view, rig.hand, COLOUR)
    assert report.findings == (
        WireFault(c("T5"), 5, 65535, "broken"),
        WireFault(c("red-start-1"), 20, 65535, "broken"),
    )
    lines = summary(Sensing(COLOUR), report)
    assert lines[1].startswith(
        "broken sensor wire: red-start-1 (red START, spot 1; channel 20, U2 I4, pin 5, on ADC "
        "GP26) reads 65535, above anything a sensor can drive."
    )
    assert "output wire to U2 I4 (pin 5)" in lines[1]


def test_a_wire_shorted_to_ground_is_a_wire_fault_too():
    sensing = Sensing(COLOUR)
    empty = tuple(32768 for _ in range(CELLS))
    shorted = list(empty)
    shorted[COLOUR.channel_of[c("green-home-4")]] = 0
    report = analyse(sensing, tuple(shorted), [])
    assert report.findings == (WireFault(c("green-home-4"), 111, 0, "shorted"),)
    text = summary(sensing, report)[0]
    assert text.startswith("shorted sensor wire: green-home-4 (green HOME, spot 4; channel 111")
    assert "U7 I15, pin 16, on ADC GP28" in text and "short to GND" in text


def test_the_sensor_test_command_names_a_broken_wire(capsys):
    from pawnlight.cli import main

    argv = ["sensor-test", "--sim", "colour", "--cells", "red-start-1,T0"]
    assert main([*argv, "--fault", "broken:red-start-1"]) == 1
    words = " ".join(capsys.readouterr().out.split())
    assert "broken sensor wire: red-start-1 (red START, spot 1; channel 20, U2 I4, pin 5" in words
    assert "dead:" not in words and "stuck:" not in words

"""The magnet set in hardware/bom.md reads inside the colour layout's default bands."""

from __future__ import annotations

import pytest

from pawnlight.board import magnets
from pawnlight.board.cells import EMPTY
from pawnlight.board.layout import Layout
from pawnlight.rules.board import COLOURS

BANDS = Layout.named("colour").bands[0]


@pytest.mark.parametrize("colour", range(4), ids=COLOURS)
def test_each_colour_reads_in_its_band_give_or_take_half_a_millimetre(colour):
    for value in magnets.expected_readings()[COLOURS[colour]]:
        assert BANDS.classify(value) == colour, value


def test_no_magnet_reads_empty():
    assert BANDS.classify(magnets.DRV5055A2.reading(0.0)) == EMPTY


def test_the_field_falls_with_distance_and_grows_with_the_magnet():
    weak, strong = magnets.WEAK, magnets.STRONG
    assert weak.field_mT(4) > weak.field_mT(5) > weak.field_mT(6) > 0
    assert strong.field_mT(5) > 2 * weak.field_mT(5)


def test_a_known_field():
    # 10 x 5 mm N42 at 5 mm: 1.29 / 2 * (10 / sqrt(125) - 5 / sqrt(50)) = 120.8 mT.
    assert magnets.Magnet(10, 5, "N42").field_mT(5) == pytest.approx(120.8, abs=0.1)


def test_the_sensor_saturates_near_its_rails():
    sensor = magnets.DRV5055A2
    assert sensor.volts(500) == pytest.approx(3.1)
    assert sensor.volts(-500) == pytest.approx(0.2)


def test_presence_pawns_switch_the_hall_switch_from_farther_than_the_deck():
    far = magnets.NOMINAL_DISTANCE_MM + 2
    assert magnets.PRESENCE_MAGNET.field_mT(far) > 2 * magnets.PRESENCE_SWITCH_MT


@pytest.mark.parametrize("colour", range(4), ids=COLOURS)
def test_each_colour_reads_in_its_band_anywhere_within_the_placement_tolerance(colour):
    tolerance = magnets.PLACEMENT_TOLERANCE_MM
    for offset in (0.0, tolerance / 2, tolerance):
        for value in magnets.expected_readings(offset_mm=offset)[COLOURS[colour]]:
            assert BANDS.classify(value) == colour, (offset, value)


def test_without_a_centring_cup_an_off_centre_pawn_reads_as_another_colour():
    # The field figures of the issue that made placement a design input: a red pawn 3.5 mm
    # off-centre reads in blue's band, and the switch loses a pawn 8 mm off-centre.
    red = magnets.expected_readings(distances=(5.0,), offset_mm=3.5)["red"][0]
    assert BANDS.classify(red) != 0
    assert magnets.STRONG.field_z_mT(5.0, 3.0) == pytest.approx(33, abs=1)
    assert magnets.STRONG.field_z_mT(5.0, 5.0) == pytest.approx(15, abs=1)
    assert magnets.STRONG.field_z_mT(5.0, 8.0) < magnets.PRESENCE_SWITCH_MT


def test_the_off_axis_model_agrees_with_the_on_axis_formula():
    for magnet in (magnets.STRONG, magnets.WEAK):
        for distance in (3.0, 5.0, 8.0):
            assert magnet.field_z_mT(distance) == pytest.approx(magnet.field_mT(distance), rel=1e-3)


def test_presence_switches_see_a_pawn_anywhere_in_its_cup_with_margin():
    at_edge = magnets.PRESENCE_MAGNET.field_z_mT(
        magnets.NOMINAL_DISTANCE_MM + magnets.DISTANCE_TOLERANCE_MM,
        magnets.PLACEMENT_TOLERANCE_MM,
    )
    assert at_edge > 4 * magnets.PRESENCE_SWITCH_MT
    assert magnets.PRESENCE_MAGNET.reach_mm(magnets.PRESENCE_SWITCH_MT) > 2 * (
        magnets.PLACEMENT_TOLERANCE_MM
    )

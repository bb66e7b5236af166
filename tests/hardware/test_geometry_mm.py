"""The physical board in millimetres (pawnlight.board.geometry): one source for the sensors,
the LED holes and the printed parts."""

from __future__ import annotations

import math

from pawnlight.board import geometry
from pawnlight.board.cells import CELLS, LEDS, START_BASE
from pawnlight_hardware.draw_board_maps import led_position
from pawnlight_hardware.wiring import load_wiring

BOARD_MM = geometry.GRID * geometry.SQUARE_MM
PAWN_BASE_MM = 13.5
LED_HOLE_MM = 5.0


def test_every_sensor_sits_at_its_places_centre_in_millimetres() -> None:
    assert len(geometry.SENSORS_MM) == CELLS
    assert geometry.SENSORS_MM[0] == (16.5, 16.5)  # T0's centre, half a 33 mm square in
    for (x, y), (sx, sy) in zip(geometry.CELL_CENTRES, geometry.SENSORS_MM, strict=True):
        assert (sx, sy) == (x * geometry.SQUARE_MM, y * geometry.SQUARE_MM)


def test_every_led_hole_is_on_the_board_clear_of_pawns_and_of_the_other_holes() -> None:
    holes = [geometry.led_hole_mm(name) for name in load_wiring().led_chain]
    assert len(holes) == LEDS
    for x, y in holes:
        assert LED_HOLE_MM / 2 < x < BOARD_MM - LED_HOLE_MM / 2
        assert LED_HOLE_MM / 2 < y < BOARD_MM - LED_HOLE_MM / 2
    for i, a in enumerate(holes):
        for b in holes[i + 1 :]:
            assert math.dist(a, b) > LED_HOLE_MM + 3
    # A pawn standing on any sensor (its base and 0.5 mm of play) leaves every hole uncovered.
    for sensor in geometry.SENSORS_MM:
        for hole in holes:
            assert math.dist(sensor, hole) > PAWN_BASE_MM / 2 + 0.5 + LED_HOLE_MM / 2


def test_a_place_led_lies_within_its_own_square() -> None:
    for cell in range(START_BASE):
        (cx, cy), (lx, ly) = geometry.SENSORS_MM[cell], geometry.PLACE_LEDS_MM[cell]
        half = geometry.SQUARE_MM / 2 - LED_HOLE_MM / 2
        assert abs(lx - cx) < half and abs(ly - cy) < half


def test_the_led_map_draws_the_led_holes() -> None:
    for name in load_wiring().led_chain:
        x, y = led_position(name)
        assert geometry.led_hole_mm(name) == (x * geometry.SQUARE_MM, y * geometry.SQUARE_MM)

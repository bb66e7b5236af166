"""The stuck-sensor detector: a pawn reading that never changes while the board is busy."""

from __future__ import annotations

from pawnlight.board.cells import CELLS, parse_cell_name
from pawnlight.board.health.sensing import Sensing
from pawnlight.board.health.stuck import StuckSensorDetector
from pawnlight.board.layout import Layout

PRESENCE = Layout.named("presence")
T5, T9 = parse_cell_name("T5"), parse_cell_name("T9")


def reading(*pawns: int) -> list[int]:
    return [1 if ch in pawns else 0 for ch in range(CELLS)]


def busy(detector: StuckSensorDetector, start: float, moves: int, *steady: int) -> float:
    """Pawns hop along T20..T40 once a second; ``steady`` channels read a pawn throughout."""
    at = start
    for move in range(moves):
        detector.observe(reading(*steady, 20 + move % 20), at)
        at += 1.0
    return at


def test_a_pawn_reading_through_busy_play_is_a_suspect():
    detector = StuckSensorDetector(PRESENCE, quiet_for=60, activity=10)
    detector.observe(reading(T5), 0.0)
    at = busy(detector, 1.0, 70, T5)
    (suspect,) = detector.suspects(at)
    assert (suspect.cell, suspect.channel, suspect.value) == (T5, T5, 1)
    assert suspect.since == 0.0
    assert suspect.changes_elsewhere >= 10
    place = "T5 (the 1st square after red's start circle; channel 5, U1 D5, pin 4)"
    assert f"{place} has read a pawn for 1 min" in suspect.describe(Sensing(PRESENCE), at)


def test_not_before_the_time_nor_without_activity():
    detector = StuckSensorDetector(PRESENCE, quiet_for=60, activity=10)
    detector.observe(reading(T5), 0.0)
    at = busy(detector, 1.0, 30, T5)
    assert detector.suspects(at) == ()  # 31 s: not long enough
    quiet = StuckSensorDetector(PRESENCE, quiet_for=60, activity=10)
    quiet.observe(reading(T5), 0.0)
    quiet.observe(reading(T5, 30), 1.0)
    assert quiet.suspects(1000.0) == ()  # long, but nothing else happened


def test_a_change_resets_the_clock():
    detector = StuckSensorDetector(PRESENCE, quiet_for=60, activity=10)
    detector.observe(reading(T5), 0.0)
    at = busy(detector, 1.0, 50, T5)
    detector.observe(reading(), at)  # lifted ...
    detector.observe(reading(T5), at + 1)  # ... and put back
    assert detector.suspects(busy(detector, at + 2, 30, T5)) == ()


def test_expected_pawns_and_area_spots_are_never_suspects():
    home = parse_cell_name("red-home-1")
    detector = StuckSensorDetector(PRESENCE, quiet_for=60, activity=10)
    detector.observe(reading(T5, T9, home), 0.0)
    at = busy(detector, 1.0, 100, T5, T9, home)
    assert [s.cell for s in detector.suspects(at)] == [T5, T9]
    assert [s.cell for s in detector.suspects(at, expected_pawns={T9})] == [T5]
    everything = StuckSensorDetector(PRESENCE, quiet_for=60, activity=10, ignore=())
    everything.observe(reading(home), 0.0)
    assert [s.cell for s in everything.suspects(busy(everything, 1.0, 100, home))] == [home]


def test_colour_noise_neither_hides_nor_fakes_a_stuck_sensor():
    colour = Layout.named("colour")
    channel = colour.channel_of[T5]
    detector = StuckSensorDetector(colour, quiet_for=60, activity=10)
    at = 0.0
    for step in range(100):
        values = [32768 + (700 if step % 2 else -700)] * CELLS
        values[channel] = 6000 + (500 if step % 2 else 0)  # "red", wobbling a little
        values[colour.channel_of[20 + step % 20]] = 21000  # blue pawns hopping
        detector.observe(values, at)
        at += 1.0
    assert [s.cell for s in detector.suspects(at)] == [T5]


def test_a_games_pawns_are_its_expected_pawns_and_suspects_serialise():
    from pawnlight.board.health.stuck import pawn_cells
    from pawnlight.rules.position import Position

    position = Position.from_json({"red": ["T5", "S2", "start", "home"]})
    cells = pawn_cells(position)
    assert {T5, parse_cell_name("red-S2")} <= cells
    detector = StuckSensorDetector(PRESENCE, quiet_for=60, activity=10)
    detector.observe(reading(T5, T9), 0.0)
    at = busy(detector, 1.0, 70, T5, T9)
    (suspect,) = detector.suspects(at, cells)
    report = suspect.as_json(detector.sensing, at)
    assert report["cell"] == "T9" and report["minutes"] == 1.2 and report["value"] == 1
    place = "T9 (the triangle of red's long slide; channel 9, U2 D1, pin 12)"
    assert report["text"].startswith(f"{place} has read a pawn")

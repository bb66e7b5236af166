"""Calibration turns readings into separable per-cell bands, and says when colours are too close."""

from __future__ import annotations

import random

import pytest

from pawnlight.board.cells import CELL_NAMES, CELLS, EMPTY, parse_cell_name
from pawnlight.board.health.calibration import (
    Missing,
    OffScale,
    Sample,
    TooClose,
    calibrate,
    full_plan,
    quick_plan,
)
from pawnlight.board.layout import Layout
from pawnlight.diagnostics.procedures import run_calibration
from pawnlight.store import calibration_file

from .harness import FakeRig, firmware_rig

LAYOUT = Layout.named("colour")
TYPICAL = LAYOUT.bands[0]
TOLERANCE = 1500


def readings(seed: int, strength: dict[int, float] | None = None, per_colour: int = 24):
    """Samples like a built board's: every sensor with its own offset, pawns at the layout's
    typical readings give or take 12 %, noise of +-300; ``strength`` scales a colour."""
    rng = random.Random(seed)
    offsets = [rng.randint(-1500, 1500) for _ in range(CELLS)]
    middle = TYPICAL.empty.middle
    samples = [Sample(cell, EMPTY, middle + offsets[cell]) for cell in range(CELLS)]
    for colour in range(4):
        for cell in rng.sample(range(CELLS), per_colour):
            factor = (strength or {}).get(colour, 1.0) * rng.uniform(0.88, 1.12)
            delta = (TYPICAL.typical(colour) - middle) * factor
            value = round(middle + offsets[cell] + delta + rng.randint(-300, 300))
            samples.append(Sample(cell, colour, max(0, min(65535, value))))
            samples.append(Sample(cell, EMPTY, middle + offsets[cell] + rng.randint(-300, 300)))
    return samples, offsets


@pytest.mark.parametrize("seed", range(5))
def test_typical_readings_give_separable_bands_that_classify_every_sample(seed):
    samples, _ = readings(seed)
    result = calibrate(samples, 16, TOLERANCE)
    assert result.ok, [p.describe() for p in result.problems]
    calibrated = result.apply(LAYOUT)
    for sample in samples:
        assert calibrated.classify(sample.cell, sample.value) == sample.what


@pytest.mark.parametrize("seed", range(3))
def test_new_readings_of_the_same_board_classify_right(seed):
    samples, offsets = readings(seed)
    calibrated = calibrate(samples, 16, TOLERANCE).apply(LAYOUT)
    rng = random.Random(1000 + seed)
    middle = TYPICAL.empty.middle
    for _ in range(500):
        cell, colour = rng.randrange(CELLS), rng.randrange(4)
        delta = (TYPICAL.typical(colour) - middle) * rng.uniform(0.9, 1.1)
        value = round(middle + offsets[cell] + delta + rng.randint(-300, 300))
        assert calibrated.classify(cell, value) == colour


def test_each_cell_gets_bands_around_its_own_empty_reading():
    samples, offsets = readings(1)
    result = calibrate(samples, 16, TOLERANCE)
    low = min(range(CELLS), key=lambda cell: offsets[cell])
    high = max(range(CELLS), key=lambda cell: offsets[cell])
    assert result.bands_for(high).empty.low - result.bands_for(low).empty.low == (
        result.baseline[high] - result.baseline[low]
    )
    # The outer bands are open to the ends of the scale: saturated sensors still count.
    assert result.bands_for(low).colours[0].low == 0
    assert result.bands_for(low).colours[3].high == 65535


def test_overlapping_colours_are_flagged_with_the_cells_where_they_met():
    # Blue magnets too strong: blue readings reach into red's.
    samples, _ = readings(2, strength={1: 2.1})
    result = calibrate(samples, 16, TOLERANCE)
    assert not result.ok
    (problem,) = result.problems
    assert isinstance(problem, TooClose)
    assert {problem.lower, problem.upper} == {0, 1}
    assert problem.gap < 0
    assert "overlap" in problem.describe()
    blue = {s.cell for s in samples if s.what == 1}
    red = {s.cell for s in samples if s.what == 0}
    assert problem.cells and set(problem.cells) <= blue | red
    assert CELL_NAMES[problem.cells[0]] in problem.describe()
    assert result.deltas is None
    with pytest.raises(ValueError):
        result.apply(LAYOUT)


def test_colours_too_close_for_the_tolerance_are_flagged_but_still_get_bands():
    # Weak magnets too weak: yellow readings creep towards empty.
    samples, _ = readings(3, strength={2: 0.35})
    result = calibrate(samples, 16, TOLERANCE)
    (problem,) = result.problems
    assert isinstance(problem, TooClose)
    assert (problem.lower, problem.upper) == (EMPTY, 2)
    assert 0 < problem.gap < problem.needed
    assert "only" in problem.describe()
    assert result.deltas is not None  # saved only with --force


def test_a_colour_never_measured_is_missing():
    samples, _ = readings(4)
    result = calibrate([s for s in samples if s.what != 3], 16, TOLERANCE)
    assert Missing(3) in result.problems
    assert "no green pawn" in Missing(3).describe()


def test_a_sensor_stuck_near_the_rail_is_off_scale():
    samples, _ = readings(5)
    stuck = parse_cell_name("T9")
    samples = [Sample(s.cell, s.what, 60 if s.cell == stuck else s.value) for s in samples]
    samples = [s for s in samples if s.cell != stuck or s.what == EMPTY]
    result = calibrate(samples, 16, TOLERANCE)
    assert result.problems == (OffScale((stuck,)),)


def test_the_plans():
    quick = quick_plan(2)
    assert len(quick) == 8
    cells = [cell for step in quick for cell in step.cells]
    assert len(cells) == len(set(cells)) == 32  # every pawn on a different place
    assert [step.colour for step in quick] == [0, 1, 2, 3] * 2
    # Each colour once centred and once pushed to the side of its places.
    assert [step.off_centre for step in quick] == [False] * 4 + [True] * 4
    full = full_plan()
    assert len(full) == 112
    for colour in range(4):
        covered = sorted(cell for step in full if step.colour == colour for cell in step.cells)
        assert covered == list(range(CELLS))
        aside = [step.off_centre for step in full if step.colour == colour]
        assert aside.count(True) == aside.count(False) == 14


def test_the_worst_separation_names_the_pair_and_whether_an_off_centre_pawn_set_it():
    samples, offsets = readings(3)
    centred = calibrate(samples, 16, TOLERANCE)
    worst = centred.worst_separation
    assert worst is not None and not worst.off_centre and centred.off_centre_samples == 0
    assert worst.margin == min(s.margin for s in centred.separations)
    assert len(centred.separations) == 4
    # One blue pawn pushed aside reads nearer empty than any centred blue pawn did.
    middle = TYPICAL.empty.middle
    blue_nearest = max(s.value - middle - offsets[s.cell] for s in samples if s.what == 1)
    aside = Sample(5, 1, middle + offsets[5] + blue_nearest // 2, off_centre=True)
    result = calibrate([*samples, aside], 16, TOLERANCE)
    pair = next(s for s in result.separations if {s.lower, s.upper} == {EMPTY, 1})
    assert (
        pair.off_centre
        and pair.gap < next(s for s in centred.separations if {s.lower, s.upper} == {EMPTY, 1}).gap
    )
    assert result.off_centre_samples == 1


def test_the_calibration_file_round_trips_and_the_daemon_helper_applies_it(tmp_path):
    samples, _ = readings(6)
    result = calibrate(samples, 16, TOLERANCE)
    path = calibration_file.save(result, tmp_path, "colour", "test")
    assert path == tmp_path / "calibration.toml"
    loaded = calibration_file.load(path)
    assert loaded.baseline == result.baseline and loaded.deltas == result.deltas
    applied = calibration_file.apply_saved_calibration(LAYOUT, tmp_path)
    assert applied.bands == result.apply(LAYOUT).bands
    # Presence layouts and folders without a calibration are left alone.
    presence = Layout.named("presence")
    assert calibration_file.apply_saved_calibration(presence, tmp_path) is presence
    assert calibration_file.apply_saved_calibration(LAYOUT, tmp_path / "none") is LAYOUT


def test_a_damaged_calibration_file_is_refused_with_its_name(tmp_path):
    (tmp_path / "calibration.toml").write_text("[calibration]\nbits = 16\n")
    with pytest.raises(calibration_file.CalibrationFileError, match=r"calibration\.toml"):
        calibration_file.apply_saved_calibration(LAYOUT, tmp_path)


def test_calibrating_a_simulated_board_through_the_fake_link():
    rig = FakeRig(LAYOUT, seed=7)
    result = run_calibration(rig.view, rig.hand, LAYOUT, full_plan(), TOLERANCE)
    assert result.ok
    calibrated = result.apply(LAYOUT)
    board = rig.board
    for colour in range(4):
        board.put(range(CELLS), colour)
        reading = board.reading()
        for cell in range(CELLS):
            assert calibrated.classify(cell, reading[LAYOUT.channel_of[cell]]) == colour
        board.clear()


def test_calibrating_through_the_real_firmware():
    with firmware_rig(LAYOUT, seed=8) as (view, _link, hand, _eye):
        result = run_calibration(view, hand, LAYOUT, quick_plan(2), TOLERANCE)
    assert result.ok, [p.describe() for p in result.problems]
    assert [s.count for s in result.spreads][1:] == [8, 8, 8, 8]
    assert result.off_centre_samples == 16  # half of the pawns were pushed aside
    worst = result.worst_separation
    assert worst is not None and worst.margin > 0

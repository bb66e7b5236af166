"""Where a colour calibration is kept: ``DATA/calibration.toml``, applied to the layout.

The file stores what calibration measured, in words a person can read and edit: each place's
reading with no pawn (``[baseline]``) and the bands of every class relative to it
(``[deltas]``).  A cell's bands are its baseline plus the deltas, so the file is keyed by place
name, not by channel, and stays right if the sensors are rewired to other chip inputs.

The daemon applies it with :func:`apply_saved_calibration` when it loads a colour layout.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from pawnlight.board.cells import CELL_NAMES, CELLS, parse_cell_name
from pawnlight.board.health.calibration import CLASSES, Calibration, class_name
from pawnlight.board.layout import Band, Layout
from pawnlight.errors import PawnlightError

FILE_NAME = "calibration.toml"


class CalibrationFileError(PawnlightError, ValueError):
    """A calibration file that cannot be used; the message names the file."""


def calibration_path(data: Path) -> Path:
    return Path(data) / FILE_NAME


def dumps(calibration: Calibration, layout_name: str, note: str = "") -> str:
    if calibration.deltas is None:
        raise ValueError("the colours are not separable: nothing to save")
    lines = [
        "# pawnlight colour calibration, written by `pawnlight calibrate`.",
        "# A place's bands are its baseline (its reading with no pawn) plus the deltas below.",
        "# The daemon applies it to the colour layout; see docs/calibration.md.",
    ]
    if note:
        lines.append(f"# {note}")
    lines += [
        "",
        "[calibration]",
        f'layout = "{layout_name}"',
        f"bits = {calibration.bits}",
        f"tolerance = {calibration.tolerance}",
        "",
        "[deltas]",
    ]
    for what, band in zip(CLASSES, calibration.deltas, strict=True):
        lines.append(f"{class_name(what)} = [{band.low}, {band.high}]")
    lines += ["", "[baseline]"]
    for cell in range(CELLS):
        lines.append(f"{CELL_NAMES[cell]} = {calibration.baseline[cell]}")
    return "\n".join(lines) + "\n"


def save(calibration: Calibration, data: Path, layout_name: str, note: str = "") -> Path:
    """Write the calibration into the data folder (atomically) and return its path."""
    path = calibration_path(data)
    path.parent.mkdir(parents=True, exist_ok=True)
    staging = path.with_suffix(".toml.new")
    staging.write_text(dumps(calibration, layout_name, note), encoding="utf-8")
    staging.replace(path)
    return path


def load(path: Path) -> Calibration:
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        head = data["calibration"]
        bits, tolerance = int(head["bits"]), int(head["tolerance"])
        deltas = []
        for what in CLASSES:
            low, high = data["deltas"][class_name(what)]
            deltas.append(Band(int(low), int(high)))
        baseline = [-1] * CELLS
        for name, value in data["baseline"].items():
            baseline[parse_cell_name(name)] = int(value)
    except OSError as error:
        raise CalibrationFileError(f"cannot read {path}: {error.strerror}") from None
    except (KeyError, TypeError, ValueError) as error:
        raise CalibrationFileError(f"{path}: not a calibration file ({error})") from None
    missing = [CELL_NAMES[cell] for cell, value in enumerate(baseline) if value < 0]
    if missing:
        raise CalibrationFileError(f"{path}: no baseline for {', '.join(missing[:6])}")
    return Calibration(bits, tolerance, tuple(baseline), tuple(deltas), (), ())


def apply_saved_calibration(layout: Layout, data: Path) -> Layout:
    """``layout`` with the bands of ``DATA/calibration.toml``, if it is a colour layout and the
    file exists; the layout unchanged otherwise.  CalibrationFileError for a bad file."""
    path = calibration_path(data)
    if not layout.colour_sensing or not path.exists():
        return layout
    calibration = load(path)
    if calibration.bits != layout.bits:
        raise CalibrationFileError(
            f"{path}: made for {calibration.bits}-bit readings, the layout has {layout.bits}"
        )
    try:
        return calibration.apply(layout)
    except ValueError as error:
        raise CalibrationFileError(f"{path}: {error}") from None

"""The printable centring cups (hardware/centring-cups.scad) render with Debian's OpenSCAD."""

from __future__ import annotations

import math
import shutil
import subprocess
from pathlib import Path

import pytest

SCAD = Path(__file__).parents[2] / "hardware" / "centring-cups.scad"


@pytest.mark.skipif(shutil.which("openscad") is None, reason="openscad not installed")
def test_the_square_cup_renders_to_a_solid_with_a_hole_for_the_pawn(tmp_path: Path) -> None:
    out = tmp_path / "cup.stl"
    result = subprocess.run(
        ["openscad", "-D", 'part="square"', "-D", "pawn_base=15", "-o", str(out), str(SCAD)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    text = out.read_text()
    assert text.startswith("solid") and text.count("facet normal") > 100
    vertices = [
        tuple(float(v) for v in line.split()[1:])
        for line in text.splitlines()
        if line.strip().startswith("vertex")
    ]
    xs = [x for x, _y, _z in vertices]
    # The plate spans one place less the gap (33 - 1.5 mm)...
    assert max(xs) - min(xs) == pytest.approx(31.5, abs=0.01)
    # ...and the hole at the bottom, where the pawn stands, is its base + 1 mm clearance.
    hole = {round(math.hypot(x, y), 2) for x, y, z in vertices if abs(z) < 1e-6}
    assert min(hole) == pytest.approx((15 + 1.0) / 2, abs=0.01)

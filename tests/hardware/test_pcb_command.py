"""``pawnlight hardware pcb --out DIR`` from the checkout: what it writes and what it prints."""

from __future__ import annotations

import csv
import importlib.util
import subprocess
from pathlib import Path

import pytest

from pawnlight.cli import main
from pawnlight.hardware.pcb.circuit import KICAD_SHARE
from pawnlight.hardware.pcb.strips import DESIGNS, INSTANCES

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("skidl") is None
    or importlib.util.find_spec("kiutils") is None
    or not (KICAD_SHARE / "footprints" / "Resistor_SMD.pretty").is_dir()
    or not (KICAD_SHARE / "symbols" / "Device.kicad_sym").is_file(),
    reason="the pcb extra or KiCad 6's libraries are missing (docs/pcb.md)",
)


def _has_pcbnew() -> bool:
    try:
        done = subprocess.run(["/usr/bin/python3", "-c", "import pcbnew"], capture_output=True)
    except OSError:
        return False
    return done.returncode == 0


def test_the_command_writes_every_board_and_prints_its_counts(tmp_path, capsys):
    run = tmp_path / "out"
    code = main(["hardware", "pcb", "--out", str(run)])
    printed = capsys.readouterr().out
    assert code == 0, printed
    for sensing in ("presence", "colour"):
        assert f"ERC hub-{sensing}: 0 errors" in printed
        assert (run / "netlists" / f"hub-{sensing}.net").read_text().startswith("(export")
        assert "<svg" in (run / "schematics" / f"hub-{sensing}.svg").read_text()
        with (run / f"order-{sensing}.csv").open() as handle:
            rows = list(csv.DictReader(handle))
        assert sum(int(row["qty"]) for row in rows) == 1 + len(INSTANCES)
        for design in DESIGNS:
            assert f"ERC strip-{design}-{sensing}: 0 errors" in printed
    for design in DESIGNS:
        assert (run / "boards" / f"strip-{design}.kicad_pcb").read_text().startswith("(kicad_pcb")
    docs = Path(__file__).resolve().parents[2] / "docs" / "img"
    for name in ("hub-presence", "hub-colour", "strip-track-a-presence"):
        drawn = (run / "schematics" / f"{name}.svg").read_text()
        assert (docs / f"pcb-{name}.svg").read_text() == drawn, (
            f"docs/img/pcb-{name}.svg is out of date: copy it from schematics/ of "
            "pawnlight hardware pcb --out DIR"
        )
    with (run / "strips.csv").open() as handle:
        assert len(list(csv.DictReader(handle))) == len(INSTANCES)
    if _has_pcbnew():
        for design in DESIGNS:
            assert f"DRC strip-{design}: 0 errors" in printed
            fab = run / "fab" / f"strip-{design}"
            assert (fab / f"strip-{design}-F_Cu.gbr").is_file()
            assert (fab / f"strip-{design}-Edge_Cuts.gbr").is_file()
            assert (fab / f"strip-{design}-PTH.drl").is_file()
            placement = (fab / f"strip-{design}-pos.csv").read_text()
            assert '"U1"' in placement and '"J1"' in placement
    else:
        assert "KiCad's pcbnew not found" in printed


def test_an_unwritable_folder_is_an_error_not_a_traceback(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert main(["hardware", "pcb", "--out", str(blocker / "out")]) == 1
    assert capsys.readouterr().err.startswith("error: ")

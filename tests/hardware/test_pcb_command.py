"""``pawnlight hardware pcb --out DIR`` from the checkout: what it writes and what it prints."""

from __future__ import annotations

import csv
import importlib.util
from pathlib import Path

import pytest

from pawnlight.cli import main
from pawnlight_hardware.pcb.circuit import KICAD_SHARE
from pawnlight_hardware.pcb.strips import DESIGNS, INSTANCES

from .conftest import has_pcbnew, needs_hub_routing

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("skidl") is None
    or importlib.util.find_spec("kiutils") is None
    or not (KICAD_SHARE / "footprints" / "Resistor_SMD.pretty").is_dir()
    or not (KICAD_SHARE / "symbols" / "Device.kicad_sym").is_file(),
    reason="the pcb extra or KiCad 6's libraries are missing (docs/pcb.md)",
)


@pytest.mark.slow
@needs_hub_routing
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
        # What to order: the hub on four layers, the strips on two, all 1.6 mm.
        layers = {row["board file"]: row["layers"] for row in rows}
        assert layers.pop(f"boards/hub-{sensing}.kicad_pcb") == "4"
        assert set(layers.values()) == {"2"}
        assert {row["thickness mm"] for row in rows} == {"1.6"}
        assert {row["min track/space mm"] for row in rows} == {"0.25/0.2"}
        for design in DESIGNS:
            assert f"ERC strip-{design}-{sensing}: 0 errors" in printed
    for design in DESIGNS:
        assert (run / "boards" / f"strip-{design}.kicad_pcb").read_text().startswith("(kicad_pcb")
        assert f"routed strip-{design}: " in printed
    docs = Path(__file__).resolve().parents[2] / "docs" / "img"
    for name in ("hub-presence", "hub-colour", "strip-track-a-presence"):
        drawn = (run / "schematics" / f"{name}.svg").read_text()
        assert (docs / f"pcb-{name}.svg").read_text() == drawn, (
            f"docs/img/pcb-{name}.svg is out of date: copy it from schematics/ of "
            "pawnlight hardware pcb --out DIR"
        )
    with (run / "strips.csv").open() as handle:
        assert len(list(csv.DictReader(handle))) == len(INSTANCES)
    if has_pcbnew():
        # Every hub routed whole: nothing left for the builder to wire.
        for sensing in ("presence", "colour"):
            assert f"DRC hub-{sensing}: 0 errors, 0 unrouted connections" in printed
            assert f"unfinished hub-{sensing}" not in printed
            assert (run / "fab" / f"hub-{sensing}" / f"hub-{sensing}-In1_Cu.gbr").is_file()
        for design in DESIGNS:
            assert f"DRC strip-{design}: 0 errors, 0 unrouted connections" in printed
            fab = run / "fab" / f"strip-{design}"
            assert (fab / f"strip-{design}-F_Cu.gbr").is_file()
            assert (fab / f"strip-{design}-Edge_Cuts.gbr").is_file()
            assert (fab / f"strip-{design}-PTH.drl").is_file()
            placement = (fab / f"strip-{design}-pos.csv").read_text()
            assert placement.startswith("Designator,Mid X,Mid Y,Layer,Rotation")
            assert "\nU1," in placement and "\nJ1," not in placement
    else:
        assert "KiCad's pcbnew not found" in printed


def test_an_unwritable_folder_is_an_error_not_a_traceback(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert main(["hardware", "pcb", "--out", str(blocker / "out")]) == 1
    assert capsys.readouterr().err.startswith("error: ")


needs_kicad = pytest.mark.skipif(
    not has_pcbnew(), reason="KiCad's pcbnew missing (apt-get install kicad): no DRC here"
)


def _kicad_major() -> int:
    import subprocess

    from pawnlight_hardware.pcb.build import kicad_python

    python = kicad_python()
    assert python is not None
    version = subprocess.run(
        [python, "-c", "import pcbnew; print(pcbnew.Version())"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return int(version.strip().split(".")[0])


def _drc(pcb_written, tmp_path, design: str, edit=None) -> tuple[int, int, str]:
    """KiCad's DRC of a copy of one written strip board (edited first by ``edit``), through
    the command's own path: (errors, unrouted connections, the report)."""
    from pawnlight_hardware.pcb.build import Report, kicad_python, run_kicad

    tmp_path.mkdir(parents=True, exist_ok=True)
    board = tmp_path / f"strip-{design}.kicad_pcb"
    text = pcb_written.boards[design].read_text(encoding="utf-8")
    board.write_text(edit(text) if edit else text, encoding="utf-8")
    # The design rules, in the project file beside the board.
    rules = pcb_written.boards[design].with_suffix(".kicad_pro")
    board.with_suffix(".kicad_pro").write_text(rules.read_text(encoding="utf-8"), encoding="utf-8")
    report = Report()
    python = kicad_python()
    assert python is not None
    run_kicad(python, board, tmp_path, report)
    assert not report.notes, report.notes
    errors, unrouted = report.drc[board.stem]
    return errors, unrouted, (tmp_path / "drc" / f"{board.stem}.txt").read_text()


@needs_kicad
@pytest.mark.parametrize("design", list(DESIGNS))
def test_kicad_finds_every_strip_routed_without_a_violation(pcb_written, tmp_path, design):
    if _kicad_major() > 6:
        # Its DRC runs there (the API of both is handled, the test below passes) but it finds
        # 1-4 unconnected pads and dangling track ends per strip that KiCad 6 does not.
        pytest.skip("the strips are routed for KiCad 6's DRC; KiCad 9's finds unconnected pads")
    errors, unrouted, report = _drc(pcb_written, tmp_path, design)
    assert (errors, unrouted) == (0, 0), report
    # Nor a stray piece of track (a warning): every track end meets a pad, via or track.
    assert "[track_dangling]" not in report, report


@needs_kicad
def test_kicad_counts_a_clearance_violation_and_a_missing_track(pcb_written, tmp_path):
    """The DRC above can fail: two crossing tracks of different nets are an error, so is a
    track nearer the edge than the board's rules allow, and a board without its tracks has
    every connection unrouted."""
    import re

    def crossing(text: str) -> str:
        nets = dict(re.findall(r'\(net (\d+) "(SEN\d)"\)', text))
        first, second = sorted(nets)[:2]
        extra = "".join(
            f'  (segment (start {x1} {y1}) (end {x2} {y2}) (width 0.25) (layer "B.Cu") '
            f"(net {net}) (tstamp 00000000-0000-0000-0000-00000000000{k}))\n"
            for k, (net, x1, y1, x2, y2) in enumerate(
                [
                    (first, 100, 50.5, 104, 50.5),
                    (second, 102, 48.5, 102, 52.5),
                    # 0.275 mm from the top edge (y 46.4): too near by the rules' 0.5 mm
                    (first, 60, 46.8, 62, 46.8),
                ],
                start=1,
            )
        )
        return text.rstrip().removesuffix(")") + extra + ")\n"

    errors, _unrouted, report = _drc(pcb_written, tmp_path, "track-b", crossing)
    if _kicad_major() > 6:
        # KiCad 9 reports both added tracks on one net (SEN0: it reads this KiCad 6 board's
        # net numbers otherwise), so only the track near the edge is an error there.
        assert errors >= 1 and "[copper_edge_clearance]" in report, report
    else:
        assert errors >= 2 and "[clearance]" in report, report
    # The board's own design rules (its .kicad_pro), not KiCad's default of 0.01 mm.
    assert "edge clearance 0.5000 mm" in report, report

    def bare(text: str) -> str:
        return "\n".join(
            line
            for line in text.splitlines()
            if not line.lstrip().startswith(("(segment ", "(via "))
        )

    errors, unrouted, report = _drc(pcb_written, tmp_path / "bare", "track-b", bare)
    assert errors == 0 and unrouted > 40, report


def test_a_missing_library_is_an_error_naming_the_extra(tmp_path, capsys, monkeypatch):
    """Without the pcb extra's numpy (the router's grids) the command says what to install."""
    import sys

    for name in list(sys.modules):
        if name.startswith("pawnlight_hardware.pcb."):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "numpy", None)
    assert main(["hardware", "pcb", "--out", str(tmp_path / "out")]) == 1
    error = capsys.readouterr().err
    assert error.startswith("error: ") and "numpy" in error
    assert "pip install -e 'hardware[pcb]'" in error
    assert not (tmp_path / "out").exists()

"""One run of ``pawnlight hardware parts`` shared by the tests that check its files, and one
writing of the PCB command's netlists and strip boards shared by the PCB tests."""

from __future__ import annotations

import importlib.util
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from pawnlight.cli import main
from pawnlight_hardware.pcb.netlist import Netlist

#: Routing the two hubs takes a minute or two each (docs/pcb.md): the tests that route them (and
#: the whole command's) run when PAWNLIGHT_PCB_HUBS=1, before a release, not in every ./test.
needs_hub_routing = pytest.mark.skipif(
    os.environ.get("PAWNLIGHT_PCB_HUBS") != "1",
    reason="routing the hubs takes minutes: PAWNLIGHT_PCB_HUBS=1 runs it (docs/testing.md)",
)


def has_pcbnew() -> bool:
    """Whether Debian's Python has KiCad's pcbnew (the DRC and the fab files need it)."""
    try:
        done = subprocess.run(["/usr/bin/python3", "-c", "import pcbnew"], capture_output=True)
    except OSError:
        return False
    return done.returncode == 0


@pytest.fixture(scope="session")
def build_files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``pawnlight hardware parts --out DIR`` once per session (OpenSCAD renders 3 parts)."""
    out = tmp_path_factory.mktemp("build") / "board"
    assert main(["hardware", "parts", "--out", str(out)]) == 0
    return out


@dataclass(frozen=True)
class PcbWritten:
    """The PCB command's netlists, ERC counts and routed strip boards (no KiCad run)."""

    out: Path
    netlists: dict[str, Netlist]
    erc: dict[str, tuple[int, int]]
    boards: dict[str, Path]  # design name -> .kicad_pcb


def pcb_missing() -> str | None:
    """Why the PCB tests cannot run here, or None."""
    from pawnlight_hardware.pcb.circuit import KICAD_SHARE

    if importlib.util.find_spec("skidl") is None or importlib.util.find_spec("kiutils") is None:
        return "SKiDL or kiutils missing (the pcb extra)"
    if (
        not (KICAD_SHARE / "footprints" / "Resistor_SMD.pretty").is_dir()
        or not (KICAD_SHARE / "symbols" / "Device.kicad_sym").is_file()
    ):
        return "KiCad 6 libraries missing (apt-get install kicad-symbols kicad-footprints)"
    return None


@pytest.fixture(scope="session")
def pcb_written(tmp_path_factory: pytest.TempPathFactory) -> PcbWritten:
    """Every netlist and strip board of ``pawnlight hardware pcb`` written once per session,
    as the command writes them (SKiDL's circuits, the placed and routed strips)."""
    missing = pcb_missing()
    if missing:
        pytest.skip(missing)
    from pawnlight_hardware.pcb.build import Report, write_netlists
    from pawnlight_hardware.pcb.layout import write_strip_boards
    from pawnlight_hardware.pcb.netlist import read_netlist
    from pawnlight_hardware.wiring import load_wiring

    out = tmp_path_factory.mktemp("pcb")
    report = Report()
    checked = write_netlists(load_wiring(), out, report)
    netlists = {
        c.name: read_netlist((out / "netlists" / f"{c.name}.net").read_text(encoding="utf-8"))
        for c in checked
    }
    paths = write_strip_boards(netlists, out)
    boards = {p.stem.removeprefix("strip-"): p for p in paths}
    return PcbWritten(out, netlists, dict(report.erc), boards)

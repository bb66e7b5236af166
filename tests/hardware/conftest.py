"""One run of ``pawnlight hardware parts`` shared by the tests that check its files, and one
writing of the PCB command's netlists and strip boards shared by the PCB tests."""

from __future__ import annotations

import fcntl
import importlib.util
import json
import os
import subprocess
from collections.abc import Callable
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


def once_per_run(
    tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]
) -> Path:
    """A folder ``make`` fills once per test run, shared by every pytest-xdist worker: the first
    worker to ask writes it under a lock, the others wait for it and read it.  (A session fixture
    alone runs once per worker: with three workers the parts and strips were made three times.)"""
    if os.environ.get("PYTEST_XDIST_WORKER") is None:  # one process: nothing to share
        out = tmp_path_factory.mktemp(name)
        make(out)
        return out
    shared = tmp_path_factory.getbasetemp().parent  # this run's folder, above each worker's
    out, done = shared / name, shared / f"{name}.done"
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, also on a failure
        if not done.exists():
            out.mkdir(exist_ok=True)
            make(out)
            done.touch()
    return out


@pytest.fixture(scope="session")
def build_files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``pawnlight hardware parts --out DIR`` once per run (OpenSCAD renders 3 parts)."""

    def make(folder: Path) -> None:
        assert main(["hardware", "parts", "--out", str(folder / "board")]) == 0

    return once_per_run(tmp_path_factory, "build", make) / "board"


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

    def make(out: Path) -> None:
        report = Report()
        checked = write_netlists(load_wiring(), out, report)
        netlists = {c.name: read(out, c.name) for c in checked}
        paths = write_strip_boards(netlists, out)
        written = {
            "erc": report.erc,
            "netlists": [c.name for c in checked],
            "boards": {p.stem.removeprefix("strip-"): str(p.relative_to(out)) for p in paths},
        }
        (out / "written.json").write_text(json.dumps(written), encoding="utf-8")

    def read(out: Path, name: str) -> Netlist:
        return read_netlist((out / "netlists" / f"{name}.net").read_text(encoding="utf-8"))

    out = once_per_run(tmp_path_factory, "pcb", make)
    written = json.loads((out / "written.json").read_text(encoding="utf-8"))
    return PcbWritten(
        out,
        {name: read(out, name) for name in written["netlists"]},
        {name: (errors, warnings) for name, (errors, warnings) in written["erc"].items()},
        {design: out / file for design, file in written["boards"].items()},
    )

"""``pawnlight hardware pcb --out DIR``: every board's netlist, ERC, drawing, layout and fab files.

What it writes (docs/pcb.md):

* ``netlists/<board>.net``, ``erc/<board>.txt``: each circuit's KiCad netlist and its ERC report
  (SKiDL's), for the two hubs (``hub-presence``, ``hub-colour``) and every strip design on each
  board kind (``strip-track-a-presence`` ...);
* ``schematics/<board>.svg``: the circuit drawn from the same objects;
* ``boards/<design>.kicad_pcb`` and, where KiCad's pcbnew is there, ``drc/<design>.txt`` and
  ``fab/<design>/`` (Gerbers, drill, placement, BOM): the strip layouts, placed from the
  geometry and routed by :mod:`.route`;
* ``strips.csv``: where each strip is mounted on the board.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from ..wiring import Wiring, load_wiring
from .circuit import Checked, hub_circuit, strip_circuit
from .drawing import draw
from .fab_files import BOM_COLUMNS, distributor_numbers, part_number, write_placement
from .hub import write_hub_boards
from .layout import write_strip_boards
from .netlist import Netlist, read_netlist
from .strips import DESIGNS, INSTANCES

#: Board kinds, and the sensor part each one's strips carry.
SENSOR_PART = {"presence": "DRV5032FA", "colour": "DRV5055A2"}


def netlist_names() -> list[str]:
    names = [f"hub-{sensing}" for sensing in SENSOR_PART]
    names += [f"strip-{design}-{sensing}" for sensing in SENSOR_PART for design in DESIGNS]
    return names


@dataclass
class Report:
    """Per board: ERC errors and warnings, tracks and vias routed, DRC errors and unrouted
    connections, and notes."""

    erc: dict[str, tuple[int, int]] = field(default_factory=dict)
    drc: dict[str, tuple[int, int]] = field(default_factory=dict)
    copper: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: Per board, the nets its router could not finish (a hub's router may leave some).
    unfinished: dict[str, list[str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = []
        for name, (errors, warnings) in self.erc.items():
            out.append(f"ERC {name}: {errors} errors, {warnings} warnings")
        for name, (tracks, vias) in self.copper.items():
            out.append(f"routed {name}: {tracks} tracks, {vias} vias")
        for name, (errors, unrouted) in self.drc.items():
            out.append(f"DRC {name}: {errors} errors, {unrouted} unrouted connections")
        for name, nets in self.unfinished.items():
            if nets:
                out.append(
                    f"unfinished {name}: {len(nets)} nets not fully routed "
                    f"({', '.join(nets[:6])}{', ...' if len(nets) > 6 else ''})"
                )
        return out + self.notes

    @property
    def ok(self) -> bool:
        """No ERC or DRC violation, no connection left unrouted on any board (a board with
        one cannot be ordered) and no net its router could not finish."""
        return (
            all(e == 0 for e, _ in self.erc.values())
            and all(e == 0 and unrouted == 0 for e, unrouted in self.drc.values())
            and not any(self.unfinished.values())
        )


def circuits(wiring: Wiring) -> list[Checked]:
    """Every board's circuit, checked: the two hubs, then each strip design on each kind."""
    found = [hub_circuit(wiring, sensing) for sensing in SENSOR_PART]
    for sensing, part in SENSOR_PART.items():
        found += [strip_circuit(design, sensing, part) for design in DESIGNS.values()]
    return found


def _write(path: Path, text: str, report: Report) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    report.written.append(path)


def write_netlists(wiring: Wiring, out: Path, report: Report) -> list[Checked]:
    checked = circuits(wiring)
    for circuit in checked:
        _write(out / "netlists" / f"{circuit.name}.net", circuit.netlist, report)
        lines = [f"ERC of {circuit.name}: {len(circuit.errors)} errors, "]
        lines[0] += f"{len(circuit.warnings)} warnings"
        lines += [f"error: {e}" for e in circuit.errors]
        lines += [f"warning: {w}" for w in circuit.warnings]
        _write(out / "erc" / f"{circuit.name}.txt", "\n".join(lines) + "\n", report)
        report.erc[circuit.name] = (len(circuit.errors), len(circuit.warnings))
        _write(
            out / "schematics" / f"{circuit.name}.svg",
            draw(_title(circuit.name), circuit.parts),
            report,
        )
    return checked


def _title(name: str) -> str:
    kind, _, rest = name.partition("-")
    if kind == "hub":
        return f"The hub of a {rest} board (pawnlight, generated from hardware/wiring.toml)"
    design, _, sensing = rest.rpartition("-")
    return f"Sensor strip {design} on a {sensing} board: {DESIGNS[design].title}"


def write_mounting(out: Path, report: Report) -> None:
    """strips.csv: each strip's design, places, hub connector and where it is mounted."""
    path = out / "strips.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(
            ["strip", "design", "hub connector", "places", "slide LEDs", "x mm", "y mm", "turn"]
        )
        for index, strip in enumerate(INSTANCES):
            writer.writerow(
                [
                    strip.name,
                    strip.design.name,
                    f"J{index + 1}",
                    " ".join(strip.places),
                    " ".join(strip.slides),
                    f"{strip.origin[0]:.2f}",
                    f"{strip.origin[1]:.2f}",
                    f"{90 * strip.quarters}",
                ]
            )
    report.written.append(path)


def kicad_python() -> str | None:
    """A Python that can import KiCad's pcbnew (Debian's python3 with the kicad package), or
    None.  PAWNLIGHT_KICAD_PYTHON names another."""
    candidates = [os.environ.get("PAWNLIGHT_KICAD_PYTHON", ""), "/usr/bin/python3"]
    for python in filter(None, candidates):
        try:
            done = subprocess.run(
                [python, "-c", "import pcbnew"], capture_output=True, timeout=60, check=False
            )
        except (OSError, subprocess.TimeoutExpired):
            continue
        if done.returncode == 0:
            return python
    return None


def run_kicad(python: str, board: Path, out: Path, report: Report) -> None:
    """DRC, Gerbers, drill and placement files of one board, by KiCad's pcbnew."""
    name = board.stem
    drc = out / "drc" / f"{name}.txt"
    fab = out / "fab" / name
    drc.parent.mkdir(parents=True, exist_ok=True)
    script = Path(__file__).with_name("kicad_fab.py")
    done = subprocess.run(
        [python, str(script), str(board), str(drc), str(fab)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        report.notes.append(f"KiCad could not check {name}: {' / '.join(tail)}")
        report.drc[name] = (1, 0)
        return
    result = json.loads(lines[-1])
    report.drc[name] = (int(result["errors"]), int(result["unconnected"]))
    report.written += [drc] + [fab / f for f in result["files"]]


def write_boms(netlists: dict[str, Netlist], out: Path, report: Report) -> None:
    """fab/bom-<board>.csv per board: its parts grouped by value and footprint, with the
    manufacturer's part number and the distributors' (:data:`.fab_files.BOM_COLUMNS`)."""
    for name, netlist in sorted(netlists.items()):
        groups: dict[tuple[str, str], list[str]] = {}
        for component in netlist.components.values():
            groups.setdefault((component.value, component.footprint), []).append(component.ref)
        path = out / "fab" / f"bom-{name}.csv"
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(BOM_COLUMNS)
            for (value, footprint), refs in sorted(groups.items()):
                refs_text = " ".join(sorted(refs, key=_natural))
                maker, number = part_number(value, footprint)
                lcsc, mouser = distributor_numbers(number)
                writer.writerow(
                    [len(refs), value, footprint, refs_text, maker, number, lcsc, mouser]
                )
        report.written.append(path)


#: What a board house is asked for (docs/pcb.md): FR4, 1.6 mm, and the design rules the
#: router keeps (0.25 mm tracks, 0.2 mm spaces, 0.3 mm drills in 0.6 mm vias).
FAB_COLUMNS = ["size mm", "layers", "thickness mm", "copper", "min track/space mm", "min drill mm"]


def fab_parameters(board: Path) -> list[str]:
    """A written board's entries under :data:`FAB_COLUMNS`: its outline and copper layers read
    from the file, the rest as the router's rules and the layer stack give them."""
    from kiutils.board import Board

    from .route import Rules

    read = Board.from_file(str(board))
    (edge,) = [g for g in read.graphicItems if getattr(g, "layer", "") == "Edge.Cuts"]
    copper = [layer.name for layer in read.layers if layer.name.endswith(".Cu")]
    rules = Rules()
    weights = "1 oz outer" + (", 0.5 oz inner" if len(copper) > 2 else "")
    return [
        f"{edge.end.X - edge.start.X:.1f} x {edge.end.Y - edge.start.Y:.1f}",
        str(len(copper)),
        "1.6",
        weights,
        f"{rules.track_width}/{rules.clearance}",
        f"{rules.via_drill}",
    ]


def write_orders(out: Path, report: Report) -> None:
    """order-<kind>.csv: how many of each board one game board needs, its BOM and what the
    board house is asked to make (:data:`FAB_COLUMNS`)."""
    for sensing in SENSOR_PART:
        path = out / f"order-{sensing}.csv"
        rows = [(f"hub-{sensing}", "hub-" + sensing, 1)]
        for design in DESIGNS:
            count = sum(1 for strip in INSTANCES if strip.design.name == design)
            rows.append((f"strip-{design}-{sensing}", f"strip-{design}", count))
        with path.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(["board file", "bom", "qty", *FAB_COLUMNS])
            for bom, board, count in rows:
                file = out / "boards" / f"{board}.kicad_pcb"
                fab = fab_parameters(file) if file.is_file() else [""] * len(FAB_COLUMNS)
                writer.writerow([f"boards/{board}.kicad_pcb", f"bom-{bom}.csv", count, *fab])
        report.written.append(path)


def _natural(ref: str) -> tuple[str, int]:
    letters = ref.rstrip("0123456789")
    return letters, int(ref[len(letters) :] or 0)


def build(out: Path, wiring: Wiring | None = None) -> Report:
    """Everything into ``out`` (made if missing; its pcb folders are replaced)."""
    wiring = wiring or load_wiring()
    report = Report()
    for folder in ("netlists", "erc", "schematics", "boards", "drc", "fab"):
        shutil.rmtree(out / folder, ignore_errors=True)
    out.mkdir(parents=True, exist_ok=True)
    checked = write_netlists(wiring, out, report)
    netlists = {c.name: read_netlist(c.netlist) for c in checked}
    write_mounting(out, report)
    write_boms(netlists, out, report)
    boards = write_strip_boards(netlists, out, report.copper)
    boards += write_hub_boards(netlists, out, report.copper, report.unfinished)
    report.written += boards
    report.written += [write_placement(board, out / "fab" / board.stem) for board in boards]
    write_orders(out, report)
    python = kicad_python()
    if python is None:
        report.notes.append(
            "KiCad's pcbnew not found (apt-get install kicad): no DRC, Gerbers or drill files"
        )
    else:
        for board in boards:
            run_kicad(python, board, out, report)
    for name, nets in report.unfinished.items():
        if nets:
            report.notes.append(
                f"{name}: the router could not finish {len(nets)} nets: the board cannot be "
                "ordered (docs/pcb.md)"
            )
    return report

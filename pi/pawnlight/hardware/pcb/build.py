"""``pawnlight hardware pcb --out DIR``: every board's netlist, ERC, drawing, layout and fab files.

What it writes (docs/pcb.md):

* ``netlists/<board>.net``, ``erc/<board>.txt``: each circuit's KiCad netlist and its ERC report
  (SKiDL's), for the two hubs (``hub-presence``, ``hub-colour``) and every strip design on each
  board kind (``strip-track-a-presence`` ...);
* ``schematics/<board>.svg``: the circuit drawn from the same objects;
* ``boards/<design>.kicad_pcb`` and, where KiCad's pcbnew is there, ``drc/<design>.txt`` and
  ``fab/<design>/`` (Gerbers, drill, placement, BOM): the strip layouts;
* ``strips.csv``: where each strip is mounted on the board.
"""

from __future__ import annotations

import csv
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from ..wiring import Wiring, load_wiring
from .circuit import Checked, hub_circuit, strip_circuit
from .strips import DESIGNS, INSTANCES

#: Board kinds, and the sensor part each one's strips carry.
SENSOR_PART = {"presence": "DRV5032FA", "colour": "DRV5055A2"}


def netlist_names() -> list[str]:
    names = [f"hub-{sensing}" for sensing in SENSOR_PART]
    names += [f"strip-{design}-{sensing}" for sensing in SENSOR_PART for design in DESIGNS]
    return names


@dataclass
class Report:
    """Per board: ERC errors and warnings, DRC errors and unrouted nets, and notes."""

    erc: dict[str, tuple[int, int]] = field(default_factory=dict)
    drc: dict[str, tuple[int, int]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = []
        for name, (errors, warnings) in self.erc.items():
            out.append(f"ERC {name}: {errors} errors, {warnings} warnings")
        for name, (errors, unrouted) in self.drc.items():
            out.append(f"DRC {name}: {errors} errors, {unrouted} unrouted connections")
        return out + self.notes

    @property
    def ok(self) -> bool:
        return all(e == 0 for e, _ in self.erc.values()) and all(
            e == 0 and u == 0 for e, u in self.drc.values()
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
    return checked


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


def build(out: Path, wiring: Wiring | None = None) -> Report:
    """Everything into ``out`` (made if missing; its pcb folders are replaced)."""
    wiring = wiring or load_wiring()
    report = Report()
    for folder in ("netlists", "erc", "schematics", "boards", "drc", "fab"):
        shutil.rmtree(out / folder, ignore_errors=True)
    out.mkdir(parents=True, exist_ok=True)
    write_netlists(wiring, out, report)
    write_mounting(out, report)
    return report

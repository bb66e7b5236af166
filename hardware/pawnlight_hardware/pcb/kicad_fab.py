"""Run inside KiCad's Python (Debian: /usr/bin/python3 with python3's pcbnew module; KiCad 6 in
Bookworm, 9 in Trixie): DRC, Gerbers, drill and placement files of one board.

    python3 kicad_fab.py BOARD.kicad_pcb DRC_REPORT FAB_DIR

Prints one JSON object: {"errors": N, "warnings": N, "unconnected": N, "files": [...],
"kicad": "9.0.2"}.
Only the standard library and pcbnew: this file is not imported by pawnlight (whose Python may
be another one), it is handed to KiCad's.
"""

from __future__ import annotations

import json
import os
import re
import sys
from typing import Any


def main(board_path: str, report_path: str, fab_dir: str) -> dict[str, object]:
    import pcbnew

    board = pcbnew.LoadBoard(board_path)
    filler = pcbnew.ZONE_FILLER(board)
    filler.Fill(board.Zones())
    pcbnew.SaveBoard(board_path, board)
    board = pcbnew.LoadBoard(board_path)
    pcbnew.WriteDRCReport(board, report_path, _millimetres(pcbnew), True)
    with open(report_path, encoding="utf-8") as handle:
        report = handle.read()
    # Each violation's severity: "Severity: error" in KiCad 6, "<rule>; error" from KiCad 7.
    errors = len(re.findall(r"Severity: error|; error$", report, re.MULTILINE))
    warnings = len(re.findall(r"Severity: warning|; warning$", report, re.MULTILINE))
    match = re.search(r"\*\* Found (\d+) unconnected pads \*\*", report)
    unconnected = int(match.group(1)) if match else 0
    # The unconnected items are listed as errors too: count them once, as unconnected.
    listed = len(re.findall(r"\[unconnected_items\]", report))
    errors -= listed
    os.makedirs(fab_dir, exist_ok=True)
    files = _gerbers(pcbnew, board, fab_dir) + _drill(pcbnew, board, fab_dir)
    return {
        "errors": errors,
        "warnings": warnings,
        "unconnected": unconnected,
        "files": files,
        "kicad": str(pcbnew.Version()),
    }


def _millimetres(pcbnew: Any) -> Any:
    """The unit of the DRC report: EDA_UNITS_MILLIMETRES in KiCad 6, EDA_UNITS_MM in 9."""
    if hasattr(pcbnew, "EDA_UNITS_MILLIMETRES"):
        return pcbnew.EDA_UNITS_MILLIMETRES
    return pcbnew.EDA_UNITS_MM


def _no_drill_shape(pcbnew: Any) -> Any:
    """No drill marks on the Gerbers: PCB_PLOT_PARAMS.NO_DRILL_SHAPE in KiCad 6,
    DRILL_MARKS_NO_DRILL_SHAPE from KiCad 7."""
    if hasattr(pcbnew, "DRILL_MARKS_NO_DRILL_SHAPE"):
        return pcbnew.DRILL_MARKS_NO_DRILL_SHAPE
    return pcbnew.PCB_PLOT_PARAMS.NO_DRILL_SHAPE


def _gerbers(pcbnew: Any, board: Any, fab_dir: str) -> list[str]:
    controller = pcbnew.PLOT_CONTROLLER(board)
    options = controller.GetPlotOptions()
    options.SetOutputDirectory(fab_dir)
    options.SetPlotFrameRef(False)
    options.SetUseGerberProtelExtensions(False)
    options.SetCreateGerberJobFile(False)
    options.SetSubtractMaskFromSilk(True)
    options.SetUseAuxOrigin(True)
    options.SetDrillMarksType(_no_drill_shape(pcbnew))
    layers = [
        ("F_Cu", pcbnew.F_Cu),
        ("B_Cu", pcbnew.B_Cu),
        ("F_Paste", pcbnew.F_Paste),
        ("F_Silkscreen", pcbnew.F_SilkS),
        ("B_Silkscreen", pcbnew.B_SilkS),
        ("F_Mask", pcbnew.F_Mask),
        ("B_Mask", pcbnew.B_Mask),
        ("Edge_Cuts", pcbnew.Edge_Cuts),
    ]
    # A four-layer board (the hub) has its planes on the inner layers.
    if board.GetCopperLayerCount() >= 4:
        layers[1:1] = [("In1_Cu", pcbnew.In1_Cu), ("In2_Cu", pcbnew.In2_Cu)]
    written = []
    for name, layer in layers:
        controller.SetLayer(layer)
        controller.OpenPlotfile(name, pcbnew.PLOT_FORMAT_GERBER, name)
        controller.PlotLayer()
        written.append(controller.GetPlotFileName())
    controller.ClosePlot()
    return [os.path.basename(path) for path in written]


def _drill(pcbnew: Any, board: Any, fab_dir: str) -> list[str]:
    writer = pcbnew.EXCELLON_WRITER(board)
    writer.SetOptions(False, False, board.GetDesignSettings().GetAuxOrigin(), False)
    writer.SetFormat(True)
    writer.CreateDrillandMapFilesSet(fab_dir, True, False)
    return sorted(name for name in os.listdir(fab_dir) if name.endswith(".drl"))


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    print(json.dumps(main(*sys.argv[1:])))

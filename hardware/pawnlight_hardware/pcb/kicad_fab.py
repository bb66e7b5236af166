"""Run inside KiCad 6's Python (Debian: /usr/bin/python3 with python3's pcbnew module):
DRC, Gerbers, drill and placement files of one board.

    python3 kicad_fab.py BOARD.kicad_pcb DRC_REPORT FAB_DIR

Prints one JSON object: {"errors": N, "warnings": N, "unconnected": N, "files": [...]}.
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
    pcbnew.WriteDRCReport(board, report_path, pcbnew.EDA_UNITS_MILLIMETRES, True)
    with open(report_path, encoding="utf-8") as handle:
        report = handle.read()
    errors = len(re.findall(r"Severity: error", report))
    warnings = len(re.findall(r"Severity: warning", report))
    match = re.search(r"\*\* Found (\d+) unconnected pads \*\*", report)
    unconnected = int(match.group(1)) if match else 0
    # The unconnected items are listed as errors too: count them once, as unconnected.
    listed = len(re.findall(r"\[unconnected_items\]", report))
    errors -= listed
    os.makedirs(fab_dir, exist_ok=True)
    files = _gerbers(pcbnew, board, fab_dir) + _drill(pcbnew, board, fab_dir)
    return {"errors": errors, "warnings": warnings, "unconnected": unconnected, "files": files}


def _gerbers(pcbnew: Any, board: Any, fab_dir: str) -> list[str]:
    controller = pcbnew.PLOT_CONTROLLER(board)
    options = controller.GetPlotOptions()
    options.SetOutputDirectory(fab_dir)
    options.SetPlotFrameRef(False)
    options.SetUseGerberProtelExtensions(False)
    options.SetCreateGerberJobFile(False)
    options.SetSubtractMaskFromSilk(True)
    options.SetUseAuxOrigin(True)
    options.SetDrillMarksType(pcbnew.PCB_PLOT_PARAMS.NO_DRILL_SHAPE)
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

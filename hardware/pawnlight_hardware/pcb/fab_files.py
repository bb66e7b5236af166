"""What a board house assembles from: the placement file (surface-mount parts only, the columns
assembly services read, rotation corrections per footprint) and the part numbers of the BOM.

The placement file is read from the written board (kiutils), not exported by pcbnew, so it is
written with or without KiCad: ``Designator, Mid X, Mid Y, Layer, Rotation`` in millimetres
from the board's lower-left corner, y up (the Gerbers' view from above), the middle of each
part's pads, and the footprint's turn plus the correction assembly houses apply to KiCad's
library orientation (the public table of bennymeg/Fabrication-Toolkit, plugins/
transformations.csv: SOT-23 180 degrees, SOIC 270; none for 0805, SOD-123 and the WS2812B, whose
preview must still be checked: docs/pcb.md).
"""

from __future__ import annotations

import csv
import math
import re
from pathlib import Path
from typing import Any

PLACEMENT_COLUMNS = ["Designator", "Mid X", "Mid Y", "Layer", "Rotation"]
#: (footprint name pattern, degrees added): the first that matches applies.
ROTATION_CORRECTIONS: tuple[tuple[str, float], ...] = (
    (r"^SOT-23", 180.0),
    (r"^SOIC-", 270.0),
)

#: Manufacturer and part number by (value, footprint).
PART_NUMBERS: dict[tuple[str, str], tuple[str, str]] = {
    ("100nF", "Capacitor_SMD:C_0805_2012Metric"): ("Samsung", "CL21B104KBCNNNC"),
    ("10uF", "Capacitor_SMD:C_0805_2012Metric"): ("Samsung", "CL21A106KAYNNNE"),
    ("10k", "Resistor_SMD:R_0805_2012Metric"): ("Yageo", "RC0805FR-0710KL"),
    ("1k", "Resistor_SMD:R_0805_2012Metric"): ("Yageo", "RC0805FR-071KL"),
    ("330", "Resistor_SMD:R_0805_2012Metric"): ("Yageo", "RC0805FR-07330RL"),
    ("33", "Resistor_SMD:R_0805_2012Metric"): ("Yageo", "RC0805FR-0733RL"),
    ("10k", "Resistor_THT:R_Array_SIP9"): ("Bourns", "4609X-101-103LF"),
    ("100k", "Resistor_THT:R_Array_SIP9"): ("Bourns", "4609X-101-104LF"),
    ("1000uF 10V", "Capacitor_THT:CP_Radial_D10.0mm_P5.00mm"): ("Nichicon", "UVR1A102MPD"),
    ("DRV5032FA", "Package_TO_SOT_SMD:SOT-23"): ("Texas Instruments", "DRV5032FADBZR"),
    ("DRV5055A2", "Package_TO_SOT_SMD:SOT-23"): ("Texas Instruments", "DRV5055A2QDBZR"),
    ("MMBT3904", "Package_TO_SOT_SMD:SOT-23"): ("onsemi", "MMBT3904LT1G"),
    ("1N4148W", "Diode_SMD:D_SOD-123"): ("Diodes Inc.", "1N4148W-7-F"),
    ("74HC165", "Package_SO:SOIC-16_3.9x9.9mm_P1.27mm"): ("Texas Instruments", "SN74HC165DR"),
    ("CD74HC4067M", "Package_SO:SOIC-24W_7.5x15.4mm_P1.27mm"): (
        "Texas Instruments",
        "CD74HC4067M96",
    ),
    ("74AHCT125", "Package_SO:SOIC-14_3.9x8.7mm_P1.27mm"): ("Texas Instruments", "SN74AHCT125DR"),
    ("WS2812B", "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm"): ("Worldsemi", "WS2812B"),
    ("MF-RG400 4A hold", "Fuse:Fuse_Bourns_MF-RG400"): ("Bourns", "MF-RG400-0"),
}
#: Every strip and hub connector of the ribbons is this shrouded, keyed 2 x 8 header.
IDC_HEADER = ("On Shore Technology", "302-S161")
#: The Pi's cable at the hub (J33): the same family's shrouded, keyed 2 x 5 header.
PI_HEADER = ("On Shore Technology", "302-S101")
TERMINAL_BLOCK = ("Phoenix Contact", "1715721")


#: Distributors' numbers by manufacturer's part number: (LCSC, Mouser), "" where this project
#: has none.  Written down offline, not looked up in the catalogues: every one is unverified
#: (hardware/bom.md says so).  Mouser's follow its rule of a manufacturer prefix before the
#: maker's number (595- Texas Instruments, 603- Yageo, 187- Samsung, 647- Nichicon, 652- Bourns,
#: 863- onsemi, 621- Diodes, which drops the "-7" reel code, 651- Phoenix Contact); the LCSC
#: numbers are the few this project has seen in board-house BOMs.
DISTRIBUTOR_NUMBERS: dict[str, tuple[str, str]] = {
    "CL21B104KBCNNNC": ("C49678", "187-CL21B104KBCNNNC"),
    "CL21A106KAYNNNE": ("C15850", "187-CL21A106KAYNNNE"),
    "RC0805FR-0710KL": ("C84376", "603-RC0805FR-0710KL"),
    "RC0805FR-071KL": ("", "603-RC0805FR-071KL"),
    "RC0805FR-07330RL": ("", "603-RC0805FR-07330RL"),
    "RC0805FR-0733RL": ("", "603-RC0805FR-0733RL"),
    "UVR1A102MPD": ("", "647-UVR1A102MPD"),
    "DRV5032FADBZR": ("", "595-DRV5032FADBZR"),
    "DRV5055A2QDBZR": ("", "595-DRV5055A2QDBZR"),
    "MMBT3904LT1G": ("", "863-MMBT3904LT1G"),
    "1N4148W-7-F": ("", "621-1N4148W-F"),
    "SN74HC165DR": ("", "595-SN74HC165DR"),
    "CD74HC4067M96": ("C98457", "595-CD74HC4067M96"),
    "SN74AHCT125DR": ("", "595-SN74AHCT125DR"),
    "MF-RG400-0": ("", "652-MF-RG400-0"),
    "1715721": ("", "651-1715721"),
}
#: The BOM's columns (fab/bom-<board>.csv).
BOM_COLUMNS = [
    "qty", "value", "footprint", "references", "manufacturer", "part number", "LCSC", "Mouser"
]  # fmt: skip


def distributor_numbers(number: str) -> tuple[str, str]:
    """(LCSC, Mouser) for a manufacturer's part number, "" where not known."""
    return DISTRIBUTOR_NUMBERS.get(number, ("", ""))


def part_number(value: str, footprint: str) -> tuple[str, str]:
    """The manufacturer and part number of a BOM line, or ("", "") for a generic part (pin
    headers and sockets, bought by pitch and count)."""
    if footprint == "Connector_IDC:IDC-Header_2x08_P2.54mm_Vertical":
        return IDC_HEADER
    if footprint == "Connector_IDC:IDC-Header_2x05_P2.54mm_Vertical":
        return PI_HEADER
    if footprint.startswith("TerminalBlock_Phoenix:TerminalBlock_Phoenix_MKDS-1,5-2-5.08"):
        return TERMINAL_BLOCK
    return PART_NUMBERS.get((value, footprint), ("", ""))


def rotation_correction(footprint: str) -> float:
    name = footprint.split(":", 1)[-1]
    for pattern, degrees in ROTATION_CORRECTIONS:
        if re.search(pattern, name):
            return degrees
    return 0.0


def placement_rows(board: Any) -> list[list[str]]:
    """The surface-mount parts of a kiutils board, one row each under PLACEMENT_COLUMNS."""
    (edge,) = [g for g in board.graphicItems if getattr(g, "layer", "") == "Edge.Cuts"]
    left = min(edge.start.X, edge.end.X)
    bottom = max(edge.start.Y, edge.end.Y)
    rows = []
    for footprint in board.footprints:
        if footprint.attributes is None or footprint.attributes.type != "smd":
            continue
        angle = footprint.position.angle or 0.0
        turn = math.radians(angle)
        cos, sin = math.cos(turn), math.sin(turn)
        points = [
            (
                footprint.position.X + p.position.X * cos + p.position.Y * sin,
                footprint.position.Y - p.position.X * sin + p.position.Y * cos,
            )
            for p in footprint.pads
        ]
        mid_x = (min(x for x, _ in points) + max(x for x, _ in points)) / 2 - left
        mid_y = bottom - (min(y for _, y in points) + max(y for _, y in points)) / 2
        layer = "Bottom" if footprint.layer == "B.Cu" else "Top"
        rotation = (angle + rotation_correction(footprint.libId or "")) % 360
        rows.append(
            [
                footprint.properties.get("Reference", ""),
                f"{mid_x:.4f}mm",
                f"{mid_y:.4f}mm",
                layer,
                f"{rotation:g}",
            ]
        )
    return sorted(rows, key=lambda row: _natural(row[0]))


def _natural(ref: str) -> tuple[str, int]:
    letters = ref.rstrip("0123456789")
    return letters, int(ref[len(letters) :] or 0)


def write_placement(board_path: Path, fab: Path) -> Path:
    """``fab/<board>-pos.csv``: the placement file of a written board."""
    from kiutils.board import Board

    rows = placement_rows(Board.from_file(str(board_path)))
    fab.mkdir(parents=True, exist_ok=True)
    path = fab / f"{board_path.stem}-pos.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(PLACEMENT_COLUMNS)
        writer.writerows(rows)
    return path


def part_numbers_markdown() -> str:
    """hardware/bom.md's table of the PCB build's part numbers: every fitted part's maker and
    number with the distributors' numbers (:data:`DISTRIBUTOR_NUMBERS`), one row a part."""
    rows = [(value, footprint, *maker) for (value, footprint), maker in PART_NUMBERS.items()]
    rows += [
        ("16-way header", "Connector_IDC:IDC-Header_2x08_P2.54mm_Vertical", *IDC_HEADER),
        ("10-way header (J33)", "Connector_IDC:IDC-Header_2x05_P2.54mm_Vertical", *PI_HEADER),
        ("terminal block (J30)", "TerminalBlock_Phoenix:TerminalBlock_Phoenix_MKDS-1,5-2-5.08",
         *TERMINAL_BLOCK),
    ]  # fmt: skip
    lines = [
        "| part | footprint | manufacturer | part number | LCSC | Mouser |",
        "|---|---|---|---|---|---|",
    ]
    for value, footprint, maker, number in rows:
        lcsc, mouser = distributor_numbers(number)
        short = footprint.split(":", 1)[-1]
        lines.append(
            f"| {value} | {short} | {maker} | {number} | {lcsc or '-'} | {mouser or '-'} |"
        )
    return "\n".join(lines) + "\n"

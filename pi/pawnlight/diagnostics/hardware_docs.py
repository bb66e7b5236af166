"""Regenerate everything in hardware/ that is drawn or computed from data.

    python -m pawnlight.diagnostics.hardware_docs          # writes the files below
    python -m pawnlight.diagnostics.hardware_docs --check  # exit 1 if any is out of date

From hardware/wiring.toml: wiring.md, wiring-presence.svg, wiring-colour.svg,
sensors-presence.svg, sensors-colour.svg and leds.svg.  In hardware/bom.md, the parts between
``<!-- generated: NAME -->`` and ``<!-- end: NAME -->``: the power budget (from the firmware
configs' LED limit) and the magnet table (from pawnlight.diagnostics.magnets and the colour
layout's bands).  tests/hardware/test_hardware_docs.py fails when a file is not what this
writes, so the pictures and tables can never drift from the data.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from pathlib import Path

from pawnlight.board.layout import Layout

from . import magnets
from .draw_board_maps import led_map, sensor_map
from .draw_wiring import wiring_diagram
from .power import budget_markdown
from .wiring import Wiring, load_firmware_config, load_wiring, problems, repository_hardware
from .wiring_tables import wiring_markdown


def magnet_markdown() -> str:
    layout = Layout.named("colour")
    bands = layout.bands[0]
    sensor = magnets.DRV5055A2
    near = magnets.NOMINAL_DISTANCE_MM - magnets.DISTANCE_TOLERANCE_MM
    far = magnets.NOMINAL_DISTANCE_MM + magnets.DISTANCE_TOLERANCE_MM
    lines = [
        f"| pawns | pole facing down | magnet | field at {near:g} / {magnets.NOMINAL_DISTANCE_MM:g}"
        f" / {far:g} mm | {sensor.part} reading | band in colour.toml |",
        "|---|---|---|---|---|---|",
    ]
    readings = magnets.expected_readings(sensor)
    lines.append(
        f"| none (empty) | - | - | 0 mT | {readings['empty'][1]} | "
        f"{bands.empty.low}..{bands.empty.high} |"
    )
    distances = (near, magnets.NOMINAL_DISTANCE_MM, far)
    for colour, pawn in enumerate(magnets.PAWN_MAGNETS):
        fields = " / ".join(f"{pawn.field_mT(d):+.0f}" for d in distances)
        values = readings[pawn.colour]
        band = bands.colours[colour]
        lines.append(
            f"| {pawn.colour} | {pawn.pole} | {pawn.magnet} | {fields} mT | "
            f"{min(values)}..{max(values)} | {band.low}..{band.high} |"
        )
    return "\n".join(lines) + "\n"


def bom_sections() -> dict[str, str]:
    configs = {kind: load_firmware_config(f"{kind}.json") for kind in ("presence", "colour")}
    return {"power": budget_markdown(configs), "magnets": magnet_markdown()}


_SECTION = re.compile(r"(<!-- generated: (\w+) -->\n)(.*?)(<!-- end: \2 -->)", re.DOTALL)


def fill_sections(text: str, sections: dict[str, str]) -> str:
    """Replace the body of every generated section of ``text`` whose name is known."""
    found: set[str] = set()

    def replace(match: re.Match[str]) -> str:
        name = match.group(2)
        if name not in sections:
            return match.group(0)
        found.add(name)
        return f"{match.group(1)}{sections[name]}{match.group(4)}"

    result = _SECTION.sub(replace, text)
    missing = set(sections) - found
    if missing:
        raise ValueError(f"bom.md has no generated section {', '.join(sorted(missing))}")
    return result


def outputs(wiring: Wiring | None = None, folder: Path | None = None) -> dict[Path, str]:
    """Every generated file and its content."""
    folder = folder or repository_hardware()
    wiring = wiring or load_wiring(folder / "wiring.toml")
    files = {
        folder / "wiring.md": wiring_markdown(wiring),
        folder / "leds.svg": led_map(wiring),
    }
    for kind, board in wiring.boards.items():
        files[folder / f"wiring-{kind}.svg"] = wiring_diagram(board, wiring)
        files[folder / f"sensors-{kind}.svg"] = sensor_map(board, wiring)
    bom = folder / "bom.md"
    files[bom] = fill_sections(bom.read_text(encoding="utf-8"), bom_sections())
    return files


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    wiring = load_wiring()
    wrong = problems(wiring)
    if wrong:
        print("hardware/wiring.toml disagrees with the layouts or configs:", file=sys.stderr)
        for problem in wrong:
            print(f"  {problem}", file=sys.stderr)
        return 1
    stale = []
    for path, content in outputs(wiring).items():
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == content:
            continue
        stale.append(path)
        if "--check" not in args:
            path.write_text(content, encoding="utf-8")
            print(f"wrote {path}")
    if "--check" in args and stale:
        print("out of date: " + ", ".join(str(p) for p in stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

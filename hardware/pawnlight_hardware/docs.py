"""Regenerate everything in hardware/ that is drawn or computed from data.

    python -m pawnlight_hardware.docs --write  # writes the files below
    python -m pawnlight_hardware.docs --check  # exit 1 if any is out of date

Without ``--write`` nothing is written: no arguments (or ``--help``) print the help, an unknown
argument is an error, so a typo never overwrites a file.

From hardware/wiring.toml: wiring.md, wiring-presence.svg, wiring-colour.svg,
sensors-presence.svg, sensors-colour.svg and leds.svg.  In hardware/bom.md, the parts between
``<!-- generated: NAME -->`` and ``<!-- end: NAME -->``: the power budget (from the firmware
configs' LED limit), the LED power feeds and the wire to buy (:mod:`.bom_tables`), and the
magnet table (from pawnlight.board.magnets and the colour layout's bands).
tests/hardware/test_hardware_docs.py fails when a file is not what this writes, so the
pictures and tables can never drift from the data.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from pawnlight.board import magnets
from pawnlight.board.layout import Band, Layout

from .bom_tables import feeds_markdown, wire_markdown
from .draw_board_maps import led_map, sensor_map
from .draw_wiring import wiring_diagram
from .pcb.fab_files import part_numbers_markdown
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
        f" / {far:g} mm | {sensor.part} reading, {near:g} to {far:g} mm deep, up to "
        f"{magnets.PLACEMENT_TOLERANCE_MM:g} mm off-centre | band in colour.toml | room to the "
        "band's edges |",
        "|---|---|---|---|---|---|---|",
    ]
    readings = magnets.envelope_readings(sensor)

    def row(
        what: str, pole: str, magnet: str, fields: str, values: tuple[int, int], band: Band
    ) -> str:
        low, high = values
        room = f"{low - band.low:,} / {band.high - high:,}"
        return (
            f"| {what} | {pole} | {magnet} | {fields} | {low}..{high} | "
            f"{band.low}..{band.high} | {room} |"
        )

    lines.append(row("none (empty)", "-", "-", "0 mT", readings["empty"], bands.empty))
    distances = (near, magnets.NOMINAL_DISTANCE_MM, far)
    for colour, pawn in enumerate(magnets.PAWN_MAGNETS):
        fields = " / ".join(f"{pawn.field_mT(d):+.0f}" for d in distances) + " mT"
        lines.append(
            row(
                pawn.colour,
                pawn.pole,
                str(pawn.magnet),
                fields,
                readings[pawn.colour],
                bands.colours[colour],
            )
        )
    top = (1 << layout.bits) - 1
    lowest, highest = sensor.output_range(layout.bits)
    if bands.broken is not None:
        lines.append(
            f"| broken sensor wire (pulled up) | - | - | - | {top} | "
            f"{bands.broken.low}..{bands.broken.high} | {bands.broken.low - highest:,} above "
            "the sensor's highest |"
        )
    if bands.shorted is not None:
        lines.append(
            f"| sensor wire shorted to GND | - | - | - | 0 | "
            f"{bands.shorted.low}..{bands.shorted.high} | {lowest - bands.shorted.high:,} below "
            "the sensor's lowest |"
        )
    return "\n".join(lines) + "\n"


def bom_sections(wiring: Wiring | None = None) -> dict[str, str]:
    configs = {kind: load_firmware_config(f"{kind}.json") for kind in ("presence", "colour")}
    wiring = wiring or load_wiring()
    return {
        "feeds": feeds_markdown(wiring, configs["presence"]),
        "wire": wire_markdown(wiring),
        "power": budget_markdown(configs),
        "magnets": magnet_markdown(),
        "placement": "\n".join(magnets.placement_table()) + "\n",
        "pcb_parts": part_numbers_markdown(),
    }


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
    files[bom] = fill_sections(bom.read_text(encoding="utf-8"), bom_sections(wiring))
    return files


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m pawnlight_hardware.docs",
        description="Regenerate hardware/wiring.md, the SVG drawings and the generated parts "
        "of hardware/bom.md from hardware/wiring.toml, the firmware configs and the layouts.",
    )
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--write", action="store_true", help="write the files that are stale")
    what.add_argument(
        "--check", action="store_true", help="write nothing: exit 1 if any file is stale"
    )
    return parser


def main(argv: Sequence[str] | None = None, folder: Path | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    if not (args.write or args.check):
        parser.print_help(sys.stderr)
        print("\nNothing written: say --write to regenerate, --check to compare.", file=sys.stderr)
        return 2
    folder = folder or repository_hardware()
    wiring = load_wiring(folder / "wiring.toml")
    wrong = problems(wiring)
    if wrong:
        print("hardware/wiring.toml disagrees with the layouts or configs:", file=sys.stderr)
        for problem in wrong:
            print(f"  {problem}", file=sys.stderr)
        return 1
    files = outputs(wiring, folder)
    stale = []
    for path, content in files.items():
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == content:
            continue
        stale.append(path)
        if args.write:
            path.write_text(content, encoding="utf-8")
            print(f"wrote {path}")
    if args.check:
        if stale:
            print("out of date: " + ", ".join(str(p) for p in stale), file=sys.stderr)
            print("regenerate: python -m pawnlight_hardware.docs --write")
            return 1
        print(f"all {len(files)} generated hardware files are up to date.")
    elif not stale:
        print(f"all {len(files)} generated hardware files were already up to date.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

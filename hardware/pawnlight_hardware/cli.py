"""``pawnlight hardware ...``: the build files of a board (needs a checkout and OpenSCAD)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def _parts(args: argparse.Namespace) -> int:
    from .build_files import write_build_files

    try:
        written = write_build_files(Path(args.out))
    except RuntimeError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"wrote {len(written)} files to {args.out}")
    return 0


def _pictures(args: argparse.Namespace) -> int:
    from .pictures import render

    parts = Path(args.parts) if args.parts else None
    try:
        written = render(Path(args.out), parts)
    except RuntimeError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    for path in written:
        print(f"wrote {path}")
    return 0


def _assembly(args: argparse.Namespace) -> int:
    from pawnlight.errors import PawnlightError

    try:
        from .assembly_files import write
    except ImportError as error:
        print(f"error: {error.msg}: pip install -e 'hardware[pcb]' (docs/pcb.md)", file=sys.stderr)
        return 1
    builds = ("pcb", "hand") if args.build == "both" else (args.build,)
    try:
        written = write(Path(args.out), builds, picture=not args.no_picture)
    except (RuntimeError, PawnlightError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    import json

    found = 0
    for build in builds:
        report = json.loads((Path(args.out) / f"assembly-{build}.json").read_text())
        longest = max(report["ribbons_mm"].values(), default=0)
        print(
            f"{build}: {len(report['solids'])} solids, {len(report['problems'])} problems"
            + (f", longest ribbon {longest:.0f} mm" if longest else "")
        )
        for problem in report["problems"]:
            print(f"  {problem}")
        found += len(report["problems"])
    print(f"wrote {len(written)} files to {args.out}")
    return 0 if found == 0 else 1


def _pcb(args: argparse.Namespace) -> int:
    from pawnlight.errors import PawnlightError

    try:
        from .pcb.build import build
    except ImportError as error:
        print(f"error: {error.msg}: pip install -e 'hardware[pcb]' (docs/pcb.md)", file=sys.stderr)
        return 1
    try:
        report = build(Path(args.out))
    except (PawnlightError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    for line in report.lines():
        print(line)
    print(f"wrote {len(report.written)} files to {args.out}")
    return 0 if report.ok else 1


def register(subparsers: Any) -> None:
    hardware = subparsers.add_parser("hardware", help="the files to build a board from")
    commands = hardware.add_subparsers(dest="hardware_command", required=True, metavar="COMMAND")
    parts = commands.add_parser(
        "parts",
        help="write every printed part as STL placed on the board, leds.json, sensors.json "
        "and the 1:1 drilling template (SVG and PDF); needs openscad",
    )
    parts.add_argument("--out", required=True, metavar="DIR", help="the folder to write into")
    parts.set_defaults(handler=_parts)
    pictures = commands.add_parser(
        "pictures",
        help="render PNG pictures of the printed parts from their STL files (docs/img); needs "
        "openscad, and xvfb-run without a display",
    )
    pictures.add_argument("--out", required=True, metavar="DIR", help="the folder to write into")
    pictures.add_argument(
        "--parts",
        metavar="DIR",
        help="a folder `pawnlight hardware parts` wrote (default: build the parts first)",
    )
    pictures.set_defaults(handler=_pictures)
    assembly = commands.add_parser(
        "assembly",
        help="write the whole board as one assembly (OpenSCAD, STL), check every pair of "
        "solids and the cables' room, and draw the exploded view; needs the pcb extra",
    )
    assembly.add_argument("--out", required=True, metavar="DIR", help="the folder to write into")
    assembly.add_argument(
        "--build", choices=("pcb", "hand", "both"), default="both", help="which build (both)"
    )
    assembly.add_argument(
        "--no-picture", action="store_true", help="skip the exploded picture (needs openscad)"
    )
    assembly.set_defaults(handler=_assembly)
    pcb = commands.add_parser(
        "pcb",
        help="write the circuit boards: netlists and ERC reports of the hubs and sensor strips, "
        "the strips' KiCad boards and, with KiCad's pcbnew, their DRC reports and fab files",
    )
    pcb.add_argument("--out", required=True, metavar="DIR", help="the folder to write into")
    pcb.set_defaults(handler=_pcb)


def main(argv: Sequence[str] | None = None) -> int:
    """``pawnlight-hardware ...``: the same subcommands as ``pawnlight hardware ...``."""
    parser = argparse.ArgumentParser(
        prog="pawnlight-hardware", description="the files to build a board from"
    )
    # its usage lines read as the documented `pawnlight hardware ...`, which runs the same code
    commands = parser.add_subparsers(dest="command", required=True, prog="pawnlight")
    register(commands)
    args = parser.parse_args(["hardware", *(sys.argv[1:] if argv is None else argv)])
    return int(args.handler(args) or 0)

"""``pawnlight hardware ...``: the build files of a board (needs a checkout and OpenSCAD)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def _parts(args: argparse.Namespace) -> int:
    from .parts import write_build_files

    try:
        written = write_build_files(Path(args.out))
    except RuntimeError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"wrote {len(written)} files to {args.out}")
    return 0


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

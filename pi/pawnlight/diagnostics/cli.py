"""The ``pawnlight doctor``, ``sensor-test``, ``led-test`` and ``calibrate`` commands.

Each talks to the board directly (``--board SPEC`` as devices.open_board spells it, or its
short forms ``--serial PORT``, the Pico found by USB id, and ``--sim`` for the simulated
firmware, where a scripted person does the pawn moving and the looking, so
the commands run unattended); ``doctor`` can also ask a running daemon (``--url``).  Exit
codes: 0 all well, 1 the board has faults (or the colours are not separable), 2 the board or
the daemon could not be reached, or bad arguments.

Only the arguments live here, so ``pawnlight --help`` stays quick; the work is in
command_runs.py, imported when a command runs.
"""

from __future__ import annotations

import argparse
from typing import Any

from pawnlight.devices.open_board import EXAMPLES

PATTERNS = ("chase", "all", "off")
FAULT_HELP = (
    "with --sim: a fault to build into the simulated board, e.g. dead:T5, stuck:red-S2, "
    "swap:T20/T21, broken:red-start-1, dead-led:7, swap-led:40/41, break-led:125 (repeatable)"
)


def _run(name: str):
    def handler(args: argparse.Namespace) -> int:
        from . import command_runs

        return getattr(command_runs, name)(args)

    return handler


def _board_options(parser: argparse.ArgumentParser, sim_default: str = "presence") -> None:
    other = "colour" if sim_default == "presence" else "presence"
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--serial", metavar="PORT", help="the board's serial port")
    where.add_argument("--board", metavar="SPEC", help=f"the board to open: {EXAMPLES}")
    where.add_argument(
        "--sim",
        nargs="?",
        const=sim_default,
        choices=("presence", "colour"),
        help=f"use the simulated board ({sim_default}, or {other})",
    )
    parser.add_argument("--layout", help="presence, colour or a layout file (default: the board's)")
    parser.add_argument(
        "--data", metavar="DIR", help="the daemon's data folder, for the saved calibration"
    )


def _test_parser(
    subparsers: Any, name: str, help: str, which: tuple[str, str], handler: str
) -> None:
    """A sensor or LED test's command: the board, which places or LEDs, faults, JSON."""
    test = subparsers.add_parser(name, help=help)
    _board_options(test)
    test.add_argument(which[0], help=which[1])
    test.add_argument("--fault", action="append", default=[], help=FAULT_HELP)
    test.add_argument("--json", action="store_true", help="the findings as JSON")
    test.set_defaults(handler=_run(handler))


def register(subparsers: Any) -> None:
    """Add the diagnostic commands to the ``pawnlight`` command's subparsers."""
    doc = subparsers.add_parser(
        "doctor",
        help="board health: link, firmware, live sensors, LED patterns, card reader, counters",
    )
    _board_options(doc)
    doc.add_argument("--url", help="ask a running daemon instead, e.g. http://raspberrypi:8080")
    doc.add_argument("--pin", help="the owner's PIN for --url (default: $PAWNLIGHT_PIN)")
    doc.add_argument("--once", action="store_true", help="one report, no refreshing")
    doc.add_argument("--json", action="store_true", help="the report as JSON (implies --once)")
    doc.add_argument("--leds", choices=PATTERNS, help="show an LED test pattern")
    doc.add_argument("--interval", type=float, default=0.5, help="seconds between refreshes")
    doc.set_defaults(handler=_run("doctor_command"))

    _test_parser(
        subparsers,
        "sensor-test",
        "place a pawn on each square in turn: find dead, stuck, swapped sensors",
        ("--cells", "which places, e.g. T0..T14,red-S1 (default: all 112)"),
        "sensor_test_command",
    )
    _test_parser(
        subparsers,
        "led-test",
        "light each LED in turn: find dead, misplaced LEDs and chain breaks",
        ("--leds", "which LEDs, e.g. 0..59,112 (default: all 132)"),
        "led_test_command",
    )

    cal = subparsers.add_parser(
        "calibrate",
        help="colour boards: measure each colour's readings and save the bands",
        description="Measure each colour's readings on a colour board and save the bands in "
        "the data folder's calibration.toml. A simulated run (--sim) saves only into a folder "
        "given with --data, never into your real one.",
    )
    _board_options(cal, sim_default="colour")
    cal.add_argument(
        "--full", action="store_true", help="every colour on every place (112 steps), not 8"
    )
    cal.add_argument(
        "--rounds", type=int, default=2, help="quick mode: sets of 4 places per colour"
    )
    cal.add_argument("--tolerance", type=int, help="the firmware's tolerance (default: config's)")
    cal.add_argument("--dry-run", action="store_true", help="measure and report, save nothing")
    cal.add_argument(
        "--force", action="store_true", help="save even if colours are too close (not overlapping)"
    )
    cal.set_defaults(handler=_run("calibrate_command"))

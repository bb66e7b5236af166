"""What the diagnostic commands do (their arguments are in cli.py)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pawnlight.board.cells import CELL_NAMES, CELLS, LEDS, parse_cell_name
from pawnlight.board.health import calibration, led_test, sensor_test
from pawnlight.board.health.board_words import led_place_names
from pawnlight.board.health.sensing import Sensing
from pawnlight.board.health.stuck import StuckSensorDetector
from pawnlight.board.layout import SHIPPED, Layout
from pawnlight.devices.open_board import BoardSpec, BoardSpecError, spec_from_options
from pawnlight.devices.sim.board import NoisyBoard
from pawnlight.store import calibration_file
from pawnlight.store.location import data_dir
from pawnlight.terminal_text import wrap, wrap_all

from . import doctor
from .connect import BoardSession, BoardUnavailable, choose_calibrated_layout, connect
from .people import Console, PersonEye, PersonHand
from .procedures import Eye, Hand, Progress, run_calibration, run_led_test, run_sensor_test
from .simulated import ScriptedEye, ScriptedHand, parse_faults

# -- helpers --------------------------------------------------------------------------------------


def _err(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def _data(args: argparse.Namespace) -> Path:
    return data_dir(args.data)


def _board(args: argparse.Namespace) -> BoardSpec:
    """The board the options name; ``--sim`` with a shipped ``--layout`` is of its kind."""
    sim = args.sim
    if sim is not None and args.layout in SHIPPED:
        sim = args.layout
    return spec_from_options(args.board, serial=args.serial, sim=sim)


def _test_board(args: argparse.Namespace) -> BoardSpec:
    """The board of a sensor or LED test; ValueError when ``--fault`` is given for a real board
    or names no fault."""
    board = _board(args)
    if args.fault and not board.simulated:
        raise ValueError("--fault builds faults into the simulated board: add --sim")
    parse_faults(args.fault)
    return board


def _open(
    args: argparse.Namespace, data: Path | None, board: BoardSpec | None = None
) -> tuple[BoardSession, Layout] | str:
    """Connect to the board the options name (``board`` when the command has read it already)
    and choose its layout, calibrated from ``data``: the open session and its layout, or the
    line that says why not (with the session closed again).  Every diagnostic command that
    talks to a board starts here."""
    try:
        session = connect(board if board is not None else _board(args))
    except (BoardSpecError, BoardUnavailable) as error:
        return str(error)
    try:
        return session, choose_calibrated_layout(args.layout, session.info.kind, data)
    except (BoardUnavailable, ValueError) as error:
        session.close()
        return str(error)


def _open_test(
    args: argparse.Namespace, which: str | None, parse: Callable[[str], int], count: int
) -> tuple[Sequence[int], BoardSession, Layout] | str:
    """A sensor or LED test's start: the places or LEDs ``which`` names (all ``count`` when
    none), the open session and its layout; or the line that says why not."""
    try:
        chosen = parse_ranges(which, parse) if which else range(count)
        board = _test_board(args)
    except ValueError as error:
        return str(error)
    opened = _open(args, _data(args), board)
    if isinstance(opened, str):
        return opened
    return (chosen, *opened)


def _hand(
    session: BoardSession, args: argparse.Namespace, layout: Layout, intro: str
) -> tuple[Hand, Progress]:
    """Who places the pawns: the scripted hand of a simulated board (no prompts), else the
    person at the board, told ``intro`` first."""
    if session.firmware is not None:
        hand, _eye = _sim_parts(session, args, layout)
        return hand, _quiet
    console = Console()
    console.say(intro)
    return PersonHand(console, session.view, layout, session.link.send_leds), console.say


def parse_ranges(text: str, parse: Callable[[str], int]) -> list[int]:
    """``"T0..T14,red-S1"`` or ``"0..59,112"`` -> numbers (cells or LEDs), in the order given."""
    result: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if ".." in part:
            first, last = (parse(bound) for bound in part.split("..", 1))
            if last < first:
                raise ValueError(f"{part}: the range runs backwards")
            result += list(range(first, last + 1))
        else:
            result.append(parse(part))
    return result


def _led_number(text: str) -> int:
    number = int(text)
    if not 0 <= number < LEDS:
        raise ValueError(f"LED {number} is not 0..{LEDS - 1}")
    return number


def _sim_parts(
    session: BoardSession, args: argparse.Namespace, layout: Layout
) -> tuple[ScriptedHand, ScriptedEye]:
    """The scripted person of a simulated board: its hand and its eye."""
    sensor_faults, led_faults = parse_faults(args.fault if "fault" in args else [])
    firmware = session.firmware
    assert firmware is not None
    board = NoisyBoard(layout, sensor_faults)
    hand = ScriptedHand(board, firmware.set_sensors, session.view, tolerance=session.tolerance)

    def readback(frame: Sequence[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
        wanted = [tuple(colour) for colour in frame]
        return firmware.wait_for_leds(lambda leds: leds == wanted)

    return hand, ScriptedEye(layout, readback, led_faults)


# -- doctor ---------------------------------------------------------------------------------------


def doctor_command(args: argparse.Namespace) -> int:
    once = args.once or args.json
    data = _data(args)
    if args.url:
        if args.serial or args.sim or args.board:
            return _err("--url asks the daemon: leave out --board, --serial and --sim")
        if args.leds:
            return _err("the daemon drives the LEDs: for test patterns stop it and use --serial")
        pin = args.pin or os.environ.get("PAWNLIGHT_PIN")
        try:
            report = doctor.report_from_daemon(args.url, pin)
            spec = choose_calibrated_layout(args.layout, "presence", data) if args.layout else None
            layout = doctor.layout_for_report(report, spec)
        except (doctor.DaemonUnavailable, BoardUnavailable, ValueError) as error:
            return _err(str(error))
        if once:
            report["findings"] = doctor.findings(report)
            text = (
                json.dumps(report, indent=1) if args.json else doctor.render_report(report, layout)
            )
            print(text)
            return 1 if report["findings"] else 0
        return doctor.run_live(
            lambda: doctor.report_or_outage(args.url, pin), layout, sys.stdout, args.interval
        )
    opened = _open(args, data)
    if isinstance(opened, str):
        return _err(opened)
    session, layout = opened
    with session:
        if once:
            colour = sys.stdout.isatty() and not args.json
            return doctor.run_once(session, layout, args.leds, sys.stdout, args.json, colour)
        detector = StuckSensorDetector(
            layout, quiet_for=doctor.LIVE_QUIET, activity=doctor.LIVE_ACTIVITY, ignore=()
        )
        return doctor.run_live(
            lambda: doctor.report_from_session(session, layout, detector),
            layout,
            sys.stdout,
            args.interval,
            session.link.send_leds,
            args.leds,
        )


# -- sensor test ----------------------------------------------------------------------------------


def sensor_test_command(args: argparse.Namespace) -> int:
    opened = _open_test(args, args.cells, parse_cell_name, CELLS)
    if isinstance(opened, str):
        return _err(opened)
    cells, session, layout = opened
    with session:
        hand, progress = _hand(
            session,
            args,
            layout,
            "Sensor test: put a pawn on each place as asked (its LED lights), then lift it.",
        )
        report = run_sensor_test(session.view, hand, layout, cells, progress)
        session.link.send_leds([(0, 0, 0)] * LEDS)
    sensing = Sensing(layout)
    if args.json:
        print(json.dumps(_findings_json(report.findings, sensor_test.describe, sensing), indent=1))
    else:
        print(f"\nTested {len(report.tested)} places.")
        texts = sensor_test.summary(sensing, report) or ["every sensor works."]
        print("\n".join(wrap_all(texts, "  ", "    ")))
    return 0 if report.ok else 1


def _quiet(_: str) -> None:
    pass


def _findings_json(findings, describe, *context) -> list[dict[str, Any]]:
    out = []
    for finding in findings:
        item = {"kind": type(finding).__name__}
        for key, value in finding.__dict__.items():
            # Cells by their names, as the layout files and the prompts call them.
            item[key] = CELL_NAMES[value] if key in ("cell", "placed", "read", "also") else value
        item["text"] = describe(*context, finding)
        out.append(item)
    return out


# -- LED test -------------------------------------------------------------------------------------


def led_test_command(args: argparse.Namespace) -> int:
    opened = _open_test(args, args.leds, _led_number, LEDS)
    if isinstance(opened, str):
        return _err(opened)
    leds, session, layout = opened
    with session:
        console = Console()
        eye: Eye
        progress: Progress
        if session.firmware is not None:
            _hand, eye = _sim_parts(session, args, layout)
            progress = _quiet
        else:
            console.say("LED test: each LED lights alone in turn; say where you see it.")
            eye = PersonEye(console, led_place_names(layout))
            progress = console.say
        report = run_led_test(session.link.send_leds, eye, layout, leds, progress=progress)
    if args.json:
        print(json.dumps(_findings_json(report.findings, led_test.describe), indent=1))
    else:
        print(f"\nTested {len(report.tested)} LEDs.")
        texts = [led_test.describe(f) for f in report.findings] or [
            "every LED lights in its place."
        ]
        print("\n".join(wrap_all(texts, "  ", "    ")))
    return 0 if report.ok else 1


# -- calibration ----------------------------------------------------------------------------------


def calibrate_command(args: argparse.Namespace) -> int:
    data = _data(args)
    try:
        board = _board(args)
    except BoardSpecError as error:
        return _err(str(error))
    if board.sensing == "presence":
        return _err("only colour boards are calibrated: a presence board has nothing to measure")
    # No data given: the layout's own bands, uncalibrated (this is what calibrates).
    opened = _open(args, None, board)
    if isinstance(opened, str):
        return _err(opened)
    session, layout = opened
    with session:
        if not layout.colour_sensing:
            return _err(
                f"only colour boards are calibrated (this {layout.name} board senses presence)"
            )
        plan = calibration.full_plan() if args.full else calibration.quick_plan(args.rounds)
        hand, progress = _hand(
            session,
            args,
            layout,
            f"Calibration: {len(plan)} steps. Have the pawns of every colour at hand; "
            "put them exactly where asked, centred on their places.",
        )
        tolerance = args.tolerance if args.tolerance is not None else session.tolerance
        result = run_calibration(session.view, hand, layout, plan, tolerance, progress)
        session.link.send_leds([(0, 0, 0)] * LEDS)
    print(_calibration_text(result))
    if result.deltas is None or (result.problems and not args.force):
        print("Not saved: fix the problems above and calibrate again (or --force).")
        return 1
    if args.dry_run:
        print("Not saved (--dry-run).")
        return 0 if result.ok else 1
    if board.simulated and args.data is None:
        # A simulated board's bands are not this board's: never into the real data folder.
        text = (
            f"Not saved: a simulated board's calibration goes only into a folder given with "
            f"--data (yours, {calibration_file.calibration_path(data)}, is untouched)."
        )
        print("\n".join(wrap(text)))
        return 0 if result.ok else 1
    path = calibration_file.save(result, data, layout.name, f"{len(plan)} steps")
    print(f"Saved {path}.")
    print("Restart the daemon to use it (sudo systemctl restart pawnlight).")
    return 0 if result.ok else 1


def _calibration_text(result: calibration.Calibration) -> str:
    lines = ["Readings relative to each place's empty reading:"]
    for spread in result.spreads:
        lines.append(
            f"  {calibration.class_name(spread.what):>6}: {spread.low:+7d} .. {spread.high:+7d}"
            f"  (mean {spread.mean:+9.0f}, {spread.count} readings)"
        )
    if result.deltas is not None:
        lines.append("Bands (relative):")
        for what, band in zip(calibration.CLASSES, result.deltas, strict=True):
            lines.append(f"  {calibration.class_name(what):>6}: {band.low:+7d} .. {band.high:+7d}")
    worst = result.worst_separation
    if worst is not None:
        lines += wrap(
            f"Worst separation: {worst.describe()} "
            f"({result.off_centre_samples} of the pawn readings were off-centre).",
            hang="  ",
        )
    for problem in result.problems:
        lines += wrap(f"problem: {problem.describe()}", "  ", "    ")
    if result.ok:
        lines.append("The colours are well apart.")
    return "\n".join(lines)

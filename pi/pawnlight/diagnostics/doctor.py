"""``pawnlight doctor``: is the board healthy?  Link, firmware, sensors, card reader, counters.

Two sources give the same report:

* the board itself (``--serial PORT``, the Pico found by USB id, or ``--sim``): the doctor
  opens the link, so the daemon must not be running; it can also drive LED test patterns;
* a running daemon (``--url http://pi:8080 --pin PIN``): ``GET /api/diagnostics`` returns the
  owner's diagnostics, so nothing fights the daemon for the serial port.

The report is a plain dict (``--json`` prints it), rendered as text: a header, the counters,
and the 112 channels laid out like the board (terminal_board.py).  Without ``--once`` it
refreshes until Ctrl-C, and watches for sensors stuck on "pawn" while others change.
"""

from __future__ import annotations

import dataclasses
import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from pawnlight.board.cells import CELL_NAMES, EMPTY, LEDS
from pawnlight.board.layout import SHIPPED, Layout

from . import terminal_board
from .connect import BoardSession
from .sensing import Sensing
from .stuck import StuckSensorDetector

Colour = tuple[int, int, int]
DARK: Colour = (0, 0, 0)
PATTERNS = ("chase", "all", "off")
#: In the doctor's live view a sensor is suspect sooner than during a game.
LIVE_QUIET = 60.0
LIVE_ACTIVITY = 10
PIN_HEADER = "X-Pawnlight-Pin"

#: What the link counters mean when they are not zero.
COUNTER_HINTS = {
    "crc_failures": "damaged frames from the board: a long or poor USB cable, or interference",
    "board_crc_failures": "damaged frames to the board: the same, the other way",
    "reconnects": "the link dropped and came back: a loose cable, or the Pico resetting",
    "firmware_restarts": "the Pico restarted: brown-outs (LED supply too weak?) or the watchdog",
    "heartbeat_timeouts": "the board went silent: a hung firmware or a cable problem",
    "malformed": "frames that made no sense: a firmware and Pi software that do not match?",
}


class DaemonUnavailable(RuntimeError):
    pass


# -- gathering ------------------------------------------------------------------------------------


def report_from_session(
    session: BoardSession, layout: Layout, detector: StuckSensorDetector | None = None
) -> dict[str, Any]:
    view = session.view
    board = session.link.board
    values = view.values()
    at = time.monotonic()
    stuck: list[dict[str, Any]] = []
    if detector is not None and values is not None:
        detector.observe(values, at)
        stuck = [s.as_json(detector.sensing, at) for s in detector.suspects(at)]
    return {
        "source": session.source,
        "layout": layout.name,
        "link": dataclasses.asdict(session.link.stats()),
        "link_state": {"up": view.link.up, "detail": view.link.detail},
        "board": None if board is None else dataclasses.asdict(board),
        "sensors": None if values is None else list(values),
        "last_uid": view.last_uid,
        "errors": list(view.errors[-20:]),
        "stuck": stuck,
    }


def report_from_daemon(url: str, pin: str | None, timeout: float = 5.0) -> dict[str, Any]:
    """The daemon's ``GET /api/diagnostics``, as a doctor report."""
    address = url.rstrip("/") + "/api/diagnostics"
    request = urllib.request.Request(address, headers={PIN_HEADER: pin} if pin else {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            data = json.loads(response.read().decode("utf-8"))
    except urllib.error.HTTPError as error:
        detail = error.read().decode("utf-8", "replace")[:300]
        if error.code in (401, 403):
            raise DaemonUnavailable(
                f"{address} refused: {detail or error.reason} (give the owner's PIN with "
                "--pin or PAWNLIGHT_PIN)"
            ) from None
        raise DaemonUnavailable(f"{address}: HTTP {error.code} {detail}") from None
    except (urllib.error.URLError, OSError, ValueError) as error:
        raise DaemonUnavailable(f"cannot reach the daemon at {address}: {error}") from None
    if not isinstance(data, dict):
        raise DaemonUnavailable(f"{address} did not answer with diagnostics")
    data = dict(data)
    data["source"] = f"the daemon at {url}"
    data.setdefault("stuck", [])
    return data


def report_or_outage(url: str, pin: str | None) -> dict[str, Any]:
    """The daemon's report, or one that says why there is none (the live view keeps going
    while the daemon restarts)."""
    try:
        return report_from_daemon(url, pin)
    except DaemonUnavailable as error:
        return {
            "source": f"the daemon at {url}",
            "link_state": {"up": False, "detail": "the daemon does not answer"},
            "errors": [str(error)],
            "sensors": None,
        }


def layout_for_report(report: dict[str, Any], spec: Layout | None) -> Layout:
    """The layout to draw a daemon's report with: the one given, else the daemon's."""
    if spec is not None:
        return spec
    name = report.get("layout")
    if name in SHIPPED:
        return Layout.named(name)
    board = report.get("board") or {}
    kind = board.get("kind")
    if kind in SHIPPED:
        return Layout.named(kind)
    raise DaemonUnavailable(
        f"the daemon uses layout {name!r}, not a shipped one: pass the same file with --layout"
    )


# -- showing --------------------------------------------------------------------------------------


def _board_line(board: dict[str, Any] | None) -> str:
    if not board:
        return "unknown (the link is not up)"
    protocol = ".".join(str(p) for p in board.get("protocol", ()))
    reader = "yes" if board.get("card_reader") else "no"
    return (
        f"{board.get('firmware')} (protocol {protocol}), {board.get('kind')} board, "
        f"{board.get('channels')} channels, {board.get('leds')} LEDs, card reader: {reader}"
    )


def _counters(link: dict[str, Any] | None) -> list[str]:
    if not link:
        return ["  (no link counters)"]
    ours = ["frames_in", "frames_out", "crc_failures", "resyncs", "retransmits", "duplicates"]
    ours += ["malformed", "reconnects", "firmware_restarts", "heartbeat_timeouts"]
    theirs = ["board_uptime_ms", "board_crc_failures", "board_retransmits", "board_queued"]
    lines = [
        "  Pi:    " + ", ".join(f"{k.replace('_', ' ')} {link.get(k, 0)}" for k in ours),
        "  board: " + ", ".join(f"{k[6:].replace('_', ' ')} {link.get(k, 0)}" for k in theirs),
    ]
    for key, hint in COUNTER_HINTS.items():
        if link.get(key):
            lines.append(f"  ! {key.replace('_', ' ')} {link[key]}: {hint}")
    return lines


def render_report(report: dict[str, Any], layout: Layout, colour: bool = False) -> str:
    link = report.get("link") or {}
    state = report.get("link_state")
    if state is None:
        state = {"up": bool(link.get("connected")), "detail": ""}
    up = "up" if state.get("up") else "DOWN"
    detail = f" ({state['detail']})" if state.get("detail") else ""
    values = report.get("sensors")
    stuck_cells = {CELL_NAMES.index(s["cell"]) for s in report.get("stuck", []) if "cell" in s}
    lines = [
        f"pawnlight doctor: {report.get('source', '?')}",
        f"Link:      {up}{detail}",
        f"Firmware:  {_board_line(report.get('board'))}",
        f"Layout:    {layout.name} ({layout.sensing})",
        f"Card:      last UID {report.get('last_uid') or '- (none read since start)'}",
        "Counters:",
        *_counters(link),
    ]
    errors = report.get("errors") or []
    lines.append("Errors:    " + ("none" if not errors else f"{len(errors)}, newest last"))
    lines += [f"  {error}" for error in errors[-10:]]
    if values:
        sensing = Sensing(layout)
        pawns = [
            CELL_NAMES[sensing.cell_of_channel[ch]]
            for ch, value in enumerate(values)
            if layout.classify(sensing.cell_of_channel[ch], value) != EMPTY
        ]
        shown = ", ".join(pawns[:16]) + (f" and {len(pawns) - 16} more" if len(pawns) > 16 else "")
        lines.append(f"Sensors:   {len(pawns)} read a pawn{': ' + shown if pawns else ''}")
    else:
        lines.append("Sensors:   no reading yet")
    for suspect in report.get("stuck", []):
        lines.append(f"  ! stuck? {suspect.get('text', suspect)}")
    lines.append("")
    lines.append(terminal_board.render(layout, values or None, stuck_cells, colour))
    return "\n".join(lines)


# -- LED patterns ---------------------------------------------------------------------------------


def pattern_frame(pattern: str, step: int) -> list[Colour]:
    """Frame ``step`` of a test pattern: chase (one LED runs along the chain with a short
    tail), all (every LED: red, green, blue, white in turn, each for 8 steps), off."""
    frame = [DARK] * LEDS
    if pattern == "chase":
        for tail, level in enumerate((255, 60, 15)):
            frame[(step - tail) % LEDS] = (level, level, level)
    elif pattern == "all":
        colours = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]
        frame = [colours[(step // 8) % len(colours)]] * LEDS
    elif pattern != "off":
        raise ValueError(f"unknown LED pattern {pattern!r} ({', '.join(PATTERNS)})")
    return frame


def run_once(
    session: BoardSession,
    layout: Layout,
    leds: str | None,
    out: TextIO,
    as_json: bool = False,
    colour: bool = False,
    wait: Callable[[float], None] = time.sleep,
) -> int:
    """One report; with ``leds`` a pattern is shown first (``chase`` runs once along the
    chain, ``all`` stays lit in white, ``off`` darkens the board)."""
    if leds == "chase":
        for step in range(LEDS):
            session.link.send_leds(pattern_frame("chase", step))
            wait(0.03)
        session.link.send_leds(pattern_frame("off", 0))
    elif leds == "all":
        session.link.send_leds([(255, 255, 255)] * LEDS)
    elif leds == "off":
        session.link.send_leds(pattern_frame("off", 0))
    session.link.request_snapshot()
    report = report_from_session(session, layout)
    out.write(json.dumps(report, indent=1) if as_json else render_report(report, layout, colour))
    out.write("\n")
    return 0


def run_live(
    fetch: Callable[[], dict[str, Any]],
    layout: Layout,
    out: TextIO,
    interval: float = 0.5,
    show_leds: Callable[[Sequence[Colour]], None] | None = None,
    leds: str | None = None,
    colour: bool = True,
) -> int:
    """Redraw the report every ``interval`` seconds until Ctrl-C."""
    step = 0
    try:
        while True:
            if show_leds is not None and leds is not None:
                show_leds(pattern_frame(leds, step))
            report = fetch()
            out.write("\x1b[H\x1b[2J" + render_report(report, layout, colour) + "\n")
            out.write("\n(Ctrl-C to stop)\n")
            out.flush()
            step += 1
            time.sleep(interval)
    except KeyboardInterrupt:
        if show_leds is not None and leds is not None:
            show_leds(pattern_frame("off", 0))
        out.write("\n")
        return 0

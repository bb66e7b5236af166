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
import shutil
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from pawnlight.board.cells import CELL_NAMES, EMPTY, LEDS
from pawnlight.board.health.counters import COUNTER_HINTS, counter_name, uptime_words
from pawnlight.board.health.sensing import Sensing
from pawnlight.board.health.stuck import StuckSensorDetector
from pawnlight.board.health.wires import wire_faults
from pawnlight.board.layout import SHIPPED, Layout
from pawnlight.board.leds import OFF, RGB
from pawnlight.errors import PawnlightError
from pawnlight.terminal_text import WIDTH, wrap

from . import terminal_board
from .connect import BoardSession

PATTERNS = ("chase", "all", "off")
#: In the doctor's live view a sensor is suspect sooner than during a game.
LIVE_QUIET = 60.0
LIVE_ACTIVITY = 10
PIN_HEADER = "X-Pawnlight-Pin"
#: How long ``--once`` waits for the board's first heartbeat (it sends one every 0.5 s).
HEARTBEAT_WAIT = 3.0


class DaemonUnavailable(PawnlightError, RuntimeError):
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
        "wire_faults": (
            [] if values is None else [f.as_json(layout) for f in wire_faults(layout, values)]
        ),
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
    data.setdefault("wire_faults", [])
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


# -- judging --------------------------------------------------------------------------------------


def findings(report: dict[str, Any]) -> list[str]:
    """What needs a look, each with where to look; empty when the board is healthy.  A non-empty
    list makes ``doctor --once`` exit 1."""
    found = []
    link = report.get("link") or {}
    state = report.get("link_state") or {"up": bool(link.get("connected")), "detail": ""}
    if not state.get("up"):
        detail = f" ({state['detail']})" if state.get("detail") else ""
        found.append(f"the link is down{detail}: the USB cable, or is the Pico flashed?")
    elif report.get("heartbeat") is False:
        found.append(
            "no heartbeat from the board: its counters below are unknown (a hung firmware, or "
            "a cable problem)"
        )
    for key, hint in COUNTER_HINTS.items():
        if link.get(key):
            found.append(f"{counter_name(key)} {link[key]}: {hint}")
    errors = report.get("errors") or []
    if errors:
        found.append(f"the board reported {len(errors)} error(s), listed under Errors")
    for fault in report.get("wire_faults", []):
        found.append(str(fault.get("text", fault)))
    for suspect in report.get("stuck", []):
        found.append(f"stuck? {suspect.get('text', suspect)}")
    if state.get("up") and report.get("sensors") is None:
        found.append("no sensor reading from the board yet")
    return found


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


def _counters(report: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The Pi's link counters and the board's (from its heartbeat), as report lines."""
    link = report.get("link")
    if not link:
        return _field("Pi:", "no link counters"), _field("Board:", "no link counters")
    ours = ["frames_in", "frames_out", "crc_failures", "resyncs", "retransmits", "duplicates"]
    ours += ["malformed", "reconnects", "firmware_restarts", "heartbeat_timeouts"]
    pi = ", ".join(f"{counter_name(k)} {link.get(k, 0)}" for k in ours)
    if report.get("heartbeat") is False:
        board = "no heartbeat yet: unknown"
    else:
        board = f"up {uptime_words(int(link.get('board_uptime_ms', 0)))}, " + ", ".join(
            f"{counter_name(k[6:])} {link.get(k, 0)}"
            for k in ("board_crc_failures", "board_retransmits", "board_queued")
        )
    return _field("Pi:", pi), _field("Board:", board)


LABEL = 11  # "Firmware:  "


def _field(label: str, text: str) -> list[str]:
    """``Label:     text``, wrapped to 80 columns under the text's first word."""
    return wrap(text, f"{label:<{LABEL}}", " " * LABEL)


def _sensor_lines(layout: Layout, values: Sequence[int] | None) -> list[str]:
    if not values:
        return _field("Sensors:", "no reading yet")
    sensing = Sensing(layout)
    pawns = []
    for channel, value in enumerate(values):
        cell = sensing.cell_of_channel[channel]
        if layout.classify(cell, value) == EMPTY:
            continue
        # Colour boards: the reading too, for a magnet glued upside down or a band to adjust.
        pawns.append(CELL_NAMES[cell] + (f" {value}" if layout.colour_sensing else ""))
    shown = ", ".join(pawns[:16]) + (f" and {len(pawns) - 16} more" if len(pawns) > 16 else "")
    return _field("Sensors:", f"{len(pawns)} read a pawn{': ' + shown if pawns else ''}")


def report_sections(report: dict[str, Any], layout: Layout) -> dict[str, list[str]]:
    """The report above the drawing, by section, each line at most 80 columns."""
    link = report.get("link") or {}
    state = report.get("link_state")
    if state is None:
        state = {"up": bool(link.get("connected")), "detail": ""}
    up = "up" if state.get("up") else "DOWN"
    detail = f" ({state['detail']})" if state.get("detail") else ""
    found = findings(report)
    errors = report.get("errors") or []
    pi, board = _counters(report)
    return {
        "title": wrap(f"pawnlight doctor: {report.get('source', '?')}", "", "  "),
        "link": _field("Link:", f"{up}{detail}"),
        "findings": [line for item in found for line in wrap(item, "  ! ", "    ")]
        or _field("Findings:", "none, the board looks healthy"),
        "firmware": _field("Firmware:", _board_line(report.get("board"))),
        "layout": _field("Layout:", f"{layout.name} ({layout.sensing})"),
        "card": _field(
            "Card:", f"last UID {report.get('last_uid') or '- (none read since start)'}"
        ),
        "pi": pi,
        "board": board,
        "errors": _field("Errors:", "none" if not errors else f"{len(errors)}, newest last")
        + [line for error in errors[-10:] for line in wrap(error, "  ", "    ")],
        "sensors": _sensor_lines(layout, report.get("sensors")),
    }


#: The report's order; the live view's puts what changes while you watch first.
REPORT_ORDER: tuple[str, ...] = ("title", "link", "findings", "firmware", "layout", "card", "pi")
REPORT_ORDER += ("board", "errors", "sensors")
LIVE_ORDER = ("link", "findings", "sensors", "card", "board", "pi", "errors", "firmware")


def report_lines(report: dict[str, Any], layout: Layout) -> list[str]:
    sections = report_sections(report, layout)
    return [line for name in REPORT_ORDER for line in sections[name]]


def render_report(report: dict[str, Any], layout: Layout, colour: bool = False) -> str:
    values = report.get("sensors")
    stuck_cells = {CELL_NAMES.index(s["cell"]) for s in report.get("stuck", []) if "cell" in s}
    drawing = terminal_board.render(layout, values or None, stuck_cells, colour)
    return "\n".join([*report_lines(report, layout), "", drawing])


def render_screen(report: dict[str, Any], layout: Layout, rows: int, colour: bool = False) -> str:
    """The live view: the report cut to fit ``rows`` lines with the drawing below it, so the
    screen never scrolls (findings and the sensors come first, so they are never cut)."""
    values = report.get("sensors")
    stuck_cells = {CELL_NAMES.index(s["cell"]) for s in report.get("stuck", []) if "cell" in s}
    drawing = terminal_board.render(layout, values or None, stuck_cells, colour)
    sections = report_sections(report, layout)
    title = _cut(f"pawnlight doctor (Ctrl-C stops): {report.get('source', '?')}")
    lines = [title, *(line for name in LIVE_ORDER for line in sections[name])]
    room = max(2, rows - terminal_board.HEIGHT)
    if len(lines) > room:
        cut = len(lines) - room + 1
        lines = [*lines[: room - 1], f"  ... {cut} more line(s): pawnlight doctor --once"]
    return "\n".join([*lines, drawing])


def _cut(line: str, width: int = WIDTH) -> str:
    return line if len(line) <= width else line[: width - 1] + "…"


# -- LED patterns ---------------------------------------------------------------------------------


def pattern_frame(pattern: str, step: int) -> list[RGB]:
    """Frame ``step`` of a test pattern: chase (one LED runs along the chain with a short
    tail), all (every LED: red, green, blue, white in turn, each for 8 steps), off."""
    frame = [OFF] * LEDS
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
    heartbeat_timeout: float | None = None,
) -> int:
    """One report; with ``leds`` a pattern is shown first (``chase`` runs once along the
    chain, ``all`` stays lit in white, ``off`` darkens the board).  It waits for the board's
    heartbeat first, so the board's counters are real; exit code 1 when it finds a fault."""
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
    wait_at_most = HEARTBEAT_WAIT if heartbeat_timeout is None else heartbeat_timeout
    heartbeat = wait_for_heartbeat(session, wait_at_most)
    report = report_from_session(session, layout)
    report["heartbeat"] = heartbeat
    report["findings"] = findings(report)
    out.write(json.dumps(report, indent=1) if as_json else render_report(report, layout, colour))
    out.write("\n")
    return 1 if report["findings"] else 0


def wait_for_heartbeat(session: BoardSession, timeout: float = HEARTBEAT_WAIT) -> bool:
    """Wait (at most ``timeout`` seconds) for the board's first heartbeat, which brings its own
    counters (uptime, CRC failures...); False if none came or the link is down."""
    deadline = time.monotonic() + timeout
    while True:
        stats = session.link.stats()
        if stats.connected and stats.board_uptime_ms > 0:
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.05)  # heartbeats bring no event to wait on: look again shortly


def run_live(
    fetch: Callable[[], dict[str, Any]],
    layout: Layout,
    out: TextIO,
    interval: float = 0.5,
    show_leds: Callable[[Sequence[RGB]], None] | None = None,
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
            rows = shutil.get_terminal_size((WIDTH, 24)).lines
            # No newline after the last line: a full screen must not scroll.
            out.write("\x1b[H\x1b[2J" + render_screen(report, layout, rows, colour))
            out.flush()
            step += 1
            time.sleep(interval)
    except KeyboardInterrupt:
        if show_leds is not None and leds is not None:
            show_leds(pattern_frame("off", 0))
        out.write("\n")
        return 0

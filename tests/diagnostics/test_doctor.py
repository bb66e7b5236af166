"""``pawnlight doctor``: one report from the simulated board, or from a daemon over HTTP."""

from __future__ import annotations

import io
import json
import threading
from collections.abc import Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import pytest

from pawnlight.board.cells import CELLS, LEDS, parse_cell_name
from pawnlight.board.layout import Layout
from pawnlight.board.leds import RGB
from pawnlight.cli import main
from pawnlight.diagnostics import doctor, terminal_board
from pawnlight.firmware.protocol import PROTOCOL_MAJOR, PROTOCOL_MINOR

from ..helpers import firmware_version

PRESENCE = Layout.named("presence")


def test_doctor_once_on_the_simulated_board(capsys):
    assert main(["doctor", "--sim", "--once"]) == 0
    out = capsys.readouterr().out
    assert "pawnlight doctor: simulated presence board" in out
    assert "Link:      up" in out
    assert "Findings:  none, the board looks healthy" in out
    version = f"{firmware_version()} (protocol {PROTOCOL_MAJOR}.{PROTOCOL_MINOR})"
    assert f"Firmware:  {version}, presence board, 112 channels, 132 LEDs" in out
    assert "CRC failures 0" in out
    board = next(line for line in out.splitlines() if line.startswith("Board:"))
    assert board.startswith("Board:     up ") and "up 0 ms," not in board  # a real heartbeat
    assert "Sensors:   0 read a pawn" in out
    assert out.count("·") >= CELLS  # the board drawn, every place empty
    assert "red's side" in out and "yellow's side" in out
    assert max(len(line) for line in out.splitlines()) <= 80


def test_doctor_once_waits_for_the_heartbeat_and_exits_1_without_one(monkeypatch, capsys):
    from pawnlight.devices.board_link import LinkStats

    class Silent:
        """A link whose board never sends a heartbeat."""

        board = None

        def __init__(self, link):
            self._link = link

        def stats(self):
            return LinkStats(connected=True, frames_in=3)

        def __getattr__(self, name):
            return getattr(self._link, name)

    from pawnlight.diagnostics import connect

    real_connect = connect.connect

    def connect_silent(spec):
        session = real_connect(spec)
        session.link = Silent(session.link)
        return session

    monkeypatch.setattr("pawnlight.diagnostics.command_runs.connect", connect_silent)
    monkeypatch.setattr(doctor, "HEARTBEAT_WAIT", 0.2)
    assert main(["doctor", "--sim", "--once"]) == 1
    out = capsys.readouterr().out
    assert "! no heartbeat from the board" in out
    assert "Board:     no heartbeat yet: unknown" in out


def test_doctor_json_on_the_simulated_colour_board_with_leds_on(capsys):
    assert main(["doctor", "--sim", "colour", "--json", "--leds", "all"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["board"]["kind"] == "colour"
    assert report["link"]["connected"] is True
    assert report["link"]["frames_out"] >= 1
    assert len(report["sensors"]) == CELLS
    assert report["last_uid"] is None and report["errors"] == [] and report["stuck"] == []


def test_a_report_shows_pawns_stuck_sensors_and_counters_that_need_a_look():
    values = [0] * CELLS
    values[PRESENCE.channel_of[parse_cell_name("T12")]] = 1
    report = {
        "source": "test",
        "link": {"connected": True, "crc_failures": 3},
        "board": {"firmware": "1.0.0", "protocol": [1, 0], "kind": "presence"},
        "sensors": values,
        "last_uid": "04A1B2C3",
        "errors": ["board error 7: watchdog reset"],
        "stuck": [{"cell": "T12", "text": "T12 has read a pawn for 12 min"}],
    }
    text = doctor.render_report(report, PRESENCE)
    assert "Link:      up" in text
    assert "last UID 04A1B2C3" in text
    assert "  ! CRC failures 3: damaged frames from the board" in text
    assert "board error 7: watchdog reset" in text
    assert "1 read a pawn: T12" in text
    assert "  ! stuck? T12 has read a pawn for 12 min" in text
    row = next(line for line in text.splitlines() if line.startswith("        ·   ·   ·"))
    assert row.split()[12] == "!"  # T12 marked on the board's top row
    assert max(len(line) for line in text.splitlines()) <= 80
    assert len(doctor.findings(report)) == 3


def test_the_doctor_names_a_broken_colour_sensor_wire_as_a_finding():
    from dataclasses import dataclass
    from types import SimpleNamespace

    @dataclass
    class Stats:
        connected: bool = True

    colour = Layout.named("colour")
    values = [32768] * CELLS
    values[colour.channel_of[parse_cell_name("blue-home-2")]] = 65535
    view = SimpleNamespace(
        values=lambda: values,
        link=SimpleNamespace(up=True, detail="up"),
        last_uid=None,
        errors=[],
    )
    link = SimpleNamespace(board=None, stats=Stats)
    session = SimpleNamespace(source="test", view=view, link=link)
    report = doctor.report_from_session(session, colour)  # type: ignore[arg-type]
    assert [fault["cell"] for fault in report["wire_faults"]] == ["blue-home-2"]
    found = [line for line in doctor.findings(report) if "sensor wire" in line]
    assert found == [report["wire_faults"][0]["text"]]
    assert found[0].startswith("broken sensor wire: blue-home-2 (blue HOME, spot 2; channel 53")


def test_the_board_drawing_puts_every_place_apart_in_80_columns():
    spots = terminal_board.positions()
    assert len(set(spots)) == CELLS
    assert all(0 <= row < 16 and column < terminal_board.WIDTH for row, column in spots)
    text = terminal_board.render(PRESENCE, [0] * CELLS)
    assert len(text.splitlines()) == terminal_board.HEIGHT
    assert max(len(line) for line in text.splitlines()) <= 80
    top, *_, bottom = text.splitlines()
    assert "T0" in top and "red's side" in top and "T15" in top
    assert "T45" in bottom and "yellow's side" in bottom and "T30" in bottom
    assert "green" in text and "blue" in text


def test_colour_readings_are_drawn_as_colour_letters_and_listed_with_their_value():
    colour = Layout.named("colour")
    values = [32768] * CELLS
    values[colour.channel_of[parse_cell_name("T3")]] = 21500
    text = terminal_board.render(colour, values)
    assert text.splitlines()[1].split()[3] == "B"
    report = {"source": "test", "link": {"connected": True}, "sensors": values}
    assert "1 read a pawn: T3 21500" in doctor.render_report(report, colour)


def test_led_patterns():
    assert doctor.pattern_frame("off", 5) == [(0, 0, 0)] * LEDS
    chase = doctor.pattern_frame("chase", 10)
    assert chase[10] == (255, 255, 255) and chase[9] == (60, 60, 60) and chase[11] == (0, 0, 0)
    assert doctor.pattern_frame("chase", 0)[LEDS - 1] == (60, 60, 60)  # the tail wraps
    assert set(doctor.pattern_frame("all", 0)) == {(255, 0, 0)}
    assert set(doctor.pattern_frame("all", 8)) == {(0, 255, 0)}
    with pytest.raises(ValueError):
        doctor.pattern_frame("disco", 0)


def test_the_live_view_redraws_until_ctrl_c_and_darkens_its_pattern():
    calls = []
    frames: list[Sequence[RGB]] = []

    def fetch():
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return {"source": "test", "link": {"connected": True}, "sensors": [0] * CELLS}

    out = io.StringIO()
    assert doctor.run_live(fetch, PRESENCE, out, 0, frames.append, "chase", colour=False) == 0
    assert out.getvalue().count("pawnlight doctor (Ctrl-C stops): test") == 2
    assert frames[-1] == [(0, 0, 0)] * LEDS
    assert frames[0][0] == (255, 255, 255) and frames[1][1] == (255, 255, 255)


class _Daemon(BaseHTTPRequestHandler):
    """Answers GET /api/diagnostics like the web layer: the PIN in X-Pawnlight-Pin."""

    diagnostics: ClassVar[dict] = {
        "sim": False,
        "layout": "presence",
        "link": {"connected": True, "frames_in": 40, "reconnects": 2},
        "board": {"firmware": "1.0.0", "protocol": [1, 0], "kind": "presence", "leds": 132},
        "sensors": [0] * CELLS,
        "last_uid": "04AABBCCDD",
        "errors": [],
        "game_id": 3,
    }

    def do_GET(self):
        if self.path != "/api/diagnostics":
            self.send_error(404)
            return
        if self.headers.get("X-Pawnlight-Pin") != "2468":
            body = json.dumps({"error": "wrong PIN"}).encode()
            self.send_response(403)
        else:
            body = json.dumps(self.diagnostics).encode()
            self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def daemon_url():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Daemon)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_doctor_asks_a_running_daemon(daemon_url, capsys):
    # The daemon's link came back twice: a finding, so exit code 1.
    assert main(["doctor", "--url", daemon_url, "--pin", "2468", "--once"]) == 1
    out = capsys.readouterr().out
    assert f"pawnlight doctor: the daemon at {daemon_url}" in out
    assert "last UID 04AABBCCDD" in out
    assert "! reconnects 2" in out


def test_the_live_view_fits_the_screen_findings_first():
    report = {
        "source": "test",
        "link": {"connected": True, "crc_failures": 3, "reconnects": 1, "malformed": 2},
        "errors": [f"board error {n}: something" for n in range(8)],
        "sensors": [0] * CELLS,
    }
    screen = doctor.render_screen(report, PRESENCE, 24)
    lines = screen.splitlines()
    assert len(lines) == 24 and max(len(line) for line in lines) <= 80
    assert lines[0].startswith("pawnlight doctor (Ctrl-C stops): test")
    assert "! CRC failures 3" in screen and "more line(s): pawnlight doctor --once" in screen
    assert "yellow's side" in lines[-1]


def test_doctor_says_when_the_pin_is_wrong(daemon_url, capsys, monkeypatch):
    monkeypatch.delenv("PAWNLIGHT_PIN", raising=False)
    assert main(["doctor", "--url", daemon_url, "--once"]) == 2
    assert "give the owner's PIN" in capsys.readouterr().err


def test_doctor_leaves_the_leds_to_a_running_daemon(capsys):
    assert main(["doctor", "--url", "http://127.0.0.1:9", "--leds", "all"]) == 2
    assert "the daemon drives the LEDs" in capsys.readouterr().err


def test_the_live_view_of_a_daemon_survives_its_restart():
    report = doctor.report_or_outage("http://127.0.0.1:9", None)
    text = doctor.render_report(report, PRESENCE)
    assert "Link:      DOWN (the daemon does not answer)" in text
    assert "cannot reach the daemon" in text
    assert "Sensors:   no reading yet" in text

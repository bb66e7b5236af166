"""Connecting to a board for a diagnostic command: opened by devices.open_board (a serial
port, the Pico found by USB id, or a simulated board), connected, its first snapshot in; and
the layout that maps its channels to places, with the saved calibration.

The daemon holds the serial port while it runs (opened exclusively), so these commands ask
the person to stop it first, or - for ``doctor`` - to ask the daemon instead (``--url``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from pawnlight.board import layout as layouts
from pawnlight.board.layout import SHIPPED, Layout
from pawnlight.devices.board_link import BoardInfo, BoardLink
from pawnlight.devices.firmware_configs import load_firmware_config
from pawnlight.devices.open_board import BoardSpec, BoardUnavailable, open_board
from pawnlight.devices.sim.firmware import SimulatedFirmware
from pawnlight.store.calibration_file import apply_saved_calibration

from .board_view import BoardView

CONNECT_TIMEOUT = 10.0


@dataclass
class BoardSession:
    """A connected board: its link, the view of what it reports, and (``--sim``) the firmware."""

    link: BoardLink
    view: BoardView
    info: BoardInfo
    source: str
    firmware: SimulatedFirmware | None = None

    def close(self) -> None:
        self.link.stop()
        if self.firmware is not None:
            self.firmware.stop()

    def __enter__(self) -> BoardSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def tolerance(self) -> int:
        """The firmware's analog tolerance, when known (the simulated firmware's config)."""
        if self.firmware is None:
            return default_tolerance(self.info.kind)
        config = json.loads(Path(self.firmware.config_path).read_text(encoding="utf-8"))
        return int(config.get("tolerance", 0))


def default_tolerance(kind: str) -> int:
    """The shipped firmware config's tolerance for a board kind (the Pico does not say)."""
    if kind not in SHIPPED:
        return 0
    return int(load_firmware_config(f"{kind}.json")["tolerance"])


def connect(spec: BoardSpec, timeout: float = CONNECT_TIMEOUT) -> BoardSession:
    """Open the board, wait until it is connected and has sent its sensors."""
    if spec.port is not None and not Path(spec.port).exists():
        raise BoardUnavailable(f"cannot reach the board: there is no port {spec.port}")
    view = BoardView()
    board = open_board(spec, view)
    timeout *= board.slowdown
    try:
        info = board.link.wait_connected(timeout)
        if view.wait_for(lambda values: True, timeout) is None:
            raise TimeoutError("the board sent no sensor snapshot")
    except Exception as error:
        board.stop()
        raise BoardUnavailable(_advice(str(error), spec.port)) from None
    return BoardSession(board.link, view, info, spec.words(), board.firmware)


def _advice(problem: str, serial: str | None) -> str:
    hints = [f"cannot reach the board: {problem}"]
    if "lock" in problem or "busy" in problem or "exclusive" in problem.lower():
        hints.append(
            "the pawnlight daemon probably holds the port: stop it (sudo systemctl stop "
            "pawnlight), or ask it instead: pawnlight doctor --url http://localhost:8080"
        )
    elif "no board found" in problem:
        hints.append("is the Pico plugged in and flashed? (docs/assembly.md, 'Flashing the Pico')")
    if serial is None:
        hints.append("name the port with --serial /dev/ttyACM0, or try --sim")
    return "\n".join(hints)


def choose_calibrated_layout(spec: str | None, kind: str, data: Path | None = None) -> Layout:
    """board.layout.choose_layout for a connected board, calibrated: the layout named by
    ``spec`` (presence, colour or a file), else the board's own kind; a colour layout gets the
    saved calibration from ``data`` if there is one.  A board whose firmware has no valid
    config (kind neither presence nor colour) is BoardUnavailable, with what to do."""
    if spec is None and kind not in SHIPPED:
        raise BoardUnavailable(
            f"the board says it is {kind!r}: its firmware has no valid config.json "
            "(docs/assembly.md, 'Flashing the Pico'); or name a layout with --layout"
        )
    layout = layouts.choose_layout(spec, kind)
    if data is not None:
        layout = apply_saved_calibration(layout, data)
    return layout

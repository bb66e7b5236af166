"""The builder's terminal tools, run in a real 80x24 terminal (tmux), fit it.

Each command runs in a detached tmux session of exactly 80 columns and 24 lines; the pane's
whole history is captured with wrapped lines joined (``capture-pane -J``), so a line that was
wider than 80 columns shows up wider here.  The live doctor must also fit the 24 lines: its
title must still be on the first line once the drawing's last line is on the screen.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from pawnlight.rules.game import GameConfig
from pawnlight.store.record import GameRecord, write_record

from .store.randomplay import random_game

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed (scripts/install-system-packages)"
)
DONE = "__command_finished__"
WAIT = 90.0  # at most, on a busy machine; the loop ends as soon as the screen shows the end


class Terminal:
    """One tmux server of our own (its own socket), one 80x24 window."""

    def __init__(self) -> None:
        self.socket = f"pawnlight-test-{uuid.uuid4().hex}"

    def tmux(self, *args: str) -> str:
        command = ["tmux", "-L", self.socket, "-f", os.devnull, *args]
        return subprocess.run(command, check=True, capture_output=True, text=True).stdout

    def run(self, command: str, env: dict[str, str]) -> None:
        exports = " ".join(f"{key}={shlex.quote(value)}" for key, value in env.items())
        shell = f"export {exports}; {command}; echo {DONE}; sleep {WAIT}"
        self.tmux("new-session", "-d", "-x", "80", "-y", "24", "-s", "t", "sh", "-c", shell)

    def screen(self) -> list[str]:
        return self.tmux("capture-pane", "-p", "-J", "-t", "t").rstrip("\n").split("\n")

    def history(self) -> list[str]:
        return self.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "t").rstrip("\n").split("\n")

    def wait_for(self, *texts: str) -> list[str]:
        """The first screen that shows every one of ``texts`` (each on one of its lines)."""
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            screen = self.screen()
            if all(any(text in line for line in screen) for text in texts):
                return screen
            time.sleep(0.2)
        raise AssertionError(f"{texts!r} never showed; the screen:\n" + "\n".join(self.screen()))

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    term = Terminal()
    yield term
    term.close()


@pytest.fixture
def env() -> Iterator[dict[str, str]]:
    # A short data folder, like a real one (/var/lib/pawnlight): the reports name its files.
    data = Path(tempfile.mkdtemp(prefix="pl-"))
    yield {
        "PAWNLIGHT_DATA": str(data),
        "PYTHONPATH": os.pathsep.join(sys.path),
        "TERM": "xterm-256color",
        "LANG": "C.UTF-8",
    }
    shutil.rmtree(data, ignore_errors=True)


PAWNLIGHT = f"{shlex.quote(sys.executable)} -m pawnlight.cli"


def _fits(lines: list[str]) -> None:
    wide = [line for line in lines if len(line) > 80]
    assert not wide, f"{len(wide)} line(s) wider than 80 columns, e.g. {wide[0]!r}"


@pytest.mark.parametrize("kind", ["presence", "colour"])
def test_the_live_doctor_fits_80x24(terminal, env, kind):
    terminal.run(f"{PAWNLIGHT} doctor --sim {kind} --interval 0.2", env)
    # A whole frame with the link up: the first frames (the simulated board still starting,
    # slowly on a busy machine) say it is not up yet; the drawing's last line ends a frame
    # (one caught while it is being drawn lacks it).
    screen = terminal.wait_for("Link:      up", "yellow's side")
    _fits(screen)
    assert len(screen) <= 24
    assert screen[0].startswith("pawnlight doctor (Ctrl-C stops): simulated")
    assert any("red's side" in line for line in screen)


@pytest.mark.parametrize(
    "command",
    [
        "doctor --sim colour --once",
        "sensor-test --sim --cells T0..T3 --fault swap:T1/T2 --fault dead:T2",
        "sensor-test --sim colour --cells T0..T5 --fault stuck:T3",
        "led-test --sim --fault break-led:130",
        "led-test --sim --leds 0..9 --fault break-led:5 --fault dead-led:2",
        "calibrate --sim --rounds 1 --tolerance 9000 --dry-run",  # too close: long problems
        "calibrate --sim --rounds 1",  # a simulated run: not saved, and says why
    ],
)
def test_reports_fit_80_columns(terminal, env, command):
    terminal.run(f"{PAWNLIGHT} {command}", env)
    terminal.wait_for(DONE)
    history = terminal.history()
    _fits(history)
    assert len([line for line in history if line.strip()]) > 3


def test_games_replay_and_list_of_four_players_fit_80_columns(terminal, env, tmp_path):
    record = tmp_path / "four-players.jsonl"
    teams = GameConfig(players=("red", "blue", "yellow", "green"), teams=True)
    record.write_text(write_record(GameRecord.from_game(random_game(teams, 3))))
    # The record by a short name, as a builder types it (a path longer than a line stays whole).
    terminal.run(
        f"cd {shlex.quote(str(tmp_path))}; {PAWNLIGHT} games replay four-players.jsonl "
        f"| tail -n 400; {PAWNLIGHT} games import four-players.jsonl; {PAWNLIGHT} games list",
        env,
    )
    terminal.wait_for(DONE)
    history = terminal.history()
    _fits(history)
    assert any(" - slides " in line or " bumps " in line for line in history)
    assert any("R+Y B+G" in line for line in history), "\n".join(history[-15:])


def test_the_terminal_is_really_80_columns(terminal, env):
    terminal.run("printf '%081d\\n' 0", env)  # 81 characters: tmux wraps them
    terminal.wait_for(DONE)
    assert len(terminal.screen()[0]) == 81  # joined again by -J: wrapping is seen
    size = terminal.tmux("display", "-p", "-t", "t", "#{window_width}x#{window_height}")
    assert size.strip() == "80x24"

"""Every benchmark still produces its figures: each runs in its short mode (``--smoke``).

The figures themselves are goals for people to read (README, docs/), not assertions: a shared
two-core machine cannot hold a test to milliseconds.  What a test can hold a benchmark to is that
it runs to the end and prints what it measures, so a change elsewhere (a renamed method the probe
wraps, a protocol the link benchmark speaks) cannot leave a benchmark that no longer works
unnoticed until someone needs it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pawnlight.devices.sim.emulated_pico import missing
from pawnlight.remote.link.local_broker import missing as no_broker

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"

#: Each benchmark, and a line its figures must print (a number with its unit).
FIGURES = {
    "rules_speed.py": r"ratio \(Game\)\s+[\d.]+x",
    "journal_append.py": r"CPU median\s+[\d.]+ ms",
    "player_speed.py": r"strong:budget=50\s+[\d.]+",
    "led_flood.py": r"scan period median\s+[\d.]+ ms",
    "lights_speed.py": r"LED frame .*: [\d.]+ ms",
    "link_latency.py": r"median\s+[\d.]+ ms",
    "daemon_latency.py": r"confirmation .*median\s+[\d.]+ ms",
    "web_load.py": r"(?s)change -> page updated\s+.*[\d.]+ ms.*flood.*/api/state\s+median\s+[\d.]+",
    "pico_emulated.py": r"scan median [\d.]+x idle",
    "remote.py": r"(?s)B's LEDs lit\s+median\s+[\d.]+ ms.*delivered to the club\s+[\d.]+ msg/s",
}

#: Benchmarks of the firmware on the emulated RP2040: run where its UF2 and boot ROM are.
EMULATED = {"pico_emulated.py"}
#: Benchmarks that start Debian's Mosquitto.
BROKER = {"remote.py"}


def test_every_benchmark_has_a_smoke_run() -> None:
    found = {path.name for path in BENCHMARKS.glob("*.py")}
    assert found == set(FIGURES), "list each benchmark's figures here"


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.emulated_chip) if n in EMULATED else n
        for n in sorted(FIGURES)
    ],
)
def test_the_benchmark_prints_its_figures(name: str) -> None:
    if name in EMULATED and (reason := missing()) is not None:
        pytest.skip(f"no emulated Pico: {reason}")
    if name in BROKER and (reason := no_broker()) is not None:
        pytest.skip(f"no local broker: {reason}")
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / name), "--smoke"],
        capture_output=True,
        text=True,
        timeout=240,  # only a hang guard: a smoke run takes seconds
        cwd=ROOT,
        env=env,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"{name} --smoke exited {done.returncode}:\n{output[-3000:]}"
    assert re.search(FIGURES[name], done.stdout), f"{name} printed no figures:\n{output[-3000:]}"

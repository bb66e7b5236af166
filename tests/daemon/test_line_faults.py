"""The simulated line's made-up frames (POST /api/sim/line, the simulated board's ``line``): each
is read, none taken for a repeat, and none makes the board's own next frame look like one.

The daemon hands the faults to the simulated firmware (SimulatedFirmware.line_fault), which sends
``bad-error`` and ``bad-snapshot`` in its own sequence like any other message; the daemon's driver
reads them off the pty as it reads the board's own frames."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pawnlight.devices.serial_link import SerialBoardLink
from pawnlight.runtime.config import Config
from pawnlight.runtime.daemon import Daemon

WAIT = 15.0
#: What the owner notes of each made-up frame once the driver has read it.
BAD_ERROR = "malformed ERROR frame"  # its text is not UTF-8: dropped and counted
BAD_SNAPSHOT = "malformed SNAPSHOT frame"


def until(done: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[Daemon]:
    daemon = Daemon(Config(data=tmp_path, sim=True, layout="presence", http_port=0))
    daemon.start(web=False)
    try:
        until(lambda: link_of(daemon).connected, "the simulated board's link")
        yield daemon
    finally:
        daemon.stop()


def link_of(daemon: Daemon) -> SerialBoardLink:
    assert isinstance(daemon.link, SerialBoardLink)  # the simulated board is on a real pty
    return daemon.link


def fault(daemon: Daemon, name: str) -> None:
    """What POST /api/sim/line does: it answers at once, before the driver reads the frame."""
    assert daemon.sim_board is not None
    daemon.sim_board.line(name)


def read(daemon: Daemon, text: str) -> int:
    """How many of the owner's board errors so far say ``text``."""
    assert daemon.owner is not None
    errors: list[str] = daemon.owner.diagnostics()["errors"]
    return sum(text in error for error in errors)


def change(daemon: Daemon, channel: int) -> None:
    """The board's own next frame: flip a sensor and wait till the owner has its new value."""
    firmware, owner = daemon.firmware, daemon.owner
    assert firmware is not None and owner is not None
    value = 1 - firmware.sensors[channel]
    firmware.set_sensor(channel, value)
    until(lambda: owner.diagnostics()["sensors"][channel] == value, f"sensor {channel}")


def nothing_taken_for_a_repeat(daemon: Daemon) -> None:
    """No frame refused as old, no reconnect.  (A duplicate may be counted: on a busy machine
    the board re-sends a frame whose ACK came late, and the driver rightly drops the copy; that
    no fault was dropped as a repeat the tests check by counting the faults read.)"""
    stats = link_of(daemon).stats()
    assert stats.old_frames == 0 and stats.reconnects == 0


def test_back_to_back_faults_before_the_driver_reads_either_are_both_read(daemon):
    # The API answers before the driver reads the frame: the second fault must not be dropped
    # as a repeat of the first (the daemon used to number them itself, and it was).  The bad
    # snapshot goes first: each malformed frame asks for a fresh snapshot, which would rightly
    # take the place of a (made-up) snapshot still waiting on the board.
    fault(daemon, "bad-snapshot")
    fault(daemon, "bad-error")
    until(lambda: read(daemon, BAD_ERROR) == 1 and read(daemon, BAD_SNAPSHOT) == 1, "both")
    change(daemon, 70)
    nothing_taken_for_a_repeat(daemon)


def test_a_fault_after_the_driver_read_the_last_made_up_frame_is_read_too(daemon):
    # Made-up frames, each read before the next, and the board's own frames between them: none
    # is taken for a repeat of another, and the board's own changes all arrive.
    fault(daemon, "bad-error")
    until(lambda: read(daemon, BAD_ERROR) == 1, "the first made-up frame")
    fault(daemon, "bad-error")
    until(lambda: read(daemon, BAD_ERROR) == 2, "the second made-up frame")
    change(daemon, 70)
    fault(daemon, "bad-snapshot")
    until(lambda: read(daemon, BAD_SNAPSHOT) == 1, "the third made-up frame")
    change(daemon, 71)
    assert read(daemon, BAD_ERROR) == 2
    nothing_taken_for_a_repeat(daemon)

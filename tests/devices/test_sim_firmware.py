"""SimulatedFirmware itself: lifecycle, control channel, cable, processes left behind."""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path

import pytest
import serial

from pawnlight.devices.serial_link import SerialBoardLink
from pawnlight.devices.sim.firmware import SimulatedFirmware, find_micropython
from pawnlight.firmware import protocol as P

from .helpers import WAIT, EventRecorder


def test_micropython_is_found_next_to_python() -> None:
    assert Path(find_micropython()).name == "micropython"


def test_port_is_a_raw_pty_usable_with_pyserial(sim: SimulatedFirmware) -> None:
    assert Path(sim.port).is_symlink()
    assert os.readlink(sim.port).startswith("/dev/pts/")
    with serial.Serial(sim.port, timeout=WAIT) as port:
        port.write(P.encode_frame(P.HOST_HELLO, 0, P.encode_host_hello(5)))
        decoder = P.FrameDecoder()
        frames: list[tuple[int, int, bytes]] = []
        while not any(f[0] == P.HELLO for f in frames):
            data = port.read(1)
            assert data, "no HELLO from the simulated firmware"
            frames += decoder.feed(data + port.read(port.in_waiting))
        hello = next(f for f in frames if f[0] == P.HELLO)
        assert P.decode_hello(hello[2])[2:6] == (
            P.KIND_PRESENCE,
            P.FEATURE_CARD_READER | P.FEATURE_LED_SCENES,
            112,
            132,
        )


def test_firmware_clears_the_leds_at_boot(sim: SimulatedFirmware) -> None:
    assert sim.led_writes >= 1
    assert sim.leds() == [(0, 0, 0)] * 132


def test_restart_keeps_the_physical_world(sim: SimulatedFirmware, recorder: EventRecorder) -> None:
    sim.set_sensor(8, 1)
    sim.present_card("01020304")
    sim.restart()
    assert sim.boots == 2 and sim.running
    with SerialBoardLink(recorder, sim.port) as link:
        link.wait_connected(WAIT)
        from pawnlight.devices.events import CardRead, SensorSnapshot

        snapshot = recorder.wait_for(lambda e: isinstance(e, SensorSnapshot))
        assert snapshot.values[8] == 1
        recorder.wait_for(lambda e: isinstance(e, CardRead) and e.uid == "01020304")


def test_unplug_removes_the_port_and_plug_in_brings_a_new_pty(sim: SimulatedFirmware) -> None:
    first = os.readlink(sim.port)
    port = serial.Serial(sim.port, timeout=WAIT)
    try:
        sim.unplug()
        assert not sim.plugged and not os.path.exists(sim.port)
        with pytest.raises(serial.SerialException):
            port.read(1)  # the line hung up under the open port
    finally:
        port.close()
    sim.plug_in()
    assert sim.plugged and os.readlink(sim.port).startswith("/dev/pts/")
    assert sim.running and sim.boots == 1
    assert first.startswith("/dev/pts/")  # (the kernel may give the new pty the same number)


def test_sync_and_reader_polls(sim: SimulatedFirmware) -> None:
    polls = sim.sync()["reader_polls"]
    assert isinstance(polls, int)
    sim.wait_reader_polls(2)
    later = sim.sync()["reader_polls"]
    assert isinstance(later, int) and later >= polls + 2


def test_bad_arguments_are_refused(sim: SimulatedFirmware) -> None:
    with pytest.raises(ValueError):
        sim.set_sensor(112, 1)
    with pytest.raises(ValueError):
        sim.set_sensors([0] * 3)
    with pytest.raises(ValueError):
        sim.present_card("0102")


def test_usable_from_many_threads(sim: SimulatedFirmware, recorder: EventRecorder) -> None:
    from pawnlight.devices.events import SensorSnapshot

    with SerialBoardLink(recorder, sim.port) as link:
        link.wait_connected(WAIT)

        def worker(first: int) -> None:
            for channel in range(first, 112, 4):
                sim.set_sensor(channel, 1)
                sim.leds()

        threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        sim.sync()
        assert sim.sensors == (1,) * 112
        since = recorder.mark()

        def all_on(e: object) -> bool:
            return isinstance(e, SensorSnapshot) and e.values == (1,) * 112

        # Keep asking until the debounced state has caught up with the world.
        for _ in range(50):
            link.request_snapshot()
            snapshot = recorder.wait_for(lambda e: isinstance(e, SensorSnapshot), since)
            if all_on(snapshot):
                break
            since = recorder.mark()
        assert all_on(snapshot)


def _children() -> set[int]:
    """Live child processes of this process (any of its threads may have started them)."""
    pids: set[int] = set()
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        with contextlib.suppress(FileNotFoundError):  # the thread just ended
            pids |= {int(pid) for pid in (task / "children").read_text().split()}
    return pids


def test_stop_leaves_no_process_behind() -> None:
    before = _children()
    sim = SimulatedFirmware("colour")
    with sim:
        sim.restart()
        sim.hang(10)
        pids = _children() - before
        assert len(pids) == 1
    assert _children() - before == set()
    assert not sim.running
    sim.stop()  # twice is harmless


def test_maintenance_reset_halts_the_simulated_board(recorder: EventRecorder) -> None:
    from pawnlight.devices.events import LinkState

    with SimulatedFirmware("presence") as sim, SerialBoardLink(recorder, sim.port) as link:
        link.wait_connected(WAIT)
        since = recorder.mark()
        link.reboot_board(maintenance=True)
        # main.py returns at the next boot instead of starting the firmware (on a Pico the
        # REPL is then free for mpremote); the driver sees the board fall silent.
        down = recorder.wait_for(lambda e: isinstance(e, LinkState) and not e.up, since, 15)
        assert "heartbeat" in down.detail or "HELLO" in down.detail
        assert sim.exit_codes[:2] == [75, 0]
        sim.restart()
        recorder.wait_for(lambda e: isinstance(e, LinkState) and e.up, since, 15)


def test_maintenance_request_that_cannot_be_stored_still_leaves_for_the_repl(
    recorder: EventRecorder,
) -> None:
    from pawnlight.devices.events import FirmwareError

    with SimulatedFirmware("presence") as sim, SerialBoardLink(recorder, sim.port) as link:
        link.wait_connected(WAIT)
        assert sim._tmp is not None
        (sim._tmp / "maintenance.flag").mkdir()  # opening it for writing now fails
        link.reboot_board(maintenance=True)
        with sim._changed:
            assert sim._changed.wait_for(lambda: sim.exit_codes, 10)
        # Left the firmware at once (exit 0: the REPL), not a crash and a reboot into it.
        assert sim.exit_codes == [0]
        assert not recorder.matching(lambda e: isinstance(e, FirmwareError))


def test_held_bootsel_skips_the_firmware_at_boot() -> None:
    with SimulatedFirmware("presence", card_reader=False) as sim:
        sim.hold_bootsel()
        with pytest.raises(RuntimeError, match="did not start"):
            sim.restart()
        assert sim.exit_codes[-1] == 0 and not sim.running
        sim.hold_bootsel(False)
        sim.restart()
        assert sim.running

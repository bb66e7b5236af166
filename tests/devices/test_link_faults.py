"""A USB cable in a family living room: damaged bytes, lost frames, reboots, unplugging.

None of it may crash the driver, lose a sensor change, or make it act on a corrupt frame.
Faults are injected on the simulated line (pawnlight.devices.sim.pty_relay) between the real
firmware and the real driver.
"""

from __future__ import annotations

import os
import random
import threading
import time

import pytest

from pawnlight.devices.board_link import ProtocolVersionError
from pawnlight.devices.events import LinkState, SensorChanged, SensorSnapshot
from pawnlight.devices.link_session import LinkSettings
from pawnlight.devices.serial_link import SerialBoardLink
from pawnlight.devices.sim.firmware import TO_BOARD, TO_HOST, SimulatedFirmware
from pawnlight.firmware import protocol as P

from ..helpers import ManualClock
from .helpers import WAIT, EventRecorder


def changes_of(recorder: EventRecorder, channel: int, since: int = 0) -> list[int]:
    return [
        e.value
        for e in recorder.matching(lambda e: isinstance(e, SensorChanged), since)
        if e.channel == channel
    ]


def change_once(sim: SimulatedFirmware, recorder: EventRecorder, channel: int) -> None:
    """Flip a sensor, wait for its event, then prove (with a second change queued behind
    it) that it was reported exactly once."""
    since = recorder.mark()
    value = 1 - sim.sensors[channel]
    sim.set_sensor(channel, value)
    recorder.wait_for(lambda e: isinstance(e, SensorChanged) and e.channel == channel, since)
    barrier = (channel + 1) % sim.channels
    barrier_value = 1 - sim.sensors[barrier]
    sim.set_sensor(barrier, barrier_value)
    recorder.wait_for(
        lambda e: isinstance(e, SensorChanged) and (e.channel, e.value) == (barrier, barrier_value),
        since,
    )
    assert changes_of(recorder, channel, since) == [value]


@pytest.mark.parametrize("fault", ["drop", "corrupt", "truncate", "duplicate"])
def test_board_to_pi_fault_on_a_sensor_change_loses_nothing(
    sim: SimulatedFirmware, link: SerialBoardLink, recorder: EventRecorder, fault: str
) -> None:
    sim.faults.arm(TO_HOST, fault, message=P.SENSOR_CHANGES_TIMED)  # the driver asks for 1.2
    change_once(sim, recorder, 30)
    assert sim.faults.applied(TO_HOST)[fault] == 1
    stats = link.stats()
    if fault == "corrupt":
        assert stats.crc_failures + stats.resyncs >= 1
    if fault == "duplicate":
        assert stats.duplicates >= 1
    assert stats.reconnects == 0


@pytest.mark.parametrize("fault", ["drop", "corrupt", "truncate"])
def test_lost_ack_makes_the_board_resend_and_the_pi_drop_the_duplicate(
    sim: SimulatedFirmware, link: SerialBoardLink, recorder: EventRecorder, fault: str
) -> None:
    sim.faults.arm(TO_BOARD, fault, message=P.ACK)
    change_once(sim, recorder, 50)
    assert sim.faults.applied(TO_BOARD)[fault] == 1
    assert link.stats().duplicates >= 1


@pytest.mark.parametrize("fault", ["drop", "corrupt", "truncate", "duplicate"])
def test_damaged_led_frame_still_reaches_the_leds(
    sim: SimulatedFirmware, link: SerialBoardLink, fault: str
) -> None:
    sim.faults.arm(TO_BOARD, fault, message=P.LED_FRAME)
    link.send_leds([(7, 8, 9)] * 5)
    sim.wait_for_leds(lambda leds: leds[4] == (7, 8, 9))
    assert sim.faults.applied(TO_BOARD)[fault] == 1
    if fault != "duplicate":
        assert link.stats().retransmits >= 1


def test_garbage_from_the_board_is_skipped(
    sim: SimulatedFirmware, link: SerialBoardLink, recorder: EventRecorder
) -> None:
    rng = random.Random(6)
    for _ in range(20):
        sim.faults.inject(TO_HOST, bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300))))
    sim.faults.inject(TO_HOST, b"\x00" * 50 + b"\xff" * 2000)  # longer than any frame
    change_once(sim, recorder, 70)
    stats = link.stats()
    assert stats.resyncs + stats.crc_failures >= 1
    assert stats.reconnects == 0 and link.connected


def test_garbage_to_the_board_is_skipped(
    sim: SimulatedFirmware, link: SerialBoardLink, recorder: EventRecorder
) -> None:
    rng = random.Random(7)
    for _ in range(20):
        sim.faults.inject(TO_BOARD, bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300))))
    link.send_leds([(1, 2, 3)])
    sim.wait_for_leds(lambda leds: leds[0] == (1, 2, 3))
    change_once(sim, recorder, 71)
    assert sim.boots == 1, sim.stderr()


def test_valid_frame_of_an_unknown_type_is_ignored(
    sim: SimulatedFirmware, link: SerialBoardLink, recorder: EventRecorder
) -> None:
    # What a newer firmware of the same major version might send.
    sim.faults.inject(TO_HOST, P.encode_frame(0x7E, 0, b"future"))
    sim.faults.inject(TO_BOARD, P.encode_frame(0x7F, 0, b"future"))
    change_once(sim, recorder, 72)
    assert sim.boots == 1 and link.stats().reconnects == 0


def test_firmware_restart_mid_game_gives_a_new_snapshot_and_the_leds_back(
    sim: SimulatedFirmware, link: SerialBoardLink, recorder: EventRecorder
) -> None:
    link.send_leds([(0, 50, 0)] * 3)
    sim.wait_for_leds(lambda leds: leds[2] == (0, 50, 0))
    since = recorder.mark()
    sim.set_sensor(12, 1)
    recorder.wait_for(lambda e: isinstance(e, SensorChanged) and e.channel == 12, since)

    since = recorder.mark()
    sim.restart()
    sim.set_sensor(13, 1)  # a pawn placed while the board is rebooting
    state = recorder.wait_for(lambda e: isinstance(e, LinkState), since)
    assert state.up and "restarted" in state.detail
    snapshot = recorder.wait_for(lambda e: isinstance(e, SensorSnapshot), since)
    assert snapshot.values[12] == 1
    # Whether 13 made it into the snapshot or comes as a change, it is not lost:
    if snapshot.values[13] != 1:
        recorder.wait_for(lambda e: isinstance(e, SensorChanged) and e.channel == 13, since)
    sim.wait_for_leds(lambda leds: leds[2] == (0, 50, 0))  # the driver showed the frame again
    assert link.stats().firmware_restarts == 1


def test_pulling_and_replugging_the_cable(
    sim: SimulatedFirmware, link: SerialBoardLink, recorder: EventRecorder
) -> None:
    link.send_leds([(9, 9, 9)])
    sim.wait_for_leds(lambda leds: leds[0] == (9, 9, 9))
    since = recorder.mark()
    sim.unplug()
    down = recorder.wait_for(lambda e: isinstance(e, LinkState), since)
    assert not down.up
    assert not os.path.exists(sim.port)
    sim.set_sensor(5, 1)  # moved while the cable is out
    link.send_leds([(3, 3, 3)])  # the game goes on meanwhile
    link.request_snapshot()  # harmless while disconnected
    sim.sync()
    sim.plug_in()
    up = recorder.wait_for(lambda e: isinstance(e, LinkState) and e.up, since)
    assert up.firmware is not None
    # The change made while unplugged is not lost: it comes as an event, then in a snapshot.
    recorder.wait_for(
        lambda e: isinstance(e, SensorChanged) and (e.channel, e.value) == (5, 1), since
    )
    recorder.wait_for(lambda e: isinstance(e, SensorSnapshot) and e.values[5] == 1, since)
    sim.wait_for_leds(lambda leds: leds[0] == (3, 3, 3))
    assert link.stats().reconnects == 1 and sim.boots == 1


def test_power_cycle_with_the_port_vanishing(
    sim: SimulatedFirmware, link: SerialBoardLink, recorder: EventRecorder
) -> None:
    since = recorder.mark()
    sim.set_sensor(100, 1)
    sim.restart(unplug=True)
    recorder.wait_for(lambda e: isinstance(e, LinkState) and not e.up, since)
    recorder.wait_for(lambda e: isinstance(e, LinkState) and e.up, since)
    recorder.wait_for(lambda e: isinstance(e, SensorSnapshot) and e.values[100] == 1, since)


def test_silent_board_is_detected_by_heartbeat_timeout(
    sim: SimulatedFirmware, recorder: EventRecorder
) -> None:
    clock = ManualClock()
    settings = LinkSettings(reconnect_min=0.01, reconnect_max=0.05)
    with SerialBoardLink(recorder, sim.port, settings=settings, clock=clock) as link:
        link.wait_connected(WAIT)
        since = recorder.mark()
        sim.faults.mute(TO_HOST)  # the board is alive but nothing gets through
        # Bytes already on their way may still arrive (at the frozen time); keep moving the
        # clock until the driver gives up. Nothing here depends on real durations.
        for _ in range(200):
            clock.advance(0.5)
            if recorder.matching(lambda e: isinstance(e, LinkState), since):
                break
            threading.Event().wait(0.025)  # give the reader thread a turn
        down = recorder.wait_for(lambda e: isinstance(e, LinkState), since)
        assert not down.up and "heartbeat" in down.detail
        assert link.stats().heartbeat_timeouts == 1
        sim.faults.mute(TO_HOST, False)
        recorder.wait_for(lambda e: isinstance(e, LinkState) and e.up, since)
        recorder.wait_for(lambda e: isinstance(e, SensorSnapshot), since)


def test_hung_firmware_is_reset_by_the_watchdog(
    sim: SimulatedFirmware, link: SerialBoardLink, recorder: EventRecorder
) -> None:
    from pawnlight.devices.events import FirmwareError

    since = recorder.mark()
    sim.hang(2500)  # longer than the 2 s watchdog
    error = recorder.wait_for(lambda e: isinstance(e, FirmwareError), since, timeout=15)
    assert error.code == P.E_WATCHDOG
    assert sim.exit_codes == [76] and sim.boots == 2


def test_a_failing_event_handler_does_not_stop_the_driver(sim: SimulatedFirmware) -> None:
    seen: list[object] = []
    got_change = threading.Event()

    def emit(event: object) -> None:
        seen.append(event)
        if isinstance(event, SensorChanged):
            got_change.set()
            raise RuntimeError("bug in a handler")

    with SerialBoardLink(emit, sim.port) as link:
        link.wait_connected(WAIT)
        sim.set_sensor(1, 1)
        assert got_change.wait(WAIT)
        got_change.clear()
        sim.set_sensor(2, 1)
        assert got_change.wait(WAIT)
        assert link.connected


def test_protocol_version_mismatch_gives_a_clear_error(recorder: EventRecorder) -> None:
    """A firmware from the future, played by this test on a raw pty."""
    master, slave = os.openpty()
    import tty

    tty.setraw(slave)
    stop = threading.Event()

    def future_board() -> None:
        decoder = P.FrameDecoder()
        hello = P.encode_hello(P.KIND_PRESENCE, 0, 112, 132, 1, "9.0.0", major=99, minor=3)
        while not stop.is_set():
            import select

            if not select.select([master], [], [], 0.05)[0]:
                continue
            for mtype, _seq, _payload in decoder.feed(os.read(master, 4096)):
                if mtype == P.HOST_HELLO:
                    os.write(master, P.encode_frame(P.HELLO, 0, hello))

    thread = threading.Thread(target=future_board, daemon=True)
    thread.start()
    try:
        with SerialBoardLink(recorder, os.ttyname(slave)) as link:
            with pytest.raises(ProtocolVersionError, match=r"protocol 99\.3"):
                link.wait_connected(WAIT)
            state = recorder.wait_for(lambda e: isinstance(e, LinkState))
            assert not state.up and "9.0.0" in state.detail and "docs/firmware.md" in state.detail
    finally:
        stop.set()
        thread.join()
        os.close(master)
        os.close(slave)


def test_no_board_and_unopenable_port_are_reported(recorder: EventRecorder, tmp_path) -> None:
    settings = LinkSettings(reconnect_min=0.01, reconnect_max=0.02)
    with SerialBoardLink(recorder, None, settings=settings, find_port=lambda: None):
        state = recorder.wait_for(lambda e: isinstance(e, LinkState))
        assert not state.up and "no board found" in state.detail
    missing = str(tmp_path / "ttyACM9")
    with SerialBoardLink(recorder, missing, settings=settings) as link:
        recorder.wait_for(lambda e: isinstance(e, LinkState) and missing in e.detail)
        assert not link.connected


def test_malformed_frames_from_the_board_never_blind_it(
    sim: SimulatedFirmware, link: SerialBoardLink, recorder: EventRecorder
) -> None:
    # Issue #16: an ERROR text that is not UTF-8 killed the reader thread; a SNAPSHOT of the
    # wrong size replaced the reading. Both are one frame's protocol error now.
    since = recorder.mark()
    # The firmware sends them in its own sequence (frames made up on the line with other
    # numbers would be refused as old ones, issue #31).
    sim.send_message(P.ERROR, b"\x05\x00" + b"\xc3")
    sim.send_message(P.SNAPSHOT, P.encode_snapshot([1] * 7))
    # The link stays up, resyncs with a whole snapshot, and later changes still arrive.
    snapshot = recorder.wait_for(lambda e: isinstance(e, SensorSnapshot), since)
    assert len(snapshot.values) == sim.channels
    change_once(sim, recorder, 44)
    stats = link.stats()
    assert stats.malformed >= 1 and stats.reconnects == 0 and link.connected
    down = recorder.matching(lambda e: isinstance(e, LinkState) and not e.up, since)
    assert down == []


def test_a_reader_thread_that_fails_is_shown_down_and_reconnects(
    sim: SimulatedFirmware, link: SerialBoardLink, recorder: EventRecorder, monkeypatch
) -> None:
    from pawnlight.devices.link_session import LinkSession

    receive = LinkSession.receive
    failed = threading.Event()

    def fails_once(self, data, now):
        if not failed.is_set():
            failed.set()
            raise RuntimeError("a bug in the reader")
        return receive(self, data, now)

    since = recorder.mark()
    monkeypatch.setattr(LinkSession, "receive", fails_once)
    sim.set_sensor(50, 1 - sim.sensors[50])  # something for the reader to read
    down = recorder.wait_for(lambda e: isinstance(e, LinkState) and not e.up, since)
    assert "a bug in the reader" in down.detail or "RuntimeError" in down.detail
    recorder.wait_for(lambda e: isinstance(e, LinkState) and e.up, since, 15)
    change_once(sim, recorder, 51)
    assert link.stats().reader_failures == 1


def test_a_killed_simulated_firmware_boots_again(
    sim: SimulatedFirmware, link: SerialBoardLink, recorder: EventRecorder
) -> None:
    # Issue #16: a firmware process killed by a signal was never started again.
    import signal

    since = recorder.mark()
    pid = sim.pid
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    state = recorder.wait_for(lambda e: isinstance(e, LinkState) and e.up, since, 15)
    assert "restarted" in state.detail
    assert sim.boots == 2 and sim.exit_codes[-1] == -signal.SIGKILL
    change_once(sim, recorder, 60)


def test_a_replayed_old_sensor_report_is_never_taken_for_a_new_change(
    sim: SimulatedFirmware, link: SerialBoardLink, recorder: EventRecorder
) -> None:
    # Issue #31: the line fault "replay" sends the oldest SENSOR_CHANGES frame the board has
    # sent since the simulator started, byte for byte; it used to be delivered as a new change.
    with pytest.raises(ValueError, match="no sensor changes yet"):
        sim.line_fault("replay")
    for channel in (40, 41, 42):
        change_once(sim, recorder, channel)  # 40 goes to 1 first: that frame is the oldest
    since = recorder.mark()
    for _ in range(3):
        sim.line_fault("replay")
    # Proof that the replays were read: a change made after them arrives, and nothing else.
    change_once(sim, recorder, 60)
    assert changes_of(recorder, 40, since) == []
    stats = link.stats()
    assert stats.old_frames == 3 and stats.reconnects == 0


@pytest.mark.parametrize("fault", ["bad-error", "bad-snapshot"])
def test_made_up_frames_take_the_boards_own_turn_and_lose_nothing(
    sim: SimulatedFirmware, link: SerialBoardLink, recorder: EventRecorder, fault: str
) -> None:
    before = link.stats().malformed
    for channel in (70, 71):  # each is read, none taken for a repeat
        sim.line_fault(fault)
        # (a bad snapshot's answer, a fresh one, comes before this change: the next made-up
        # one is not dropped as a snapshot waiting behind it)
        change_once(sim, recorder, channel)
    stats = link.stats()
    # Both are malformed frames: dropped and counted (an ERROR text that is not UTF-8 is not
    # shown with replacement characters).
    assert stats.malformed == before + 2
    errors = recorder.matching(lambda e: type(e).__name__ == "FirmwareError")
    assert not any("carte" in e.message for e in errors)
    assert stats.old_frames == 0
    if stats.duplicates:
        # Only a busy machine's late acknowledgement makes one: the board sent a real frame
        # again (its retransmit count, in its next heartbeat, says so), never a made-up one.
        deadline = time.monotonic() + WAIT
        while link.stats().board_retransmits < stats.duplicates:
            assert time.monotonic() < deadline, f"{stats.duplicates} duplicates, no retransmit"
            time.sleep(0.02)


def test_snapshot_requests_flooding_the_board_queue_one_snapshot(sim: SimulatedFirmware) -> None:
    # Issue #31: requests, however many, must not queue a snapshot each (nor HOST_HELLOs a
    # HELLO each). A bare client asks 40 times without acknowledging anything, then once more
    # after a HOST_HELLO flood; the board keeps one snapshot in flight and one waiting.
    import serial

    port = serial.Serial(sim.port, timeout=0.05)
    decoder = P.FrameDecoder()
    got: list[tuple[int, int, bytes]] = []

    def read_for(seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            got.extend(decoder.feed(port.read(4096)))

    try:
        port.write(P.encode_frame(P.HOST_HELLO, 0, P.encode_host_hello(0x5151)))
        read_for(0.3)
        requests = b"".join(P.encode_frame(P.SNAPSHOT_REQUEST, s, b"") for s in range(1, 41))
        port.write(requests)
        port.write(P.encode_frame(P.HOST_HELLO, 0, P.encode_host_hello(0x5151)) * 50)
        read_for(1.0)
        hellos = sum(1 for t, _s, _p in got if t == P.HELLO)
        snapshots = {s for t, s, _p in got if t == P.SNAPSHOT}
        assert len(snapshots) == 1  # one in flight, resent (no ACK), at most one waiting
        # The boot's, the first answer, then one per 50 ms at most while the flood is read
        # (a pass or two; more on a loaded machine): nothing like one per HOST_HELLO (51).
        assert hellos <= 10
        # Acknowledged from now on, as they come: only the one that waited follows.
        acked = set()
        end = time.monotonic() + 1.5
        while time.monotonic() < end:
            got.extend(decoder.feed(port.read(4096)))
            for t, s, _p in got:
                if t == P.SNAPSHOT and s not in acked:
                    port.write(P.encode_frame(P.ACK, 0, P.encode_ack(P.SNAPSHOT, s)))
                    acked.add(s)
        # One for the whole flood, or two if the first went out before the rest came in
        # (it was 33: one in flight and a queue full of them).
        assert 1 <= len(acked) <= 2
    finally:
        port.close()

"""The driver against the real firmware (MicroPython unix port) over a real pty."""

from __future__ import annotations

import time

from pawnlight.devices.events import (
    CardRead,
    FirmwareError,
    LinkState,
    SensorChanged,
    SensorSnapshot,
)
from pawnlight.devices.serial_link import SerialBoardLink
from pawnlight.devices.sim.firmware import SimulatedFirmware
from pawnlight.firmware import protocol as P

from .helpers import WAIT, EventRecorder


def is_change(channel: int, value: int):
    return lambda e: isinstance(e, SensorChanged) and (e.channel, e.value) == (channel, value)


def test_connect_reports_link_up_then_a_full_snapshot(recorder: EventRecorder) -> None:
    sim = SimulatedFirmware("presence")
    sim.set_sensor(3, 1)  # pawns already on the board when it powers up
    sim.set_sensor(111, 1)
    with sim, SerialBoardLink(recorder, sim.port) as link:
        info = link.wait_connected(WAIT)
        snapshot = recorder.wait_for(lambda e: isinstance(e, SensorSnapshot))
        assert info.kind == "presence"
        assert (info.channels, info.leds, info.card_reader) == (112, 132, True)
        assert info.protocol == (P.PROTOCOL_MAJOR, P.PROTOCOL_MINOR)
        first = recorder.events[0]
        assert isinstance(first, LinkState) and first.up and first.firmware == info.firmware
        assert len(snapshot.values) == 112
        assert [i for i, v in enumerate(snapshot.values) if v] == [3, 111]


def test_sensor_changes_arrive_in_order(
    sim: SimulatedFirmware, link: SerialBoardLink, recorder: EventRecorder
) -> None:
    since = recorder.mark()
    for channel in (0, 57, 111):
        sim.set_sensor(channel, 1)
        recorder.wait_for(is_change(channel, 1), since)
    sim.set_sensor(57, 0)
    recorder.wait_for(is_change(57, 0), since)
    changes = [
        (e.channel, e.value)
        for e in recorder.matching(lambda e: isinstance(e, SensorChanged), since)
    ]
    assert changes == [(0, 1), (57, 1), (111, 1), (57, 0)]


def test_many_simultaneous_changes_are_all_reported(
    sim: SimulatedFirmware, link: SerialBoardLink, recorder: EventRecorder
) -> None:
    since = recorder.mark()
    sim.set_sensors([1] * 112)
    recorder.wait_for(
        lambda e: len(recorder.matching(lambda x: isinstance(x, SensorChanged), since)) >= 112,
        since,
    )
    channels = sorted(
        e.channel for e in recorder.matching(lambda x: isinstance(x, SensorChanged), since)
    )
    assert channels == list(range(112))


def test_request_snapshot_reflects_current_state(
    sim: SimulatedFirmware, link: SerialBoardLink, recorder: EventRecorder
) -> None:
    since = recorder.mark()
    sim.set_sensor(42, 1)
    recorder.wait_for(is_change(42, 1), since)
    since = recorder.mark()
    link.request_snapshot()
    snapshot = recorder.wait_for(lambda e: isinstance(e, SensorSnapshot), since)
    assert snapshot.values[42] == 1 and sum(snapshot.values) == 1


def card_reads(recorder: EventRecorder, since: int) -> list[str]:
    return [e.uid for e in recorder.matching(lambda x: isinstance(x, CardRead), since)]


def settle(sim: SimulatedFirmware, link: SerialBoardLink, recorder: EventRecorder, channel: int):
    """Barrier: a sensor change is queued behind any card message sent before it, so once
    it has arrived every earlier card read has been delivered too."""
    value = 1 - sim.sensors[channel]
    since = recorder.mark()
    sim.set_sensor(channel, value)
    recorder.wait_for(is_change(channel, value), since)


def test_each_presented_card_is_reported_once(
    sim: SimulatedFirmware, link: SerialBoardLink, recorder: EventRecorder
) -> None:
    since = recorder.mark()
    sim.present_card("04a1b2c3d4e5f6")
    first = recorder.wait_for(lambda e: isinstance(e, CardRead), since)
    assert first.uid == "04A1B2C3D4E5F6"
    # The card lies on the reader through many more polls: still reported only once.
    sim.wait_reader_polls(5)
    settle(sim, link, recorder, 9)
    assert card_reads(recorder, since) == ["04A1B2C3D4E5F6"]
    # Another card replaces it: reported.
    sim.present_card("DEADBEEF")
    recorder.wait_for(lambda e: isinstance(e, CardRead) and e.uid == "DEADBEEF", since)
    # Taken away long enough to count as gone, then put back: a new presentation.
    sim.remove_card()
    sim.wait_reader_polls(4)
    sim.present_card("DEADBEEF")
    sim.wait_reader_polls(2)
    settle(sim, link, recorder, 10)
    assert card_reads(recorder, since) == ["04A1B2C3D4E5F6", "DEADBEEF", "DEADBEEF"]


def test_led_frames_are_shown_and_dimmed_to_the_current_budget(
    sim: SimulatedFirmware, link: SerialBoardLink
) -> None:
    link.send_leds([(10, 20, 30), (0, 0, 255)])
    shown = sim.wait_for_leds(lambda leds: leds[0] == (10, 20, 30))
    assert shown[1] == (0, 0, 255) and shown[2:] == [(0, 0, 0)] * 130

    # Full white on every LED would draw ~8 A: the firmware scales it to its 1.5 A budget.
    link.send_leds([(255, 255, 255)] * 132)
    shown = sim.wait_for_leds(lambda leds: leds[0] != (10, 20, 30))
    r, g, b = shown[0]
    assert r == g == b and 0 < r < 255
    estimated_ma = sum(sum(c) for c in shown) * 20 / 255 + 132
    assert estimated_ma <= 1500


def test_the_newest_led_frame_wins(sim: SimulatedFirmware, link: SerialBoardLink) -> None:
    for level in range(1, 40):
        link.send_leds([(level, 0, 0)] * 10)
    sim.wait_for_leds(lambda leds: leds[0] == (39, 0, 0))


def test_colour_board_reports_readings_beyond_its_tolerance(
    colour_sim: SimulatedFirmware, recorder: EventRecorder
) -> None:
    with SerialBoardLink(recorder, colour_sim.port) as link:
        info = link.wait_connected(WAIT)
        assert info.kind == "colour"
        snapshot = recorder.wait_for(lambda e: isinstance(e, SensorSnapshot))
        assert set(snapshot.values) == {32768}
        # ADC noise smaller than the tolerance is never reported...
        colour_sim.set_noise(300)
        since = recorder.mark()
        colour_sim.set_sensor(20, 52000)  # ...a magnet is
        change = recorder.wait_for(lambda e: isinstance(e, SensorChanged), since)
        assert change.channel == 20 and abs(change.value - 52000) <= 300
        colour_sim.set_sensor(21, 12000)
        change = recorder.wait_for(
            lambda e: isinstance(e, SensorChanged) and e.channel == 21, since
        )
        assert abs(change.value - 12000) <= 300
        assert {
            e.channel for e in recorder.matching(lambda e: isinstance(e, SensorChanged), since)
        } == {20, 21}


def test_missing_card_reader_is_reported_as_a_firmware_error(recorder: EventRecorder) -> None:
    with (
        SimulatedFirmware("presence", card_reader=False) as sim,
        SerialBoardLink(recorder, sim.port) as link,
    ):
        info = link.wait_connected(WAIT)
        assert info.card_reader is False
        error = recorder.wait_for(lambda e: isinstance(e, FirmwareError))
        assert error.code == P.E_CARD_READER and "MFRC522" in error.message


def test_reboot_request_restarts_the_board(
    sim: SimulatedFirmware, link: SerialBoardLink, recorder: EventRecorder
) -> None:
    since = recorder.mark()
    link.reboot_board()
    state = recorder.wait_for(lambda e: isinstance(e, LinkState) and e.up, since)
    assert "restarted" in state.detail
    recorder.wait_for(lambda e: isinstance(e, SensorSnapshot), since)
    assert sim.boots == 2 and sim.exit_codes == [75]


def test_stats_count_traffic(sim: SimulatedFirmware, link: SerialBoardLink, recorder) -> None:
    since = recorder.mark()
    sim.set_sensor(1, 1)
    recorder.wait_for(is_change(1, 1), since)
    stats = link.stats()
    assert stats.connected
    assert stats.frames_in >= 3 and stats.frames_out >= 3
    assert stats.bytes_in > 0 and stats.bytes_out > 0
    assert stats.crc_failures == stats.resyncs == stats.reconnects == 0


def test_changes_carry_the_boards_time_of_each_touch(
    sim: SimulatedFirmware, link: SerialBoardLink, recorder: EventRecorder
) -> None:
    # Protocol 1.2 (issue #31): the board's own time of each change, so the Pi orders and times
    # touches by when they happened, not by when it read them. Two touches the firmware scans
    # in one pass share a time; one made after the first was reported comes later.
    since = recorder.mark()
    sim.set_sensors([1 if ch in (20, 21) else 0 for ch in range(sim.channels)])
    recorder.wait_for(is_change(21, 1), since)
    recorder.wait_for(is_change(20, 1), since)
    sim.set_sensor(22, 1)
    third = recorder.wait_for(is_change(22, 1), since)
    changed = recorder.matching(lambda e: isinstance(e, SensorChanged), since)
    first, second = (e for e in changed if e.channel < 22)
    assert first.board_ms is not None and first.board_ms == second.board_ms
    assert third.board_ms > first.board_ms
    # The heartbeat's clock: the board's reported uptime soon passes the touch's time.
    deadline = time.monotonic() + WAIT
    while link.stats().board_uptime_ms < third.board_ms:
        assert time.monotonic() < deadline, "the board's uptime never reached its own touch"
        time.sleep(0.05)

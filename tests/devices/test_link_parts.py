"""Small pieces of pawnlight.devices: events, port discovery, LED frame checks, fake link."""

from __future__ import annotations

import dataclasses

import pytest
from serial.tools.list_ports_common import ListPortInfo

from pawnlight.board.leds import blinking
from pawnlight.devices.board_link import BoardLink, check_frame
from pawnlight.devices.events import (
    CardRead,
    FirmwareError,
    LinkState,
    SensorChanged,
    SensorSnapshot,
)
from pawnlight.devices.port_discovery import find_pico_port
from pawnlight.devices.serial_link import SerialBoardLink
from pawnlight.devices.sim.fake_link import FakeBoardLink

from .helpers import EventRecorder


def test_events_are_small_immutable_values() -> None:
    change = SensorChanged(3, 1, 12.5)
    with pytest.raises(dataclasses.FrozenInstanceError):
        change.value = 0  # type: ignore[misc]
    assert change == SensorChanged(3, 1, 12.5)
    assert hash(SensorSnapshot((0, 1), 1.0)) == hash(SensorSnapshot((0, 1), 1.0))
    assert CardRead("04A1", 1.0).uid == "04A1"
    assert LinkState(False, "unplugged", None).firmware is None
    assert FirmwareError(3, "reader", 2.0).code == 3


def port(device: str, vid: int | None, pid: int | None, serial: str | None = None) -> ListPortInfo:
    info = ListPortInfo(device, skip_link_detection=True)
    info.vid, info.pid, info.serial_number = vid, pid, serial
    return info


def test_port_discovery_picks_the_micropython_pico() -> None:
    ports = [
        port("/dev/ttyUSB0", 0x0403, 0x6001),  # an FTDI adapter
        port("/dev/ttyACM1", 0x2E8A, 0x0005, "E66138"),
        port("/dev/ttyACM0", 0x2E8A, 0x0005, "E66137"),
        port("/dev/ttyACM2", 0x2E8A, 0x0003),  # a Pico in BOOTSEL mode, no serial firmware
    ]
    assert find_pico_port(ports) == "/dev/ttyACM0"
    assert find_pico_port(ports, serial_number="E66138") == "/dev/ttyACM1"
    assert find_pico_port(ports, pids=None) == "/dev/ttyACM0"
    assert find_pico_port(ports[:1]) is None
    assert find_pico_port([]) is None


def test_led_frames_are_checked() -> None:
    check_frame([(0, 0, 0), (255, 255, 255)], 132)
    with pytest.raises(ValueError, match="132 LEDs"):
        check_frame([(0, 0, 0)] * 133, 132)
    for bad in ([(256, 0, 0)], [(0, 0)], [(-1, 0, 0)], [(1.0, 0, 0)], [(True, 0, 0)]):
        with pytest.raises(ValueError):
            check_frame(bad, None)  # type: ignore[arg-type]


def test_serial_link_refuses_a_bad_frame_even_while_disconnected() -> None:
    link: BoardLink = SerialBoardLink(EventRecorder(), "/nonexistent")  # mypy: a BoardLink
    with pytest.raises(ValueError):
        link.send_leds([(300, 0, 0)])


def test_the_fake_link_shows_a_scene_as_the_board_would_at_its_time() -> None:
    """The daemon sends scenes to a board that runs them; the fake shows the picture of the
    scene at the time it is sent (it runs no animation clock)."""
    fake: BoardLink = FakeBoardLink(EventRecorder())
    with pytest.raises(TimeoutError):
        fake.wait_connected(0.1)
    with fake:
        leds = fake.wait_connected(0.1).leds
        base = [(0, 0, 0)] * leds
        red_blink = blinking((200, 0, 0), hz=2.0)  # on for the first 250 ms of every 500
        effects = [(*red_blink[:6], [0])]
        assert isinstance(fake, FakeBoardLink)
        fake.send_scene(base, effects, phase_ms=100)
        assert fake.leds[0] == (200, 0, 0)
        fake.send_scene(base, effects, phase_ms=300)
        assert fake.leds[0] == (0, 0, 0)
        with pytest.raises(ValueError):
            fake.send_scene(base, [(99, 100, 0, 0, (1, 1, 1), None, [0])])  # no such effect


def test_fake_link_behaves_like_the_real_one() -> None:
    recorder = EventRecorder()
    fake: BoardLink = FakeBoardLink(recorder, initial=[0] * 111 + [1])
    assert fake.board is None
    with fake:
        assert isinstance(fake, FakeBoardLink)
        assert recorder.events[0] == LinkState(True, "connected to fake board", "fake-1.0.0")
        snapshot = recorder.events[1]
        assert isinstance(snapshot, SensorSnapshot) and snapshot.values[111] == 1
        fake.set_sensor(4, 1)
        fake.set_sensor(4, 1)  # no change, no event
        fake.present_card("04a1b2c3")
        assert [type(e) for e in recorder.events[2:]] == [SensorChanged, CardRead]
        card = recorder.events[3]
        assert isinstance(card, CardRead) and card.uid == "04A1B2C3"

        fake.send_leds([(1, 2, 3)])
        assert fake.leds[0] == (1, 2, 3) and fake.leds[1] == (0, 0, 0)
        fake.disconnect()
        fake.set_sensor(5, 1)  # while disconnected: seen in the snapshot after reconnecting
        fake.reconnect()
        assert isinstance(recorder.events[-1], SensorSnapshot)
        assert recorder.events[-1].values[5] == 1
        fake.restart_board()
        restarted = recorder.events[-2]
        assert isinstance(restarted, LinkState) and "restarted" in restarted.detail
        assert fake.leds[0] == (1, 2, 3)  # shown again after the reboot
        fake.request_snapshot()
        assert fake.snapshot_requests == 1
        assert fake.stats().reconnects == 1
        with pytest.raises(ValueError):
            fake.send_leds([(0, 0, 0)] * 133)
    assert recorder.events[-1] == LinkState(False, "stopped", "fake-1.0.0")

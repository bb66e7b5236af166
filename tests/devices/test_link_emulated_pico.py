"""The link tests again, with the firmware on an emulated RP2040 instead of the unix port.

MicroPython's own RPI_PICO build runs the unmodified firmware (hal_pico.py, USB CDC, the
real SPI/ADC/GPIO/WS2812 paths) in rp2040js; the driver talks to it over a pty with real
pyserial. One chip per board kind is booted for the whole module (a boot takes ~10 s of
wall time) and put back to rest after each test. The emulator runs several times slower than
a Pico, so the driver's timers and the waits are stretched by the same factor.

Skipped unless PAWNLIGHT_RP2040_DIR names a folder with MicroPython's UF2 and the RP2040 boot
ROM (docs/firmware.md), and scripts/setup-emulator has installed rp2040js.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from pawnlight.devices.events import (
    BoardEvent,
    FirmwareError,
    LinkState,
    SensorChanged,
    SensorSnapshot,
)
from pawnlight.devices.serial_link import SerialBoardLink
from pawnlight.devices.sim.emulated_pico import SLOWDOWN, EmulatedPico, link_settings, missing
from pawnlight.firmware import protocol as P

from . import test_link_end_to_end as on_unix_port
from .helpers import WAIT, EventRecorder

REASON = missing()
pytestmark = [
    pytest.mark.emulated_chip,  # one at a time across the workers (tests/conftest.py)
    pytest.mark.skipif(REASON is not None, reason=f"no emulated Pico: {REASON}"),
    pytest.mark.slow,  # the emulated chip boots in seconds and runs several times slower
]


class SlowRecorder(EventRecorder):
    def wait_for(
        self,
        predicate: Callable[[BoardEvent], bool],
        since: int = 0,
        timeout: float = WAIT * SLOWDOWN,
    ) -> Any:
        return super().wait_for(predicate, since, timeout)


class Board:
    """One emulated chip with a connected driver, shared by the module's tests."""

    def __init__(self, kind: str, **options: object) -> None:
        self.recorder = SlowRecorder()
        self.pico = EmulatedPico(kind, **options)  # type: ignore[arg-type]
        self.rest = list(self.pico.sensors)  # nothing on the board

    def __enter__(self) -> Board:
        self.pico.start()
        self.link = SerialBoardLink(self.recorder, self.pico.port, settings=link_settings())
        self.link.start()
        self.link.wait_connected(WAIT * SLOWDOWN)
        self.recorder.wait_for(lambda e: isinstance(e, SensorSnapshot))
        return self

    def __exit__(self, *exc: object) -> None:
        self.link.stop()
        self.pico.stop()

    def put_back(self) -> None:
        """Every pawn and card off, and every change of that delivered (a snapshot is queued
        behind the changes before it)."""
        self.pico.remove_card()
        if list(self.pico.sensors) == self.rest:
            return
        self.pico.set_sensors(self.rest)
        for _ in range(5):
            since = self.recorder.mark()
            self.link.request_snapshot()
            shot = self.recorder.wait_for(lambda e: isinstance(e, SensorSnapshot), since)
            slack = 0 if self.pico.kind == "presence" else 1000  # ADC readings wander a little
            if all(abs(a - b) <= slack for a, b in zip(shot.values, self.rest, strict=True)):
                return
        pytest.fail("the emulated board did not come back to rest")


@pytest.fixture(scope="module")
def presence() -> Iterator[Board]:
    board = Board("presence")
    board.pico.set_sensor(3, 1)  # pawns already on the board when it powers up
    board.pico.set_sensor(111, 1)
    with board:
        yield board


@pytest.fixture
def board(presence: Board) -> Iterator[Board]:
    # At rest before each test too: with several workers any test may be a chip's first, and
    # the pawns it powered up with are still there (the boot test reads them from the history).
    presence.put_back()
    yield presence
    presence.put_back()


def test_boots_and_sends_a_full_snapshot_of_the_pawns_already_there(board: Board) -> None:
    info = board.link.wait_connected(1)
    assert (info.kind, info.channels, info.leds, info.card_reader) == ("presence", 112, 132, True)
    assert info.protocol == (P.PROTOCOL_MAJOR, P.PROTOCOL_MINOR)
    first = board.recorder.events[0]
    assert isinstance(first, LinkState) and first.up
    snapshot = next(e for e in board.recorder.events if isinstance(e, SensorSnapshot))
    assert [i for i, v in enumerate(snapshot.values) if v] == [3, 111]


def test_sensor_changes_arrive_in_order(board: Board) -> None:
    on_unix_port.test_sensor_changes_arrive_in_order(board.pico, board.link, board.recorder)


def test_many_simultaneous_changes_are_all_reported(board: Board) -> None:
    on_unix_port.test_many_simultaneous_changes_are_all_reported(
        board.pico, board.link, board.recorder
    )


def test_request_snapshot_reflects_current_state(board: Board) -> None:
    on_unix_port.test_request_snapshot_reflects_current_state(
        board.pico, board.link, board.recorder
    )


def test_each_presented_card_is_reported_once(board: Board) -> None:
    on_unix_port.test_each_presented_card_is_reported_once(board.pico, board.link, board.recorder)


def test_ws2812_pulses_carry_the_frames_dimmed_to_the_budget(board: Board) -> None:
    # The colours come from decoding the high-pulse widths on GP22, so this checks the
    # firmware's GRB order and 350/800 ns timing on the chip as well as the budget.
    on_unix_port.test_led_frames_are_shown_and_dimmed_to_the_current_budget(board.pico, board.link)


def test_the_newest_led_frame_wins(board: Board) -> None:
    on_unix_port.test_the_newest_led_frame_wins(board.pico, board.link)


def test_stats_count_traffic(board: Board) -> None:
    on_unix_port.test_stats_count_traffic(board.pico, board.link, board.recorder)


def test_reboot_request_restarts_the_chip(board: Board) -> None:
    # Last of the presence tests: the chip's boot count changes.
    before = board.link.wait_connected(1).boot_id
    since = board.recorder.mark()
    board.link.reboot_board()
    # The Pico drops off USB while it restarts, as a real one does: the driver sees the
    # port go, then finds the board again.
    board.recorder.wait_for(lambda e: isinstance(e, LinkState) and not e.up, since)
    # An emulated RP2040 boots MicroPython in software: on a loaded two-core machine (CI, other
    # emulated Picos beside it) that has taken over 30 s, so the bound only catches a hang.
    board.recorder.wait_for(lambda e: isinstance(e, LinkState) and e.up, since, timeout=120)
    board.recorder.wait_for(lambda e: isinstance(e, SensorSnapshot), since, timeout=120)
    assert board.link.wait_connected(1).boot_id != before
    # machine.reset() on an RP2040 is a watchdog reboot: the emulator ends that run and
    # boots the chip again from the flash it kept.
    assert board.pico.boots == 2 and board.pico.exit_codes == [76]


def test_colour_board_reports_readings_beyond_its_tolerance() -> None:
    with Board("colour") as board:
        pico, recorder = board.pico, board.recorder
        info = board.link.wait_connected(1)
        assert info.kind == "colour"
        snapshot = next(e for e in recorder.events if isinstance(e, SensorSnapshot))
        # 32768 through a 12-bit ADC: read_u16 gives 0x8008.
        assert all(abs(v - 32768) < 16 for v in snapshot.values)
        pico.set_noise(300)  # ADC noise inside the tolerance is never reported...
        since = recorder.mark()
        pico.set_sensor(20, 52000)  # ...a magnet is
        change = recorder.wait_for(lambda e: isinstance(e, SensorChanged), since)
        assert change.channel == 20 and abs(change.value - 52000) <= 320
        pico.set_sensor(100, 12000)  # the last mux, on the third ADC pin
        change = recorder.wait_for(
            lambda e: isinstance(e, SensorChanged) and e.channel == 100, since
        )
        assert abs(change.value - 12000) <= 320
        changed = recorder.matching(lambda e: isinstance(e, SensorChanged), since)
        assert {e.channel for e in changed} == {20, 100}


def test_missing_card_reader_is_reported_as_a_firmware_error() -> None:
    with Board("presence", card_reader=False) as board:
        assert board.link.wait_connected(1).card_reader is False
        error = board.recorder.wait_for(lambda e: isinstance(e, FirmwareError))
        assert error.code == P.E_CARD_READER and "MFRC522" in error.message


def test_a_frame_cut_short_then_silence_never_hangs_the_reader() -> None:
    # Issue #31: the reader trusted each COBS code byte and then waited in read(code - 1) for
    # bytes that never came, blind until the watchdog reset the chip. No driver here: the
    # line must stay silent after the cut frame (a driver's heartbeat would end it).
    pico = EmulatedPico("presence")
    with pico:
        start = len(pico.reports)
        pico.command({"op": "trace"})
        pico.wait_event("tracing", start)
        bright = P.encode_frame(P.LED_FRAME, 5, bytes([200, 100, 50] * 132))
        pico.command({"op": "send", "hex": bright[:60].hex(), "id": 1})  # first block: 254
        cut = pico.wait_event("sent", start)["t"]
        # 0.3 s of the Pico's time, 150 times the reader's 2 ms guard (firmware/hal_pico.py).
        # A reader stuck in the cut block (the old one) would take the HOST_HELLO below as the
        # rest of it and never answer; each emulated second costs tens of seconds of CPU, so the
        # silence is not waited out to the 2 s watchdog.
        pico.wait_pico(cut + 300_000_000)
        hello = P.encode_frame(P.HOST_HELLO, 0, P.encode_host_hello(0x31))
        after = len(pico.reports)
        pico.command({"op": "send", "hex": hello.hex(), "id": 2})
        asked = pico.wait_event("sent", after)["t"]
        pico.wait_pico(asked + 200_000_000)
        report_at = len(pico.reports)
        pico.command({"op": "report", "id": 3})
        tx = pico.wait_event("report", report_at)["tx"]
        decoder = P.FrameDecoder()
        answers = [
            t
            for t, data in tx
            if t >= asked
            for mtype, _s, _p in decoder.feed(bytes.fromhex(data))
            if mtype == P.HELLO
        ]
        assert answers, "no HELLO after the HOST_HELLO"
        assert answers[0] - asked < 100_000_000  # within 100 ms of the Pico's time
        assert pico.boots == 1 and pico.exit_codes == []  # no watchdog reset

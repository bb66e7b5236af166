"""An in-process board for unit tests of the layers above the link (no subprocess, no pty).

``FakeBoardLink`` has the driver's interface plus controls to play the board: move pawns,
present cards, drop and restore the link, reboot the board. Unlike the serial driver it calls
``emit`` synchronously, in the thread that caused the event, so tests need no waiting. It
reports what the real link reports in the same order: LinkState(up) then a SensorSnapshot on
every (re)connect, a SensorChanged only for a value that really changed, each card once.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from ...board.leds import OFF, RGB
from ..board_link import BoardInfo, LinkStats, check_frame, scene_payloads
from ..events import CardRead, EmitFn, FirmwareError, LinkState, SensorChanged, SensorSnapshot


class FakeBoardLink:
    def __init__(
        self,
        emit: EmitFn,
        *,
        kind: str = "presence",
        channels: int = 112,
        leds: int = 132,
        firmware: str = "fake-1.0.0",
        card_reader: bool = True,
        clock: Callable[[], float] = time.monotonic,
        initial: Sequence[int] | None = None,
    ) -> None:
        self._emit = emit
        self._clock = clock
        self._lock = threading.RLock()
        self._info = BoardInfo(firmware, (1, 0), kind, channels, leds, card_reader, 1)
        self.values: list[int] = list(initial) if initial is not None else [0] * channels
        if len(self.values) != channels:
            raise ValueError(f"{len(self.values)} initial values for {channels} channels")
        self.leds: list[RGB] = [OFF] * leds
        self.frames: list[tuple[RGB, ...]] = []  # every frame sent, in order
        self.snapshot_requests = 0
        self._started = False
        self._up = False
        self._connects = 0
        self._frames_out = 0
        self._frames_in = 0

    # --- the BoardLink interface -------------------------------------------------------
    def start(self) -> None:
        with self._lock:
            if self._started:
                return
            self._started = True
            self._connect("connected to fake board")

    def stop(self) -> None:
        with self._lock:
            if not self._started:
                return
            self._started = False
            if self._up:
                self._up = False
                self._emit(LinkState(False, "stopped", self._info.firmware))

    def __enter__(self) -> FakeBoardLink:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def send_leds(self, frame: Sequence[RGB]) -> None:
        check_frame(frame, self._info.leds)
        with self._lock:
            shown: tuple[RGB, ...] = tuple((r, g, b) for r, g, b in frame)
            self.frames.append(shown)
            self._frames_out += 1
            if self._up:
                self.leds = list(shown) + [OFF] * (self._info.leds - len(shown))

    def send_scene(
        self, base: Sequence[RGB], effects: Sequence[tuple[Any, ...]], phase_ms: int = 0
    ) -> None:
        """The fake runs no animation clock: it shows the scene as it looks at ``phase_ms``."""
        check_frame(base, self._info.leds)
        _payload, still = scene_payloads(base, effects, phase_ms)
        self.send_leds([(still[i], still[i + 1], still[i + 2]) for i in range(0, len(still), 3)])

    def wait_connected(self, timeout: float = 5.0) -> BoardInfo:
        """The board's HELLO: the fake is connected once started, or never."""
        with self._lock:
            if not self._up:
                raise TimeoutError("the fake board is not connected")
            return self._info

    def request_snapshot(self) -> None:
        with self._lock:
            self.snapshot_requests += 1
            if self._up:
                self._snapshot()

    def stats(self) -> LinkStats:
        with self._lock:
            return LinkStats(
                connected=self._up,
                frames_in=self._frames_in,
                frames_out=self._frames_out,
                reconnects=max(0, self._connects - 1),
            )

    @property
    def board(self) -> BoardInfo | None:
        return self._info if self._up else None

    @property
    def connected(self) -> bool:
        return self._up

    # --- playing the board -------------------------------------------------------------
    def set_sensor(self, channel: int, value: int) -> None:
        with self._lock:
            if self.values[channel] == value:
                return
            self.values[channel] = value
            if self._up:
                self._frames_in += 1
                self._emit(SensorChanged(channel, value, self._clock()))

    def set_sensors(self, values: Sequence[int]) -> None:
        for channel, value in enumerate(values):
            self.set_sensor(channel, value)

    def present_card(self, uid: str) -> None:
        with self._lock:
            if self._up:
                self._frames_in += 1
                self._emit(CardRead(bytes.fromhex(uid).hex().upper(), self._clock()))

    def report_error(self, code: int, message: str) -> None:
        with self._lock:
            if self._up:
                self._emit(FirmwareError(code, message, self._clock()))

    def disconnect(self, detail: str = "cable unplugged") -> None:
        with self._lock:
            if self._up:
                self._up = False
                self._emit(LinkState(False, detail, self._info.firmware))

    def reconnect(self) -> None:
        with self._lock:
            if self._started and not self._up:
                self._connect("connected to fake board")
                self._show_last_frame()

    def restart_board(self) -> None:
        """The board reboots: LEDs go dark until the link shows the last frame again."""
        with self._lock:
            self.leds = [OFF] * self._info.leds
            if self._up:
                self._emit(LinkState(True, "board firmware restarted", self._info.firmware))
                self._snapshot()
                self._show_last_frame()

    # --- internals ---------------------------------------------------------------------
    def _connect(self, detail: str) -> None:
        self._up = True
        self._connects += 1
        self._emit(LinkState(True, detail, self._info.firmware))
        self._snapshot()

    def _snapshot(self) -> None:
        self._frames_in += 1
        self._emit(SensorSnapshot(tuple(self.values), self._clock()))

    def _show_last_frame(self) -> None:
        if self.frames:
            last = self.frames[-1]
            self.leds = list(last) + [OFF] * (self._info.leds - len(last))

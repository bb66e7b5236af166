"""Card readers: every one reports ``CardRead(uid, at)`` through the ``emit`` callable it is given.

* the board's own reader, in the firmware: its link already emits CardRead, nothing to add here;
* :class:`SpiCardReader`: an MFRC522 wired to the Pi's SPI header, driven by the firmware's own
  MFRC522 driver over ``spidev`` (``pip install pawnlight[pi]``). Not the ``mfrc522`` package: it
  reads only 4 bytes of a 7-byte UID, and it pulls in RPi.GPIO, which replaces rpi-lgpio's module
  of the same name (and with it gpiozero's backend on current Raspberry Pi OS);
* :class:`KeyboardCardReader`: a USB reader that "types" the UID followed by Enter, read from its
  Linux input device with ``evdev`` (also in the ``pi`` extra);
* :class:`SimulatedCardReader`: the twin, for tests and the simulator page.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from .events import CardRead

Emit = Callable[[CardRead], None]


class TagPresence:
    """Report a tag once when it arrives, not again while it stays on the reader.

    Readers poll: a card held on the antenna is seen on every poll, and often missed on one poll
    in a few. A tag counts as gone only after ``absent_polls`` empty polls in a row.
    """

    def __init__(self, absent_polls: int = 3) -> None:
        self.absent_polls = absent_polls
        self.current: str | None = None
        self.missed = 0

    def poll(self, uid: str | None) -> str | None:
        """Feed one poll's result; returns a UID when a new tag has just arrived."""
        if uid is None:
            self.missed += 1
            if self.missed >= self.absent_polls:
                self.current = None
            return None
        self.missed = 0
        if uid == self.current:
            return None
        self.current = uid
        return uid


def uid_hex(data: Iterable[int]) -> str:
    return "".join(f"{byte:02X}" for byte in data)


class SimulatedCardReader:
    """A reader whose cards are presented in code (tests) or from the simulator page."""

    def __init__(self, emit: Emit, clock: Callable[[], float] = time.monotonic) -> None:
        self._emit = emit
        self._clock = clock

    def start(self) -> None:
        pass

    def stop(self) -> None:
        pass

    def present(self, uid: str) -> None:
        self._emit(CardRead(uid.upper(), self._clock()))


class _PollingReader:
    """A background thread polling ``read_uid()`` every ``interval`` seconds."""

    def __init__(self, emit: Emit, interval: float, clock: Callable[[], float]) -> None:
        self._emit = emit
        self._interval = interval
        self._clock = clock
        self._presence = TagPresence()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def read_uid(self) -> str | None:
        raise NotImplementedError

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=type(self).__name__, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)

    def _run(self) -> None:
        while not self._stop.wait(self._interval):
            try:
                uid = self.read_uid()
            except OSError:
                uid = None  # a glitch on the bus: the next poll tries again
            arrived = self._presence.poll(uid)
            if arrived is not None:
                self._emit(CardRead(arrived, self._clock()))


class SpidevBus:
    """``machine.SPI``'s ``write`` and ``write_readinto`` over a Linux spidev device, so the
    firmware's MFRC522 driver runs on the Pi unchanged. spidev drives chip select itself, low
    for each transfer, which is exactly what the driver does around each call."""

    def __init__(self, device: Any) -> None:
        self.device = device

    def write(self, data: bytes) -> None:
        self.device.xfer2(list(data))

    def write_readinto(self, out: bytes, buf: bytearray) -> None:
        buf[:] = bytes(self.device.xfer2(list(out)))


class _KernelChipSelect:
    """The driver's chip-select pin, when the kernel's SPI driver already handles it."""

    def value(self, level: int | None = None) -> int:
        return 1


class SpiCardReader(_PollingReader):
    """An MFRC522 on the Pi's SPI bus (the firmware's driver over spidev): full 4-, 7- or
    10-byte UIDs, the same as the board's own reader reports, so a pack enrolled on one
    reader is known on the other.

    ``reset_pin`` is the BCM pin wired to the chip's RST (25, board pin 22, where the common
    ``mfrc522`` package put it), held high through gpiozero; None if RST is tied to 3.3 V.
    ``spi`` replaces the spidev device (tests pass one backed by the simulated chip).
    """

    def __init__(
        self,
        emit: Emit,
        bus: int = 0,
        device: int = 0,
        interval: float = 0.05,
        clock: Callable[[], float] = time.monotonic,
        *,
        reset_pin: int | None = 25,
        spi: Any = None,
        pin_factory: Any = None,
    ) -> None:
        super().__init__(emit, interval, clock)
        from pawnlight.firmware.mfrc522 import MFRC522

        if spi is None:  # pragma: no cover - only on a Pi
            try:
                import spidev
            except ImportError as error:
                raise RuntimeError(
                    "the SPI card reader needs the pi extra: pip install 'pawnlight[pi]'"
                ) from error
            spi = spidev.SpiDev()
            spi.open(bus, device)
            spi.max_speed_hz = 1_000_000
            spi.mode = 0
        self._reset = None
        if reset_pin is not None:
            from gpiozero import DigitalOutputDevice

            self._reset = DigitalOutputDevice(
                reset_pin, initial_value=True, pin_factory=pin_factory
            )
        self._chip = MFRC522(SpidevBus(spi), _KernelChipSelect())
        self._ready = False

    def read_uid(self) -> str | None:
        """The UID on the reader, or None. OSError on a garbled read or a silent chip (the
        chip is set up again at the next poll, so a reader plugged in late still works)."""
        if not self._ready:
            self._chip.init()
            self._ready = True
        try:
            uid = self._chip.read_uid()
        except OSError:
            if self._chip.read(0x37) in (0x00, 0xFF):  # VERSION: the chip went away
                self._ready = False
            raise
        return uid_hex(uid) if uid is not None else None


# Linux key codes of what a keyboard-wedge reader types.
_KEY_CHARS = {2: "1", 3: "2", 4: "3", 5: "4", 6: "5", 7: "6", 8: "7", 9: "8", 10: "9", 11: "0"}
_KEY_CHARS.update({30: "A", 48: "B", 46: "C", 32: "D", 18: "E", 33: "F"})
KEY_ENTER = 28
KEY_KPENTER = 96


class KeystrokeDecoder:
    """Turn a keyboard-wedge reader's key presses into UIDs: hex digits, then Enter.

    Many readers type the UID as a decimal number instead; :meth:`feed` returns what was typed
    and the configuration says how to read it (``decimal`` turns it into hex).
    """

    def __init__(self, decimal: bool = False) -> None:
        self.decimal = decimal
        self._typed: list[str] = []

    def feed(self, key_code: int) -> str | None:
        """Feed one key-down code; returns a UID when Enter completes one."""
        if key_code in (KEY_ENTER, KEY_KPENTER):
            typed, self._typed = "".join(self._typed), []
            if not typed:
                return None
            if self.decimal:
                if not typed.isdigit():
                    return None
                number = int(typed)
                return f"{number:0{max(8, (number.bit_length() + 7) // 8 * 2)}X}"
            return typed
        char = _KEY_CHARS.get(key_code)
        if char is not None:
            self._typed.append(char)
        return None


class KeyboardCardReader:
    """A USB reader that types the UID, read from its input device (exclusively grabbed, so the
    digits do not land in a console)."""

    def __init__(
        self,
        emit: Emit,
        device_path: str,
        decimal: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        try:
            import evdev
        except ImportError as error:  # pragma: no cover - only on a Pi with the pi extra
            raise RuntimeError(
                "the USB keyboard card reader needs the pi extra: pip install 'pawnlight[pi]'"
            ) from error
        self._evdev = evdev
        self._device = evdev.InputDevice(device_path)
        self._decoder = KeystrokeDecoder(decimal)
        self._emit = emit
        self._clock = clock
        self._thread: threading.Thread | None = None

    def start(self) -> None:  # pragma: no cover - needs the device
        self._device.grab()
        self._thread = threading.Thread(target=self._run, name="KeyboardCardReader", daemon=True)
        self._thread.start()

    def stop(self) -> None:  # pragma: no cover - needs the device
        self._device.close()

    def _run(self) -> None:  # pragma: no cover - needs the device
        key_down = 1
        try:
            for event in self._device.read_loop():
                if event.type == self._evdev.ecodes.EV_KEY and event.value == key_down:
                    uid = self._decoder.feed(event.code)
                    if uid is not None:
                        self._emit(CardRead(uid, self._clock()))
        except OSError:
            return  # device unplugged or closed

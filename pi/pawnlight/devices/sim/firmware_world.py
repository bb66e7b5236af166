"""The physical world around the simulated firmware: pawns on sensors, a card on the reader.

:class:`FirmwareWorld` is the part of
:class:`~pawnlight.devices.sim_firmware.SimulatedFirmware` a test (or the simulator page) plays
the world through: each change is kept (a rebooted firmware finds it in ``world.json``) and
sent to the running firmware over its control channel.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from ...board.leds import RGB


class FirmwareWorld:
    """Sensors, the card, noise, LED timing, hangs and BOOTSEL of a simulated board, and the
    LEDs it shows."""

    channels: int
    _lock: threading.RLock
    _sensors: list[int]
    _card: str | None
    _bootsel: bool
    _leds: list[RGB]
    _led_writes: int

    def _command(self, cmd: dict[str, object]) -> None:
        """Send one command to the firmware's control channel (SimulatedFirmware does)."""
        raise NotImplementedError

    def set_sensor(self, channel: int, value: int) -> None:
        """A pawn arrives or leaves: 0/1 on a presence board, 0..65535 on a colour board."""
        if not 0 <= channel < self.channels:
            raise ValueError(f"channel {channel} out of range 0..{self.channels - 1}")
        with self._lock:
            self._sensors[channel] = int(value)
            self._command({"op": "set", "channel": channel, "value": int(value)})

    def set_sensors(self, values: Sequence[int]) -> None:
        """Every channel at once."""
        if len(values) != self.channels:
            raise ValueError(f"{len(values)} values for {self.channels} channels")
        with self._lock:
            self._sensors = [int(v) for v in values]
            self._command({"op": "set_all", "values": self._sensors})

    @property
    def sensors(self) -> tuple[int, ...]:
        with self._lock:
            return tuple(self._sensors)

    def present_card(self, uid: str | None) -> None:
        """Lay a card (UID as hex, 4/7/10 bytes) on the reader; None takes it away."""
        if uid is not None:
            raw = bytes.fromhex(uid)
            if len(raw) not in (4, 7, 10):
                raise ValueError("a card UID has 4, 7 or 10 bytes")
            uid = raw.hex().upper()
        with self._lock:
            self._card = uid
            self._command({"op": "card", "uid": uid})

    def remove_card(self) -> None:
        self.present_card(None)

    def set_noise(self, amplitude: int) -> None:
        """Colour boards: jitter every ADC reading by up to +-amplitude (until reboot)."""
        with self._lock:
            self._command({"op": "noise", "amplitude": int(amplitude)})

    def set_led_write_time(self, ms: int) -> None:
        """Make every LED write take ``ms`` milliseconds of the firmware's time, as clocking
        a real WS2812 chain out does (about 4 ms for 132 LEDs on a Pico)."""
        with self._lock:
            self._command({"op": "led_write_ms", "ms": int(ms)})

    def hang(self, ms: int) -> None:
        """Stall the firmware's main loop for ms milliseconds (to trip the watchdog)."""
        with self._lock:
            self._command({"op": "hang", "ms": int(ms)})

    def hold_bootsel(self, held: bool = True) -> None:
        """Hold (or let go of) the Pico's BOOTSEL button; the firmware looks at it when it
        boots, and skips itself while it is held (docs/firmware.md)."""
        with self._lock:
            self._bootsel = held

    # --- what the firmware shows ---------------------------------------------------------
    def leds(self) -> list[RGB]:
        """The colours on the LEDs now, after the firmware's brightness limit."""
        with self._lock:
            return list(self._leds)

    @property
    def led_writes(self) -> int:
        with self._lock:
            return self._led_writes

"""The real firmware on MicroPython's real RP2040 build, inside the rp2040js emulator.

``EmulatedPico`` is a :class:`~pawnlight.devices.sim.firmware.SimulatedFirmware` whose
firmware process is ``node emulator/pico.mjs`` instead of the MicroPython unix port: the
unmodified MicroPython UF2 a user flashes onto a Pico boots from the RP2040 boot ROM, finds
the firmware files and ``config.json`` in its littlefs filesystem and runs ``main.py`` with
``hal_pico.py``. The emulator models the board's chips (74HC165 chain, CD74HC4067 muxes with
DRV5055 readings, MFRC522 with cards, WS2812 line) and speaks SimulatedFirmware's control
channel, so everything built on that (pawns, cards, LEDs, the pty cable, faults, reboots)
works the same on it.

Needs node (Debian's), rp2040js installed by ``scripts/setup-emulator``, littlefs-python (the
``sim`` extra), and two binaries that are not part of the project: the MicroPython UF2 and
the RP2040 boot ROM, in the folder named by ``PAWNLIGHT_RP2040_DIR`` (docs/firmware.md says
where to get them). :func:`missing` says what is absent, in words a person can act on.

The emulator runs several times slower than a Pico, so the driver talking to it needs its
timers stretched (:func:`link_settings`); the firmware itself runs unchanged.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pawnlight.firmware import config as firmware_config

from ...board.leds import RGB
from ..link_session import LinkSettings
from .firmware import FIRMWARE_DIR, SimulatedFirmware
from .firmware_process import launch

RP2040_DIR_VARIABLE = "PAWNLIGHT_RP2040_DIR"
UF2_NAME = "micropython-1.26.1-rpi_pico.uf2"
BOOTROM_NAME = "rp2040-bootrom-b1.bin"
EMULATOR_DIR = Path(__file__).resolve().parents[4] / "emulator"
# MicroPython's rp2 filesystem on a 2 MB Pico: littlefs v2 from flash offset 0xA0000.
FS_BLOCK_SIZE = 4096
FS_BLOCKS = 352
FS_PROG_SIZE = 256
# Host-side files: the simulator's own HAL and chip models never go onto a Pico.
NOT_ON_THE_PICO = {"__init__.py", "hal_sim.py", "sim_devices.py", "sim_mfrc522.py"}
# Roughly how much slower than a real RP2040 the emulator runs on a small machine.
SLOWDOWN = 6.0
HEARTBEAT_MARGIN = 5.0


def rp2040_dir() -> Path | None:
    value = os.environ.get(RP2040_DIR_VARIABLE)
    return Path(value) if value else None


def missing() -> str | None:
    """Why the emulated Pico cannot run here, or None when everything is in place."""
    folder = rp2040_dir()
    if folder is None:
        return (
            f"{RP2040_DIR_VARIABLE} is not set (the folder holding {UF2_NAME} and {BOOTROM_NAME})"
        )
    if not folder.is_dir():
        return f"{RP2040_DIR_VARIABLE}={folder} is not a folder"
    if find_uf2(folder) is None:
        return f"no MicroPython .uf2 in {folder} ({RP2040_DIR_VARIABLE})"
    if not (folder / BOOTROM_NAME).is_file():
        return f"{folder / BOOTROM_NAME} not found ({RP2040_DIR_VARIABLE}={folder})"
    if shutil.which("node") is None:
        return "node is not installed (sudo apt-get install nodejs)"
    if not (EMULATOR_DIR / "node_modules" / "rp2040js").is_dir():
        return f"rp2040js is not installed in {EMULATOR_DIR} (run scripts/setup-emulator)"
    try:
        import littlefs  # noqa: F401
    except ImportError:
        return "littlefs-python is not installed (pip install -e .[sim])"
    return None


def find_uf2(folder: Path) -> Path | None:
    """MicroPython for the Pico in the folder: the tested build by name, else the only .uf2
    (as downloaded from micropython.org, e.g. RPI_PICO-20250911-v1.26.1.uf2)."""
    if (folder / UF2_NAME).is_file():
        return folder / UF2_NAME
    found = sorted(folder.glob("*.uf2"))
    return found[0] if len(found) == 1 else None


def link_settings(slowdown: float = SLOWDOWN) -> LinkSettings:
    """The driver's timers stretched by the emulator's slowdown, so a board that is merely
    emulated slowly is not taken for a silent one."""
    base = LinkSettings()
    return LinkSettings(
        heartbeat_interval=base.heartbeat_interval,
        # How slow the emulator runs depends on the machine's load (a busy CI box can be
        # 20x slower than a Pico): a dead board is still found, just later.
        heartbeat_timeout=base.heartbeat_timeout * slowdown * HEARTBEAT_MARGIN,
        retransmit_timeout=base.retransmit_timeout * slowdown,
        max_retransmit_timeout=base.max_retransmit_timeout * slowdown,
        hello_interval=base.hello_interval * slowdown,
        handshake_timeout=base.handshake_timeout * slowdown,
        write_timeout=base.write_timeout * slowdown,
    )


def filesystem_image(config: dict[str, Any], firmware: Path = FIRMWARE_DIR) -> bytes:
    """A littlefs image of the Pico's filesystem: the firmware modules (from ``firmware``,
    this pawnlight's own by default) and config.json."""
    import littlefs

    fs = littlefs.LittleFS(
        block_size=FS_BLOCK_SIZE,
        block_count=FS_BLOCKS,
        prog_size=FS_PROG_SIZE,
        read_size=FS_PROG_SIZE,
        lookahead_size=32,
    )
    for source in sorted(firmware.glob("*.py")):
        if source.name not in NOT_ON_THE_PICO:
            with fs.open(source.name, "wb") as out:
                out.write(source.read_bytes())
    with fs.open("config.json", "w") as out:
        out.write(json.dumps(config))
    return bytes(fs.context.buffer)


class EmulatedPico(SimulatedFirmware):
    def __init__(
        self,
        board: str = "presence",
        *,
        config: str | os.PathLike[str] | None = None,
        card_reader: bool = True,
        ready_timeout: float = 120.0,
        seed: int = 0,
        node: str = "node",
        firmware: str | os.PathLike[str] | None = None,
    ) -> None:
        """As SimulatedFirmware; ``firmware`` is another folder of firmware modules to put
        on the chip (to measure a version under development), this pawnlight's by default."""
        reason = missing()
        if reason:
            raise FileNotFoundError(f"the emulated Pico cannot run: {reason}")
        super().__init__(
            board,
            config=config,
            micropython=node,
            card_reader=card_reader,
            ready_timeout=ready_timeout,
            seed=seed,
        )
        self.firmware_dir = Path(firmware) if firmware else FIRMWARE_DIR
        if not (self.firmware_dir / "main.py").is_file():
            raise FileNotFoundError(f"{self.firmware_dir} holds no main.py")
        with open(self.config_path) as f:
            self._raw_config = json.load(f)  # as the user wrote it: it goes onto the Pico
        self._config = firmware_config.validate(dict(self._raw_config))
        self.reports: list[dict[str, Any]] = []  # "report"/"applied" events from the chip
        self._replug = False  # plug the cable back when the rebooted firmware is up
        self.led_times: list[int] = []  # Pico time (ns) of every frame the LEDs latched

    def send_message(self, mtype: int, payload: bytes) -> None:
        """The firmware on the emulated chip is the Pico's own: it cannot be made to send a
        message it would never send (the line faults bad-error and bad-snapshot)."""
        raise ValueError("the emulated Pico's firmware cannot be made to send a made-up frame")

    def _spawn(self) -> None:
        """Start an emulator process (lock held): a power-on, or the chip's next boot after a
        reset, with the flash and watchdog registers it kept."""
        assert self._tmp is not None and self._relay is not None
        rp2040 = rp2040_dir()
        assert rp2040 is not None
        flash = self._tmp / "flash.bin"
        if not flash.exists():
            flash.write_bytes(filesystem_image(self._raw_config, self.firmware_dir))
        kept = self._tmp / "watchdog.json"
        watchdog = None
        if kept.exists() and self._reset_cause == "watchdog":
            watchdog = json.loads(kept.read_text())
            # A Pico that resets drops off USB until it is up again: the port goes away.
            # It comes back when the firmware speaks (not at USB enumeration, which comes
            # earlier), so the driver's bytes never reach main.py before it turns Ctrl-C off
            # (a 0x03 in them would stop the firmware; see docs/firmware.md).
            self.unplug()
            self._replug = True
        world = {
            "config": self._config,
            "sensors": self._sensors,
            "card": self._card,
            "no_card_reader": not self._card_reader,
            "watchdog": watchdog,
        }
        (self._tmp / "world.json").write_text(json.dumps(world))

        def argv(ctl_in: int, ctl_out: int) -> list[str]:
            return [
                self._micropython,
                str(EMULATOR_DIR / "pico.mjs"),
                str(rp2040 / BOOTROM_NAME),
                str(find_uf2(rp2040)),
                str(flash),
                str(self._tmp),
                str(ctl_in),
                str(ctl_out),
            ]

        launch(self, argv, cwd=EMULATOR_DIR)

    def _on_event(self, event: dict[str, object]) -> None:
        if event.get("ev") in ("report", "applied", "tracing", "sent"):
            self.reports.append(event)
            self._changed.notify_all()
            return
        if event.get("ev") == "ready" and self._replug:
            self._replug = False
            self.plug_in()
        if event.get("ev") == "leds":
            self.led_times.append(int(event["t"]))  # type: ignore[call-overload]
        super()._on_event(event)

    # --- waits, stretched by the emulator's slowdown ------------------------------------
    def wait_for_leds(
        self, predicate: Callable[[list[RGB]], bool], timeout: float = 5.0 * SLOWDOWN
    ) -> list[RGB]:
        return super().wait_for_leds(predicate, timeout)

    def sync(self, timeout: float = 5.0 * SLOWDOWN) -> dict[str, object]:
        return super().sync(timeout)

    def wait_reader_polls(self, count: int, timeout: float = 5.0 * SLOWDOWN) -> None:
        super().wait_reader_polls(count, timeout)

    # --- measurement (the Pico's clock) ------------------------------------------------
    def command(self, cmd: dict[str, object]) -> None:
        """Send a raw control command (``trace``, ``report``, ``flood``: see pico.mjs)."""
        with self._lock:
            self._command(cmd)

    def pico_ns(self) -> int:
        """The emulated chip's clock now, in nanoseconds since power-on."""
        return int(self.sync(60.0)["t"])  # type: ignore[call-overload]

    def wait_pico(self, ns: int, timeout: float = 120.0) -> int:
        """Block until the Pico's clock has passed ns; returns its time then."""
        deadline = time.monotonic() + timeout
        while (now := self.pico_ns()) < ns:
            if time.monotonic() > deadline:
                raise TimeoutError(f"the emulated Pico's clock did not reach {ns} ns")
            time.sleep(0.05)
        return now

    def wait_event(self, kind: str, after: int, timeout: float = 60.0) -> dict[str, Any]:
        """The first ``kind`` event at index >= after in :attr:`reports`."""

        def found() -> bool:
            return any(e.get("ev") == kind for e in self.reports[after:])

        with self._changed:
            if not self._changed.wait_for(found, timeout):
                raise TimeoutError(f"no {kind} event from the emulated Pico in {timeout} s")
            return next(e for e in self.reports[after:] if e.get("ev") == kind)

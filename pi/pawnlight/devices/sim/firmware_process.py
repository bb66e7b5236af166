"""The simulated firmware's process: launched, watched, reaped and restarted.

:class:`~pawnlight.devices.sim.firmware.SimulatedFirmware` runs ``firmware/main.py`` in a
``micropython`` process; these functions start it (:func:`spawn`), wait for it to boot
(:func:`wait_ready`) and run its control thread (:func:`control_loop`): the events it writes
on the control pipe come in, and a process that ended is reaped and, when the board only
restarted (a reset, the watchdog), started again.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import pawnlight.firmware

if TYPE_CHECKING:
    import threading

    from ...board.leds import RGB
    from .pty_relay import PtyRelay

FIRMWARE_DIR = Path(pawnlight.firmware.__file__).parent
EXIT_REBOOT = 75  # firmware asked for a reset (RESET message, crash)
EXIT_WATCHDOG = 76  # the simulated watchdog fired
#: The firmware in CPython where no MicroPython unix port is installed.
CPYTHON = "pawnlight.devices.sim.cpython_micropython"


class FirmwareHost(Protocol):
    """What the process functions below use of a :class:`~.firmware.SimulatedFirmware` (named
    here, not imported, so that the two modules import in one direction only)."""

    _boots: int
    _led_writes: int
    _leds: list[RGB]
    _proc: FirmwareProcess | None
    _ready_boot: int
    _reset_cause: str | None
    _restart_requested: bool

    @property
    def config_path(self) -> Path: ...
    @property
    def exit_codes(self) -> list[int]: ...
    @property
    def _bootsel(self) -> bool: ...
    @property
    def _card(self) -> str | None: ...
    @property
    def _card_reader(self) -> bool: ...
    @property
    def _changed(self) -> threading.Condition: ...
    @property
    def _events_log(self) -> deque[dict[str, object]]: ...
    @property
    def _heap_kb(self) -> int: ...
    @property
    def _lock(self) -> AbstractContextManager[Any]: ...
    @property
    def _micropython(self) -> str: ...
    @property
    def _pongs(self) -> dict[int, dict[str, object]]: ...
    @property
    def _procs(self) -> list[FirmwareProcess]: ...
    @property
    def _ready_timeout(self) -> float: ...
    @property
    def _relay(self) -> PtyRelay | None: ...
    @property
    def _respawning(self) -> bool: ...
    @property
    def _sensors(self) -> list[int]: ...
    @property
    def _stderr(self) -> deque[str]: ...
    @property
    def _stopping(self) -> bool: ...
    @property
    def _tmp(self) -> Path | None: ...
    @property
    def _wake_r(self) -> int: ...
    @property
    def _wake_w(self) -> int: ...

    def _spawn(self) -> None: ...

    def _on_event(self, event: dict[str, object]) -> None: ...


class FirmwareProcess:
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


def kill_all(processes: list[FirmwareProcess]) -> None:
    """Last-resort cleanup if a SimulatedFirmware is dropped without stop()."""
    for proc in processes:
        if proc.popen.poll() is None:
            proc.popen.kill()
            proc.popen.wait()


def wait_ready(fw: FirmwareHost, boot: int) -> None:
    with fw._changed:
        ok = fw._changed.wait_for(
            lambda: fw._ready_boot >= boot or (fw._proc is None and not fw._respawning),
            fw._ready_timeout,
        )
        if not ok or fw._ready_boot < boot:
            raise RuntimeError(
                f"simulated firmware did not start (exit codes {fw.exit_codes}):\n"
                + "".join(fw._stderr)
            )


def spawn(fw: FirmwareHost) -> None:
    """Start a firmware process (lock held)."""
    assert fw._tmp is not None and fw._relay is not None
    world = {
        "sensors": fw._sensors,
        "card": fw._card,
        "no_card_reader": not fw._card_reader,
        "bootsel": fw._bootsel,
    }
    (fw._tmp / "world.json").write_text(json.dumps(world))
    env = dict(os.environ)
    env.pop("PAWNLIGHT_SIM_RESET_CAUSE", None)
    if fw._reset_cause:
        env["PAWNLIGHT_SIM_RESET_CAUSE"] = fw._reset_cause

    # No unix port (""): the firmware in this Python, with MicroPython's names added.
    interpreter = [fw._micropython] if fw._micropython else [sys.executable, "-m", CPYTHON]

    def argv(ctl_in: int, ctl_out: int) -> list[str]:
        return [
            *interpreter,
            "-X",
            f"heapsize={fw._heap_kb}K",
            str(FIRMWARE_DIR / "main.py"),
            str(fw.config_path.resolve()),
            str(ctl_in),
            str(ctl_out),
            str(fw._tmp),
        ]

    # The firmware polls its serial line and control pipe, then reads what is there.
    launch(fw, argv, cwd=fw._tmp, env=env, polled=True)


def launch(
    fw: FirmwareHost,
    argv: Callable[[int, int], list[str]],
    cwd: Path,
    env: dict[str, str] | None = None,
    polled: bool = False,
) -> None:
    """Start the chip's process (lock held): its serial line on stdin/stdout through the
    relay, the control channel on two more pipes whose descriptors ``argv`` is given."""
    assert fw._relay is not None
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
    fw._relay.attach_firmware(serial_in_w, serial_out_r)
    fw._proc = FirmwareProcess(popen, ctl_in_w, ctl_out_r, err)
    fw._procs[:] = [fw._proc]
    fw._boots += 1
    fw._reset_cause = None
    os.write(fw._wake_w, b"x")


def reap(fw: FirmwareHost, proc: FirmwareProcess) -> None:
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
                fw._stderr.append(chunk.decode(errors="replace"))
        except BlockingIOError:
            pass
    proc.close()
    fw.exit_codes.append(code)
    if fw._proc is proc:
        fw._proc = None
    # A process killed by a signal (the OOM killer, a stray kill) is a board that lost
    # power for a moment: it boots again, as a Pico on its supply would. Exit 0 is a
    # deliberate halt (maintenance mode, or the simulator going away).
    killed = code < 0
    respawn = not fw._stopping and (
        fw._restart_requested or killed or code in (EXIT_REBOOT, EXIT_WATCHDOG)
    )
    fw._restart_requested = False
    if code == EXIT_WATCHDOG:
        fw._reset_cause = "watchdog"
    if respawn:
        fw._spawn()
    fw._changed.notify_all()


def on_event(fw: FirmwareHost, event: dict[str, object]) -> None:
    kind = event.get("ev")
    if kind == "ready":
        fw._ready_boot = fw._boots
    elif kind == "leds":
        rgb = bytes.fromhex(str(event["rgb"]))
        fw._leds = [tuple(rgb[i : i + 3]) for i in range(0, len(rgb), 3)]  # type: ignore[misc]
        fw._led_writes += 1
    elif kind == "pong":
        scans = bytes.fromhex(str(event.pop("scans_hex", "")))
        event["scans"] = [
            int.from_bytes(scans[i : i + 2], "little") for i in range(0, len(scans), 2)
        ]
        fw._pongs[int(event["id"])] = event  # type: ignore[call-overload]
    else:
        fw._events_log.append(event)
    fw._changed.notify_all()


def control_loop(fw: FirmwareHost) -> None:
    while True:
        with fw._lock:
            if fw._proc is None and fw._stopping:
                return
        try:
            control_step(fw)
        except Exception as e:  # keep the simulator alive; the log shows what happened
            with fw._lock:
                fw._stderr.append(f"simulator control thread: {e!r}\n")
            time.sleep(0.05)


def control_step(fw: FirmwareHost) -> None:
    """Wait for output of the current firmware process and handle it. Only this thread
    closes the process's descriptors, so none is closed while being waited on."""
    with fw._lock:
        proc = fw._proc
    watched = [fw._wake_r]
    if proc is not None:
        watched.append(proc.ctl_out)
        if proc.err is not None:
            watched.append(proc.err)
    readable, _, _ = select.select(watched, [], [], 1.0)
    if fw._wake_r in readable:
        os.read(fw._wake_r, 4096)
    if proc is None:
        return
    with fw._lock:
        if proc.err is not None and proc.err in readable:
            chunk = os.read(proc.err, 65536)
            if chunk:
                fw._stderr.append(chunk.decode(errors="replace"))
            else:
                os.close(proc.err)
                proc.err = None
        if proc.ctl_out in readable:
            chunk = os.read(proc.ctl_out, 65536)
            if not chunk:
                reap(fw, proc)  # EOF: the process has ended
                return
            proc.line += chunk
            *lines, proc.line = proc.line.split(b"\n")
            for line in lines:
                if not line:
                    continue
                try:
                    event = json.loads(line)
                except ValueError:
                    fw._stderr.append(f"bad control line: {line!r}\n")
                    continue  # next line
                fw._on_event(event)

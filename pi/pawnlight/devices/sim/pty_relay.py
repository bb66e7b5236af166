"""The "USB cable" of the simulated board: a pseudo-terminal, plus fault injection.

The simulated firmware talks over its stdin/stdout pipes, exactly as the Pico talks over USB
CDC. This relay copies those bytes to and from the master side of a real pty, whose slave
side (/dev/pts/N) the driver opens with pyserial. Because the relay owns the pty, the cable
can be pulled (the master closes, the slave hangs up and vanishes) and plugged back (a new
pty) while the firmware keeps running, and the bytes in either direction can be dropped,
corrupted, duplicated, truncated or mixed with garbage on request.

One thread does all the reading, writing and closing of file descriptors; other threads ask
it to act through a queue, so no descriptor is ever closed while it is being polled.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import random
import select
import threading
from collections.abc import Callable
from dataclasses import dataclass

from pawnlight.firmware import protocol as P

log = logging.getLogger(__name__)

TO_HOST = "to_host"  # firmware -> Pi
TO_BOARD = "to_board"  # Pi -> firmware
DIRECTIONS = (TO_HOST, TO_BOARD)
FAULTS = ("drop", "corrupt", "duplicate", "truncate")


@dataclass
class _Fault:
    kind: str
    message: int | None  # only frames of this message type, or any frame
    count: int


class _Direction:
    """Fault state of one direction. Bytes pass straight through unless a fault is armed;
    then they are cut into frames (leading delimiters + body + closing delimiter)."""

    def __init__(self, rng: random.Random) -> None:
        self.faults: list[_Fault] = []
        self.muted = False
        self.pending = b""  # start of a frame waiting for its closing delimiter
        self.rng = rng
        self.applied: dict[str, int] = dict.fromkeys(FAULTS, 0)
        # The first frame of these message types to pass, byte for byte (the replay fault).
        self.keep_types: tuple[int, ...] = ()
        self.kept: bytes | None = None
        self._scan = b""

    def keep_first(self, data: bytes) -> None:
        """Look for the first frame of a type in keep_types in the bytes passing, until found."""
        if not self.keep_types or self.kept is not None:
            return
        data = self._scan + data
        start = 0
        while (end := data.find(b"\x00", start)) >= 0:
            body = data[start:end]
            start = end + 1
            if not body:
                continue
            with contextlib.suppress(P.FramingError):
                if P.parse_frame(body)[0] in self.keep_types:
                    self.kept = b"\x00" + body + b"\x00"
                    self._scan = b""
                    return
        self._scan = data[start:][-P.MAX_ENCODED :]

    def process(self, data: bytes) -> bytes:
        if self.muted:
            return b""
        if not self.faults and not self.pending:
            return data
        data = self.pending + data
        out = bytearray()
        i = 0
        while True:
            # A unit is any run of delimiters, then a body, then the closing delimiter.
            j = i
            while j < len(data) and data[j] == 0:
                j += 1
            end = data.find(b"\x00", j)
            if end < 0:
                if self.faults:
                    self.pending = data[i:]
                else:
                    out += data[i:]
                    self.pending = b""
                return bytes(out)
            out += self._apply(data[i:j], data[j:end], data[end : end + 1])
            i = end + 1

    def _apply(self, lead: bytes, body: bytes, close: bytes) -> bytes:
        mtype = None
        with contextlib.suppress(P.FramingError):
            mtype = P.parse_frame(body)[0]
        for fault in self.faults:
            if fault.message is None or fault.message == mtype:
                fault.count -= 1
                if fault.count <= 0:
                    self.faults.remove(fault)
                self.applied[fault.kind] += 1
                return self._damage(fault.kind, lead, body, close)
        return lead + body + close

    def _damage(self, kind: str, lead: bytes, body: bytes, close: bytes) -> bytes:
        if kind == "drop":
            return b""
        if kind == "duplicate":
            return (lead + body + close) * 2
        if kind == "truncate":
            return lead + body[: len(body) // 2]  # no closing delimiter: the next frame's ends it
        # corrupt: flip one bit of one body byte, never making it a delimiter
        buf = bytearray(body)
        pos = self.rng.randrange(len(buf))
        bit = self.rng.randrange(8)
        if buf[pos] ^ (1 << bit) == 0:
            bit = (bit + 1) % 8
        buf[pos] ^= 1 << bit
        return lead + bytes(buf) + close


class PtyRelay:
    def __init__(self, seed: int = 0) -> None:
        self._requests: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        self._master: int | None = None
        self._slave: int | None = None  # held open so the master never reads EIO
        self._fw_in: int | None = None
        self._fw_out: int | None = None
        self._fault_lock = threading.Lock()
        rng = random.Random(seed)
        self._dirs = {d: _Direction(rng) for d in DIRECTIONS}
        self.bytes = dict.fromkeys(DIRECTIONS, 0)  # bytes delivered
        self.lost = dict.fromkeys(DIRECTIONS, 0)  # bytes nobody could take (no host, full)
        self._running = True
        self._thread = threading.Thread(target=self._run, name="sim-pty-relay", daemon=True)
        self._thread.start()

    # --- requests from other threads ---------------------------------------------------
    def _call(self, fn: Callable[[], None]) -> None:
        """Run fn on the relay thread and wait for it."""
        if threading.current_thread() is self._thread:
            fn()
            return
        done = threading.Event()

        def task() -> None:
            try:
                fn()
            finally:
                done.set()

        self._requests.put(task)
        os.write(self._wake_w, b"x")
        if not done.wait(10):
            raise TimeoutError("pty relay thread is not responding")

    def attach_host(self, master: int, slave: int) -> None:
        def do() -> None:
            self._close_host()
            os.set_blocking(master, False)
            self._master, self._slave = master, slave

        self._call(do)

    def detach_host(self) -> None:
        self._call(self._close_host)

    def attach_firmware(self, fw_in: int, fw_out: int) -> None:
        def do() -> None:
            self._close_firmware()
            os.set_blocking(fw_in, False)
            self._fw_in, self._fw_out = fw_in, fw_out

        self._call(do)

    def detach_firmware(self) -> None:
        self._call(self._close_firmware)

    def close(self) -> None:
        if not self._running:
            return

        def do() -> None:
            self._close_host()
            self._close_firmware()
            self._running = False

        self._call(do)
        self._thread.join(timeout=10)
        os.close(self._wake_r)
        os.close(self._wake_w)

    # --- faults ------------------------------------------------------------------------
    def arm(self, direction: str, kind: str, count: int = 1, message: int | None = None) -> None:
        """Apply fault `kind` to the next `count` frames going `direction` (of one message
        type if given)."""
        if direction not in DIRECTIONS or kind not in FAULTS:
            raise ValueError(f"unknown direction {direction!r} or fault {kind!r}")
        with self._fault_lock:
            self._dirs[direction].faults.append(_Fault(kind, message, count))

    def mute(self, direction: str, muted: bool = True) -> None:
        with self._fault_lock:
            self._dirs[direction].muted = muted

    def applied(self, direction: str) -> dict[str, int]:
        """How many frames each fault has hit so far."""
        with self._fault_lock:
            return dict(self._dirs[direction].applied)

    def armed(self, direction: str) -> int:
        with self._fault_lock:
            return sum(f.count for f in self._dirs[direction].faults)

    def keep_first(self, direction: str, types: tuple[int, ...]) -> None:
        """From now on, keep the first frame of one of these types going `direction` (see
        kept)."""
        with self._fault_lock:
            self._dirs[direction].keep_types = types

    def kept(self, direction: str) -> bytes | None:
        """That frame, with its delimiters, byte for byte as it was sent; None before it."""
        with self._fault_lock:
            return self._dirs[direction].kept

    def inject(self, direction: str, data: bytes) -> None:
        """Write raw bytes into the line, between whatever else passes."""
        self._call(lambda: self._deliver(direction, bytes(data)))

    # --- relay thread ------------------------------------------------------------------
    def _close_host(self) -> None:
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None
        with self._fault_lock:
            self._dirs[TO_BOARD].pending = b""
            self._dirs[TO_HOST].pending = b""

    def _close_firmware(self) -> None:
        for fd in (self._fw_in, self._fw_out):
            if fd is not None:
                os.close(fd)
        self._fw_in = self._fw_out = None

    def _deliver(self, direction: str, data: bytes) -> None:
        fd = self._master if direction == TO_HOST else self._fw_in
        if fd is None:
            self.lost[direction] += len(data)  # no host on the line: the bytes are gone
            return
        try:
            sent = os.write(fd, data)
        except (BlockingIOError, BrokenPipeError, OSError):
            sent = 0
        self.bytes[direction] += sent
        self.lost[direction] += len(data) - sent

    def _forward(self, direction: str, data: bytes) -> None:
        with self._fault_lock:
            self._dirs[direction].keep_first(data)
            data = self._dirs[direction].process(data)
        if data:
            self._deliver(direction, data)

    def _run(self) -> None:
        while self._running:
            try:
                self._step()
            except Exception:  # never let one bad moment cut the simulated cable for good
                log.exception("pty relay")

    def _step(self) -> None:
        watched = [self._wake_r]
        if self._master is not None:
            watched.append(self._master)
        if self._fw_out is not None:
            watched.append(self._fw_out)
        readable, _, _ = select.select(watched, [], [], 1.0)
        if self._wake_r in readable:
            with contextlib.suppress(BlockingIOError):
                os.read(self._wake_r, 4096)
        if not self._requests.empty():
            while not self._requests.empty():
                self._requests.get()()
            # Descriptors may have been swapped (and numbers reused): select again first.
            return
        if self._master is not None and self._master in readable:
            try:
                data = os.read(self._master, 65536)
            except (BlockingIOError, OSError):
                data = b""
            if data:
                self._forward(TO_BOARD, data)
        if self._fw_out is not None and self._fw_out in readable:
            try:
                data = os.read(self._fw_out, 65536)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if data:
                self._forward(TO_HOST, data)
            else:
                # The firmware process ended; its owner will attach the next one.
                self._close_firmware()

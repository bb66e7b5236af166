"""The board's firmware in this Python, where MicroPython's unix port is not installed.

``python -m pawnlight.devices.sim.cpython_micropython -X heapsize=NK main.py ARGS...`` takes
the unix port's command line and runs ``main.py`` in CPython with the few MicroPython names the
simulated firmware uses (``time.ticks_ms``, ``ticks_add``, ``ticks_diff``, ``sleep_ms``,
``gc.mem_free``, ``sys.print_exception``) and MicroPython's unbuffered files and objects-back
``select.poll``.  The firmware's viper modules fail to import here and it uses their
plain-Python twins, as it does on a port without native code; the heap is not limited.
:func:`pawnlight.devices.sim.firmware.firmware_interpreter` falls back to it when no
``micropython`` binary is found (arm64 Raspberry Pi OS Bookworm has neither a wheel nor a
Debian package): the simulated board then works the same, only less like a Pico.
"""

from __future__ import annotations

import builtins
import gc
import io
import runpy
import select
import sys
import time
import traceback
from pathlib import Path
from typing import Any

#: MicroPython's ticks wrap at 2**30 ms on the unix port (``TICKS_PERIOD``).
TICKS_PERIOD = 1 << 30
_HALF = TICKS_PERIOD // 2


def ticks_ms() -> int:
    return int(time.monotonic() * 1000) & (TICKS_PERIOD - 1)


def ticks_add(ticks: int, delta: int) -> int:
    return (ticks + delta) & (TICKS_PERIOD - 1)


def ticks_diff(end: int, start: int) -> int:
    return ((end - start + _HALF) & (TICKS_PERIOD - 1)) - _HALF


def sleep_ms(ms: float) -> None:
    time.sleep(max(ms, 0) / 1000)


_poll = select.poll


class _Poll:
    """``select.poll`` as MicroPython's: ``poll()`` gives back the registered objects."""

    def __init__(self) -> None:
        self._poll = _poll()
        self._objects: dict[int, object] = {}

    def register(self, obj: Any, mask: int = select.POLLIN | select.POLLOUT) -> None:
        fd = obj if isinstance(obj, int) else obj.fileno()
        self._objects[fd] = obj
        self._poll.register(fd, mask)

    def unregister(self, obj: Any) -> None:
        fd = obj if isinstance(obj, int) else obj.fileno()
        self._objects.pop(fd, None)
        self._poll.unregister(fd)

    def poll(self, timeout_ms: int = -1) -> list[tuple[object, int]]:
        ready = self._poll.poll(None if timeout_ms < 0 else timeout_ms)
        return [(self._objects[fd], event) for fd, event in ready]


_open = builtins.open


def _unbuffered_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
    """A descriptor opened in binary mode is unbuffered, as MicroPython's: an event or a
    frame written goes out at once, and poll() sees every byte not yet read."""
    if isinstance(file, int) and "b" in mode and not args and "buffering" not in kwargs:
        return _open(file, mode, buffering=0, **kwargs)
    return _open(file, mode, *args, **kwargs)


def install(heap_bytes: int) -> None:
    """MicroPython's names, added to this interpreter's modules."""
    added: list[tuple[object, str, object]] = [
        (time, "ticks_ms", ticks_ms),
        (time, "ticks_add", ticks_add),
        (time, "ticks_diff", ticks_diff),
        (time, "sleep_ms", sleep_ms),
        # No heap of its own here: what the firmware reports free is the heap it was given.
        (gc, "mem_free", lambda: heap_bytes),
        (gc, "mem_alloc", lambda: 0),
        (sys, "print_exception", lambda error, file=None: traceback.print_exception(error)),
        (select, "poll", _Poll),
    ]
    for module, name, value in added:
        setattr(module, name, value)
    builtins.open = _unbuffered_open
    # The serial line (stdin, stdout): unbuffered bytes underneath, as the unix port's.
    stdin = _open(0, "rb", buffering=0, closefd=False)
    stdout = _open(1, "wb", buffering=0, closefd=False)
    sys.stdin = io.TextIOWrapper(stdin)
    sys.stdout = io.TextIOWrapper(stdout, write_through=True)


def main(argv: list[str]) -> None:
    heap_kb = 200
    while argv and argv[0] == "-X":
        option = argv[1]
        if option.startswith("heapsize="):
            heap_kb = int(option.removeprefix("heapsize=").rstrip("Kk"))
        argv = argv[2:]
    if not argv:
        sys.exit("usage: cpython_micropython [-X heapsize=NK] SCRIPT [ARGS...]")
    install(heap_kb * 1024)
    script = Path(argv[0])
    sys.argv = [str(script), *argv[1:]]
    sys.path.insert(0, str(script.parent))
    runpy.run_path(str(script), run_name="__main__")


if __name__ == "__main__":
    main(sys.argv[1:])

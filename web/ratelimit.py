"""Slowing down PIN guessing: a few wrong PINs from one address lock it out for a while.

Each lockout is twice as long as the one before (up to an hour), so guessing a 4-digit PIN
takes weeks, while a player who mistypes waits a minute.  The clock is injected: tests move
time by hand instead of sleeping.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class _Record:
    failures: int = 0
    lockouts: int = 0
    locked_until: float = 0.0
    last: float = 0.0


class PinLimiter:
    def __init__(
        self,
        *,
        max_failures: int = 5,
        lockout: float = 60.0,
        longest: float = 3600.0,
        forget_after: float = 24 * 3600.0,
        clock: Callable[[], float] = time.monotonic,
        capacity: int = 1024,
    ) -> None:
        self.max_failures = max_failures
        self.lockout = lockout
        self.longest = longest
        self.forget_after = forget_after
        self.clock = clock
        self.capacity = capacity  # addresses remembered: a flood of addresses cannot fill memory
        self._records: OrderedDict[str, _Record] = OrderedDict()
        self._lock = threading.Lock()

    def retry_after(self, address: str) -> int:
        """Whole seconds until ``address`` may try again; 0 when it may try now."""
        with self._lock:
            record = self._get(address)
            if record is None:
                return 0
            return max(0, math.ceil(record.locked_until - self.clock()))

    def failed(self, address: str) -> int:
        """Count a wrong PIN; returns the seconds of lockout it caused (0 for none yet)."""
        with self._lock:
            now = self.clock()
            record = self._get(address) or _Record()
            self._records[address] = record
            self._records.move_to_end(address)
            while len(self._records) > self.capacity:
                self._records.popitem(last=False)
            record.failures += 1
            record.last = now
            if record.failures < self.max_failures:
                return 0
            record.failures = 0
            record.lockouts += 1
            seconds = min(self.longest, self.lockout * 2 ** (record.lockouts - 1))
            record.locked_until = now + seconds
            return math.ceil(seconds)

    def succeeded(self, address: str) -> None:
        with self._lock:
            self._records.pop(address, None)

    def _get(self, address: str) -> _Record | None:
        record = self._records.get(address)
        if record is not None and self.clock() - record.last > self.forget_after:
            del self._records[address]  # a day of quiet: start afresh
            return None
        return record

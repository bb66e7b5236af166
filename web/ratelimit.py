"""Slowing down PIN guessing, per address and across all addresses together.

Per address: a few wrong PINs lock that address out for a while; each lockout is twice as long
as the one before (up to an hour), so a player who mistypes waits a minute.

Across all addresses: someone with many addresses (a phone can take a new one at will) is held
to :data:`GLOBAL_FAILURES` wrong PINs in any :data:`GLOBAL_WINDOW` seconds; the one that reaches
it locks every login for :data:`GLOBAL_LOCKOUT` seconds (twice as long each time, up to a day)
and ``on_global_lockout`` is told, so the board can buzz and the page warn.  That bounds
guessing to about 20 PINs per 15 minutes, under 2,000 a day: a 10-digit PIN (the installer's)
would take thousands of years on average.  The price: while locked, the owner cannot log in
either (the lock is in memory: restarting pawnlight ends it) until someone at the board lifts
it (:meth:`PinLimiter.lift`, the owner's unlock on the board's buttons).

A lift forgets every lockout and every counted mistake and opens a window of
:data:`LIFT_WINDOW` seconds for the owner to log in: in it, :data:`LIFT_TRIES` wrong PINs from
all addresses together lock everyone out again (a new global lockout), and the window ends
with a right PIN.

The clock is injected: tests move time by hand instead of sleeping.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class _Record:
    failures: int = 0
    lockouts: int = 0
    locked_until: float = 0.0
    last: float = 0.0


#: Wrong PINs from all addresses together within :data:`GLOBAL_WINDOW` seconds.
GLOBAL_FAILURES = 20
GLOBAL_WINDOW = 15 * 60.0
#: The first global lockout; each next one is twice as long, up to a day.
GLOBAL_LOCKOUT = 15 * 60.0
GLOBAL_LONGEST = 24 * 3600.0
#: After a lift: seconds the owner has to log in, and the wrong PINs (all addresses) it allows.
LIFT_WINDOW = 5 * 60.0
LIFT_TRIES = 5


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
        global_failures: int = GLOBAL_FAILURES,
        global_window: float = GLOBAL_WINDOW,
        global_lockout: float = GLOBAL_LOCKOUT,
        on_global_lockout: Callable[[int], None] | None = None,
    ) -> None:
        self.global_failures = global_failures
        self.global_window = global_window
        self.global_lockout = global_lockout
        self.on_global_lockout = on_global_lockout
        self._recent: deque[float] = deque()
        self._global_until = 0.0
        self._global_lockouts = 0
        self.max_failures = max_failures
        self.lockout = lockout
        self.longest = longest
        self.forget_after = forget_after
        self.clock = clock
        self.capacity = capacity  # addresses remembered: a flood of addresses cannot fill memory
        self._records: OrderedDict[str, _Record] = OrderedDict()
        self._lock = threading.Lock()
        self._lifted_until = 0.0
        self._lift_failures = 0

    def retry_after(self, address: str) -> int:
        """Whole seconds until ``address`` may try again; 0 when it may try now."""
        with self._lock:
            now = self.clock()
            everyone = max(0, math.ceil(self._global_until - now))
            record = self._get(address)
            if record is None:
                return everyone
            return max(everyone, math.ceil(record.locked_until - now))

    def globally_locked(self) -> int:
        """Whole seconds until anyone may try again (0: not locked for everyone)."""
        with self._lock:
            return max(0, math.ceil(self._global_until - self.clock()))

    def failed(self, address: str) -> int:
        """Count a wrong PIN; returns the seconds of lockout it caused (0 for none yet)."""
        seconds = self._count_globally()
        if seconds:
            if self.on_global_lockout is not None:
                self.on_global_lockout(seconds)
            return seconds
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

    def _count_globally(self) -> int:
        """Count a wrong PIN against everyone's budget; the global lockout it starts, or 0."""
        with self._lock:
            now = self.clock()
            self._recent.append(now)
            while self._recent and now - self._recent[0] > self.global_window:
                self._recent.popleft()
            lifted = now < self._lifted_until
            if lifted:
                self._lift_failures += 1
            if len(self._recent) < self.global_failures and not (
                lifted and self._lift_failures >= LIFT_TRIES
            ):
                return 0
            self._recent.clear()
            self._lifted_until = 0.0  # locked again: the window is over
            self._global_lockouts += 1
            seconds = min(GLOBAL_LONGEST, self.global_lockout * 2 ** (self._global_lockouts - 1))
            self._global_until = now + seconds
            return math.ceil(seconds)

    def succeeded(self, address: str) -> None:
        with self._lock:
            self._records.pop(address, None)
            self._lifted_until = 0.0  # the owner is in: the window after a lift has served

    def lift(self) -> None:
        """Someone at the board lifted the lock: every lockout and counted mistake is forgotten,
        and the window after a lift opens (see the module docstring)."""
        with self._lock:
            self._records.clear()
            self._recent.clear()
            self._global_until = 0.0
            self._lifted_until = self.clock() + LIFT_WINDOW
            self._lift_failures = 0

    def lifted(self) -> int:
        """Whole seconds left of the window after a lift (0: none open)."""
        with self._lock:
            return max(0, math.ceil(self._lifted_until - self.clock()))

    def _get(self, address: str) -> _Record | None:
        record = self._records.get(address)
        if record is not None and self.clock() - record.last > self.forget_after:
            del self._records[address]  # a day of quiet: start afresh
            return None
        return record

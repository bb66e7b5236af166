"""The owner's unlock as the web sees it: someone at the board held the unlock buttons.

The companion counts each unlock in its state (``owner_unlock.count``,
``board_buttons.owner_at_board``);
the web never hears of it otherwise (data flows devices -> companion -> readers).  Before every
PIN is checked, :meth:`BoardUnlock.check` compares that count with the one it saw last, and a
change lifts every PIN lockout (ratelimit.PinLimiter.lift).  A lockout matters only when a PIN
is checked, so checking then misses no lift.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping
from typing import Any

from pawnlight.companion.service import Service

from .ratelimit import PinLimiter

log = logging.getLogger(__name__)


def unlocks(state: Mapping[str, Any]) -> int:
    """The companion's count of unlocks in a published state (0 when it has none)."""
    unlock = state.get("owner_unlock")
    count = unlock.get("count") if isinstance(unlock, Mapping) else None
    return count if isinstance(count, int) and not isinstance(count, bool) else 0


class BoardUnlock:
    def __init__(self, service: Service, limiter: PinLimiter) -> None:
        self._service = service
        self._limiter = limiter
        self._lock = threading.Lock()
        self._seen = unlocks(service.state())

    def check(self) -> bool:
        """Lift the lockouts if the board's buttons asked since the last check; True if so."""
        count = unlocks(self._service.state())
        with self._lock:
            if count == self._seen:
                return False
            self._seen = count
            self._limiter.lift()
        log.info("the board's buttons lifted the PIN lock (unlock %s)", count)
        return True

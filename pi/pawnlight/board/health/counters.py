"""What the board link's counters mean, for the doctor's report and the health page.

A counter named here is a finding when it is not zero; the hint says what to look at.  Kept
apart from doctor.py so the web page can use it without the doctor's board and HTTP code.
"""

from __future__ import annotations

#: What the link counters mean when they are not zero.
COUNTER_HINTS = {
    "crc_failures": "damaged frames from the board: a long or poor USB cable, or interference",
    "board_crc_failures": "damaged frames to the board: the same, the other way",
    "reconnects": "the link dropped and came back: a loose cable, or the Pico resetting",
    "firmware_restarts": "the Pico restarted: brown-outs (LED supply too weak?) or the watchdog",
    "heartbeat_timeouts": "the board went silent: a hung firmware or a cable problem",
    "malformed": "frames that made no sense: a firmware and Pi software that do not match?",
}


def counter_name(key: str) -> str:
    """``"board_crc_failures"`` -> ``"board CRC failures"``: a counter as people say it."""
    return key.replace("_", " ").replace("crc", "CRC")


def uptime_words(ms: int) -> str:
    """``"40 ms"``, ``"4.2 s"``, ``"6 min 1 s"``, ``"3:02:10"``: the board's uptime from its
    heartbeat."""
    if ms < 1000:
        return f"{ms} ms"
    seconds = ms // 1000
    if seconds < 60:
        return f"{ms / 1000:.1f} s"
    hours, rest = divmod(seconds, 3600)
    if hours:
        return f"{hours}:{rest // 60:02d}:{rest % 60:02d}"
    return f"{rest // 60} min {rest % 60} s"

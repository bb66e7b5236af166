"""Helpers every test directory may import (fixtures live in tests/conftest.py, never here)."""

from __future__ import annotations

import re
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Screenshots the browser tests take, for people to look at (not committed).
ARTIFACTS = ROOT / "test-artifacts" / "web"
#: Debian's chromium, driven by Playwright through executable_path (never a downloaded one).
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
#: A square code (T12, S3): people read board words; codes belong in the `text` fields only.
SQUARE_CODE = re.compile(r"\b[TS]\d{1,2}\b")
#: The owner's PIN in every test: the web app's and the daemons the tests start.
PIN = "2468"


class ManualClock:
    """A monotonic clock that moves only when the test says so (thread-safe: the board link
    reads it from its own thread)."""

    def __init__(self, start: float = 1000.0) -> None:
        self._now = start
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> None:
        with self._lock:
            self._now += seconds


def screenshot(page, name: str) -> Path:
    """A full-page picture of a browser page in test-artifacts/web/."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.evaluate("window.scrollTo(0, 0)")  # the sticky top bar stays at the top of the picture
    page.screenshot(path=str(path), full_page=True, timeout=30_000)  # a hang guard only
    return path


def firmware_version() -> str:
    """This pawnlight's firmware version, as firmware/app.py declares it (a MicroPython module:
    read, not imported)."""
    declared = re.search(
        r'FIRMWARE_VERSION = "([^"]+)"', (ROOT / "firmware" / "app.py").read_text()
    )
    assert declared is not None, "firmware/app.py declares no FIRMWARE_VERSION"
    return declared[1]

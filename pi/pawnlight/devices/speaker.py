"""Spoken announcements through the Pi's audio out, with espeak-ng (Debian package espeak-ng).

Speaking never blocks the caller: each sentence is handed to an espeak-ng process, and a
sentence that arrives while one is still being spoken waits for it (at most a few queued; older
ones are dropped, since a family wants to hear what is happening now).
"""

from __future__ import annotations

import contextlib
import logging
import queue
import shutil
import subprocess
import threading
from pathlib import Path

log = logging.getLogger(__name__)

ESPEAK = "espeak-ng"
#: Words a minute: a little slower than espeak-ng's 175, for a noisy table.
SPEED = 150
QUEUE = 3


def available() -> bool:
    return shutil.which(ESPEAK) is not None


def command(text: str, wav: Path | None = None, voice: str = "en") -> list[str]:
    """The espeak-ng command line that says ``text`` (to a WAV file when ``wav`` is given)."""
    args = [ESPEAK, "-v", voice, "-s", str(SPEED)]
    if wav is not None:
        args += ["-w", str(wav)]
    return [*args, "--", text]


def to_wav(text: str, wav: Path, voice: str = "en") -> None:
    """Render ``text`` to a WAV file (the tests listen to this). OSError/CalledProcessError."""
    subprocess.run(command(text, wav, voice), check=True, capture_output=True, timeout=30)


class Speaker:
    """Says sentences one after another on a thread of its own."""

    def __init__(self, voice: str = "en") -> None:
        self.voice = voice
        self._queue: queue.Queue[tuple[str, str] | None] = queue.Queue(maxsize=QUEUE)
        self._thread = threading.Thread(target=self._run, name="speaker", daemon=True)
        self._thread.start()

    def say(self, text: str, voice: str | None = None) -> None:
        """Say ``text`` in ``voice`` (an espeak-ng voice: pawnlight.i18n.voice), else the
        speaker's own."""
        item = (text, voice or self.voice)
        try:
            self._queue.put_nowait(item)
        except queue.Full:
            with contextlib.suppress(queue.Empty):
                self._queue.get_nowait()  # drop the oldest: say what is happening now
            self._queue.put_nowait(item)

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while (item := self._queue.get()) is not None:
            text, voice = item
            try:
                subprocess.run(command(text, voice=voice), capture_output=True, timeout=60)
            except (OSError, subprocess.SubprocessError) as error:
                log.warning("could not speak %r: %s", text, error)

"""Finished games' stories, told in the background: one job at a time, in a process of its own
at the lowest priority (:mod:`pawnlight.runtime.story_job`), so the owner thread, the board and
the page never wait for it.  The page asks :meth:`StoryTeller.status`; a game that has ended
is told at once (:meth:`follow`), and the story is kept in the journal, told once.
"""

from __future__ import annotations

import logging
import subprocess
import sys
import threading
from collections import deque
from pathlib import Path
from typing import Any

from ..store.errors import StoreError
from ..store.journal import Journal
from ..store.stories import stored_story

log = logging.getLogger(__name__)

#: A job that has not finished in this long is stopped (a whole game takes seconds here and
#: well under five minutes on a Pi 4: docs/players.md, "The game's story").
JOB_TIME_LIMIT = 15 * 60


class StoryTeller:
    """Starts the story jobs and says how far each has got."""

    def __init__(self, journal_path: Path, command: list[str] | None = None) -> None:
        self.journal_path = Path(journal_path)
        self._command = command or [sys.executable, "-m", "pawnlight.runtime.story_job"]
        self._lock = threading.Lock()
        self._queue: deque[int] = deque()
        self._running: int | None = None
        self._process: subprocess.Popen[str] | None = None
        self._progress: dict[int, tuple[int, int]] = {}
        self._none: dict[int, tuple[int, str]] = {}  # game -> (its events, why no story)
        self._events: dict[int, int] = {}  # game -> its events when its job was asked for
        self._stopped = False

    def status(self, game_id: int) -> dict[str, Any]:
        """``{"state": "ready", "story": ...}``, ``{"state": "working", "done": N, "of": M}``
        (started now if it was not), or ``{"state": "none", "reason": ...}``."""
        try:
            with Journal.open(self.journal_path, readonly=True) as journal:
                story = stored_story(journal, game_id)
                summary = next((g for g in journal.games() if g.id == game_id), None)
        except StoreError as error:
            return {"state": "none", "reason": str(error)}
        if story is not None:
            return {"state": "ready", "story": story}
        if summary is None:
            return {"state": "none", "reason": f"there is no game {game_id}"}
        if not summary.finished:
            return {"state": "none", "reason": "the game is not finished"}
        with self._lock:
            # A job's "no story" stands for the game as it was: an undo reopens it.
            said = self._none.get(game_id)
            if said is not None and said[0] == summary.events:
                return {"state": "none", "reason": said[1]}
            self._events[game_id] = summary.events
            self._ask(game_id)
            done, of = self._progress.get(game_id, (0, 0))
        return {"state": "working", "done": done, "of": of}

    def request(self, game_id: int) -> None:
        """Tell game ``game_id``'s story in the background, if it is not kept already."""
        self.status(game_id)

    def follow(self, service: Any) -> threading.Thread:
        """Tell each game's story as soon as the service's state says it is over."""
        subscription = service.subscribe()

        def run() -> None:
            told: set[int] = set()
            while not self._stopped:
                state = subscription.get(timeout=0.5)
                if state is None:
                    continue
                game_id = state.get("game_id")
                over = state.get("phase") == "over" and isinstance(game_id, int)
                if over and game_id not in told:
                    told.add(game_id)
                    self.request(game_id)
            subscription.close()

        thread = threading.Thread(target=run, name="stories", daemon=True)
        thread.start()
        return thread

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            self._queue.clear()
            process = self._process
        if process is not None and process.poll() is None:
            process.kill()

    # -- inside (the lock held) ----------------------------------------------------------------

    def _ask(self, game_id: int) -> None:
        if self._stopped or game_id == self._running or game_id in self._queue:
            return
        self._queue.append(game_id)
        self._progress.setdefault(game_id, (0, 0))
        if self._running is None:
            self._next()

    def _next(self) -> None:
        if not self._queue or self._stopped:
            self._running = None
            return
        game_id = self._queue.popleft()
        self._running = game_id
        try:
            process = subprocess.Popen(
                [*self._command, str(self.journal_path), str(game_id)],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        except OSError as error:
            why = f"the story could not be worked out: {error}"
            self._none[game_id] = (self._events.get(game_id, 0), why)
            self._next()
            return
        self._process = process
        threading.Thread(
            target=self._watch, args=(game_id, process), name="story-job", daemon=True
        ).start()

    # -- the job's watcher ---------------------------------------------------------------------

    def _watch(self, game_id: int, process: subprocess.Popen[str]) -> None:
        timer = threading.Timer(JOB_TIME_LIMIT, process.kill)
        timer.daemon = True
        timer.start()
        reason = None
        assert process.stdout is not None and process.stderr is not None
        for line in process.stdout:
            words = line.split()
            if words[:1] == ["progress"] and len(words) == 3:
                with self._lock:
                    self._progress[game_id] = (int(words[1]), int(words[2]))
            elif words[:1] == ["none"]:
                reason = line[len("none ") :].strip()
        trouble = process.stderr.read().strip()
        code = process.wait()
        timer.cancel()
        with self._lock:
            self._progress.pop(game_id, None)
            if code != 0:
                if reason is None:
                    last = trouble.splitlines()[-1] if trouble else f"the job ended with {code}"
                    reason = f"the story could not be worked out ({last})"
                    log.warning("story of game %s: %s", game_id, reason)
                self._none[game_id] = (self._events.get(game_id, 0), reason)
            self._process = None
            self._next()

"""Tell one finished game's story and keep it in the journal, at the lowest priority: the job
the board starts in the background when a game ends (pawnlight.runtime.storyteller).

    python -m pawnlight.store.story_job JOURNAL GAME_ID

Its standard output is one line per few turns, ``progress DONE OF``, then ``kept`` once the
story is in the journal, or ``none REASON`` when the game has no story (exit 3).  Any other
trouble is one line on standard error and exit 2.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

from .errors import StoreError


def lowest_priority() -> None:
    """Run only when nothing else wants the processor: the board, the page and the owner
    never wait for a story."""
    with contextlib.suppress(AttributeError, OSError):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    with contextlib.suppress(OSError):
        os.nice(19)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2 or not args[1].isdigit():
        print("usage: python -m pawnlight.store.story_job JOURNAL GAME_ID", file=sys.stderr)
        return 2
    lowest_priority()
    from ..players.story import StoryError
    from .journal import Journal
    from .stories import keep_story, tell_game

    path, game_id = Path(args[0]), int(args[1])

    def progress(done: int, of: int) -> None:
        if done % 5 == 0 or done == of:
            print(f"progress {done} {of}", flush=True)

    try:
        with Journal.open(path, readonly=True) as journal:
            story, events, kept = tell_game(journal, game_id, progress)
        if not kept:
            with Journal.open(path) as journal:
                keep_story(journal, game_id, events, story)
    except StoryError as error:
        print(f"none {error}", flush=True)
        return 3
    except (StoreError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print("kept", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

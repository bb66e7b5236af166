"""Tell one finished game's story and keep it in the journal, at the lowest priority: the job
the board starts in the background when a game ends (pawnlight.runtime.storyteller).

    python -m pawnlight.runtime.story_job JOURNAL GAME_ID

Its standard output is one line per few turns, ``progress DONE OF``, then ``kept`` once the
story is in the journal, or ``none REASON`` when the game has no story (exit 3).  Any other
trouble is one line on standard error and exit 2.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..players.story import StoryError, tell
from ..store.errors import StoreError
from ..store.journal import Journal
from ..store.replay import replay_record
from ..store.stories import keep_story, people_of, stored_story


def tell_game(
    journal: Journal, game_id: int, progress: Callable[[int, int], None] | None = None
) -> tuple[dict[str, Any], int, bool]:
    """Game ``game_id``'s story: the one kept, or told now.  Returns it, the game's events, and
    whether it was kept already.  StoryError (a ValueError) when the game has none."""
    kept = stored_story(journal, game_id)
    record = journal.load(game_id)
    if kept is not None:
        return kept, len(record.events), True
    game = replay_record(record)
    people = people_of(record.meta, record.config.players)
    return tell(game, game_id, people, progress), len(record.events), False


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
        print("usage: python -m pawnlight.runtime.story_job JOURNAL GAME_ID", file=sys.stderr)
        return 2
    lowest_priority()
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

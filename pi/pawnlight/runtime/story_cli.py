"""``pawnlight games story ID [--json]``: a finished game's story on the command line (the
``games`` command is the store's; this action needs the players, so the runtime adds it)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TextIO

from ..players.story import StoryError
from ..store.errors import StoreError
from ..store.journal import Journal
from ..store.location import journal_path
from ..store.record import dump
from ..store.story_text import story_lines
from .story_job import tell_game

AddAction = Callable[[str, Callable[..., int], str], argparse.ArgumentParser]


def register_story(action: AddAction) -> None:
    story = action(
        "story",
        _story,
        "a finished game's story: each colour's chance of winning after every turn, the turning "
        "points and the moves that cost most",
    )
    story.add_argument("game", type=_game_id, help="the game id in the journal")
    story.add_argument("--json", action="store_true", help="one JSON object (docs/records.md)")


def _story(args: argparse.Namespace, out: TextIO) -> int:
    path = journal_path(getattr(args, "data", None))
    if not path.exists():
        raise StoreError(f"no journal at {path}")
    try:
        with Journal.open(path, readonly=True) as journal:
            story, _, _ = tell_game(journal, args.game)
    except StoryError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.json:
        out.write(dump(story) + "\n")
    else:
        out.write("\n".join(story_lines(story)) + "\n")
    return 0


def _game_id(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"a game id is a number from 1, not {text!r}")
    return int(text)

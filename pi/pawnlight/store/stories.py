"""Each finished game's story, kept in the journal with the game so it is worked out once.

A story is stored with the number of events the game had when it was told: a game changed since
(an undo after the end, which reopens it) has no story until it is told again.  The story itself
is the JSON object of ``pawnlight games story ID --json`` (docs/records.md).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .errors import JournalError
from .record import dump, json_object

if TYPE_CHECKING:
    from .journal import Journal


#: The largest id SQLite can hold.
LARGEST_ID = 2**63 - 1


def keep_story(journal: Journal, game_id: int, events: int, story: Mapping[str, Any]) -> None:
    """Store the story of game ``game_id`` told after its first ``events`` events (durable on
    return; a story kept before is replaced)."""
    text = dump({"events": events, "story": dict(story)})
    with journal._transaction() as db:
        if db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
            raise JournalError(f"no game {game_id} in the journal", game_id)
        db.execute("INSERT OR REPLACE INTO stories (game_id, story) VALUES (?, ?)", (game_id, text))


def stored_story(journal: Journal, game_id: int) -> dict[str, Any] | None:
    """The story kept for game ``game_id``, or None when there is none or the game has changed
    since it was told (or what is kept is damaged: it is told again)."""
    if not 0 < game_id <= LARGEST_ID:
        return None  # no such game (SQLite's integers stop there)
    with journal._reading() as db:
        row = db.execute(
            "SELECT story, (SELECT max(seq) FROM events WHERE game_id = ?) FROM stories "
            "WHERE game_id = ?",
            (game_id, game_id),
        ).fetchone()
    if row is None:
        return None
    try:
        kept = json_object(row[0])
    except (ValueError, TypeError, json.JSONDecodeError):
        return None
    story = kept.get("story")
    if kept.get("events") != (row[1] or 0) or not isinstance(story, dict):
        return None
    return story


def people_of(meta: Mapping[str, Any], players: tuple[str, ...]) -> list[int]:
    """The colours played by people: every colour but the computer seats the game began with."""
    from ..rules.board import COLOURS, parse_colour

    computer = meta.get("computer")
    seats = computer if isinstance(computer, dict) else {}
    return [c for c in map(parse_colour, players) if COLOURS[c] not in seats]

"""Where the enrolled pack is kept: ``DATA/deck.json``, each card tag's UID and its card.

The companion holds the pack as values (companion.deck.CardDeck) and asks for it to be saved
with a ``SaveDeck`` effect; the owner writes it here.  A damaged file is reported and left as
it is (the daemon then enrols into ``deck-new.json``), never overwritten.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..errors import PawnlightError
from ..rules.cards import CARDS

DECK_FILE = "deck.json"
#: Where a new enrolment goes while ``deck.json`` is damaged (kept for the owner to look at).
NEW_DECK_FILE = "deck-new.json"


class DeckFileError(PawnlightError, ValueError):
    """A deck file that cannot be used; the message names the file."""


def load_deck(path: Path) -> dict[str, str]:
    """The enrolled pack in ``path``, UID -> card; a missing file is an empty pack."""
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text())
        uids = {str(uid).upper(): str(card) for uid, card in data["uids"].items()}
    except (OSError, ValueError, KeyError, AttributeError, TypeError) as error:
        raise DeckFileError(f"{path}: not a pawnlight deck file ({error})") from None
    for uid, card in uids.items():
        if card not in CARDS:
            raise DeckFileError(f"{path}: tag {uid} is enrolled as unknown card {card!r}")
    return uids


def save_deck(path: Path, uids: dict[str, str]) -> None:
    """Write atomically: a power cut leaves the old file or the new one, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    with open(temporary, "w") as out:
        json.dump({"format": "pawnlight-deck", "version": 1, "uids": uids}, out, indent=1)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temporary, path)

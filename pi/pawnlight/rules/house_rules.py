"""House rules: named options a family may play by, on top of an edition's rule book.

Each is a reading some families play that the books can be taken to allow; docs/rules.md quotes
the words behind each one.  A game (and ``pawnlight rules moves``) names the ones it plays by;
they travel inside the :class:`~pawnlight.rules.editions.Edition`, so everything that generates
moves for a game generates them under its house rules.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from .editions import Edition

DIAMOND_LOCK = "diamond-lock"
STRICT_OWN_LANDING = "strict-own-landing"

#: Every house rule by name, with the one line the page and the help show.
HOUSE_RULES: dict[str, str] = {
    DIAMOND_LOCK: (
        "classic boards: a pawn on its own diamond cannot move forward; it leaves only by a "
        "backward move, a switch, a Sorry! or a bump"
    ),
    STRICT_OWN_LANDING: (
        "no move may end where one of the player's own pawns stands, not even a triangle that "
        "would slide"
    ),
}


def parse_house_rules(value: object) -> frozenset[str]:
    """House rule names from user or JSON input (a list of names); ValueError otherwise."""
    if value is None:
        return frozenset()
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise ValueError(f"house_rules must be a list of names, got {value!r}")
    names = []
    for name in value:
        if not isinstance(name, str) or name.strip().lower() not in HOUSE_RULES:
            raise ValueError(
                f"unknown house rule {name!r} (expected any of {', '.join(HOUSE_RULES)})"
            )
        names.append(name.strip().lower())
    return frozenset(names)


def with_house_rules(edition: Edition, names: Iterable[str]) -> Edition:
    """The edition played with these house rules (the same edition when there are none)."""
    chosen = frozenset(names)
    if chosen == edition.house_rules:
        return edition
    return dataclasses.replace(edition, house_rules=chosen)

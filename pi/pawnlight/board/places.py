"""Reading pawn lists (docs/coordinates.md, 'Places') for the page: where each pawn stands, how
many in each area.

A pawn list names a pawn's place without its colour (``S2`` is red's S2 only in red's list);
the page names places on their own with ``rules.board.Place`` (``Place(number, colour).key``:
``T4``, ``S2:red``, ``start:red``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from pawnlight.i18n.marks import N_, NN_
from pawnlight.i18n.message import Message, count_msg, msg
from pawnlight.rules import phrases
from pawnlight.rules.board import (
    COLOURS,
    HOME,
    START,
    parse_colour,
    parse_place,
    place_name,
)


def pawn_places(pawns: Mapping[str, Any] | None) -> Iterator[tuple[int, int]]:
    """Every pawn of a pawn list as ``(colour, place)``, skipping what cannot be
    read: the page must draw whatever the companion or the simulated board reports."""
    if not isinstance(pawns, Mapping):
        return
    for name, places in pawns.items():
        try:
            colour = parse_colour(name)
        except ValueError:
            continue
        if not isinstance(places, list):
            continue
        for text in places:
            try:
                yield colour, parse_place(text)
            except (ValueError, AttributeError):
                continue


def area_counts(pawns: Mapping[str, Any] | None) -> dict[tuple[int, int], int]:
    """How many pawns stand in each START and HOME, keyed by ``(place, colour)``."""
    counts: dict[tuple[int, int], int] = {}
    for colour, place in pawn_places(pawns):
        if place in (START, HOME):
            counts[(place, colour)] = counts.get((place, colour), 0) + 1
    return counts


NO_PAWNS = N_("no pawns on the board")
COLOUR_PLACES = N_("%(colour)s: %(places)s")
IN_HOME = NN_("%(num)s home", "%(num)s home")
IN_START = NN_("%(num)s in start", "%(num)s in start")


def describe(pawns: Mapping[str, Any] | None, language: str = "en") -> str:
    """A sentence listing where the pawns are, for screen readers, in ``language`` (the places
    by their pawn-list names, ``T7``, the same in every language)."""
    parts = []
    for colour_name in COLOURS:
        colour = COLOURS.index(colour_name)
        places = [p for c, p in pawn_places(pawns) if c == colour]
        if not places and not (isinstance(pawns, Mapping) and colour_name in pawns):
            continue
        out: list[str | Message] = [place_name(p) for p in sorted(places) if p < HOME]
        home = places.count(HOME)
        start = places.count(START)
        if home:
            out.append(count_msg(IN_HOME, home))
        if start:
            out.append(count_msg(IN_START, start))
        listed = ", ".join(p if isinstance(p, str) else p.render(language) for p in out)
        said = msg(COLOUR_PLACES, colour=phrases.colour(colour), places=listed or Message(NO_PAWNS))
        parts.append(said.render(language))
    return "; ".join(parts) if parts else Message(NO_PAWNS).render(language)

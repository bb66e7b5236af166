"""Reading pawn lists (docs/coordinates.md, 'Places') for the page: where each pawn stands, how
many in each area.

A pawn list names a pawn's place without its colour (``S2`` is red's S2 only in red's list);
the page names places on their own with ``rules.board.Place`` (``Place(number, colour).key``:
``T4``, ``S2:red``, ``start:red``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

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


def describe(pawns: Mapping[str, Any] | None) -> str:
    """A sentence listing where the pawns are, for screen readers."""
    parts = []
    for colour_name in COLOURS:
        colour = COLOURS.index(colour_name)
        places = [p for c, p in pawn_places(pawns) if c == colour]
        if not places and not (isinstance(pawns, Mapping) and colour_name in pawns):
            continue
        out = [place_name(p) for p in sorted(places) if p < HOME]
        home = places.count(HOME)
        start = places.count(START)
        if home:
            out.append(f"{home} home")
        if start:
            out.append(f"{start} in start")
        parts.append(f"{colour_name}: {', '.join(out) if out else 'no pawns on the board'}")
    return "; ".join(parts) if parts else "no pawns on the board"

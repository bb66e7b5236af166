"""The web side's names for places on the board, and reading the contract's pawn lists.

The rules core names a place together with a colour (``S2`` is red's S2 only for a red pawn);
the page and the simulator need names that stand alone, so safety squares and the areas are
colour-qualified: ``T4``, ``S2:red``, ``start:red``, ``home:red`` (docs/simulator.md).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from pawnlight.rules.board import (
    COLOURS,
    HOME,
    S1,
    S5,
    START,
    TRACK_SQUARES,
    parse_colour,
    parse_place,
    place_name,
)


def place_key(colour: int, place: int) -> str:
    """The stand-alone name of where a pawn of ``colour`` on ``place`` stands."""
    if place < TRACK_SQUARES:
        return f"T{place}"
    if S1 <= place <= S5:
        return f"{place_name(place)}:{COLOURS[colour]}"
    return f"{'start' if place == START else 'home'}:{COLOURS[colour]}"


def pawn_places(pawns: Mapping[str, Any] | None) -> Iterator[tuple[int, int]]:
    """Every pawn of a contract-form pawn list as ``(colour, place)``, skipping what cannot be
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

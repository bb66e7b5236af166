"""Editions of the rules as data: one move generator, a handful of switches.

The three rule books agree on almost every move.  What differs is collected here, so that a game
stores its edition's name and replays under exactly the rules it was played with.  docs/rules.md
quotes the books for every switch.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum


class Variant(StrEnum):
    """The kinds of game a rule book may have.  Its values are the words records, the API and
    the command line use (``Variant.POINTS == "points"``), so a plain string compares equal."""

    STANDARD = "standard"
    QUICK = "quick"  # three pawns each
    POINTS = "points"  # point play: a five-card hand, scores and doubling
    PATIENCE = "patience"  # Patience Sorry: one player moving two colours


VARIANTS: tuple[str, ...] = tuple(Variant)


def by_fields(value: object) -> tuple[object, ...]:
    """How the rules' frozen dataclasses pickle (process pools send them): the class and its
    fields, given again to the constructor.  Compiled (setup.py), a class's default way sets the
    fields one by one, which a frozen class refuses."""
    return (type(value), tuple(getattr(value, field.name) for field in fields(value)))  # type: ignore[arg-type]


@dataclass(frozen=True)
class PointScoring:
    """How a book scores the end of a point game."""

    #: Every player scores this for each own pawn home (so the winner's "score of twenty points").
    per_pawn_home: int
    #: The winner's extra points "for each opponent's man in home" (classic) or "not in its HOME"
    #: (Hasbro); see ``count_opponent_pawns_home``.
    winner_per_opponent_pawn: int
    count_opponent_pawns_home: bool
    #: (bonus, most pawns any opponent may have home), best first; only the best one applies.
    bonuses: tuple[tuple[int, int], ...]
    #: Points to the caller of a double that every other player drops; None: no doubling.
    drop_out_win: int | None

    def __reduce__(self) -> tuple[object, ...]:
        return by_fields(self)


@dataclass(frozen=True)
class Edition:
    name: str
    title: str
    books: tuple[str, ...]
    #: Classic boards print a diamond square one past each safety entry (decorative in play: see
    #: docs/rules.md, "The diamond squares").
    diamonds: bool
    #: Partnership play: may a player land on (and bump) the partner's pawn freely ("bump"), or only
    #: when no other move of either partner is possible ("last-resort", classic special rule 2)?
    partner_landing: str
    #: Partnership play: into how many pawns may a 7 be split (2 classic, 7 for Hasbro's "any or
    #: all eight of your team's pawns": seven squares cannot feed more than seven pawns).
    team_seven_parts: int
    #: Partnership play with a Sorry! and no opponent to pick on: whose pawns become targets.
    #: "partner" (classic special rule 1) or "team" (Hasbro: "your own or your partner's pawn").
    team_sorry_fallback: str
    #: Partnership play: all eight home before either opponent has four home is a double game.
    double_team_win: bool
    scoring: PointScoring
    #: Variants this edition's own book describes.
    variants: frozenset[str]
    #: The optional fifth "1" card is in this edition's box.
    extra_one: bool
    #: House rules played on top of the book (names from :mod:`.house_rules`); none in the books.
    house_rules: frozenset[str] = frozenset()

    def __reduce__(self) -> tuple[object, ...]:
        return by_fields(self)

    @property
    def diamond_lock(self) -> bool:
        return self.diamonds and "diamond-lock" in self.house_rules

    @property
    def strict_own_landing(self) -> bool:
        return "strict-own-landing" in self.house_rules


_CLASSIC_VARIANTS = frozenset({Variant.STANDARD, Variant.POINTS})

EDITIONS: dict[str, Edition] = {
    "parker-1950": Edition(
        name="parker-1950",
        title="Parker Brothers, 1934/1939/1950",
        books=("000", "002"),
        diamonds=True,
        partner_landing="last-resort",
        team_seven_parts=2,
        team_sorry_fallback="partner",
        double_team_win=True,
        scoring=PointScoring(
            per_pawn_home=5,
            winner_per_opponent_pawn=5,
            count_opponent_pawns_home=True,
            bonuses=((100, 0), (50, 1), (25, 2)),
            drop_out_win=25,
        ),
        variants=_CLASSIC_VARIANTS,
        extra_one=True,
    ),
    "parker-1939": Edition(
        name="parker-1939",
        title="Parker Brothers, 1939 (Winning Moves transcription)",
        books=("003",),
        diamonds=True,
        partner_landing="last-resort",
        team_seven_parts=2,
        team_sorry_fallback="partner",
        double_team_win=True,
        scoring=PointScoring(
            per_pawn_home=1,
            winner_per_opponent_pawn=1,
            count_opponent_pawns_home=True,
            bonuses=((24, 0), (16, 1), (8, 2)),
            drop_out_win=5,
        ),
        variants=_CLASSIC_VARIANTS | {Variant.QUICK, Variant.PATIENCE},
        extra_one=False,
    ),
    "hasbro-2002": Edition(
        name="hasbro-2002",
        title="Hasbro, 2002",
        books=("001",),
        diamonds=False,
        partner_landing="bump",
        team_seven_parts=7,
        team_sorry_fallback="team",
        double_team_win=False,
        scoring=PointScoring(
            per_pawn_home=5,
            winner_per_opponent_pawn=5,
            count_opponent_pawns_home=False,
            bonuses=((100, 0), (50, 1), (25, 2)),
            drop_out_win=None,
        ),
        variants=_CLASSIC_VARIANTS,
        extra_one=False,
    ),
}


def get_edition(name: object) -> Edition:
    try:
        return EDITIONS[name]  # type: ignore[index]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown edition {name!r} (expected one of {', '.join(EDITIONS)})"
        ) from None

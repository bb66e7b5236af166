"""Point play scoring, as each book prints it (docs/rules.md, "Point play")."""

from __future__ import annotations

from .board import HOME
from .editions import Edition
from .position import Position


def pawns_home(position: Position, colour: int) -> int:
    return position.count(colour, HOME)


def winner_of(position: Position) -> int | None:
    """The colour with every pawn home, if any (there is at most one in a real game)."""
    winners = [c for c in position.colours if position.all_home(c)]
    if len(winners) > 1:
        raise ValueError("more than one colour has every pawn home")
    return winners[0] if winners else None


def final_scores(
    edition: Edition, position: Position, winner: int, doubled: int = 0
) -> dict[int, int]:
    """Every player's points at the end of a point game won by ``winner``.

    "At the end of a game each player scores five points for every man he has home. The winner
    adds to his score of twenty points, five points for each opponent's man in home. ... One
    hundred additional points are added ... if no opponent has a man home." (parker-1950; the other
    books differ only in the figures and, for Hasbro, in counting opponents' pawns *not* home).
    "The Final Score in a doubled game is doubled": each doubling doubles every score.
    """
    rules = edition.scoring
    if doubled < 0:
        raise ValueError("doubled counts doublings and cannot be negative")
    if doubled and rules.drop_out_win is None:
        raise ValueError(f"{edition.name} has no doubling")
    scores = {c: rules.per_pawn_home * pawns_home(position, c) for c in position.colours}
    opponents = [c for c in position.colours if c != winner]
    home_counts = [pawns_home(position, c) for c in opponents]
    if rules.count_opponent_pawns_home:
        counted = sum(home_counts)
    else:
        counted = sum(len(position.pawns(c)) for c in opponents) - sum(home_counts)
    scores[winner] += rules.winner_per_opponent_pawn * counted
    most_home = max(home_counts, default=0)
    for bonus, allowed in rules.bonuses:
        if most_home <= allowed:
            scores[winner] += bonus
            break  # the tiers are alternatives: only the best one applies
    factor = 2**doubled
    return {c: points * factor for c, points in scores.items()}


def drop_out_scores(edition: Edition, colours: tuple[int, ...], caller: int) -> dict[int, int]:
    """Everyone dropped a double: the game ends and the caller wins the book's fixed points."""
    win = edition.scoring.drop_out_win
    if win is None:
        raise ValueError(f"{edition.name} has no doubling")
    return {c: (win if c == caller else 0) for c in colours}

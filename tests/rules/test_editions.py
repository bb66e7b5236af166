"""What differs between the books, and the diamond squares of the classic boards."""

import pytest

from pawnlight.rules import EDITIONS, GameConfig, GameError
from pawnlight.rules.board import diamond_square
from pawnlight.rules.moves import StepKind

from .helpers import HASBRO, PARKER, PARKER_1939, options, pos, texts

classic = pytest.mark.parametrize("edition", [PARKER, PARKER_1939], ids=lambda e: e.name)


@classic
def test_no_pawn_passes_onto_or_over_its_own_diamond_going_forward(edition):
    """The Diamond Squares: In no circumstances whatsoever does a man ever pass onto or over the
    diamond square of its own color by a forward move."""
    for colour in range(4):
        diamond = diamond_square(colour)
        for place in range(60):
            if place == diamond:
                continue
            for count in range(1, 13):
                from pawnlight.rules.board import FORWARD_PATHS

                path = FORWARD_PATHS[colour][place][count]
                assert path is None or diamond not in path


@classic
def test_a_pawn_reversed_onto_its_diamond_moves_forward_around_the_board(edition):
    """A man may be moved onto or over any diamond square by backward moves ... and if by any of
    these moves it passes to the right of the diamond square of its own color it is entitled to
    enter its safety by any subsequent forward move.  The 1933 British rules, quoted by the
    encyclopedia: the pawn "had not passed onto the square in the forward direction ... rather it
    had reversed onto it", and may later be forced forward."""
    (back_one,) = [
        m
        for m in options(pos(red="T4 home home home"), "red", "10", edition).moves
        if m.steps[0].kind == StepKind.BACKWARD
    ]
    assert back_one.after == pos(red="T3 home home home")
    # On the diamond, not past it: forward goes round the board again.
    assert texts(back_one.after, "red", "5", edition) == {"T3-T8"}
    # Past it (to the right of it): the next forward move enters safety.
    assert texts(pos(red="T2 home home home"), "red", "3", edition) == {"T2-S3"}


def test_editions_know_their_diamonds_and_books():
    assert PARKER.diamonds and PARKER_1939.diamonds and not HASBRO.diamonds
    assert set(EDITIONS) == {"parker-1950", "parker-1939", "hasbro-2002"}


def test_each_edition_offers_the_variants_its_book_has():
    """Quick game and Patience Sorry are in book 003 (parker-1939) only; the extra 1 in 000/002."""
    GameConfig(edition="parker-1939", variant="quick").check()
    GameConfig(edition="parker-1939", variant="patience", players=("red", "yellow")).check()
    GameConfig(edition="parker-1950", extra_one=True).check()
    for edition in ("parker-1950", "hasbro-2002"):
        with pytest.raises(GameError, match="has no quick game"):
            GameConfig(edition=edition, variant="quick").check()
    with pytest.raises(GameError, match="no extra 1"):
        GameConfig(edition="hasbro-2002", extra_one=True).check()


def test_partnership_differences():
    """Classic special rule 2 against Hasbro's "If you land on a space occupied by a partner's pawn,
    BUMP it back to its START!"."""
    assert PARKER.partner_landing == "last-resort" and HASBRO.partner_landing == "bump"
    assert PARKER.team_seven_parts == 2 and HASBRO.team_seven_parts == 7

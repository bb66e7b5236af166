"""The board's geometry is docs/coordinates.md's ('Places')."""

import pytest

from pawnlight.rules import board
from pawnlight.rules.board import (
    FORWARD_PATHS,
    HOME,
    SLIDES,
    START,
    diamond_square,
    entry_square,
    parse_place,
    place_name,
    start_circle,
)

# Straight from the table of docs/coordinates.md, 'Places': each colour's slides, entry, start
# circle and diamond.
LANDMARKS = {
    "red": ((1, 4), (9, 13), 2, 4, 3),
    "blue": ((16, 19), (24, 28), 17, 19, 18),
    "yellow": ((31, 34), (39, 43), 32, 34, 33),
    "green": ((46, 49), (54, 58), 47, 49, 48),
}


@pytest.mark.parametrize("name", list(LANDMARKS))
def test_each_colour_matches_the_documented_landmarks(name):
    colour = board.parse_colour(name)
    short, long, entry, circle, diamond = LANDMARKS[name]
    slides = sorted((s.triangle, s.end) for s in SLIDES if s.colour == colour)
    assert slides == [short, long]
    assert entry_square(colour) == entry
    assert start_circle(colour) == circle
    assert diamond_square(colour) == diamond


def test_slides_cover_triangle_channel_and_end():
    """short slide: triangle on T(b+1), channel T(b+2), T(b+3), end circle T(b+4)."""
    red_short = next(s for s in SLIDES if s.colour == 0 and s.triangle == 1)
    assert red_short.squares == (1, 2, 3, 4)
    assert red_short.channel == (2, 3)
    red_long = next(s for s in SLIDES if s.colour == 0 and s.triangle == 9)
    assert red_long.channel == (10, 11, 12)
    assert len(SLIDES) == 8


def test_entry_leads_into_the_safety_zone_and_home_with_exactly_six():
    """A forward move from or through T(b+2) goes into S1..S5, then home (exactly 6 from T(b+2))."""
    for colour in range(4):
        entry = entry_square(colour)
        path = FORWARD_PATHS[colour][entry][6]
        assert path is not None
        assert [place_name(p) for p in path] == ["S1", "S2", "S3", "S4", "S5", "home"]
        assert FORWARD_PATHS[colour][entry][7] is None
        assert path[-1] == HOME


def names(path: tuple[int, ...] | None) -> list[str]:
    """The places of a path, which must exist."""
    assert path is not None
    return [place_name(p) for p in path]


def test_forward_wraps_around_the_track_and_never_passes_another_colours_entry_into_safety():
    # Red at T59 forward 5: T0, T1, T2 (red entry), S1, S2.
    assert names(FORWARD_PATHS[0][59][5]) == ["T0", "T1", "T2", "S1", "S2"]
    # Blue passes red's entry on the track.
    assert names(FORWARD_PATHS[1][0][4]) == ["T1", "T2", "T3", "T4"]


def test_place_names_round_trip():
    for place in range(board.PLACE_COUNT):
        assert parse_place(place_name(place)) == place
    assert place_name(START) == "start"
    for bad in ("T60", "S0", "S6", "X1", "T-1", "T07", "", "T"):
        with pytest.raises(ValueError, match="unknown location"):
            parse_place(bad)

"""The one vocabulary of places: every place has one spelling, read back exactly."""

import pytest

from pawnlight.rules.board import (
    COLOURS,
    EVERY_PLACE,
    HOME,
    PLACE_COUNT,
    S1,
    START,
    TRACK_SQUARES,
    Place,
    parse_place,
    place_name,
)
from pawnlight.rules.editions import EDITIONS


def test_every_place_round_trips_through_each_spelling():
    assert len(EVERY_PLACE) == len(set(EVERY_PLACE)) == 60 + 4 * (5 + 2 * 5)
    for place in EVERY_PLACE:
        assert Place.parse(str(place)) == place
        assert Place.parse(place.key) == place
        assert Place.parse(str(place).upper()) == place
        assert Place.parse(str(place).replace("-", " ")) == place


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_every_place_a_pawn_of_each_edition_can_stand_on(edition):
    """A pawn list (docs/coordinates.md) names a pawn's place without its colour; with the colour
    it stands alone."""
    del edition  # every edition plays on the same board: the places are docs/coordinates.md's
    for colour in range(len(COLOURS)):
        for number in range(PLACE_COUNT):
            place = Place(number, colour)
            assert place.name == place_name(number)
            assert parse_place(place.name) == number
            assert Place.parse(str(place)) == place == Place.parse(place.key)
            assert place.colour == (-1 if number < TRACK_SQUARES else colour)


@pytest.mark.parametrize(
    ("text", "place"),
    [
        ("T7", Place(7)),
        ("t0", Place(0)),
        ("red S2", Place(S1 + 1, 0)),
        ("red-S2", Place(S1 + 1, 0)),
        ("S2:red", Place(S1 + 1, 0)),
        ("blue START", Place(START, 1)),
        ("start:blue", Place(START, 1)),
        ("green-home-4", Place(HOME, 3, 4)),
        ("home:green:4", Place(HOME, 3, 4)),
        ("  Yellow   start 2 ", Place(START, 2, 2)),
    ],
)
def test_people_and_the_wire_spell_places_these_ways(text, place):
    assert Place.parse(text) == place


def test_the_spellings_of_a_place():
    place = Place(START, 0, 1)
    assert (str(place), place.key, place.name) == ("red-start-1", "start:red:1", "start")
    assert place.whole == Place(START, 0) and place.whole.key == "start:red"
    assert (str(Place(S1 + 4, 3)), Place(S1 + 4, 3).key) == ("green-S5", "S5:green")
    assert (str(Place(12, 2)), Place(12, 2).key) == ("T12", "T12")  # nobody owns a square
    assert Place(12, 2) == Place(12) and len({Place(12, 2), Place(12)}) == 1


@pytest.mark.parametrize(
    "text", ["T60", "T07", "S6:red", "red-S0", "start:red:5", "purple-S1", "", "red", "T-1"]
)
def test_a_bad_spelling_is_named_in_the_error(text):
    with pytest.raises(ValueError, match="unknown place") as caught:
        Place.parse(text)
    assert repr(text) in str(caught.value)


def test_a_place_without_its_colour_says_so():
    with pytest.raises(ValueError, match=r"'S2' needs its colour, e\.g\. red-S2"):
        Place.parse("S2")


@pytest.mark.parametrize("value", [None, 7, ("T", 7)])
def test_a_place_is_text(value):
    with pytest.raises(ValueError, match="a place is text"):
        Place.parse(value)


@pytest.mark.parametrize(
    ("args", "problem"),
    [((67,), "no place number"), ((S1,), "needs a colour"), ((7, 0, 1), "only START and HOME")],
)
def test_impossible_places_are_refused(args, problem):
    with pytest.raises(ValueError, match=problem):
        Place(*args)

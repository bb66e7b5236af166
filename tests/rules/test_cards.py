"""The pack, the deck and the leader draw."""

import random

import pytest

from pawnlight.rules.cards import CARDS, Deck, count, leader_draw, pack, parse_card


def test_the_pack_has_44_cards_four_of_each():
    """THE PACK consists of 44 cards, four each of the denominations: 1, 2, 3, 4, 5, 7, 8, 10, 11,
    12 and four SORRY cards."""
    cards = pack()
    assert len(cards) == 44
    assert count(cards) == dict.fromkeys(CARDS, 4)


def test_the_extra_one_makes_45():
    """In addition one extra card of the denomination "1" is included and may be used at the option
    of the players if quicker play is desired."""
    cards = pack(extra_one=True)
    assert len(cards) == 45
    assert count(cards)["1"] == 5


def test_a_seed_replays_the_same_deck_and_reshuffles_when_exhausted():
    """The Pack: When the pack has been exhausted, reshuffle and place face down again."""
    first = Deck(random.Random(7))
    second = Deck(random.Random(7))
    drawn = [first.draw() for _ in range(100)]
    assert drawn == [second.draw() for _ in range(100)]
    assert first.shuffles == 2
    assert count(drawn[:44]) == dict.fromkeys(CARDS, 4)
    assert count(drawn[44:88]) == dict.fromkeys(CARDS, 4)


def test_held_cards_are_not_reshuffled():
    deck = Deck(random.Random(1))
    hands = [deck.draw(hold=True) for _ in range(44)]
    with pytest.raises(RuntimeError, match="held in a hand"):
        deck.draw()
    deck.discard(hands[0])
    assert deck.draw() == hands[0]


def test_leader_draw_sorry_is_highest_and_ties_draw_again():
    """The player drawing the highest card is called the Leader. The SORRY card counts the
    highest in drawing."""
    assert leader_draw({"red": "12", "blue": "sorry", "green": "1"}) == ("blue",)
    assert leader_draw({"red": "12", "blue": "11"}) == ("red",)
    assert leader_draw({"red": "10", "blue": "10", "yellow": "4"}) == ("red", "blue")


@pytest.mark.parametrize("text", ["Sorry!", "SORRY", 7, "12", " 1 "])
def test_card_names_are_read_leniently(text):
    assert parse_card(text) in CARDS


@pytest.mark.parametrize("text", ["6", "9", 0, None, True, "", "sorry?", 7.0])
def test_unknown_cards_are_refused(text):
    with pytest.raises(ValueError, match="unknown card"):
        parse_card(text)

"""The enrolled pack: saving, loading, damage, played cards."""

import pytest

from pawnlight.companion.deck import CardDeck, DeckError, simulated_uids
from pawnlight.store.deck_file import DeckFileError, load_deck, save_deck


def test_a_deck_survives_a_save_and_load(tmp_path):
    path = tmp_path / "deck.json"
    save_deck(path, simulated_uids())
    loaded = load_deck(path)
    assert loaded == simulated_uids() and len(loaded) == 45
    assert load_deck(tmp_path / "none.json") == {}  # no file yet: nothing enrolled


def test_a_damaged_deck_file_is_reported_not_replaced(tmp_path):
    path = tmp_path / "deck.json"
    path.write_text("{not json")
    with pytest.raises(DeckFileError, match="not a pawnlight deck file"):
        load_deck(path)
    assert path.read_text() == "{not json"
    path.write_text('{"uids": {"AA": "6"}}')
    with pytest.raises(DeckFileError, match="unknown card '6'"):
        load_deck(path)


def test_a_card_played_twice_since_the_shuffle_is_flagged_until_the_pack_is_through():
    uids = {"01": "1", "02": "2"}
    deck = CardDeck(uids)
    assert deck.identify("01") == ("1", None)
    deck.played_card("01")
    assert "was drawn before since the pack was shuffled" in (deck.identify("01")[1] or "")
    deck.played_card("02")  # the whole pack is played: reshuffled
    assert deck.identify("01") == ("1", None)
    with pytest.raises(DeckError, match="unknown card tag 03"):
        deck.identify("03")

"""What a player may know: the cards since the last shuffle are inferred exactly as a Deck deals."""

import random

import pytest

from pawnlight.players.view import (
    HAND_SIZE,
    card_probabilities,
    discards_since_shuffle,
    unseen_cards,
    view_of,
)
from pawnlight.rules import Deck, Game, GameConfig
from pawnlight.rules.cards import count, pack
from pawnlight.rules.game import Phase


@pytest.mark.parametrize(
    ("variant", "players", "extra_one"),
    [
        ("standard", ("red", "blue", "yellow", "green"), False),
        ("standard", ("red", "yellow"), True),
        ("points", ("red", "blue", "yellow", "green"), False),
        ("points", ("red", "blue", "yellow"), True),
    ],
)
def test_the_inferred_discards_are_the_decks_discards(variant, players, extra_one):
    """After every turn, the cards inferred from the history are exactly the deck's discard pile
    (the cards since the last reshuffle), through several reshuffles."""
    config = GameConfig(
        edition="parker-1950", variant=variant, players=players, extra_one=extra_one
    )
    game = Game(config)
    rng = random.Random(3)
    deck = Deck(rng, extra_one=extra_one)
    points = variant == "points"
    hands = {c: [deck.draw(hold=True) for _ in range(HAND_SIZE)] for c in game.order if points}
    turns = 0
    while not game.over and turns < 400:
        colour = game.turn
        if variant == "points":
            card = rng.choice(hands[colour])
            hands[colour].remove(card)
        else:
            card = deck.draw()
        options = game.draw(card)
        if game.phase == Phase.MOVE:
            game.play(rng.choice(options.moves))
        if variant == "points":
            deck.discard(card)
            hands[colour].append(deck.draw(hold=True))
        turns += 1
        assert sorted(discards_since_shuffle(game)) == sorted(deck.discards)
    assert deck.shuffles >= 2


def test_the_view_counts_the_card_being_played_as_seen():
    game = Game(GameConfig())
    before = view_of(game).unseen
    game.draw("12")  # no pawn can move a 12 at the start: forfeited at once
    assert view_of(game).unseen["12"] == before["12"] - 1
    game.draw("7")  # blue's turn; still no move
    game.draw("1")
    assert game.phase == Phase.MOVE
    assert view_of(game).unseen["1"] == 3


def test_the_own_hand_is_not_unseen_and_an_empty_pile_means_a_fresh_pack():
    unseen = unseen_cards(False, ["sorry"], hand=["sorry", "1"])
    assert unseen["sorry"] == 2 and unseen["1"] == 3
    assert unseen_cards(False, pack()) == count(pack())
    probabilities = card_probabilities(unseen)
    assert abs(sum(probabilities.values()) - 1) < 1e-9
    assert probabilities["sorry"] == 2 / 41


def test_team_and_opponents():
    view = view_of(Game(GameConfig(teams=True)))
    assert view.team == (0, 2) and view.opponents == (1, 3)
    patience = view_of(
        Game(GameConfig(edition="parker-1939", variant="patience", players=("red", "yellow")))
    )
    assert patience.team == (0, 2) and patience.opponents == ()

"""Every computer player answers only what the rules allow, in every edition and variant."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pawnlight.players import HeuristicPlayer, RandomPlayer, StrongPlayer, play_game, view_of
from pawnlight.players.base import card_options
from pawnlight.players.tournament import TABLE_COLOURS
from pawnlight.rules import CARDS, EDITIONS, Deck, Game, GameConfig
from pawnlight.rules.game import Phase

from .helpers import VARIANT_CASES, Checked


def config_for(edition: str, variant: str, teams: bool, seed: int = 0) -> GameConfig:
    players = TABLE_COLOURS[2] if variant == "patience" else TABLE_COLOURS[4]
    if variant == "points" and not teams and seed % 2:
        players = TABLE_COLOURS[3]  # point play is also played by three
    return GameConfig(
        edition=edition,
        variant=variant,
        teams=teams,
        players=players,
        extra_one=EDITIONS[edition].extra_one and seed % 2 == 1,
    )


def seats_for(config: GameConfig, make) -> dict:
    order = config.turn_order
    if config.variant == "patience":
        one = Checked(make(0))  # one person plays both colours
        return dict.fromkeys(order, one)
    return {colour: Checked(make(i)) for i, colour in enumerate(order)}


def finished_properly(game: Game) -> None:
    result = game.result
    assert game.over and result is not None
    if game.config.variant == "patience":
        assert result.patience in ("success", "failure")
    elif result.reason != "every other player dropped":
        assert result.winners and all(game.position.all_home(c) for c in result.winners)
    replayed = Game.replay(game.config, game.events)
    assert replayed.position == game.position and replayed.result == game.result


@pytest.mark.parametrize(("edition", "variant", "teams"), VARIANT_CASES)
@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("kind", ["random", "heuristic"])
def test_random_and_heuristic_players_play_whole_games_legally(edition, variant, teams, seed, kind):
    config = config_for(edition, variant, teams, seed)

    def make(i):
        return RandomPlayer(f"{seed}:{i}") if kind == "random" else HeuristicPlayer()

    seats = seats_for(config, make)
    game = play_game(config, seats, seed)
    finished_properly(game)
    assert sum(p.decisions for p in set(seats.values())) > 0


@pytest.mark.parametrize(("edition", "variant", "teams"), VARIANT_CASES)
def test_the_strong_player_plays_whole_games_legally(edition, variant, teams):
    """A small budget keeps this quick; the decisions follow the same paths as a large one."""
    config = config_for(edition, variant, teams, seed=1)

    def make(i):
        if i % 2 == 0:
            return StrongPlayer(seed=i, budget=40, width=3)
        return HeuristicPlayer() if i == 1 else RandomPlayer(i)

    game = play_game(config, seats_for(config, make), 7)
    finished_properly(game)


def random_moment(seed: int, edition: str, variant: str, teams: bool) -> Game:
    """A game part-way through: a seeded number of random turns from the start."""
    rng = random.Random(seed)
    config = config_for(edition, variant, teams, seed)
    game = Game(config)
    deck = Deck(rng, extra_one=config.extra_one)
    for _ in range(rng.randrange(0, 250)):
        options = game.draw(deck.draw())
        if game.phase == Phase.MOVE:
            game.play(rng.choice(options.moves))
        if game.over:
            break
    return game


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    case=st.sampled_from(VARIANT_CASES),
    card=st.sampled_from(CARDS),
)
def test_every_player_answers_any_card_at_any_moment_legally(seed, case, card):
    game = random_moment(seed, *case)
    if game.over:
        return
    hand = tuple(random.Random(seed).choice(CARDS) for _ in range(5))
    view = view_of(game, hand=hand if game.config.variant == "points" else ())
    options = card_options(view, card)
    players = [RandomPlayer(seed), HeuristicPlayer(), StrongPlayer(seed, budget=30, width=3)]
    for player in players:
        move = Checked(player).choose(view, card, options)
        if options.moves and not options.forfeit:
            assert move is not None
        if game.config.variant == "points":
            Checked(player).choose_card(view)

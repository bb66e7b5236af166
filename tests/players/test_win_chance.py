"""The win-chance model: what it says of positions, the shipped weights, and their fit."""

import json
import math

import pytest

from pawnlight.players import make_player, parse_spec, view_of
from pawnlight.players.evaluation import Evaluator
from pawnlight.players.rollout import TERMINAL, Rollouts
from pawnlight.players.view import card_probabilities
from pawnlight.players.win_chance import FEATURES, WinChance, WinModel, default_model
from pawnlight.rules import COLOURS, Game, GameConfig, Position
from pawnlight_lab import fit_win_chance

from .helpers import moments, pos, strong

RED, BLUE, YELLOW, GREEN = (COLOURS.index(c) for c in ("red", "blue", "yellow", "green"))
ORDER = (RED, BLUE, YELLOW, GREEN)


def chance_for(team=(RED,)):
    evaluator = Evaluator(team, [c for c in ORDER if c not in team], card_probabilities({}))
    return WinChance(evaluator, team, ORDER)


def race(red: str) -> Position:
    """Red's pawns as given; the others halfway round with two pawns home each."""
    return pos(
        red=red,
        blue="home home T40 T45",
        yellow="home home T10 T15",
        green="home home T25 T30",
    )


def test_the_chances_of_the_colours_add_up_to_one():
    chances = chance_for().chances(race("home T3 T20 start"), RED)
    assert set(chances) == set(ORDER)
    assert math.isclose(sum(chances.values()), 1.0)
    assert all(0.0 < p < 1.0 for p in chances.values())


def test_a_won_game_is_certain():
    assert chance_for().value(race("home home home home"), BLUE) == 1.0


def test_a_pawn_nearer_home_is_a_better_chance_to_win():
    chance = chance_for()
    last_pawn_near = chance.value(race("home home home S2"), BLUE)
    last_pawn_far = chance.value(race("home home home T12"), BLUE)
    last_pawn_in_start = chance.value(race("home home home start"), BLUE)
    assert last_pawn_near > last_pawn_far > last_pawn_in_start


def test_three_home_and_the_last_in_the_safety_zone_is_the_favourite():
    chances = chance_for().chances(race("home home home S4"), BLUE)
    assert max(chances, key=chances.get) == RED
    assert chances[RED] > 0.5


def test_playing_next_is_worth_something():
    chance = chance_for()
    position = race("home home T50 T55")
    assert chance.value(position, RED) > chance.value(position, BLUE)


def test_a_partnership_wins_with_either_partner():
    team = (RED, YELLOW)
    chances = chance_for(team).chances(race("home T3 T20 start"), RED)
    assert math.isclose(
        chance_for(team).value(race("home T3 T20 start"), RED), chances[RED] + chances[YELLOW]
    )


def test_the_features_are_the_models_order():
    figures = chance_for().features(race("home S2 T20 start"), RED)
    red = dict(zip(FEATURES, figures[RED], strict=True))
    assert red["home_1"] == 1.0 and red["home_2"] == 0.0
    assert red["moves_now"] == 1.0
    assert red["in_start"] == 1.0 and red["in_safety"] == 1.0
    assert red["first_pawn"] == pytest.approx(4 / 65)  # S2: four steps from HOME
    assert red["last_pawn"] == pytest.approx(65 / 65)  # START counts 65
    blue = dict(zip(FEATURES, figures[BLUE], strict=True))
    assert blue["moves_second"] == 1.0 and blue["home_2"] == 1.0


def test_the_shipped_model_names_every_weight_and_says_how_it_was_made():
    model = default_model()
    assert len(model.weights) == len(FEATURES)
    text = fit_win_chance.SHIPPED_MODEL.read_text()
    data = json.loads(text)
    assert data["made_by"].startswith("python -m pawnlight_lab.fit_win_chance")
    likelihood = data["log_likelihood"]
    # It predicts held-out games better than the heuristic's value alone, and far better than
    # a coin with four sides.
    assert (
        likelihood["held_out"] > likelihood["heuristic_value_only_held_out"] > likelihood["uniform"]
    )


def test_a_model_missing_a_weight_is_refused():
    weights = default_model().to_json()
    del weights["home_3"]
    with pytest.raises(ValueError, match="home_3"):
        WinModel.from_json({"weights": weights})
    with pytest.raises(ValueError, match="weights expected"):
        WinModel((1.0, 2.0))


def test_the_strong_players_futures_end_in_the_chance_to_win():
    game = Game(GameConfig(players=("red", "blue", "yellow", "green")))
    view = view_of(game)
    position = race("home home T50 T55")
    rollouts = Rollouts(view, chance_leaf=True)
    assert isinstance(rollouts.root, Evaluator)  # four players, no patience
    expected = WinChance(rollouts.root, view.team, view.order).value(position, BLUE)
    assert rollouts.leaf(position, BLUE) == pytest.approx(TERMINAL * (2 * expected - 1))
    assert Rollouts(view).leaf(position, BLUE) == Rollouts(view).root.score(position)


def test_the_strong_player_takes_its_leaf_from_its_spec():
    assert strong("strong").leaf == "score"
    assert strong("strong:leaf=chance,budget=300").leaf == "chance"
    with pytest.raises(ValueError, match="leaf is one of"):
        parse_spec("strong:leaf=oracle")
    for view, card, options in moments(4):
        move = make_player("strong:leaf=chance,budget=300").choose(view, card, options)
        assert move in options.moves


def test_one_self_play_game_gives_every_moment_and_one_winner():
    sample = fit_win_chance.play_sample((3, 0))
    assert sum(sample.won) == 1.0
    assert len(sample.moments) > 20
    assert all(len(m) == 4 and all(len(f) == len(FEATURES) for f in m) for m in sample.moments)


def test_the_fit_finds_the_weights_that_made_the_winners():
    import numpy as np  # the lab's tune extra, which setup-env dev installs

    rng = np.random.default_rng(7)
    truth = np.array([1.5, -0.8, 0.3])
    features = rng.normal(size=(20_000, 4, 3))
    utility = features @ truth
    chance = np.exp(utility) / np.exp(utility).sum(axis=1, keepdims=True)
    winners = np.array([rng.choice(4, p=p) for p in chance])
    won = np.eye(4)[winners]
    theta = fit_win_chance.fit(features, won, ridge=0.0)
    assert np.allclose(theta, truth, atol=0.08)
    assert fit_win_chance.log_likelihood(features, won, theta) > -math.log(4)


def test_the_fitting_command_writes_a_model_pawnlight_can_load(tmp_path, capsys):
    out = tmp_path / "model.json"
    assert fit_win_chance.main(["--games", "10", "--jobs", "1", "--out", str(out)]) == 0
    model = WinModel.from_json(json.loads(out.read_text()))
    assert len(model.weights) == len(FEATURES)
    assert "10 games" in capsys.readouterr().out


def test_the_fitting_command_refuses_too_few_games(capsys):
    assert fit_win_chance.main(["--games", "2"]) == 2
    assert "at least 5 games" in capsys.readouterr().err

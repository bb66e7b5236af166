"""The learned player: its weights come from the training script, it plays legally and quickly,
and the levels and comparisons built around it."""

import json
from importlib import resources

import pytest

from pawnlight.cli import main
from pawnlight.players import hint, view_of
from pawnlight.players.base import distinct_moves
from pawnlight.players.heuristic import HeuristicPlayer
from pawnlight.players.learned import (
    FEATURES,
    WEIGHTS_FILE,
    LearnedPlayer,
    default_tables,
    load_tables,
    weights_for,
)
from pawnlight.players.random_player import CasualPlayer
from pawnlight.players.registry import LEVELS, make_player, parse_spec
from pawnlight.players.strong import StrongPlayer
from pawnlight.players.table import play_game
from pawnlight.players.tournament import compare, format_comparison
from pawnlight.rules import Game, GameConfig

from .helpers import VARIANT_CASES, Checked, moments, pos


def config_for(edition: str, variant: str, teams: bool) -> GameConfig:
    """Patience Sorry is played by one person on two colours; everything else by four."""
    players = ("red", "yellow") if variant == "patience" else ("red", "blue", "yellow", "green")
    return GameConfig(edition=edition, variant=variant, teams=teams, players=players)


def weights_document() -> dict:
    text = resources.files("pawnlight.players").joinpath(WEIGHTS_FILE).read_text("utf-8")
    return json.loads(text)


def test_the_training_script_reproduces_the_kept_weights_bit_for_bit():
    pytest.importorskip("numpy")
    from pawnlight_lab.train_value import TrainSettings, reproduces, train

    document = weights_document()
    assert document["features"] == list(FEATURES)
    assert {run["players"] for run in document["runs"]} == {int(k) for k in document["tables"]}
    assert reproduces(document)
    # The check is a real one: another seed learns other weights.
    run = TrainSettings(**{**document["runs"][0], "seed": document["runs"][0]["seed"] + 1})
    games = document["check"]["games"]
    assert train(run, stop_after=games) != document["check"]["tables"][str(run.players)]


def test_the_kept_weights_were_learned_for_every_table_they_serve():
    tables = default_tables()
    assert 2 in tables and 4 in tables
    assert weights_for(tables, 3) is tables[4]  # a table of three plays with the four's
    assert all(len(w) == len(FEATURES) for w in tables.values())


def test_weights_for_other_features_are_refused_with_a_reason():
    document = weights_document()
    document["features"] = document["features"][:-1]
    with pytest.raises(ValueError, match="other features"):
        load_tables(json.dumps(document))


@pytest.mark.parametrize(("edition", "variant", "teams"), VARIANT_CASES)
def test_the_learned_player_plays_every_variant_legally(edition, variant, teams):
    config = config_for(edition, variant, teams)
    player = Checked(LearnedPlayer())
    game = play_game(config, dict.fromkeys(config.turn_order, player), seed=5)
    assert game.over and player.decisions > 0


@pytest.mark.parametrize("players", [("red", "yellow"), ("red", "blue", "yellow")])
def test_the_learned_player_plays_small_tables_legally(players):
    config = GameConfig(players=players)
    player = Checked(LearnedPlayer())
    game = play_game(config, dict.fromkeys(config.turn_order, player), seed=8)
    assert game.over and player.decisions > 0


def test_the_learned_player_takes_the_winning_move():
    game = Game(
        GameConfig(players=("red", "yellow")),
        pos(red="home home home S3", yellow="T30 T31 start start"),
    )
    view = view_of(game)
    game.draw("3")
    assert game.options is not None
    move = LearnedPlayer().choose(view_of(game), "3", game.options)
    assert move is not None and move.after.all_home(0)
    assert view.colour == 0


def test_out_of_time_the_learned_player_plays_the_best_move_it_has_scored(monkeypatch):
    from pawnlight.players import learned

    clock = iter(range(10_000))  # each look at the clock: one second later
    monkeypatch.setattr(learned.time, "monotonic", lambda: float(next(clock)))
    decisions = moments(8, players=("red", "yellow"))
    hurried = LearnedPlayer(time_limit=1.5)  # time for two moves
    calm = LearnedPlayer()
    changed = 0
    for view, card, options in decisions:
        first_two = distinct_moves(options.moves)[:2]
        move = hurried.choose(view, card, options)
        assert move in first_two
        # Of the first two moves, the one the value prefers (what a calm player would play
        # had it seen only those).
        assert move == LearnedPlayer().choose(view, card, options._replace(moves=first_two))
        changed += move != calm.choose(view, card, options)
    assert changed  # the limit did cut some decisions short


def test_the_learned_player_plays_as_the_heuristic_where_it_learned_nothing():
    for view, card, options in moments(4, teams=True):
        assert LearnedPlayer().choose(view, card, options) == HeuristicPlayer().choose(
            view, card, options
        )


def test_levels_name_players_in_order_of_strength():
    assert list(LEVELS) == ["easy", "normal", "hard"]
    assert isinstance(make_player("easy"), CasualPlayer)
    assert isinstance(make_player("normal"), HeuristicPlayer)
    assert isinstance(make_player("hard"), StrongPlayer)
    assert parse_spec("hard") == parse_spec(LEVELS["hard"])
    with pytest.raises(ValueError, match="a level takes no settings"):
        parse_spec("hard:budget=3")


def test_hints_come_from_the_hard_level_within_the_hint_time(monkeypatch):
    from pawnlight.players import hints

    asked = []

    def recording(spec, seed=0, time_limit=None):
        asked.append((spec, time_limit))
        return make_player(spec, seed, time_limit)

    monkeypatch.setattr(hints, "make_player", recording)
    game = Game(GameConfig(players=("red", "yellow")))
    options = game.draw("1")
    assert hint(game) in options.moves
    assert asked == [(LEVELS["hard"], hints.HINT_TIME_LIMIT)]


def test_a_comparison_plays_head_to_head_and_one_against_three():
    comparison = compare("heuristic", "random", games=8, seed=3)
    two, four = comparison.standing(2), comparison.standing(4)
    assert two.games == 8 and four.games == 8
    assert [len(r.settings.entrants) for r in comparison.results] == [2, 4]
    text = format_comparison(comparison)
    assert "head-to-head (parity 50%)" in text and "one against 3 (parity 25%)" in text
    assert comparison.verdict in text
    with pytest.raises(ValueError, match="not with itself"):
        compare("hard", "strong", games=2)


def test_the_verdict_follows_the_interval():
    comparison = compare("heuristic", "random", games=40, seed=2)
    assert comparison.standing(2).interval[0] > 0.5
    assert comparison.verdict == "heuristic is stronger than random head-to-head"


def test_tournament_against_prints_both_tables(capsys):
    args = ["tournament", "--players", "heuristic", "--against", "random", "--games", "4"]
    assert main([*args, "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["head_to_head"]["games"] == 4
    assert len(answer["one_against_three"]["players"]) == 2
    assert main([*args[:2], "heuristic,random", *args[3:]]) == 2
    assert "compares one player" in capsys.readouterr().err
    assert main([*args, "--teams"]) == 2
    assert "standard game of hasbro-2002 only" in capsys.readouterr().err
    assert main([*args[:4], "wizard", *args[5:]]) == 2
    assert capsys.readouterr().err.startswith("error: unknown player 'wizard'")


def test_the_casual_player_slips_as_often_as_told():
    decisions = moments(12)
    careful = HeuristicPlayer()
    never = CasualPlayer(seed=1, slip=0.0)
    assert all(never.choose(*d) == careful.choose(*d) for d in decisions)
    always = CasualPlayer(seed=1, slip=1.0)
    picks = [always.choose(*d) for d in decisions]
    legal = [options.moves for _, _, options in decisions]
    assert all(move in moves for move, moves in zip(picks, legal, strict=True))
    assert picks != [careful.choose(*d) for d in decisions]
    assert isinstance(make_player("casual", seed=3), CasualPlayer)


@pytest.mark.parametrize(("edition", "variant", "teams"), VARIANT_CASES)
def test_the_casual_player_plays_every_variant_legally(edition, variant, teams):
    config = config_for(edition, variant, teams)
    player = Checked(CasualPlayer(seed=2))
    game = play_game(config, dict.fromkeys(config.turn_order, player), seed=6)
    assert game.over and player.decisions > 0


@pytest.mark.parametrize("games", ["2=0", "5=10", "two=10", "2"])
def test_training_refuses_bad_game_counts_in_one_line(games, tmp_path, capsys):
    pytest.importorskip("numpy")
    from pawnlight_lab.train_value import main as train_main

    out = tmp_path / "w.json"
    assert train_main(["--out", str(out), "--games", games]) == 2
    assert capsys.readouterr().err.startswith("error: --games takes table sizes")
    assert not out.exists()

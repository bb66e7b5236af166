"""The game's story (pawnlight.players.story): chances by turn, turning points, costly moves."""

from __future__ import annotations

import itertools

import pytest

from pawnlight.players.heuristic import HeuristicPlayer
from pawnlight.players.random_player import RandomPlayer
from pawnlight.players.story import COSTLY_MOVES, ERROR, StoryError, seen_since_shuffle, tell
from pawnlight.players.table import play_game
from pawnlight.rules.board import COLOURS
from pawnlight.rules.cards import count, pack
from pawnlight.rules.game import Game, GameConfig

from ..helpers import SQUARE_CODE

KEYS = {"game", "turns", "turning_points", "costly_moves", "estimator"}


def heuristic_game(players: tuple[str, ...], seed: str, **config) -> Game:
    game_config = GameConfig(edition="hasbro-2002", players=players, **config)
    seats = {colour: HeuristicPlayer() for colour in game_config.turn_order}
    return play_game(game_config, seats, seed)


def test_the_chances_sum_to_one_and_the_winner_ends_at_one():
    game = heuristic_game(("red", "blue", "yellow"), "story:1")
    story = tell(game, 7)
    assert set(story) == KEYS and story["game"] == 7
    assert len(story["turns"]) == len(game.history)
    for number, (told, turn) in enumerate(zip(story["turns"], game.history, strict=True), 1):
        assert told["turn"] == number
        assert told["colour"] == COLOURS[turn.colour] and told["card"] == turn.card
        assert told["text"] == turn.text
        assert set(told["chances"]) == {"red", "blue", "yellow"}
        assert sum(told["chances"].values()) == pytest.approx(1, abs=1e-3)
    assert game.result is not None
    winner = COLOURS[game.result.winners[0]]
    assert story["turns"][-1]["chances"][winner] == 1
    assert story["estimator"] == {"name": "win-chance model", "error": ERROR}


def test_turning_points_are_the_largest_swings_in_words():
    game = heuristic_game(("red", "blue"), "story:2")
    story = tell(game, 1)
    points = story["turning_points"]
    assert len(points) == 3
    assert [p["turn"] for p in points] == sorted(p["turn"] for p in points)
    assert all(p["turn"] < len(game.history) for p in points)  # the last turn is the result
    turns = story["turns"]
    swings = []
    for before, after in itertools.pairwise(turns[:-1]):
        swings.append(max(abs(after["chances"][c] - before["chances"][c]) for c in ("red", "blue")))
    smallest_told = min(abs(p["swing"]) for p in points)
    assert sorted(swings, reverse=True)[2] == pytest.approx(smallest_told, abs=2e-4)
    for point in points:
        assert not SQUARE_CODE.search(point["words"]), point["words"]
        assert "squares" not in point["words"]
        assert point["words"].startswith(COLOURS[game.history[point["turn"] - 1].colour].title())


def test_costly_moves_are_a_persons_only_and_beyond_the_error():
    config = GameConfig(edition="hasbro-2002", players=("red", "yellow"))
    seats = {0: RandomPlayer(9), 2: HeuristicPlayer()}
    game = play_game(config, seats, "story:9")
    story = tell(game, 1, people=[0])
    costly = story["costly_moves"]
    assert 0 < len(costly) <= COSTLY_MOVES  # a random player throws chances away
    assert [m["cost"] for m in costly] == sorted((m["cost"] for m in costly), reverse=True)
    for move in costly:
        assert move["colour"] == "red" and move["cost"] > ERROR
        assert not SQUARE_CODE.search(move["words"]) and "would have kept" in move["words"]
    assert "bumping Yellow" in costly[0]["words"]  # the bump red missed
    assert all(m["colour"] == "yellow" for m in tell(game, 1, people=[2])["costly_moves"])
    assert tell(game, 1, people=[])["costly_moves"] == []


def test_a_partnership_gives_each_colour_its_sides_chance():
    game = heuristic_game(("red", "blue", "yellow", "green"), "story:4", teams=True)
    story = tell(game, 1)
    for told in story["turns"]:
        chances = told["chances"]
        assert chances["red"] == pytest.approx(chances["yellow"], abs=1e-3)
        assert chances["blue"] == pytest.approx(chances["green"], abs=1e-3)
        assert chances["red"] + chances["blue"] == pytest.approx(1, abs=1e-3)
    assert game.result is not None
    for colour in game.result.winners:
        assert story["turns"][-1]["chances"][COLOURS[colour]] == 1


def test_no_story_for_an_unfinished_game_or_point_play():
    game = Game(GameConfig(edition="hasbro-2002", players=("red", "blue")))
    with pytest.raises(StoryError, match="not finished"):
        tell(game, 4)
    points = GameConfig(edition="hasbro-2002", players=("red", "blue"), variant="points")
    with pytest.raises(StoryError, match="points game"):
        tell(Game(points), 5)


def test_the_unseen_cards_start_again_with_each_shuffle():
    whole = count(pack(False))
    assert seen_since_shuffle([], False) == whole
    one = seen_since_shuffle(["sorry"], False)
    assert one["sorry"] == whole["sorry"] - 1
    assert seen_since_shuffle(pack(False), False) == whole  # the pile ran out: reshuffled
    assert seen_since_shuffle([*pack(False), "1"], False)["1"] == whole["1"] - 1

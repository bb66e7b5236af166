"""A game: seats and turns, the 2's extra draw, forfeits, undo, replay, the end."""

import random

import pytest

from pawnlight.rules import COLOURS, Deck, Event, Game, GameConfig, GameError
from pawnlight.rules.board import parse_colour
from pawnlight.rules.game import Phase

from .helpers import pos


def colour(name: str) -> int:
    return parse_colour(name)


def test_play_passes_clockwise_from_the_leader():
    """The player on the left of the Leader then draws the next card ... play passes to the left
    (clockwise)."""
    game = Game(GameConfig(players=("yellow", "red", "green")))
    assert [COLOURS[c] for c in game.order] == ["yellow", "green", "red"]
    seen = []
    for _ in range(4):
        seen.append(COLOURS[game.turn])
        game.draw("3")  # no pawn in play: forfeited at once
    assert seen == ["yellow", "green", "red", "yellow"]


def test_first_turn_without_a_starting_card_is_forfeited():
    """Hasbro: "If it's your first turn and you do not draw a card that lets you start a pawn, you
    forfeit (skip) your turn." """
    game = Game()
    game.draw("5")
    assert game.history[-1].text == "forfeit" and game.turn == colour("blue")


def test_the_2_gives_the_same_player_another_draw_even_when_it_cannot_move():
    """The 2 ... Phase.DRAW AGAIN and move accordingly ... even if you couldn't move."""
    game = Game()
    game.draw("2")
    game.play("R:start-T4")
    assert game.turn == colour("red") and game.phase == Phase.DRAW
    game.draw("1")
    game.play("T4-T5")
    assert game.turn == colour("blue")
    stuck = Game(
        GameConfig(players=("red", "blue")),
        pos(red="S5 start start start", blue="S5 home home home"),
    )
    stuck.draw("12")
    stuck.draw("2")  # blue has nothing to move: forfeited, but blue still draws again
    assert stuck.history[-1].text == "forfeit" and stuck.turn == colour("blue")


def test_an_11_that_cannot_go_forward_may_be_declined_and_other_cards_may_not():
    game = Game(GameConfig(players=("red", "blue")))
    game.draw("1")
    game.play("R:start-T4")
    game.draw("1")
    game.play("B:start-T19")
    game.draw("11")  # red T4+11 = T15 is possible: no declining
    with pytest.raises(GameError, match="must be played"):
        game.forfeit()
    game.play("T4<>T19")
    assert game.position == pos(red="T19 start start start", blue="T4 start start start")


def test_an_illegal_move_is_refused_and_nothing_changes():
    game = Game()
    game.draw("1")
    before = game.position
    with pytest.raises(GameError, match="not a legal move"):
        game.play("R:start-T5")
    with pytest.raises(GameError, match="red to play the 1"):
        game.draw("3")
    assert game.position == before and game.phase == Phase.MOVE


@pytest.mark.parametrize("written", ["T4-T6,T20-T25", "T20-T25,T4-T6"])
def test_a_split_7_in_either_order_is_the_same_play(written):
    position = pos(red="T4 T20 start start", blue="T40 start start start")
    game = Game(GameConfig(players=("red", "blue")), position)
    game.draw("7")
    game.play(written)
    assert game.position == pos(red="T6 T25 start start", blue="T40 start start start")
    assert game.history[-1].text == written


def test_undo_restores_the_game_and_is_recorded():
    game = Game()
    game.draw("1")
    game.play("R:start-T4")
    after_move = game.position
    assert game.history[-1].before == Position_initial() and game.history[-1].after == after_move
    game.draw("5")
    undone = game.undo()
    assert undone == Event("draw", 1, "5")
    assert game.turn == colour("blue") and game.phase == Phase.DRAW
    undone = game.undo()
    assert undone.kind == "move" and game.phase == Phase.MOVE and game.card == "1"
    assert game.position == Position_initial()
    game.play("R:start-T4")
    assert game.position == after_move
    assert [e.kind for e in game.events] == ["draw", "move", "draw", "undo", "undo", "move"]
    replayed = Game.replay(game.config, game.events)
    assert replayed.position == game.position and replayed.history == game.history


def Position_initial():
    return pos(
        red="start start start start",
        blue="start start start start",
        yellow="start start start start",
        green="start start start start",
    )


def test_replay_names_the_event_that_does_not_fit():
    events = [Event("draw", 0, "1"), Event("move", 0, "1", "T4-T9")]
    with pytest.raises(GameError, match="event 2"):
        Game.replay(GameConfig(), events)


def test_the_winner_is_the_first_with_every_pawn_home():
    """THE WINNER is the first player to move his 4 MEN INTO HIS HOME."""
    position = pos(red="S4 home home home", blue="T40 start start start")
    game = Game(GameConfig(players=("red", "blue")), position)
    game.draw("2")
    game.play("R:S4-home")
    assert game.result is not None
    assert game.phase == Phase.OVER and game.result.winners == (0,)
    with pytest.raises(GameError, match="game is over"):
        game.draw("1")


@pytest.mark.parametrize("seed", range(20))
def test_random_games_end_with_a_winner(seed):
    rng = random.Random(seed)
    deck = Deck(rng)
    game = Game(GameConfig(players=("red", "blue", "yellow", "green")[: 2 + seed % 3]))
    turns = 0
    while not game.over:
        options = game.draw(deck.draw())
        if game.phase == Phase.MOVE:
            game.play(rng.choice(options.moves))
        turns += 1
        assert turns < 5000
    assert game.result is not None
    winner = game.result.winners[0]
    assert game.position.all_home(winner)
    assert sum(1 for c in game.order if game.position.all_home(c)) == 1

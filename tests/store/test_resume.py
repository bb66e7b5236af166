"""Resuming after a power cut, and taking moves back, several turns deep, as undo events."""

from __future__ import annotations

import pytest

from pawnlight.rules.game import Game, GameConfig, GameError
from pawnlight.store.journal import Journal
from pawnlight.store.resume import resume_point, take_back, turns_back_to

from .randomplay import Player


def opening() -> Game:
    """Red comes out, blue has no card to move (forfeited at once), yellow comes out on a 2 and
    draws again, and moves on."""
    game = Game(GameConfig())
    game.draw("1")
    game.play("R:start-T4")  # turn 1
    game.draw("5")  # turn 2: blue forfeits
    game.draw("2")
    game.play("Y:start-T34")  # turn 3, and yellow draws again
    game.draw("3")
    game.play("T34-T37")  # turn 4
    return game


def test_resume_point_names_the_position_and_the_one_before_the_last_move():
    game = opening()
    point = resume_point(game)
    assert point.position == game.position
    assert point.before_last_move == game.history[-1].before
    assert point.last_turn.text == "T34-T37"
    assert (point.phase, point.card) == ("draw", None)
    game.draw("4")  # green has nothing out: a forfeit, which moves no pawn
    point = resume_point(game)
    assert point.last_turn.text == "forfeit"
    assert point.before_last_move == game.history[-2].before  # still yellow's move
    game.draw("7")  # red to play a 7: the card is part of what resumes
    point = resume_point(game)
    assert (point.phase, point.card, point.turn) == ("move", "7", 0)


def test_resume_point_at_the_start():
    point = resume_point(Game(GameConfig()))
    assert point.before_last_move is None and point.last_turn is None


def test_turns_back_to_finds_a_takeback_on_the_board():
    game = opening()
    history = game.history
    assert turns_back_to(game, game.position) == 0
    assert turns_back_to(game, history[-1].before) == 1
    assert turns_back_to(game, history[0].before) == 4
    stranger = Game(GameConfig(players=("red", "blue"))).position
    assert turns_back_to(game, stranger) is None


def test_take_back_whole_turns_several_deep():
    game = opening()
    before = list(game.history)
    undone = take_back(game)
    assert [e.kind for e in undone] == ["move", "draw"]
    assert game.position == before[-1].before and game.phase == "draw" and game.turn == 2
    undone = take_back(game, 2)  # yellow's first move, then blue's forfeit
    assert [e.kind for e in undone] == ["move", "draw", "draw"]
    assert game.position == before[1].before and game.turn == 1
    assert [e.kind for e in game.events].count("undo") == 5  # nothing was deleted
    with pytest.raises(GameError, match="only 1 turns"):
        take_back(game, 2)


def test_take_back_also_undoes_a_card_drawn_for_the_next_turn():
    game = opening()
    position = game.history[-1].before
    game.draw("1")  # green could come out with it: the turn is under way
    assert game.phase == "move"
    take_back(game)
    assert game.position == position and game.phase == "draw" and game.turn == 2


def test_a_takeback_survives_in_the_journal_and_resumes(tmp_path):
    config = GameConfig(edition="parker-1950")
    with Journal.open(tmp_path / "journal.sqlite3") as journal:
        game_id = journal.new_game(config)
        game = Game(config)
        player = Player(game, 8, undo=0.0)
        for _ in range(80):
            player.act()
            journal.append(game_id, game.events[-1])
        target = game.history[-3].before
        undone = take_back(game, 3)
        for event in game.events[-len(undone) :]:
            journal.append(game_id, event)
    # The power comes back.
    with Journal.open(tmp_path / "journal.sqlite3") as journal:
        assert journal.unfinished() == game_id
        resumed = journal.resume(game_id)
        assert resumed.position == target == game.position
        assert resumed.history == game.history
        assert resumed.events == game.events
        # And play goes on from there.
        Player(resumed, 9).act()
        journal.append(game_id, resumed.events[-1])
        assert len(journal.load(game_id).events) == len(game.events) + 1

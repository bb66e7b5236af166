"""Hints and the heuristic's judgement in positions where the right move is plain."""

import pytest

from pawnlight.players import HeuristicPlayer, StrongPlayer, hint, view_of
from pawnlight.players.base import card_options
from pawnlight.rules import Game, GameConfig, Move, move_text

from .helpers import pos

RED = 0


def game_at(position, **config) -> Game:
    players = tuple(c for c in ("red", "blue", "yellow", "green") if position.to_json().get(c))
    return Game(GameConfig(players=players, **config), position)


def text(move: Move | None) -> str | None:
    """A hinted move's notation, or None for no move."""
    return None if move is None else move_text(move)


def test_a_hint_is_legal_and_leaves_the_game_alone():
    game = Game(GameConfig())
    game.draw("1")
    events = list(game.events)
    move = hint(game)
    assert game.options is not None and move in game.options.moves
    assert game.events == events and game.phase == "move"


def test_hints_for_any_card_before_drawing_and_none_without_a_move():
    game = Game(GameConfig())
    assert hint(game, "12") is None  # every pawn in START
    assert text(hint(game, "2")) == "R:start-T4"
    with pytest.raises(ValueError, match="name the card"):
        hint(game)


def test_hints_take_the_winning_move():
    position = pos(red="home home home S3", blue="T30 T31 start start")
    game = game_at(position)
    assert text(hint(game, "3")) == "R:S3-home"
    assert text(hint(game, "3", player=StrongPlayer(budget=50))) == "R:S3-home"


def test_the_heuristic_bumps_the_leader_rather_than_a_straggler():
    # A 3 lets red bump blue's pawn on T45 (blue has three pawns home) or green's on T10 (green
    # has none): the two pawns have come about as far, so the leader's is the one to send back.
    position = pos(
        red="T42 T7 start start",
        blue="T45 home home home",
        green="T10 start start start",
    )
    game = game_at(position)
    assert {m.bumped for m in card_options(view_of(game), "3").moves} == {((1, 45),), ((3, 10),)}
    move = hint(game, "3", player=HeuristicPlayer())
    assert move is not None and move.bumped == ((1, 45),)


def test_the_heuristic_moves_a_threatened_pawn_into_safety():
    # Red's pawn on T1 (two squares before its entry T2) sits just ahead of blue's pawn on T59.
    # With a 3 it can go T1-S2 into safety, or move the pawn on T20 on.
    position = pos(red="T1 T20 start start", blue="T59 start start start")
    game = game_at(position)
    assert text(hint(game, "3", player=HeuristicPlayer())) == "T1-S2"


def test_the_heuristic_declines_an_11_whose_only_switch_hurts():
    # Red's only pawn in play, on T0, is eight squares from home; the only opponent is on T8,
    # past red's entry.  Switching would send red's pawn round the board again: declining is
    # better, and allowed (the pawn cannot go forward 11).
    position = pos(red="T0 start start start", blue="T8 start start start")
    game = game_at(position)
    options = card_options(view_of(game), "11")
    assert options.forfeit and options.moves
    assert hint(game, "11", player=HeuristicPlayer()) is None


def test_team_play_moves_the_partner_when_that_is_better():
    # Red has nothing useful to do with a 5; yellow (red's partner) can go home with it.
    position = pos(
        red="start start start start",
        blue="T40 start start start",
        yellow="S1 home home home",
        green="T45 start start start",
    )
    game = game_at(position, teams=True)
    assert text(hint(game, "5")) == "Y:S1-home"


def test_point_play_choose_card_plays_the_winning_card():
    position = pos(red="S3 home home home", blue="T30 T31 start start")
    game = game_at(position, variant="points")
    view = view_of(game, hand=("12", "4", "3", "sorry", "8"))
    assert HeuristicPlayer().choose_card(view) == "3"
    assert StrongPlayer(budget=50).choose_card(view) == "3"

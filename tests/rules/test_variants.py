"""Point play, the quick game, the extra 1, Patience Sorry and match play."""

import random

import pytest

from pawnlight.rules import EDITIONS, Deck, Game, GameConfig, GameError, Match, final_scores
from pawnlight.rules.board import parse_colour
from pawnlight.rules.game import Doubling, Phase

from .helpers import HASBRO, PARKER, PARKER_1939, pos

RED, BLUE, YELLOW, GREEN = range(4)


def test_point_play_starts_one_pawn_of_each_player_on_its_start_circle():
    """Each player starts one man out on his own STARTING POINT.  Hasbro: "Put the fourth pawn on
    the circle outside your START." """
    game = Game(GameConfig(variant="points", players=("red", "blue")))
    assert game.position == pos(red="T4 start start start", blue="T19 start start start")


def test_a_dead_hand_discards_and_ends_the_turn():
    """If a player is unable to follow the directions on any card he holds, he is permitted to
    discard one card and takes one from the draw pile. His turn then ends."""
    position = pos(red="S5 start start start", blue="T19 start start start")
    game = Game(GameConfig(variant="points", players=("red", "blue")), position)
    game.draw("12")
    assert game.history[-1].text == "discard" and game.turn == BLUE


@pytest.mark.parametrize("edition", ["parker-1950", "hasbro-2002"])
def test_a_discarded_2_ends_the_turn_too(edition):
    """Issue #22: a 2 discarded from a dead hand gave another turn.  000: "His turn then ends";
    001: "Your turn ends; do not move a pawn until your next turn"."""
    position = pos(red="S5 home home home", blue="T19 start start start")
    game = Game(GameConfig(edition=edition, variant="points", players=("red", "blue")), position)
    game.draw("2")
    assert game.history[-1].text == "discard" and game.turn == BLUE and game.phase == "draw"
    # Played, a 2 still gives its extra card.
    game.draw("2")
    game.play("T19-T21")
    assert game.turn == BLUE and game.phase == "draw"


# Final positions: red has won; blue has two pawns home, yellow one, green none.
FINAL = pos(
    red="home home home home",
    blue="home home T30 start",
    yellow="home S2 start start",
    green="T40 start start start",
)


def test_parker_1950_scoring():
    """SCORING: At the end of a game each player scores five points for every man he has home. The
    winner adds to his score of twenty points, five points for each opponent's man in home. ...
    Twenty-five points are added to the winner's normal score if no opponent has more than two men
    home."""
    assert final_scores(PARKER, FINAL, RED) == {
        RED: 20 + 5 * 3 + 25,
        BLUE: 10,
        YELLOW: 5,
        GREEN: 0,
    }


def test_parker_1939_scoring():
    """SCORING: ... each player scores one point for every man he has Home The Winner adds to his
    score of four points, one point for each opponent's man in Home. ... Eight points are added to
    the Winner's Normal Score if no opponent has more than two men Home."""
    assert final_scores(PARKER_1939, FINAL, RED) == {RED: 4 + 3 + 8, BLUE: 2, YELLOW: 1, GREEN: 0}


def test_hasbro_scoring():
    """SCORING: All players score 5 points for each pawn on HOME. The WINNER also scores as follows:
    5 points for each opponent's pawn not in its HOME; 25 points if no opponent has more than two
    pawns HOME ..."""
    assert final_scores(HASBRO, FINAL, RED) == {RED: 20 + 5 * 9 + 25, BLUE: 10, YELLOW: 5, GREEN: 0}


@pytest.mark.parametrize(
    ("edition", "bonuses"),
    [(PARKER, (100, 50, 25)), (PARKER_1939, (24, 16, 8)), (HASBRO, (100, 50, 25))],
    ids=lambda v: getattr(v, "name", ""),
)
def test_only_the_best_bonus_applies(edition, bonuses):
    """One hundred additional points ... if no opponent has a man home. Fifty points ... if no
    opponent has more than one man home. Twenty-five ... if no opponent has more than two men home
    (docs/rules.md: the tiers are alternatives)."""

    def bonus(blue_home: int) -> int:
        places = " ".join(["home"] * blue_home + ["start"] * (4 - blue_home))
        final = pos(red="home home home home", blue=places)
        scores = final_scores(edition, final, RED)
        base = final_scores(edition, final, RED)[RED]
        per = edition.scoring.winner_per_opponent_pawn
        counted = blue_home if edition.scoring.count_opponent_pawns_home else 4 - blue_home
        assert scores[BLUE] == edition.scoring.per_pawn_home * blue_home
        return base - 4 * edition.scoring.per_pawn_home - per * counted

    assert (bonus(0), bonus(1), bonus(2), bonus(3)) == (*bonuses, 0)


def test_doubling_doubles_the_final_score():
    """DOUBLING: The Final Score in a doubled game is doubled."""
    assert final_scores(PARKER, FINAL, RED, doubled=2) == {
        c: 4 * p for c, p in final_scores(PARKER, FINAL, RED).items()
    }


def points_game(edition="parker-1950", players=("red", "blue", "yellow")):
    return Game(GameConfig(edition=edition, variant="points", players=players))


def test_a_double_accepted_by_some_and_dropped_by_others():
    """Any player may call "double" (or "re-double") at any time in the game. Any or all other
    players may then accept the double (or re-double) or drop out of play."""
    game = points_game()
    game.double("blue")
    assert game.phase == Phase.DOUBLE and game.waiting_for == {RED, YELLOW}
    with pytest.raises(GameError, match="waiting for answers"):
        game.draw("5")
    game.accept("red")
    game.drop("yellow")
    assert game.doubled == 1 and game.active_players == (RED, BLUE)
    game.draw("5")  # red's turn goes on
    game.play("T4-T9")
    assert game.turn == BLUE  # yellow dropped out and is skipped
    game.double("red")  # re-double
    game.accept("blue")
    assert game.doubled == 2


def test_everyone_dropping_ends_the_game_with_the_drop_out_win():
    """If all players drop out on a double (or subsequent re-double) the game ends, and the player
    calling the double (or re-double) wins twenty-five points.  (1939: five points.)"""
    for edition, points in (("parker-1950", 25), ("parker-1939", 5)):
        game = points_game(edition)
        game.double("yellow")
        game.drop("red")
        game.drop("blue")
        assert game.phase == Phase.OVER
        assert game.result.winners == (YELLOW,)
        assert game.result.scores == {RED: 0, BLUE: 0, YELLOW: points}


def test_the_doublings_of_a_game_are_listed_by_round_and_turn_and_undone_with_it():
    """What boards of a remote game compare (docs/remote.md): each double and answer."""
    game = points_game()
    game.draw("5")
    game.play("T4-T9")
    game.double("blue")
    game.accept("red")
    game.accept("yellow")
    game.double("yellow")
    game.drop("blue")
    assert game.doublings() == [
        Doubling(0, 1, BLUE, "double"),
        Doubling(0, 1, RED, "accept"),
        Doubling(0, 1, YELLOW, "accept"),
        Doubling(1, 1, YELLOW, "double"),
        Doubling(1, 1, BLUE, "drop"),
    ]
    game.undo()
    assert game.doublings()[-1] == Doubling(1, 1, YELLOW, "double")
    assert Game(GameConfig(edition="parker-1950")).doublings() == []


def test_hasbro_has_no_doubling_and_standard_games_neither():
    with pytest.raises(GameError, match="doubling"):
        points_game("hasbro-2002").double("red")
    with pytest.raises(GameError, match="doubling"):
        Game(GameConfig(edition="parker-1950")).double("red")


def test_quick_game_plays_three_pawns():
    """If a faster game is desired each player may use three men of a color instead of four."""
    game = Game(GameConfig(edition="parker-1939", variant="quick", players=("red", "blue")))
    assert game.position == pos(red="start start start", blue="start start start")


def test_patience_success_and_failure():
    """Patience Sorry is a game in which One player controls the moves of four red men and four
    yellow men, drawing for, and moving men on each color alternately. The object ... is to make
    fair moves ... in such a manner that when two men of each color are Home, two of each color are
    in Safety. The game does not "come out" if the third man of one color enters Home before the
    fourth man of the other color has entered Safety."""
    config = GameConfig(edition="parker-1939", variant="patience", players=("red", "yellow"))
    nearly = pos(red="home home S1 S2", yellow="home S5 S2 T31")
    game = Game(config, nearly)
    assert game.turn == RED
    game.draw("3")  # red has S1 -> S4 or S2 -> S5
    game.play("R:S1-S4")
    assert game.turn == YELLOW
    game.draw("1")
    game.play("Y:S5-home")  # yellow: two home, but T31 is not in safety yet
    assert game.phase != Phase.OVER
    game.draw("1")
    game.play("R:S4-S5")
    game.draw("2")
    game.play("T31-S1")
    assert game.phase == Phase.OVER and game.result.patience == "success"

    failing = Game(config, pos(red="home home S5 S2", yellow="home S5 S1 T20"))
    failing.draw("1")
    failing.play("R:S5-home")
    assert failing.result.patience == "failure"


def test_match_winner_leads_the_next_game_and_points_carry_over():
    """The Winner of the first game is the Leader in the SECOND GAME."""
    rng = random.Random(5)
    match = Match(
        GameConfig(edition="parker-1950", variant="points", players=("red", "blue", "green")),
        target=200,
    )
    totals = []
    while match.winner is None:
        game = match.current
        deck = Deck(rng)
        while not game.over:
            options = game.draw(deck.draw())
            if game.phase == Phase.MOVE:
                game.play(rng.choice(options.moves))
        assert game.result is not None
        assert game.result.scores is not None
        totals.append(dict(game.result.scores))
        if match.winner is None:
            nxt = match.next_game()
            assert nxt.order[0] == game.result.winners[0]
    assert match.totals == {c: sum(t[c] for t in totals) for c in match.totals}
    assert match.totals[match.winner] >= 200
    with pytest.raises(GameError, match="match is over"):
        match.next_game()


VARIANT_CASES = [
    (edition, variant, teams)
    for edition in EDITIONS
    for variant in sorted(EDITIONS[edition].variants)
    for teams in ((False, True) if variant == "standard" else (False,))
]


@pytest.mark.parametrize(("edition", "variant", "teams"), VARIANT_CASES)
@pytest.mark.parametrize("seed", range(3))
def test_random_games_of_every_variant_end_as_their_book_says(edition, variant, teams, seed):
    rng = random.Random(seed)
    players = ("red", "yellow") if variant == "patience" else ("red", "blue", "yellow", "green")
    config = GameConfig(
        edition=edition,
        variant=variant,
        teams=teams,
        players=players,
        extra_one=EDITIONS[edition].extra_one and seed == 1,
    )
    game = Game(config)
    deck = Deck(rng, extra_one=config.extra_one)
    for _ in range(20000):
        if game.over:
            break
        if variant == "points" and EDITIONS[edition].scoring.drop_out_win and rng.random() < 0.01:
            caller = rng.choice(game.active_players)
            game.double(caller)
            for other in sorted(game.waiting_for):
                (game.accept if rng.random() < 0.8 else game.drop)(other)
            continue
        options = game.draw(deck.draw())
        if game.phase == Phase.MOVE:
            game.play(rng.choice(options.moves))
    result = game.result
    assert result is not None, "the game ended"
    if variant == "patience":
        assert result.patience in ("success", "failure")
    elif teams:
        assert len(result.winners) == 2
        assert all(game.position.all_home(c) for c in result.winners)
    elif result.reason == "every other player dropped":
        assert result.scores is not None
        assert result.scores[result.winners[0]] == EDITIONS[edition].scoring.drop_out_win
    else:
        assert game.position.all_home(result.winners[0])
    if variant == "points":
        assert (
            result.scores is not None
            and max(result.scores.values()) == result.scores[result.winners[0]]
        )
    if variant == "quick":
        assert all(len(game.position.pawns(c)) == 3 for c in game.order)
    replayed = Game.replay(config, game.events)
    assert replayed.position == game.position and replayed.result == game.result


def test_team_double_game():
    """... both of the players who are partners succeed in getting all of their eight men around the
    board and into their homes before either of the opposing players gets his four men home, the
    game immediately becomes a double game."""
    config = GameConfig(edition="parker-1950", teams=True)
    almost = pos(
        red="home home home home",
        yellow="S5 home home home",
        blue="home home home S1",
        green="T40 start start start",
    )
    game = Game(config, almost)
    game.draw("1")
    game.play("Y:S5-home")
    assert game.result is not None
    assert game.result.winners == (RED, YELLOW) and game.result.double_game
    blue_home = pos(
        red="home home home home",
        yellow="S5 home home home",
        blue="home home home home",
        green="T40 start start start",
    )
    game = Game(config, blue_home)
    game.draw("1")
    game.play("Y:S5-home")
    assert game.result is not None
    assert not game.result.double_game
    hasbro = Game(GameConfig(edition="hasbro-2002", teams=True), almost)
    hasbro.draw("1")
    hasbro.play("Y:S5-home")
    assert hasbro.result is not None
    assert hasbro.result.winners == (RED, YELLOW) and not hasbro.result.double_game


def test_colours_are_named_in_players():
    with pytest.raises(GameError, match="named twice"):
        GameConfig(players=("red", "red")).check()
    with pytest.raises(ValueError, match="unknown colour"):
        GameConfig(players=("red", "purple")).check()
    assert parse_colour("Green") == GREEN

"""Partnership play: red with yellow, blue with green."""

import pytest

from pawnlight.rules import Game, GameConfig, Match, move_text

from .helpers import HASBRO, PARKER, PARKER_1939, key, options, pos, results, texts

classic = pytest.mark.parametrize("edition", [PARKER, PARKER_1939], ids=lambda e: e.name)
every = pytest.mark.parametrize("edition", [HASBRO, PARKER, PARKER_1939], ids=lambda e: e.name)

RED, BLUE, YELLOW, GREEN = range(4)
TEAM = dict(red="start start start start", yellow="start start start T20")


@every
def test_a_card_may_play_the_partners_pawn(edition):
    """A player after taking his turn at drawing a card from the pack may use this card for his own
    play or for that of his partner.  Example: Red has four men at the start. Yellow, his partner,
    has three men at start and one on a margin square. Red draws a four card which he uses to play
    Yellow's man."""
    position = pos(**TEAM, blue="T40 start start start", green="T50 start start start")
    # Yellow T20 back 4 ends on blue's triangle T16 and slides to T19.
    assert texts(position, "red", "4", edition, teams=True) == {"T20-T16>T19"}
    assert options(position, "red", "4", edition, teams=False).moves == []


@every
def test_a_1_may_start_either_partners_pawn(edition):
    """Hasbro: "If you drew a 1 or 2, you may start or move a pawn of either partner"."""
    position = pos(**TEAM, blue="T40 start start start", green="T50 start start start")
    assert {"R:start-T4", "Y:start-T34", "T20-T21"} == texts(
        position, "red", "1", edition, teams=True
    )


OTHERS = dict(blue="S1 start start start", green="S1 start start start")


@classic
def test_classic_partner_bumped_only_when_nothing_else_is_possible(edition):
    """Special rule 2. If, as sometimes happens, the only possible move will land a player on a
    space occupied by his partner (when there is no other possibility of moving any other of his own
    or his partner's men), the play must be made and the partner removed from the board."""
    # Red T18+12 lands on yellow's T30; yellow's T30 cannot move 12 (past home); T40 can.
    position = pos(red="T18 start start start", yellow="T30 T40 home home", **OTHERS)
    assert texts(position, "red", "12", edition, teams=True) == {"T40-T52"}
    # Without yellow's T40 the only move lands on the partner: it must be made.
    position = pos(red="T18 start start start", yellow="T30 home home home", **OTHERS)
    (move,) = options(position, "red", "12", edition, teams=True).moves
    assert move_text(move) == "T18-T30" and move.bumped == ((2, 30),)


def test_hasbro_landing_on_a_partner_always_bumps_it():
    """Hasbro: "If you land on a space occupied by a partner's pawn, BUMP it back to its START!"."""
    position = pos(red="T18 start start start", yellow="T30 T40 home home", **OTHERS)
    assert texts(position, "red", "12", HASBRO, teams=True) == {"T18-T30", "T40-T52"}


@classic
def test_classic_sorry_must_be_used_even_on_the_partner(edition):
    """Special rule 1. A SORRY card must be used at all times, even though it may mean the removal
    of a partner's man."""
    position = pos(
        red="start start start start",
        yellow="T20 home home home",
        blue="S1 start start start",
        green="home home home home",
    )
    result = options(position, "red", "sorry", edition, teams=True)
    assert [move_text(m) for m in result.moves] == ["R:start-T20"]
    assert not result.forfeit
    # With an opponent on the track, the partner is spared.
    position = pos(
        red="start start start start",
        yellow="T20 home home home",
        blue="T40 start start start",
        green="home home home home",
    )
    assert texts(position, "red", "sorry", edition, teams=True) == {"R:start-T40"}


@classic
def test_classic_sorry_may_take_either_partner_pawn_even_one_on_its_own_triangle(edition):
    """Special rule 1 (Parker book 000): "A SORRY® card must be used at all times, even though it
    may mean the removal of a partner's man."  With no opponent on the track, any of the partner's
    men may be the one removed: the one on its own triangle (the Sorry! pawn lands on another
    colour's triangle and slides, sweeping it) as well as one on a plain square.  Neither is a
    last-resort landing (special rule 2) to be dropped because the other exists (issue #34)."""
    others = dict(blue="start start start start", green="home start start start")
    # Yellow on its own long slide's triangle T39 and on T45.
    position = pos(red="start start start start", yellow="T39 T45 start start", **others)
    assert texts(position, "red", "sorry", edition, teams=True) == {
        "R:start-T39>T43",
        "R:start-T45",
    }
    # Yellow on its own short slide's triangle T31 and on T45.
    position = pos(red="start start start start", yellow="T31 T45 start start", **others)
    assert texts(position, "red", "sorry", edition, teams=True) == {
        "R:start-T31>T34",
        "R:start-T45",
    }
    # Off the triangles both were always offered.
    position = pos(red="start start start start", yellow="T40 T45 start start", **others)
    assert texts(position, "red", "sorry", edition, teams=True) == {"R:start-T40", "R:start-T45"}


def test_hasbro_sorry_with_no_opponent_may_hit_own_or_partner():
    """Hasbro: "SORRY! cards must be used. If there's no one else to pick on, this means you might
    send your own or your partner's pawn back!"."""
    position = pos(
        red="start T10 home home",
        yellow="T20 home home home",
        blue="S1 start start start",
        green="home home home home",
    )
    moves = texts(position, "red", "sorry", HASBRO, teams=True)
    assert {"R:start-T20", "R:start-T10"} <= moves


@classic
def test_classic_seven_splits_between_two_pawns_of_the_pair(edition):
    """Special rule 3. A seven may be split between any two men, including those of a partner."""
    position = pos(
        red="T10 T40 start start",
        yellow="T21 start start start",
        blue="S1 start start start",
        green="S1 start start start",
    )
    moves = options(position, "red", "7", edition, teams=True).moves
    assert max(len(m.steps) for m in moves) == 2
    assert key(
        pos(
            red="T13 T40 start start",
            yellow="T25 start start start",
            blue="S1 start start start",
            green="S1 start start start",
        )
    ) in results(position, "red", "7", edition, teams=True)


def test_hasbro_seven_splits_among_any_of_the_eight():
    """Hasbro: "7 means you may split a move among any or all eight of your team's pawns"."""
    position = pos(
        red="T5 T35 T40 T55",
        yellow="T20 T25 T50 T58",
        blue="S1 start start start",
        green="S1 start start start",
    )
    moves = options(position, "red", "7", HASBRO, teams=True).moves
    assert max(len(m.steps) for m in moves) == 7
    spread = pos(
        red="T6 T36 T41 T56",
        yellow="T21 T26 T51 T58",
        blue="S1 start start start",
        green="S1 start start start",
    )
    assert key(spread) in {key(m.after) for m in moves}


@every
def test_a_player_all_home_plays_for_the_partner(edition):
    """Special rule 6. When one player has all his men home, he continues to draw and uses all his
    moves for his partner's men."""
    position = pos(
        red="home home home home",
        yellow="T20 start start start",
        blue="T0 start start start",
        green="T1 start start start",
    )
    assert texts(position, "red", "5", edition, teams=True) == {"T20-T25"}


@every
def test_no_forfeit_while_the_partner_can_move(edition):
    """A player may not forfeit a move if either he or his partner has a man that can be moved."""
    position = pos(
        red="start start start start",
        yellow="T20 start start start",
        blue="T0 start start start",
        green="T1 start start start",
    )
    result = options(position, "red", "5", edition, teams=True)
    assert not result.forfeit and texts(position, "red", "5", edition, teams=True) == {"T20-T25"}


def _won_by_red_and_yellow(edition: str, blue: str) -> Game:
    """A partnership game that red and yellow have just won (yellow's last pawn goes home)."""
    position = pos(
        red="home home home home",
        yellow="S5 home home home",
        blue=blue,
        green="T40 start start start",
    )
    game = Game(GameConfig(edition=edition, teams=True), position)
    game.draw("1")
    game.play("Y:S5-home")
    return game


@pytest.mark.parametrize("edition", ["parker-1950", "parker-1939"])
def test_a_double_game_counts_as_two_wins_in_the_match(edition):
    """Books 000, 002 and 003: "should it so happen that both of the players who are partners
    succeed in getting all of their eight men around the board and into their homes before either
    of the opposing players gets his four men home, the game immediately becomes a double game and
    is the equivalent of winning two single games."  The match's wins count it twice (issue #34:
    it counted once)."""
    config = GameConfig(edition=edition, teams=True)
    double = _won_by_red_and_yellow(edition, blue="home home home S1")
    assert double.result is not None and double.result.double_game
    assert Match(config, first=double).wins == {RED: 2, BLUE: 0, YELLOW: 2, GREEN: 0}
    # Blue has all four home: a single game, one win each.
    single = _won_by_red_and_yellow(edition, blue="home home home home")
    assert single.result is not None and not single.result.double_game
    assert Match(config, first=single).wins == {RED: 1, BLUE: 0, YELLOW: 1, GREEN: 0}
    # Across a match the two add up.
    assert Match(config, first=single, earlier=[double]).wins == {
        RED: 3,
        BLUE: 0,
        YELLOW: 3,
        GREEN: 0,
    }


def test_hasbro_has_no_double_game_in_the_match():
    """Hasbro (book 001): "The first partnership to get all eight pawns into their respective HOMEs
    wins the game."  It has no double game, so a team's win counts once."""
    game = _won_by_red_and_yellow("hasbro-2002", blue="home home home S1")
    config = GameConfig(edition="hasbro-2002", teams=True)
    assert Match(config, first=game).wins == {RED: 1, BLUE: 0, YELLOW: 1, GREEN: 0}

"""Per-game statistics agree with counts taken while the game was played and from its events."""

import pytest

from pawnlight.players import HeuristicPlayer, RandomPlayer, game_statistics, play_game
from pawnlight.rules import CARDS, Game, GameConfig

from .helpers import VARIANT_CASES
from .test_legal_play import config_for


def counted_game(config: GameConfig, seed: int) -> tuple[Game, list]:
    moves: list = []
    order = config.turn_order
    seats = {c: (HeuristicPlayer() if i % 2 else RandomPlayer(i)) for i, c in enumerate(order)}
    if config.variant == "patience":
        seats = dict.fromkeys(order, HeuristicPlayer())
    game = play_game(config, seats, seed, on_turn=lambda game, move: moves.append(move))
    return game, moves


def forfeits_from_events(game: Game) -> dict[str, int]:
    """A draw that no move followed: counted from the raw events, not the history."""
    forfeits = dict.fromkeys(CARDS, 0)
    events = game.events
    for index, event in enumerate(events):
        if event.kind == "draw":
            following = events[index + 1].kind if index + 1 < len(events) else None
            if following != "move":
                assert event.card is not None  # a draw names its card
                forfeits[event.card] += 1
    return forfeits


@pytest.mark.parametrize(("edition", "variant", "teams"), VARIANT_CASES)
def test_statistics_match_the_moves_played_and_the_events(edition, variant, teams):
    game, moves = counted_game(config_for(edition, variant, teams), seed=11)
    stats = game_statistics(game)
    played = [m for m in moves if m is not None]
    assert stats.turns == len(moves) == len(game.history)
    assert stats.bumps == sum(len(m.bumped) for m in played)
    assert stats.slides == sum(len(m.slides) for m in played)
    assert stats.swept == sum(len(s.bumped) for m in played for s in m.steps if s.slide)
    assert stats.forfeits == forfeits_from_events(game)
    assert stats.forfeit_total == moves.count(None)
    draws = {
        card: sum(1 for e in game.events if e.kind == "draw" and e.card == card) for card in CARDS
    }
    assert stats.draws == draws
    assert sum(c.turns for c in stats.colours.values()) == stats.turns
    assert sum(c.bumps_made for c in stats.colours.values()) == stats.bumps
    assert sum(c.bumped for c in stats.colours.values()) == stats.bumps
    assert game.result is not None
    assert stats.winners == game.result.winners
    if variant != "patience":
        assert stats.winner_seats and all(
            game.order[s] in stats.winners for s in stats.winner_seats
        )
    assert stats.summary().count("\n") == 2 + len(game.order)


def test_bumps_agree_with_pawns_arriving_in_start():
    """Independent of the notation: a bump is a pawn that reaches START (a Sorry! also takes one
    out, so only arrivals of the colours that did not move are counted on those turns)."""
    game, _ = counted_game(GameConfig(), seed=5)
    stats = game_statistics(game)
    arrivals = 0
    for turn in game.history:
        for colour in game.order:
            if colour == turn.colour:
                continue
            arrivals += max(0, turn.after.count(colour, 66) - turn.before.count(colour, 66))
    own_swept = sum(
        max(0, t.after.count(t.colour, 66) - t.before.count(t.colour, 66)) for t in game.history
    )
    assert arrivals <= stats.bumps <= arrivals + own_swept + stats.sorries

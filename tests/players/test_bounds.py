"""Every computer player setting has bounds, and a decision a time limit (issue #33: a budget
of 99999999999 was accepted and hung the game)."""

from __future__ import annotations

import pytest

from pawnlight.companion.config import ConfigError, computer_seats
from pawnlight.players import strong
from pawnlight.players.registry import BOUNDS, make_player, parse_spec
from pawnlight.players.rollout import Rollouts
from pawnlight.players.strong import StrongPlayer
from pawnlight.rules.game import GameConfig

from .helpers import moments


@pytest.mark.parametrize(
    "setting",
    [
        "budget=99999999999",
        "budget=20001",
        "budget=0",
        "width=17",
        "depth=41",
        "depth=99999999",
        "margin=11",
        "margin=nan",
        "margin=inf",
        "margin=-1",
        "budget=" + "9" * 5000,
    ],
)
def test_a_setting_out_of_bounds_is_refused_naming_it(setting):
    key = setting.partition("=")[0]
    with pytest.raises(ValueError, match=f"setting {key} "):
        parse_spec(f"strong:{setting}")


def test_the_bounds_themselves_are_accepted():
    for key, (least, most) in BOUNDS.items():
        for value in (least, most):
            text = f"{value:g}" if key == "margin" else str(int(value))
            assert parse_spec(f"strong:{key}={text}")[1] == {key: value}


def test_a_new_games_computer_seat_out_of_bounds_names_the_field():
    config = GameConfig(players=("red", "blue"))
    with pytest.raises(ConfigError, match="computer red: setting budget must be from 1 to 20000"):
        computer_seats({"red": "strong:budget=99999999999"}, config)


def test_a_decision_stops_at_its_time_limit(monkeypatch):
    # A clock that moves one second at every look: the limit of 3 s passes after a few looks,
    # whatever the machine's speed; the largest budget would take thousands of futures.
    ticks = iter(range(10**9))
    monkeypatch.setattr(strong.time, "monotonic", lambda: float(next(ticks)))
    futures = []
    original = Rollouts.play_out

    def counting(self, position, colour, cards, depth, hands=None):
        futures.append(depth)
        return original(self, position, colour, cards, depth, hands)

    monkeypatch.setattr(Rollouts, "play_out", counting)
    player = make_player("strong:budget=20000,width=16")
    assert isinstance(player, StrongPlayer) and player.time_limit == 3.0
    for view, card, options in moments(6):
        futures.clear()
        move = player.choose(view, card, options)
        assert move is None or move in options.moves
        # Two futures a candidate at least (the player's floor), and a few more at most.
        assert len(futures) <= 16 * 8


def test_without_a_time_limit_the_budget_alone_decides():
    player = make_player("strong:budget=300", time_limit=None)
    assert isinstance(player, StrongPlayer) and player.time_limit is None
    view, card, options = moments(1)[0]
    assert player.choose(view, card, options) == make_player("strong:budget=300").choose(
        view, card, options
    )

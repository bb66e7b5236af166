"""``pawnlight tournament --apologies``: the player lab's yardstick, found by its entry point."""

import importlib.metadata
import json

from pawnlight.cli import main


def test_the_tournament_plays_the_labs_yardstick(capsys):
    args = ["tournament", "--players", "heuristic,random", "--games", "2", "--seed", "3"]
    assert main([*args, "--apologies", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["apologies_reward_v1"]["games"] == 2
    assert 0 <= answer["apologies_reward_v1"]["wins"] <= 2


def test_without_the_lab_the_tournament_says_how_to_get_it(capsys, monkeypatch):
    """A Pi has the pawnlight command but not the lab: one clear line, no traceback."""

    def no_entry_points(**_: str) -> tuple[()]:
        return ()

    monkeypatch.setattr(importlib.metadata, "entry_points", no_entry_points)
    args = ["tournament", "--players", "heuristic,random", "--games", "2", "--apologies"]
    assert main(args) == 2
    error = capsys.readouterr().err
    assert error == (
        "error: --apologies needs the player lab: pip install -e 'lab[apologies]' "
        "(docs/players.md)\n"
    )

"""The owner's buttons in a remote game (docs/remote.md): a board offers doubling only for its
own colours (a double only at the colour's turn, before its card), and no seat buttons (a
remote game's seats are its boards')."""

from __future__ import annotations

from typing import Any

from pawnlight.web.view import owner_actions


def remote_state(phase: str, turn: str, waiting: list[str]) -> dict[str, Any]:
    return {
        "phase": phase,
        "edition": "parker-1950",
        "variant": "points",
        "players": ["red", "blue", "green"],
        "turn": turn,
        "waiting_for": waiting,
        "computer": {},
        "remote": {
            "me": "board-b",
            "boards": {
                "board-a": {"online": True, "seats": ["red"], "offline_for": 0.0},
                "board-b": {"online": True, "seats": ["blue", "green"], "offline_for": 0.0},
            },
        },
    }


def labels(state: dict[str, Any]) -> list[str]:
    return [action.label for action in owner_actions(state)]


def test_a_board_doubles_for_its_own_colour_at_its_turn_before_its_card():
    assert "Blue doubles" in labels(remote_state("draw", "blue", []))
    assert not any("doubles" in label for label in labels(remote_state("draw", "red", [])))
    assert not any("doubles" in label for label in labels(remote_state("move", "blue", [])))
    assert not any(
        label.startswith("Computer plays") for label in labels(remote_state("draw", "blue", []))
    )


def test_a_board_answers_a_double_only_for_its_own_colours():
    found = labels(remote_state("double", "red", ["blue", "green"]))
    assert {"Blue accepts", "Blue drops", "Green accepts", "Green drops"} <= set(found)
    found = labels({**remote_state("double", "blue", ["red", "green"])})
    assert "Red accepts" not in found and "Green accepts" in found


def test_at_one_table_every_colour_doubles_and_answers_as_before():
    state = {**remote_state("move", "blue", []), "remote": None}
    assert {"Red doubles", "Blue doubles", "Green doubles"} <= set(labels(state))
    assert "Computer plays Red" in labels(state)

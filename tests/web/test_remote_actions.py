"""The owner's buttons in a remote game (docs/remote.md): a board offers doubling only for its
own colours (a double only at the colour's turn, before its card), and no seat buttons (a
remote game's seats are its boards')."""

from __future__ import annotations

from typing import Any

from pawnlight.web.buttons import owner_actions


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


def test_the_owner_panel_offers_hosting_and_joining_only_on_a_remote_board(service, clock):
    from pawnlight.web.app import create_app

    from .helpers import PIN, SECRET, login
    from .test_pages import page

    alone = create_app(service, pin=PIN, secret_key=SECRET, clock=clock).test_client()
    login(alone)
    html = page(alone, "/")
    assert 'id="remote-seats"' not in html and 'id="remote-join"' not in html
    remote = create_app(
        service, pin=PIN, secret_key=SECRET, clock=clock, remote_board="kitchen"
    ).test_client()
    login(remote)
    html = page(remote, "/")
    assert 'id="remote-seats"' in html and 'id="remote-join-form"' in html
    assert 'data-board="kitchen"' in html
    assert html.count('name="seat"') == 4 and 'value="kitchen"' in html

"""``POST /api/seat``: the owner gives a seat to the computer, or back to a person, during a game
(issue #34); and the owner's buttons for it on the page."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from pawnlight.companion.config import Seat

from .helpers import OWNER, json_of, login
from .test_pages import page, visible_text


def error_of(response, status: int) -> str:
    assert response.status_code == status, (response.status_code, response.data[:300])
    return json_of(response)["error"]


def test_the_computer_takes_a_seat_and_gives_it_back(client, service):
    service.start(("red", "blue"))
    response = client.post(
        "/api/seat", json={"colour": "blue", "player": "heuristic"}, headers=OWNER
    )
    assert response.status_code == 200, response.json
    assert service.commands[-1] == ("seat", {"seat": Seat("blue", "normal")})
    state = client.get("/api/state").json
    assert state["computer"] == {"blue": "normal"}
    assert state["message"].startswith("The computer plays Blue from now on.")
    response = client.post("/api/seat", json={"color": "Blue", "player": None}, headers=OWNER)
    assert response.json["computer"] == {}
    assert client.get("/api/state").json["computer"] == {}


def test_a_seat_needs_the_pin(client, service):
    service.start(("red", "blue"))
    body = {"colour": "blue", "player": "heuristic"}
    assert client.post("/api/seat", json=body).status_code == 403
    assert (
        client.post("/api/seat", json=body, headers={"X-Pawnlight-Pin": "1111"}).status_code == 403
    )
    assert [name for name, _ in service.commands] == ["new_game"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"colour": "blue", "player": "genius"}, "unknown player"),
        ({"colour": "blue", "player": "strong:budget=0"}, "computer blue"),
        ({"colour": "blue", "player": ["heuristic"]}, "say which player for blue"),
        ({"colour": "pink", "player": None}, "unknown colour 'pink'"),
        ({"colour": "blue"}, "missing field 'player'"),
        ({"player": "heuristic"}, "missing field 'colour'"),
        ({"colour": "blue", "player": None, "seat": 2}, "unknown field 'seat'"),
    ],
)
def test_a_bad_seat_is_a_400_that_never_reaches_the_companion(client, service, body, words):
    service.start(("red", "blue"))
    assert words in error_of(client.post("/api/seat", json=body, headers=OWNER), 400)
    assert [name for name, _ in service.commands] == ["new_game"]


def test_a_seat_without_a_game_or_a_colour_not_playing_is_a_409(client, service):
    body = {"colour": "blue", "player": "heuristic"}
    assert "no game is in play" in error_of(client.post("/api/seat", json=body, headers=OWNER), 409)
    service.start(("red", "blue"))
    body = {"colour": "green", "player": "heuristic"}
    error = error_of(client.post("/api/seat", json=body, headers=OWNER), 409)
    assert error == "green is not playing in this game"


def seat_buttons(html: str) -> dict[str, dict]:
    """The page's seat buttons: label -> the body they send."""
    found = re.findall(r'<button[^>]*data-action="seat" data-body="([^"]*)"[^>]*>([^<]*)<', html)
    return {label: json.loads(unescape(body)) for body, label in found}


def test_the_owner_has_a_seat_button_beside_each_playing_colour(client, service):
    service.start(("red", "blue"))
    assert seat_buttons(page(client, "/partial/live")) == {}  # not logged in
    login(client)
    html = page(client, "/partial/live")
    assert seat_buttons(html) == {
        "Computer plays Red": {"colour": "red", "player": "normal"},
        "Computer plays Blue": {"colour": "blue", "player": "normal"},
    }
    assert "a person still draws and scans its card" in visible_text(html)
    client.post("/api/seat", json={"colour": "red", "player": "strong"}, headers=OWNER)
    assert seat_buttons(page(client, "/partial/live")) == {
        "A person plays Red again": {"colour": "red", "player": None},
        "Computer plays Blue": {"colour": "blue", "player": "normal"},
    }

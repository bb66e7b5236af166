"""A new game's computer settings out of bounds are a 400 naming the field (issue #33)."""

from __future__ import annotations

from .helpers import OWNER


def test_a_computer_budget_out_of_bounds_is_a_400_naming_it(client):
    body = {"players": ["red", "blue"], "computer": {"red": "strong:budget=99999999999"}}
    response = client.post("/api/game", json=body, headers=OWNER)
    assert response.status_code == 400
    assert "computer red: setting budget must be from 1 to 20000" in response.json["error"]
    body["computer"] = {"red": "strong:depth=41"}
    response = client.post("/api/game", json=body, headers=OWNER)
    assert response.status_code == 400 and "setting depth" in response.json["error"]
    body["computer"] = {"red": "strong:budget=20000,depth=40,width=16"}
    assert client.post("/api/game", json=body, headers=OWNER).status_code == 200

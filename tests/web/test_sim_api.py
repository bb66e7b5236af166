"""The simulator's API (docs/api.md, 'The simulator': no PIN) and its page; all 404 on real
hardware."""

from __future__ import annotations

import pytest

from pawnlight.web.app import create_app

from .fakes import FakeService
from .helpers import OWNER, PIN, SECRET, json_of

SIM_ROUTES = [
    ("POST", "/api/sim/scan"),
    ("POST", "/api/sim/lift"),
    ("POST", "/api/sim/place"),
    ("POST", "/api/sim/press"),
    ("POST", "/api/sim/hold"),
    ("GET", "/api/sim/leds"),
    ("GET", "/api/sim/board"),
    ("POST", "/api/sim/board"),
    ("GET", "/api/sim/board.svg"),
    ("GET", "/partial/sim"),
]


@pytest.mark.parametrize(("method", "route"), SIM_ROUTES)
def test_without_a_simulated_board_the_sim_routes_are_404(method, route):
    client = create_app(FakeService(sim=False), pin=PIN, secret_key=SECRET).test_client()
    response = client.open(route, method=method, json={"card": "7"})
    assert response.status_code == 404
    if route.startswith("/api/"):
        assert json_of(response)["error"].startswith("no such route")


def test_the_sim_page_and_its_link_only_with_a_simulated_board():
    real = create_app(FakeService(sim=False), pin=PIN).test_client()
    assert real.get("/sim").status_code == 404
    assert b'href="/sim"' not in real.get("/").data
    simulated = create_app(FakeService(), pin=PIN).test_client()
    assert b'href="/sim"' in simulated.get("/").data
    off = create_app(FakeService(), pin=PIN, sim=False).test_client()
    assert off.post("/api/sim/scan", json={"card": "7"}).status_code == 404
    with pytest.raises(ValueError, match="simulated board"):
        create_app(FakeService(sim=False), pin=PIN, sim=True)


def test_a_whole_turn_through_the_sim_api_needs_no_pin(client, service):
    assert (
        client.post("/api/game", json={"players": ["red", "blue"]}, headers=OWNER).status_code
        == 200
    )
    pawns = client.get("/api/state").json["pawns"]
    assert client.post("/api/sim/board", json={"pawns": pawns}).json["pawns"] == pawns
    assert client.get("/api/state").json["phase"] == "draw"
    assert client.post("/api/sim/scan", json={"card": "1"}).status_code == 200
    state = client.get("/api/state").json
    assert state["phase"] == "move" and state["card"] == "1"
    lifted = client.post("/api/sim/lift", json={"square": "start:red"})
    assert lifted.status_code == 200 and lifted.json == {"lifted": "red", "from": "start:red"}
    placed = client.post("/api/sim/place", json={"square": "T4", "color": "red"})
    assert placed.status_code == 200 and placed.json == {"placed": "red", "on": "T4"}
    state = client.get("/api/state").json
    assert state["history"] == ["R:start-T4"] and state["turn"] == "blue"
    board = client.get("/api/sim/board").json
    assert sorted(board["pawns"]["red"]) == ["T4", "start", "start", "start"]


def test_the_board_and_its_leds(client, service):
    service.start(("red", "blue"))
    service.scan("1")
    leds = client.get("/api/sim/leds").json
    assert len(leds) == 112 + 20
    assert {"T4", "S2:red", "start:red:1", "home:green:4", "slide:T2"} <= set(leds)
    assert leds["T4"] == "#ff0000"  # red's destination, lit in red
    svg = client.get("/api/sim/board.svg")
    # The simulator draws what the LEDs light from the state's lit, blinking ones included.
    assert svg.mimetype == "image/svg+xml" and b'data-lit="T4" data-role="destination"' in svg.data
    lit_on_leds = {key for key, colour in leds.items() if colour != "#000000"}
    assert lit_on_leds <= set(client.get("/api/state").json["lit"])
    assert b'role="button"' in svg.data


@pytest.mark.parametrize(
    ("route", "body", "words"),
    [
        ("/api/sim/scan", {"card": "13"}, "unknown card '13'"),
        ("/api/sim/scan", {}, "missing field 'card'"),
        ("/api/sim/scan", {"card": 7}, "card must be a non-empty string"),
        ("/api/sim/lift", {"square": "T4"}, "there is no pawn on T4"),
        ("/api/sim/lift", {"square": "T99"}, "unknown location 'T99'"),
        ("/api/sim/lift", {"square": "S2"}, "say whose safety square"),
        ("/api/sim/lift", {"square": ""}, "square must be a non-empty string"),
        ("/api/sim/place", {"square": "T4"}, "missing field 'color'"),
        ("/api/sim/place", {"square": "T4", "color": "pink"}, "unknown color 'pink'"),
        ("/api/sim/press", {"button": "reset"}, "unknown button 'reset'"),
        ("/api/sim/board", {"pawns": ["T4"]}, "pawns must be a JSON object"),
        ("/api/sim/board", {"pawns": {"red": ["T4", "T4", "start", "home"]}}, "two pawns on T4"),
        ("/api/sim/board", {"pawns": {"pink": ["T4"]}}, "unknown colour 'pink'"),
        ("/api/sim/board", {}, "missing field 'pawns'"),
        ("/api/sim/hold", {"buttons": ["hint"], "seconds": 3}, "buttons must have 2 to 2"),
        ("/api/sim/hold", {"buttons": ["hint", "reset"], "seconds": 3}, "unknown button 'reset'"),
        ("/api/sim/hold", {"buttons": ["hint", "hint"], "seconds": 3}, "name each button once"),
        ("/api/sim/hold", {"buttons": ["hint", "undo"], "seconds": 60}, "between 0.1 and 10"),
        ("/api/sim/hold", {"buttons": ["hint", "undo"]}, "missing field 'seconds'"),
    ],
)
def test_the_simulators_refusals_are_400s_with_its_words(client, route, body, words):
    response = client.post(route, json=body)
    assert response.status_code == 400 and words in response.json["error"], response.json


def test_place_takes_colour_too_and_a_taken_square_is_refused(client):
    assert client.post("/api/sim/place", json={"square": "T9", "colour": "blue"}).status_code == 200
    response = client.post("/api/sim/place", json={"square": "T9", "color": "red"})
    assert response.status_code == 400 and "lift the pawn there first" in response.json["error"]


def test_the_boards_buttons(client, service):
    assert client.post("/api/sim/press", json={"button": "confirm"}).status_code == 200
    assert service.pressed == ["confirm"]
    assert "nothing to confirm" in client.get("/api/state").json["warning"]


def test_the_sim_page_has_the_board_cards_hand_and_buttons(client, service):
    service.start(("red", "blue"))
    page = client.get("/sim").get_data(as_text=True)
    for card in ("1", "2", "3", "4", "5", "7", "8", "10", "11", "12", "sorry"):
        assert f'data-card="{card}"' in page
    for button in ("confirm", "undo", "new_game", "hint"):
        assert f'data-button="{button}"' in page
    assert 'data-place="start:red"' in page
    assert 'data-hand="red" data-count="0"' in page
    service.sim.lift("start:red")
    fragment = client.get("/partial/sim").get_data(as_text=True)
    assert 'data-hand="red" data-count="1"' in fragment
    for region in ('id="summary"', 'id="simboard"', 'id="hand"', 'id="details"'):
        assert region in fragment


def test_with_no_game_the_hand_holds_a_box_of_every_colour(client):
    page = client.get("/partial/sim").get_data(as_text=True)
    for colour in ("red", "blue", "yellow", "green"):
        assert f'data-hand="{colour}" data-count="4"' in page


def test_one_press_of_the_boards_new_game_button_only_asks(client, service):
    """docs/api.md, 'The simulator': a second press within 3 s ends the game; one press does not."""
    service.start(("red", "blue"))
    service.scan("1")
    assert client.post("/api/sim/press", json={"button": "new_game"}).status_code == 200
    state = client.get("/api/state").json
    assert state["phase"] == "move" and state["card"] == "1" and state["asking"]
    assert "press it again within 3 s" in state["warning"]
    assert set(state["lit"].values()) == {"ask"}  # the LEDs ask too
    client.post("/api/sim/press", json={"button": "new_game"})
    state = client.get("/api/state").json
    assert state["card"] is None and state["phase"] in ("setup", "draw")  # a new game
    assert not state["asking"] and state["warning"] is None


def test_the_sim_page_says_its_cards_properly(client):
    page = client.get("/sim").get_data(as_text=True)
    assert 'aria-label="Scan an 8"' in page and 'aria-label="Scan a Sorry!"' in page
    assert "Scan a 8" not in page


def test_the_unlock_held_on_the_simulator_needs_the_pin(client, service):
    """Issue #44: Hint and Undo held on a simulated board lifted every PIN lockout without a
    PIN, so anyone reaching the page could try all 10,000 PINs in hours."""
    held: list[list[str]] = []
    assert service.sim is not None
    service.sim._hold = lambda buttons, seconds: held.append(list(buttons))
    unlock = {"buttons": ["hint", "undo"], "seconds": 3.2}
    refused = client.post("/api/sim/hold", json=unlock)
    assert refused.status_code == 403 and "owner's PIN" in json_of(refused)["error"]
    wrong = client.post("/api/sim/hold", json=unlock, headers={"X-Pawnlight-Pin": "0000"})
    assert wrong.status_code in (403, 429) and held == []
    assert client.post("/api/sim/hold", json=unlock, headers=OWNER).status_code == 200
    assert held == [["hint", "undo"]]
    # The seat chord is the players' own: no PIN.
    seat = {"buttons": ["hint", "confirm"], "seconds": 3.2}
    assert client.post("/api/sim/hold", json=seat).status_code == 200
    assert held[-1] == ["hint", "confirm"]


@pytest.mark.parametrize(("edition", "count"), [("parker-1950", 4), ("hasbro-2002", 0)])
def test_the_simulator_draws_the_classic_editions_diamonds(client, service, edition, count):
    """Issue #47, 5: the simulator's board has the diamonds the status page draws."""
    service.start(("red", "blue"), edition=edition)
    for path in ("/sim", "/partial/sim", "/api/sim/board.svg"):
        page = client.get(path).get_data(as_text=True)
        assert page.count("data-diamond") == count, path

"""The JSON API: every route, every error, and never an HTML page or a 500 for bad input."""

from __future__ import annotations

import pytest

from pawnlight.companion.config import new_game
from pawnlight.companion.service import CommandRefused
from pawnlight.store.errors import JournalError
from pawnlight.web.app import create_app

from .fakes import FakeService
from .helpers import OWNER, PIN, SECRET

POST_ROUTES = [
    "/api/game",
    "/api/undo",
    "/api/resolve",
    "/api/forfeit",
    "/api/double",
    "/api/accept",
    "/api/drop",
    "/api/enrol",
    "/api/enrol/cancel",
    "/api/settings",
    "/api/next-game",
    "/api/hint",
    "/api/seat",
]


def error_of(response, status: int) -> str:
    assert response.status_code == status, (response.status_code, response.data[:300])
    assert response.mimetype == "application/json"
    assert set(response.json) == {"error"} and response.json["error"]
    return response.json["error"]


# -- reading --------------------------------------------------------------------------------------


def test_state_is_the_services_snapshot(client, service):
    response = client.get("/api/state")
    assert response.status_code == 200 and response.json == service.state()
    assert response.headers["Cache-Control"] == "no-cache"
    for field in ("edition", "players", "teams", "phase", "turn", "card", "pawns", "legal"):
        assert field in response.json
    for field in ("history", "scores", "message", "link", "version"):
        assert field in response.json


def test_a_poller_that_has_the_version_gets_304_and_a_new_version_gets_the_state(client, service):
    first = client.get("/api/state")
    etag = first.headers["ETag"]
    again = client.get("/api/state", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    service.command("new_game", {"players": ["red", "blue"]})
    changed = client.get("/api/state", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.json["phase"] == "setup"
    assert changed.headers["ETag"] != etag


def test_the_compact_state_leaves_the_history_out_and_says_its_length(client, service):
    service.start(("red", "blue"))
    for _ in range(3):
        service.scan("1")
        service.play(service.state()["legal"][0]["text"])
    service.scan("1")
    full = client.get("/api/state").json
    compact = client.get("/api/state?compact=1").json
    assert len(full["history"]) == 3 and len(compact["legal"]) > 0
    assert "turns" not in compact and "history" not in compact
    assert compact["history_length"] == len(full["history"])
    assert [m["text"] for m in compact["legal"]] == [m["text"] for m in full["legal"]]
    assert all(set(m) == {"text"} for m in compact["legal"])
    assert {k: v for k, v in compact.items() if k in full and k not in ("legal", "choices")} == {
        k: full[k] for k in compact if k in full and k not in ("legal", "choices")
    }
    assert client.get("/api/state?compact=yes").status_code == 400


def test_large_bodies_are_sent_gzipped_to_clients_that_take_gzip(client):
    plain = client.get("/api/state")
    zipped = client.get("/api/state", headers={"Accept-Encoding": "gzip"})
    if len(plain.data) >= 512:
        import gzip

        assert zipped.headers["Content-Encoding"] == "gzip"
        assert gzip.decompress(zipped.data) == plain.data
    assert "Accept-Encoding" in zipped.headers["Vary"]


def test_games_and_their_records(client, service):
    assert client.get("/api/games").json == {"games": []}
    service.start(("red", "blue"))
    service.scan("1")
    service.play("R:start-T4")
    games = client.get("/api/games").json["games"]
    assert [(g["id"], g["players"], g["turns"]) for g in games] == [(1, ["red", "blue"], 1)]
    record = client.get("/api/games/1/record")
    assert record.status_code == 200 and record.mimetype == "application/jsonl"
    assert "attachment" in record.headers["Content-Disposition"]
    lines = record.get_data(as_text=True).splitlines()
    assert '"pawnlight-record"' in lines[0] and '"R:start-T4"' in lines[-1]
    assert "no game 7" in error_of(client.get("/api/games/7/record"), 404)
    error_of(client.get("/api/games/x/record"), 404)


def test_journal_errors_on_export_are_404_or_a_json_500(service):
    class Journal(FakeService):
        def export(self, game_id):
            if game_id in self.records:
                raise JournalError(f"game {game_id}: its header is damaged", game_id)
            raise JournalError(f"no game {game_id} in the journal", game_id)

    journal = Journal()
    journal.start()
    client = create_app(journal, pin=PIN, secret_key=SECRET).test_client()
    assert error_of(client.get("/api/games/9/record"), 404) == "no game 9 in the journal"
    assert "header is damaged" in error_of(client.get("/api/games/1/record"), 500)


def test_the_board_picture_now_and_of_any_turn(client, service):
    service.start(("red", "blue"))
    service.scan("1")
    now = client.get("/api/board.svg")
    assert now.status_code == 200 and now.mimetype == "image/svg+xml"
    assert b'data-lit="T4" data-role="destination"' in now.data  # the legal move lit
    service.play("R:start-T4")
    before = client.get("/api/board.svg?turn=1&when=before").get_data(as_text=True)
    after = client.get("/api/board.svg?turn=1").get_data(as_text=True)
    assert 'data-pawn="red" data-at="T4"' in after and 'data-at="T4"' not in before
    assert 'data-dest="T4"' in before and "turn 1, before" in before
    assert "there is no turn 2" in error_of(client.get("/api/board.svg?turn=2"), 400)
    assert "turn must be" in error_of(client.get("/api/board.svg?turn=0"), 400)
    assert "turn must be" in error_of(client.get("/api/board.svg?turn=-1"), 400)
    assert "when must be" in error_of(client.get("/api/board.svg?turn=1&when=during"), 400)


def test_the_qr_code_shows_the_pages_address(client, service):
    response = client.get("/api/qr.svg", base_url="http://192.168.1.20:8080")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert b"<svg" in response.data and b"QR code of http://192.168.1.20:8080/" in response.data
    app = create_app(service, pin=PIN, public_url="http://pawnlight.local/")
    assert b"QR code of http://pawnlight.local/" in app.test_client().get("/api/qr.svg").data


def test_diagnostics_are_for_the_owner(client):
    assert "PIN" in error_of(client.get("/api/diagnostics"), 403)
    response = client.get("/api/diagnostics", headers=OWNER)
    assert response.status_code == 200 and response.json["link"]["connected"] is True


# -- owner commands -------------------------------------------------------------------------------


def test_a_new_game_goes_to_the_companion_with_its_fields(client, service):
    body = {
        "edition": "parker-1950",
        "players": ["red", "yellow"],
        "teams": False,
        "variant": "points",
    }
    response = client.post("/api/game", json=body, headers=OWNER)
    assert response.status_code == 200 and response.json["ok"] is True
    assert service.commands[-1] == ("new_game", {"game": new_game(body)})
    state = client.get("/api/state").json
    assert state["edition"] == "parker-1950" and state["variant"] == "points"
    assert state["players"] == ["red", "yellow"] and state["phase"] == "setup"


def test_a_new_game_can_draw_for_the_leader(client, service):
    body = {"players": ["red", "blue"], "draw_leader": True}
    assert client.post("/api/game", json=body, headers=OWNER).json["phase"] == "leader"
    assert client.get("/api/state").json["phase"] == "leader"


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"edition": "monopoly"}, "unknown edition 'monopoly'"),
        ({"variant": "speed"}, "unknown variant"),
        ({"players": ["red"]}, "players must have 2 to 4"),
        ({"players": ["red", "red"]}, "named twice"),
        (
            {"players": ["red", "pink"]},
            "unknown colour 'pink' (expected one of red, blue, yellow, green), in players",
        ),
        ({"players": "red,blue"}, "players must be a list"),
        ({"teams": "yes"}, "teams must be true or false"),
        ({"draw_leader": 1}, "draw_leader must be true or false"),
        ({"colour": "red"}, "unknown field 'colour'"),
    ],
)
def test_a_new_game_with_bad_fields_is_a_400(client, service, body, words):
    assert words in error_of(client.post("/api/game", json=body, headers=OWNER), 400)
    assert service.commands == []


def test_the_companion_refuses_what_the_rules_do_not_allow(client, service):
    # Teams need all four colours; the Hasbro book has no patience game: the companion's words.
    body = {"players": ["red", "blue"], "teams": True}
    assert "all four colours" in error_of(client.post("/api/game", json=body, headers=OWNER), 400)
    body = {"edition": "hasbro-2002", "variant": "patience", "players": ["red", "blue"]}
    assert "no patience game" in error_of(client.post("/api/game", json=body, headers=OWNER), 400)


@pytest.mark.parametrize(
    ("route", "body", "command"),
    [
        ("/api/undo", {}, ("undo", {})),
        ("/api/resolve", {"move": "T7-T14"}, ("resolve", {"move": "T7-T14"})),
        ("/api/resolve", {"none": True}, ("resolve", {"none": True})),
        ("/api/forfeit", None, ("forfeit", {})),
        ("/api/double", {"colour": "red"}, ("double", {"colour": "red"})),
        ("/api/accept", {"color": "Blue"}, ("accept", {"colour": "blue"})),
        ("/api/drop", {"colour": "green"}, ("drop", {"colour": "green"})),
        ("/api/enrol", {"extra_one": True}, ("enrol", {"extra_one": True})),
        ("/api/enrol/cancel", {}, ("enrol_cancel", {})),
        ("/api/settings", {"brightness": 0.5}, ("settings", {"brightness": 0.5})),
        (
            "/api/settings",
            {"settle": 1, "brightness": 0},
            ("settings", {"settle": 1.0, "brightness": 0.0}),
        ),
        ("/api/next-game", {}, ("next_game", {})),
    ],
)
def test_each_owner_route_sends_its_command(client, service, route, body, command):
    kwargs = {"json": body} if body is not None else {}
    response = client.post(route, headers=OWNER, **kwargs)
    assert response.status_code in (200, 409), response.json
    assert service.commands[-1] == command


def test_commands_not_allowed_now_are_409_with_the_companions_words(client):
    assert error_of(client.post("/api/undo", headers=OWNER), 409) == "nothing to undo"
    assert "no move to choose" in error_of(
        client.post("/api/resolve", json={"move": "T1-T2"}, headers=OWNER), 409
    )
    assert "when this one is over" in error_of(client.post("/api/next-game", headers=OWNER), 409)
    assert "no card to decline" in error_of(client.post("/api/forfeit", headers=OWNER), 409)


def test_settings_reach_the_companion(client, service):
    response = client.post("/api/settings", json={"brightness": 0.25, "settle": 0.5}, headers=OWNER)
    assert response.json == {
        "ok": True,
        "brightness": 0.25,
        "settle": 0.5,
        "speech": False,
        "language": "en",
        "patterns": False,
        "night": False,
        "night_level": 0.12,
    }
    settings = {**response.json}
    del settings["ok"]
    assert client.get("/api/state").json["settings"] == settings
    # Spoken announcements are off until the owner turns them on.
    response = client.post("/api/settings", json={"speech": True}, headers=OWNER)
    assert response.json["speech"] is True
    assert client.get("/api/state").json["settings"]["speech"] is True
    response = client.post("/api/settings", json={"speech": "yes"}, headers=OWNER)
    assert response.status_code == 400 and "true or false" in response.json["error"]
    # Issue #48: the colour-free LED patterns and the night level are settings like these.
    response = client.post(
        "/api/settings", json={"patterns": True, "night": True, "night_level": 0.05}, headers=OWNER
    )
    assert response.json["patterns"] is True and response.json["night"] is True
    assert client.get("/api/state").json["settings"]["night_level"] == 0.05
    for body, words in (
        ({"patterns": 1}, "patterns must be true or false"),
        ({"night": "on"}, "night must be true or false"),
        ({"night_level": 0.01}, "night_level must be between 0.05 and 0.5"),
        ({"night_level": "low"}, "night_level must be a number"),
    ):
        response = client.post("/api/settings", json=body, headers=OWNER)
        assert response.status_code == 400 and words in response.json["error"]


@pytest.mark.parametrize(
    ("route", "body", "words"),
    [
        ("/api/settings", {}, "give brightness"),
        ("/api/settings", {"brightness": 2}, "between 0 and 1"),
        ("/api/settings", {"settle": 0}, "between 0.1 and 2"),
        ("/api/settings", {"brightness": True}, "must be a number"),
        ("/api/settings", {"brightness": "0.5"}, "must be a number"),
        ("/api/resolve", {}, "say which move"),
        ("/api/resolve", {"move": "T1-T2", "none": True}, "say which move"),
        ("/api/resolve", {"none": False}, "none can only be true"),
        ("/api/resolve", {"move": 7}, "move must be a non-empty string"),
        ("/api/double", {}, "missing field 'colour'"),
        ("/api/double", {"colour": "pink"}, "unknown colour 'pink'"),
        ("/api/double", {"colour": "red", "color": "red"}, "not both"),
        ("/api/undo", {"now": True}, "unknown field 'now'"),
        ("/api/enrol", {"extra_one": "yes"}, "extra_one must be true or false"),
    ],
)
def test_bad_command_bodies_are_400(client, service, route, body, words):
    assert words in error_of(client.post(route, json=body, headers=OWNER), 400)
    assert service.commands == []


def test_a_refusal_keeps_the_companions_status(client, service):
    service.fail_next = CommandRefused("the board is busy", 503)
    assert error_of(client.post("/api/undo", headers=OWNER), 503) == "the board is busy"


def test_a_command_that_times_out_is_a_503(client, service):
    service.fail_next = TimeoutError()
    assert "did not answer in time" in error_of(client.post("/api/undo", headers=OWNER), 503)


# -- errors everywhere ----------------------------------------------------------------------------


def test_unknown_api_routes_are_json_404s(client):
    assert "no such route: GET /api/nothing" in error_of(client.get("/api/nothing"), 404)
    assert error_of(client.post("/api/sim/nothing"), 404)  # (this app has a sim, still unknown)


def test_wrong_methods_are_json_405s_with_allow(client):
    response = client.get("/api/game")
    assert "use POST" in error_of(response, 405)
    assert "POST" in response.headers["Allow"]
    assert error_of(client.delete("/api/state"), 405)


def test_bodies_too_large_are_413(client):
    response = client.post(
        "/api/game",
        data=b"{" + b" " * 70_000 + b"}",
        headers=OWNER,
        content_type="application/json",
    )
    assert "too large" in error_of(response, 413)


@pytest.mark.parametrize(
    "raw",
    [
        b"{",
        b"[]",
        b"null",
        b'"game"',
        b"7",
        b"\xff\xfe\x00",
        b'{"a": NaN',
        b"{}{}",
        b'{"players": 1e999}',
    ],
)
@pytest.mark.parametrize("route", POST_ROUTES)
def test_garbage_bodies_are_400s_never_500s(client, service, route, raw):
    response = client.post(route, data=raw, headers=OWNER, content_type="application/json")
    assert 400 <= response.status_code < 500
    assert response.mimetype == "application/json" and response.json["error"]


SIM_POSTS = ["/api/sim/scan", "/api/sim/lift", "/api/sim/place", "/api/sim/press", "/api/sim/board"]


@pytest.mark.parametrize(
    "raw", [b"{", b"[]", b"null", b"\xff", b'{"card": ["7"]}', b'{"square": {}}']
)
@pytest.mark.parametrize("route", [*SIM_POSTS, "/api/login"])
def test_garbage_for_the_simulator_and_the_login_is_400_too(client, route, raw):
    response = client.post(route, data=raw, content_type="application/json")
    assert response.status_code == 400 and response.json["error"]


def test_json_without_a_content_type_is_read_all_the_same(client, service):
    response = client.post("/api/settings", data=b'{"brightness": 0.3}', headers=OWNER)
    assert response.status_code == 200 and service.commands[-1] == ("settings", {"brightness": 0.3})


def test_an_unexpected_failure_is_a_json_500_not_a_page(service, caplog):
    class Broken(FakeService):
        def games(self):
            raise RuntimeError("disk on fire")

    app = create_app(Broken(), pin=PIN, secret_key=SECRET)
    response = app.test_client().get("/api/games")
    assert "internal error" in error_of(response, 500)
    assert "disk on fire" not in response.get_data(as_text=True)
    assert "disk on fire" in caplog.text


def test_pages_get_html_errors_and_security_headers(client):
    missing = client.get("/nowhere")
    assert missing.status_code == 404 and missing.mimetype == "text/html"
    assert b"Back to the game" in missing.data
    page = client.get("/")
    assert "default-src 'self'" in page.headers["Content-Security-Policy"]
    assert page.headers["X-Content-Type-Options"] == "nosniff"
    assert page.headers["X-Frame-Options"] == "DENY"


def test_a_short_pin_is_refused_at_start(service):
    with pytest.raises(ValueError, match="at least 4"):
        create_app(service, pin="12")


def test_computer_seats_and_a_hint(client, service):
    response = client.post(
        "/api/game",
        json={"players": ["red", "blue"], "computer": {"blue": "heuristic"}},
        headers=OWNER,
    )
    assert response.status_code == 200, response.json
    assert client.get("/api/state").json["computer"] == {"blue": "normal"}
    error = error_of(
        client.post("/api/game", json={"players": ["red"], "computer": "blue"}, headers=OWNER),
        400,
    )
    assert "computer" in error or "players" in error
    error = error_of(client.post("/api/hint", json={}, headers=OWNER), 409)
    assert "hint" in error


def test_a_new_game_may_name_house_rules(client, service):
    body = {"players": ["red", "blue"], "house_rules": ["strict-own-landing"]}
    assert client.post("/api/game", json=body, headers=OWNER).status_code == 200
    assert service.commands[-1] == ("new_game", {"game": new_game(body)})
    bad = {"players": ["red", "blue"], "house_rules": ["sticky"]}
    assert "unknown house rule 'sticky'" in error_of(
        client.post("/api/game", json=bad, headers=OWNER), 400
    )
    assert "house_rules must be a list" in error_of(
        client.post("/api/game", json={"house_rules": "diamond-lock"}, headers=OWNER), 400
    )

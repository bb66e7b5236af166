"""The owner's PIN: the header, the login cookie with its CSRF token, rate limiting, no PIN."""

from __future__ import annotations

import pytest

from pawnlight.web.app import create_app
from pawnlight.web.ratelimit import PinLimiter

from ..helpers import ManualClock
from .helpers import OWNER, PIN, SECRET, THIS_PAGE, json_of, login

GAME = {"players": ["red", "blue"]}


def status_of(client, headers=None, route="/api/settings", body=None, **kwargs) -> int:
    return client.post(
        route, json=body or {"brightness": 0.5}, headers=headers or {}, **kwargs
    ).status_code


# -- the PIN header -------------------------------------------------------------------------------


def test_changing_requests_need_the_pin(client, service):
    response = client.post("/api/game", json=GAME)
    assert response.status_code == 403 and "X-Pawnlight-Pin" in response.json["error"]
    assert client.post("/api/game", json=GAME, headers={"X-Pawnlight-Pin": "1111"}).json == {
        "error": "wrong PIN"
    }
    assert service.commands == []
    assert client.post("/api/game", json=GAME, headers=OWNER).status_code == 200


def test_reading_needs_no_pin(client):
    for route in ("/", "/api/state", "/api/games", "/api/board.svg", "/api/qr.svg", "/api/session"):
        assert client.get(route).status_code == 200, route


def test_without_a_pin_nothing_can_change_and_the_message_says_how(service):
    app = create_app(service, pin=None, secret_key=SECRET)
    client = app.test_client()
    for response in (
        client.post("/api/game", json=GAME),
        client.post("/api/game", json=GAME, headers=OWNER),
        client.post("/api/login", json={"pin": PIN}),
        client.get("/api/diagnostics"),
    ):
        assert response.status_code == 403 and "PAWNLIGHT_PIN" in json_of(response)["error"]
    assert service.commands == []
    assert client.get("/api/session").json == {"owner": False, "pin_set": False, "csrf": None}
    assert b"PAWNLIGHT_PIN" in client.get("/").data
    assert create_app(service, pin="").test_client().post("/api/undo").status_code == 403


# -- the login cookie -----------------------------------------------------------------------------


def test_a_login_gives_a_cookie_that_needs_its_csrf_token(client, service):
    token = login(client)
    cookie = client.get_cookie("pawnlight_session")
    assert cookie is not None and cookie.http_only and cookie.same_site == "Strict"
    assert client.get("/api/session").json == {"owner": True, "pin_set": True, "csrf": token}
    assert status_of(client) == 403  # the cookie alone is not enough
    assert status_of(client, {"X-CSRF-Token": "forged"}) == 403
    assert status_of(client, {"X-CSRF-Token": token, **THIS_PAGE}) == 200
    assert service.commands == [("settings", {"brightness": 0.5})]
    assert client.get("/api/diagnostics").status_code == 200  # reading: no token needed


def test_cookie_requests_from_another_site_are_refused(client):
    token = login(client)
    here = "http://localhost"
    for headers, expected in (
        ({"Origin": here}, 200),
        ({"Origin": "http://evil.example"}, 403),
        ({"Origin": "null"}, 403),
        ({"Referer": here + "/sim"}, 200),
        ({"Referer": "http://evil.example/page"}, 403),
    ):
        assert status_of(client, {"X-CSRF-Token": token, **headers}) == expected, headers


def test_a_cookie_request_naming_no_page_is_refused_but_a_script_with_the_pin_is_not(
    client, service
):
    """Every browser sends Origin with a POST, so a cookie and its token without Origin or
    Referer come from no browser: refused.  Scripts use the PIN header, which needs neither."""
    token = login(client)
    response = client.post(
        "/api/settings", json={"brightness": 0.5}, headers={"X-CSRF-Token": token}
    )
    assert response.status_code == 403
    assert "Origin" in response.json["error"] and "X-Pawnlight-Pin" in response.json["error"]
    assert service.commands == []
    assert status_of(client, OWNER) == 200  # curl with the PIN: no Origin, no Referer
    assert service.commands == [("settings", {"brightness": 0.5})]
    fresh = client.application.test_client()
    assert fresh.post("/api/login", json={"pin": PIN}).status_code == 200  # curl logs in too


def test_login_and_logout(client):
    response = client.post("/api/login", json={"pin": "0000"})
    assert response.status_code == 403 and response.json == {"error": "wrong PIN"}
    assert client.post("/api/login", json={}).status_code == 400
    assert (
        client.post(
            "/api/login", json={"pin": PIN}, headers={"Origin": "http://evil.example"}
        ).status_code
        == 403
    )
    token = login(client)
    assert client.post("/api/logout").json == {"ok": True, "owner": False}
    assert status_of(client, {"X-CSRF-Token": token}) == 403
    assert client.get("/api/session").json["owner"] is False


def test_changing_the_pin_logs_every_phone_out(service, client):
    token = login(client)
    cookie = client.get_cookie("pawnlight_session")
    other = create_app(service, pin="97531", secret_key=SECRET).test_client()
    other.set_cookie("pawnlight_session", cookie.value)
    assert status_of(other, {"X-CSRF-Token": token}) == 403
    assert json_of(other.get("/api/session"))["owner"] is False


def test_the_page_knows_its_owner(client):
    assert b'name="csrf-token"' not in client.get("/").data
    token = login(client)
    page = client.get("/").get_data(as_text=True)
    assert f'<meta name="csrf-token" content="{token}">' in page
    assert 'id="owner-tools" >' in page or 'id="owner-tools">' in page  # shown, not hidden


# -- rate limiting --------------------------------------------------------------------------------


def test_five_wrong_pins_lock_the_address_out_for_a_minute(client, clock):
    wrong = {"X-Pawnlight-Pin": "0000"}
    assert [status_of(client, wrong) for _ in range(4)] == [403] * 4
    fifth = client.post("/api/settings", json={"brightness": 0.5}, headers=wrong)
    assert fifth.status_code == 429 and fifth.headers["Retry-After"] == "60"
    locked = client.post("/api/settings", json={"brightness": 0.5}, headers=OWNER)
    assert locked.status_code == 429, "even the right PIN waits out the lockout"
    assert "try again in 60 s" in locked.json["error"]
    clock.advance(30)
    assert client.post("/api/login", json={"pin": PIN}).headers["Retry-After"] == "30"
    clock.advance(31)
    assert status_of(client, OWNER) == 200


def test_lockouts_grow_and_only_hit_the_guessing_address(client, clock):
    wrong = {"X-Pawnlight-Pin": "0000"}
    elsewhere = {"REMOTE_ADDR": "192.168.1.77"}
    for _ in range(5):
        status_of(client, wrong)
    clock.advance(61)
    for _ in range(4):
        assert status_of(client, wrong) == 403
    second = client.post("/api/login", json={"pin": "0000"})
    assert second.status_code == 429 and second.headers["Retry-After"] == "120"
    assert status_of(client, OWNER, environ_base=elsewhere) == 200


def test_a_right_pin_forgives_earlier_mistakes(client):
    wrong = {"X-Pawnlight-Pin": "0000"}
    for _ in range(4):
        status_of(client, wrong)
    assert status_of(client, OWNER) == 200
    assert [status_of(client, wrong) for _ in range(4)] == [403] * 4


def test_the_limiter_forgets_quiet_addresses_and_bounds_its_memory():
    clock = ManualClock()
    limiter = PinLimiter(clock=clock, capacity=3, forget_after=100)
    for _ in range(4):
        limiter.failed("a")
    clock.advance(101)
    assert limiter.failed("a") == 0  # the old failures are forgotten
    for address in "bcde":
        limiter.failed(address)
    assert len(limiter._records) == 3
    for _ in range(5):
        limiter.failed("z")
    assert limiter.retry_after("z") == 60 and limiter.retry_after("b") == 0


@pytest.mark.parametrize("lockouts", [1, 2, 3, 8, 20])
def test_lockouts_double_up_to_an_hour(lockouts):
    clock = ManualClock()
    limiter = PinLimiter(clock=clock)
    seconds = 0
    for _ in range(lockouts):
        for _ in range(5):
            seconds = limiter.failed("a") or seconds
        clock.advance(seconds + 1)
    assert seconds == min(3600, 60 * 2 ** (lockouts - 1))


# -- across all addresses -------------------------------------------------------------------------


def test_wrong_pins_from_many_addresses_meet_one_global_limit(client, clock, service):
    from pawnlight.web.ratelimit import GLOBAL_FAILURES

    wrong = {"X-Pawnlight-Pin": "0000"}
    answers = [
        status_of(client, wrong, environ_base={"REMOTE_ADDR": f"10.0.{n // 250}.{n % 250}"})
        for n in range(GLOBAL_FAILURES + 30)
    ]
    # Each address tried once; together they get GLOBAL_FAILURES tries, then everyone waits.
    assert answers[: GLOBAL_FAILURES - 1] == [403] * (GLOBAL_FAILURES - 1)
    assert set(answers[GLOBAL_FAILURES - 1 :]) == {429}
    fresh = client.post(
        "/api/settings", json={}, headers=OWNER, environ_base={"REMOTE_ADDR": "10.9.9.9"}
    )
    assert fresh.status_code == 429 and "locked for everyone" in fresh.json["error"]
    # The board was told through the companion: a warning on the page, a buzz, the status LED.
    assert "Too many wrong PINs" in service.state()["warning"]
    assert ("pin_lockout", {"minutes": 15}) in service.commands
    clock.advance(15 * 60 + 1)
    assert status_of(client, OWNER, environ_base={"REMOTE_ADDR": "10.9.9.9"}) == 200


def test_the_global_limit_is_a_rate_over_a_window():
    clock = ManualClock()
    limiter = PinLimiter(clock=clock, global_failures=3, global_window=60, global_lockout=100)
    assert limiter.failed("a") == 0 and limiter.failed("b") == 0
    clock.advance(61)  # the first two are out of the window now
    assert limiter.failed("c") == 0 and limiter.failed("d") == 0
    assert limiter.failed("e") == 100 and limiter.retry_after("z") == 100
    clock.advance(101)
    assert limiter.retry_after("z") == 0
    for name in "fgh":
        limiter.failed(name)
    assert limiter.globally_locked() == 200  # twice as long the second time


# -- logins the server can take back --------------------------------------------------------------


def test_a_cookie_kept_after_logout_opens_nothing(client, app):
    token = login(client)
    cookie = client.get_cookie("pawnlight_session").value
    client.post("/api/logout")
    thief = app.test_client()
    thief.set_cookie("pawnlight_session", cookie)
    assert status_of(thief, {"X-CSRF-Token": token}) == 403
    assert thief.get("/api/session").json["owner"] is False


def test_logins_survive_a_restart_but_not_a_pin_change(service, tmp_path):
    path = tmp_path / "sessions.json"
    first = create_app(service, pin=PIN, secret_key=SECRET, sessions_path=path).test_client()
    token = login(first)
    session = first.get_cookie("pawnlight_session")
    assert session is not None
    cookie = session.value
    again = create_app(service, pin=PIN, secret_key=SECRET, sessions_path=path).test_client()
    again.set_cookie("pawnlight_session", cookie)
    assert status_of(again, {"X-CSRF-Token": token, **THIS_PAGE}) == 200
    assert "sid" not in path.read_text() and cookie not in path.read_text()
    changed = create_app(service, pin="97531", secret_key=SECRET, sessions_path=path)
    other = changed.test_client()
    other.set_cookie("pawnlight_session", cookie)
    assert json_of(other.get("/api/session"))["owner"] is False


# -- the names the page answers to ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("host", "allowed"),
    [
        ("localhost", True),
        ("localhost:8080", True),
        ("127.0.0.1:8080", True),
        ("[::1]:8080", True),
        ("board.example.lan", True),  # configured
        ("evil.example", False),
        ("evil.example:8080", False),
        ("localhost.evil.example", False),
        ("192.168.1.50", False),  # an address that is not this connection's
        ("", False),
        ("a b", False),
        ("user@localhost", False),
    ],
)
def test_only_the_pis_own_names_are_answered(service, host, allowed):
    app = create_app(service, pin=PIN, secret_key=SECRET, allowed_hosts=["board.example.lan"])
    response = app.test_client().get("/api/state", headers={"Host": host})
    assert (response.status_code == 200) is allowed, response.status_code
    if not allowed:
        assert response.status_code in (400, 421)


def test_the_address_a_connection_came_in_on_is_allowed(service):
    from pawnlight.web.hosts import HostPolicy

    policy = HostPolicy()
    assert policy.allows("192.168.1.50:8080", "192.168.1.50")
    assert not policy.allows("192.168.1.51:8080", "192.168.1.50")
    assert policy.allows("[fe80::1]", "fe80::1%eth0")

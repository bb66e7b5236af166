"""The owner can always get in (issue #33): wrong PINs from the network lock every login, and
Hint and Undo held on the board for 3 s lift the lock.  The web follows the companion's
``owner_unlock`` count; the limiter's clock and the companion's are both moved by hand."""

from __future__ import annotations

import pytest

from pawnlight.companion.board_buttons import UNLOCKED
from pawnlight.companion.commands import UNLOCK_HOLD
from pawnlight.companion.signals import Held, Tick
from pawnlight.web.ratelimit import GLOBAL_FAILURES, LIFT_TRIES, LIFT_WINDOW, PinLimiter

from ..helpers import ManualClock
from .fakes import FakeService
from .helpers import OWNER, PIN, THIS_PAGE, json_of

WRONG = {"X-Pawnlight-Pin": "0000"}
PHONE = {"REMOTE_ADDR": "192.168.1.50"}
SETTING = {"brightness": 0.5}


def address(n: int) -> dict[str, str]:
    return {"REMOTE_ADDR": f"10.0.{n // 250}.{n % 250}"}


def lock_everyone_out(client) -> None:
    """GLOBAL_FAILURES wrong PINs in the header from as many addresses (a phone taking new
    addresses, or a script), as the issue found."""
    for n in range(GLOBAL_FAILURES):
        client.post("/api/settings", json={}, headers=WRONG, environ_base=address(n))
    assert log_in(client).status_code == 429


def log_in(client, pin: str = PIN, environ: dict[str, str] = PHONE):
    return client.post("/api/login", json={"pin": pin}, headers=THIS_PAGE, environ_base=environ)


def hold_the_unlock(service: FakeService, seconds: float = UNLOCK_HOLD + 0.01) -> None:
    """Hint and Undo held on the board for ``seconds``, then let go (the companion's time)."""
    service.handle(Held(frozenset({"hint"}), service.now))
    start = service.now
    service.handle(Held(frozenset({"hint", "undo"}), start))
    service.handle(Tick(start + seconds))
    service.handle(Held(frozenset(), start + seconds))
    service.now = max(service.now, start + seconds)


def test_the_boards_buttons_lift_the_lock_and_the_owner_logs_in(client, service):
    lock_everyone_out(client)
    assert "Hint and Undo together" in json_of(log_in(client))["error"]  # the 429 says how
    hold_the_unlock(service)
    assert service.state()["owner_unlock"] == {"count": 1, "notice": UNLOCKED}
    assert service.state()["warning"] is None  # the lockout warning went with it
    response = log_in(client)
    assert response.status_code == 200 and json_of(response)["owner"] is True
    page = client.get("/").get_data(as_text=True)
    assert 'id="owner-unlock"' in page and "log in with your PIN now" in page


def test_a_hold_too_short_lifts_nothing(client, service):
    lock_everyone_out(client)
    hold_the_unlock(service, UNLOCK_HOLD - 0.5)
    assert service.state()["owner_unlock"]["count"] == 0
    assert log_in(client).status_code == 429


def test_the_lift_forgets_each_addresss_lockout_too(client, service):
    for _ in range(5):  # this phone mistyped: 60 s for it alone
        log_in(client, "9999")
    assert log_in(client).status_code == 429
    hold_the_unlock(service)
    assert log_in(client).status_code == 200


def test_after_a_lift_header_pins_wait_and_count_nothing(client, service, clock):
    lock_everyone_out(client)
    hold_the_unlock(service)
    # A script re-locking with header PINs right after the lift (the second half):
    for n in range(GLOBAL_FAILURES + 5):
        response = client.post("/api/settings", json={}, headers=WRONG, environ_base=address(n))
        assert response.status_code == 429
        assert "only the page's login" in json_of(response)["error"]
        assert 0 < int(response.headers["Retry-After"]) <= LIFT_WINDOW
    assert log_in(client).status_code == 200  # none of them was counted
    # The owner logged in: the window has served, and the header works again.
    assert client.post("/api/settings", json=SETTING, headers=OWNER).status_code == 200


def test_the_header_waits_out_the_window_when_nobody_logs_in(client, service, clock):
    lock_everyone_out(client)
    hold_the_unlock(service)
    assert client.post("/api/settings", json=SETTING, headers=OWNER).status_code == 429
    clock.advance(LIFT_WINDOW)
    assert client.post("/api/settings", json=SETTING, headers=OWNER).status_code == 200


def test_wrong_logins_after_a_lift_lock_again_and_another_lift_opens_again(client, service):
    lock_everyone_out(client)
    hold_the_unlock(service)
    answers = [log_in(client, "9999", address(n)).status_code for n in range(LIFT_TRIES)]
    assert answers == [403] * (LIFT_TRIES - 1) + [429]
    assert log_in(client).status_code == 429
    assert "Too many wrong PINs" in service.state()["warning"]  # and the board says so again
    hold_the_unlock(service)
    assert log_in(client).status_code == 200


def test_a_limiter_lift_forgets_everything_and_opens_its_window():
    clock = ManualClock()
    limiter = PinLimiter(clock=clock, global_failures=3, global_lockout=100)
    for name in "abc":
        limiter.failed(name)
    assert limiter.globally_locked() == 100 and limiter.lifted() == 0
    limiter.lift()
    assert limiter.globally_locked() == 0 and limiter.retry_after("a") == 0
    assert limiter.lifted() == LIFT_WINDOW
    clock.advance(LIFT_WINDOW)
    assert limiter.lifted() == 0
    # Out of the window, the usual global budget applies again (and doubles).
    assert limiter.failed("d") == 0 and limiter.failed("e") == 0
    assert limiter.failed("f") == 200


@pytest.mark.parametrize("count", [None, "3", True, {"count": "x"}])
def test_a_state_without_a_good_count_lifts_nothing(count):
    from pawnlight.web.unlock import unlocks

    assert unlocks({"owner_unlock": count}) == 0
    assert unlocks({}) == 0

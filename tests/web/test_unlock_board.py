"""The owner can always get in (issue #33), end to end: the board's buttons on gpiozero's
MockFactory, the owner thread with its journal, the companion, and the web app.  Wrong PINs from
the network lock every login; the board's buttons still play meanwhile (they go through the
companion, never the web); Hint and Undo held for 3 s lift the lock, the buzzer plays the unlock
tune, and the owner's PIN logs in while the page says so.

Time is moved by hand (the owner's clock, the buttons' clock, the web's lockout clock); the test
waits only for published states, never for a fixed time."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from flask.testing import FlaskClient
from gpiozero.pins.mock import MockFactory

from pawnlight.board.layout import Layout
from pawnlight.board.snapshot import reading_for, true_occupancy
from pawnlight.companion.board_buttons import UNLOCKED
from pawnlight.companion.commands import UNLOCK_HOLD
from pawnlight.companion.deck import CardDeck, simulated_uids
from pawnlight.companion.machine import Companion, Settings
from pawnlight.devices.controls import ControlPins, Controls
from pawnlight.devices.events import CardRead, SensorSnapshot
from pawnlight.rules import Position
from pawnlight.runtime.owner import Owner
from pawnlight.web.app import create_app
from pawnlight.web.ratelimit import GLOBAL_FAILURES

from ..helpers import PIN, ManualClock
from .helpers import SECRET, THIS_PAGE, json_of

UIDS = simulated_uids()
LAYOUT = Layout.named("colour")


@dataclass
class Board:
    owner: Owner
    controls: Controls
    factory: MockFactory
    clock: ManualClock
    client: FlaskClient
    buzzes: list[str]

    def wait_for(self, predicate, what: str, timeout: float = 15.0) -> dict[str, Any]:
        """The first published state that satisfies ``predicate`` (no fixed pause)."""
        subscription = self.owner.subscribe()
        deadline = time.monotonic() + timeout
        try:
            state: dict[str, Any] = self.owner.state()
            while not predicate(state):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"timed out waiting for {what}: {state['message']}")
                state = subscription.get(timeout=left) or state
            return state
        finally:
            subscription.close()

    def show(self, pawns: dict[str, Any]) -> None:
        """The physical board shows ``pawns``; then more than the settle time passes."""
        position = Position.from_json(pawns)
        self.owner.post(SensorSnapshot(reading_for(LAYOUT, true_occupancy(position)), self.clock()))
        self.clock.advance(0.5)

    def scan(self, card: str) -> None:
        uid = next(uid for uid, name in UIDS.items() if name == card)
        self.owner.post(CardRead(uid, self.clock()))

    def press(self, button: str) -> None:
        pin = self.factory.pin(getattr(ControlPins(), button))
        pin.drive_low()
        pin.drive_high()

    def log_in(self, pin: str = PIN):
        return self.client.post(
            "/api/login",
            json={"pin": pin},
            headers=THIS_PAGE,
            environ_base={"REMOTE_ADDR": "192.168.1.50"},
        )


@pytest.fixture
def board(tmp_path) -> Iterator[Board]:
    clock = ManualClock()
    buzzes: list[str] = []
    companion = Companion(LAYOUT, CardDeck(dict(UIDS)), Settings(settle=0.3))
    owner = Owner(companion, tmp_path / "journal.sqlite3", buzz=buzzes.append, clock=clock)
    factory = MockFactory()
    # Wired as `pawnlight run` wires them (runtime/daemon.py): presses and holds to the owner.
    controls = Controls(owner.post, pin_factory=factory, clock=clock, held=owner.post)
    owner.start(resume=False)
    app = create_app(owner, pin=PIN, secret_key=SECRET, clock=ManualClock())
    try:
        yield Board(owner, controls, factory, clock, app.test_client(), buzzes)
    finally:
        owner.stop()
        controls.close()


def test_locked_out_the_buttons_still_play_and_hint_with_undo_lets_the_owner_in(board):
    # A game with one move played on the board.
    board.owner.command("new_game", {"players": ["red", "blue"]})
    board.show(board.owner.state()["pawns"])
    board.wait_for(lambda s: s["phase"] == "draw", "the board set up")
    board.scan("1")
    state = board.wait_for(lambda s: s["phase"] == "move", "the 1 in play")
    board.show(state["legal"][0]["pawns"])
    board.wait_for(lambda s: len(s["turns"]) == 1, "red's move recorded")

    # Wrong PINs from all over the network lock everyone out, the owner too.
    for n in range(GLOBAL_FAILURES):
        board.client.post(
            "/api/settings",
            json={"brightness": 0.5},
            headers={"X-Pawnlight-Pin": "0000"},
            environ_base={"REMOTE_ADDR": f"10.0.0.{n + 1}"},
        )
    assert board.log_in().status_code == 429
    assert "Too many wrong PINs" in board.owner.state()["warning"]

    # Meanwhile the board's own buttons play on: Undo takes the move back, New game asks,
    # Confirm answers.
    board.press("undo")
    board.wait_for(lambda s: s["turns"] == [] and s["phase"] == "setup", "the undo")
    board.show(board.owner.state()["pawns"])  # the pawn put back as lit
    board.wait_for(lambda s: s["phase"] == "move", "the 1 back in play")
    board.press("new_game")
    board.wait_for(lambda s: s["asking"], "New game asking for a second press")
    board.clock.advance(5)  # the question lapses: one press never ends a game
    board.wait_for(lambda s: not s["asking"], "the question lapsing")
    board.press("confirm")  # nothing to confirm with a 1 to play: the companion says so
    board.wait_for(lambda s: s["warning"] == "nothing to confirm now", "Confirm's answer")

    # The owner at the board: Hint, then Undo too, both held for 3 s.
    hint = board.factory.pin(ControlPins().hint)
    undo = board.factory.pin(ControlPins().undo)
    hint.drive_low()
    undo.drive_low()
    board.clock.advance(UNLOCK_HOLD + 0.1)
    state = board.wait_for(lambda s: s["owner_unlock"]["count"] == 1, "the unlock")
    undo.drive_high()
    hint.drive_high()
    assert state["owner_unlock"]["notice"] == UNLOCKED
    assert "unlock" in board.buzzes
    assert state["phase"] == "move"  # the chord's Undo took nothing back

    response = board.log_in()
    assert response.status_code == 200 and json_of(response)["owner"] is True
    page = board.client.get("/").get_data(as_text=True)
    assert 'id="owner-unlock"' in page and "log in with your PIN now" in page

"""The owner thread on the full simulated path: firmware in MicroPython over a pty, real
pyserial, the simulated board's pawns, the journal in a real SQLite file."""

import time
from typing import Any

import pytest

from pawnlight.runtime.config import Config
from pawnlight.runtime.daemon import Daemon
from pawnlight.store.journal import Journal


def wait_for(owner, predicate, timeout=15.0):
    """Wait for a published state that satisfies predicate (no fixed sleeps)."""
    subscription = owner.subscribe()
    deadline = time.monotonic() + timeout
    try:
        state = owner.state()
        while not predicate(state):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"timed out; last state: {state['phase']}: {state['message']}")
            state = subscription.get(timeout=remaining) or state
        return state
    finally:
        subscription.close()


def red_draws_a_1(daemon) -> dict[str, Any]:
    """A new game of red and blue, its pawns set out, red's 1 scanned: the state asking for it."""
    owner = daemon.owner
    wait_for(owner, lambda s: s["link"]["up"])
    owner.command("new_game", {"players": ["red", "blue"]})
    daemon.sim_board.set_board({"red": ["start"] * 4, "blue": ["start"] * 4})
    wait_for(owner, lambda s: s["phase"] == "draw")
    daemon.sim_board.scan("1")
    return wait_for(owner, lambda s: s["phase"] == "move")


@pytest.fixture
def daemon(tmp_path):
    daemon = Daemon(Config(data=tmp_path, sim=True, layout="colour", http_port=0))
    daemon.start(web=False)
    yield daemon
    daemon.stop()


def test_a_command_answers_once_the_state_shows_it(daemon, monkeypatch):
    """The page reads the state when its POST is answered: the answer must not come before the
    state it changed is published.  A slow publish widens the window a loaded Pi would leave."""
    owner = daemon.owner
    wait_for(owner, lambda s: s["link"]["up"])
    assert owner.state()["game_id"] is None
    publish = owner._publish

    def slow_publish() -> None:
        time.sleep(0.2)
        publish()

    monkeypatch.setattr(owner, "_publish", slow_publish)
    owner.command("new_game", {"players": ["red", "blue"]})
    state = owner.state()
    assert state["game_id"] is not None and state["pawns"]["red"] == ["start"] * 4


def test_a_simulated_press_answers_once_the_state_shows_it(daemon, monkeypatch):
    """The buttons' presses reach the owner through its inbox; the simulator answers a press
    only once the owner has handled it, so a state read on the answer shows its effect (CI,
    loaded: the evening test read the state before a bounced Undo was handled, and that late
    undo then took back a second move behind the next one).  A slow publish widens the window."""
    owner = daemon.owner
    red_draws_a_1(daemon)
    daemon.sim_board.lift("start:red")
    daemon.sim_board.place("T4", "red")
    wait_for(owner, lambda s: s["history"] == ["R:start-T4"])
    publish = owner._publish

    def slow_publish() -> None:
        time.sleep(0.2)
        publish()

    monkeypatch.setattr(owner, "_publish", slow_publish)
    daemon.sim_board.press("undo", bounce=True)
    state = owner.state()
    assert state["history"] == [] and state["phase"] == "setup"


def test_a_game_starts_and_a_move_is_recorded_through_the_simulated_hardware(daemon, tmp_path):
    owner = daemon.owner
    state = red_draws_a_1(daemon)
    assert [m["text"] for m in state["legal"]] == ["R:start-T4"]
    daemon.sim_board.lift("start:red")
    daemon.sim_board.place("T4", "red")
    state = wait_for(owner, lambda s: s["history"] == ["R:start-T4"])
    assert state["turn"] == "blue"
    with Journal.open(tmp_path / "journal.sqlite3", readonly=True) as journal:
        record = journal.load(state["game_id"])
    assert [e.kind for e in record.events] == ["draw", "move"]
    # The LEDs show blue's turn on the simulated board (its START spots breathe blue).
    leds = daemon.sim_board.leds()
    assert set(leds) >= {"T4", "S1:red", "start:blue:1", "slide:T2"}
    # The owner's diagnostics: link counters, the raw sensors, stuck-sensor warnings.
    info = owner.diagnostics()
    assert info["link"]["crc_failures"] == 0 and len(info["sensors"]) == 112
    assert info["stuck"] == [] and info["calibrated"] is False  # no calibration saved


def test_computer_seats_are_recorded_and_come_back_after_a_restart(tmp_path):
    first = Daemon(Config(data=tmp_path, sim=True, layout="colour", http_port=0))
    first.start(web=False)
    try:
        owner = first.owner
        assert owner is not None
        owner.command("new_game", {"players": ["red", "blue"], "computer": {"blue": "heuristic"}})
        state = wait_for(owner, lambda s: s["phase"] == "setup")
        game_id = state["game_id"]
    finally:
        first.stop()
    with Journal.open(tmp_path / "journal.sqlite3", readonly=True) as journal:
        assert journal.load(game_id).meta == {"computer": {"blue": "normal"}}
    second = Daemon(Config(data=tmp_path, sim=True, layout="colour", http_port=0))
    second.start(web=False)
    try:
        state = wait_for(second.owner, lambda s: s.get("game_id") == game_id)
        assert state["computer"] == {"blue": "normal"}
    finally:
        second.stop()


def test_a_new_game_over_an_unfinished_one_keeps_it_as_abandoned(daemon, tmp_path):
    """docs/api.md, 'POST /api/game': the old game stays in the records, ended early with no
    winner."""
    owner = daemon.owner
    wait_for(owner, lambda s: s["link"]["up"])
    owner.command("new_game", {"players": ["red", "blue"]})
    first = wait_for(owner, lambda s: s["game_id"] is not None)["game_id"]
    owner.command("new_game", {"players": ["red", "green"]})
    state = wait_for(owner, lambda s: s["game_id"] != first)
    assert state["warning"] is None  # no internal error on the way
    with Journal.open(tmp_path / "journal.sqlite3", readonly=True) as journal:
        games = {g.id: g for g in journal.games()}
    assert games[first].finished and "abandoned" in games[first].outcome, games[first]


def test_the_board_breathes_the_turn_from_one_scene(daemon, monkeypatch):
    """Firmware 1.1 runs the animation itself: while red's START breathes through many shades
    on the board, the Pi sends it no LED message at all (it once sent 25 frames a second)."""
    from pawnlight.board.cells import cells_of
    from pawnlight.rules.board import Place

    owner, link = daemon.owner, daemon.link
    wait_for(owner, lambda s: s["link"]["up"])
    sent: list[str] = []
    for name in ("send_scene", "send_leds"):
        original = getattr(link, name)

        def counted(*args, _original=original, _name=name, **kwargs):
            sent.append(_name)
            return _original(*args, **kwargs)

        monkeypatch.setattr(link, name, counted)
    owner.command("new_game", {"players": ["red", "blue"]})
    daemon.sim_board.set_board({"red": ["start"] * 4, "blue": ["start"] * 4})
    wait_for(owner, lambda s: s["phase"] == "draw")
    led = daemon.layout.led_of[cells_of(Place.parse("start:red:1"))[0]]
    # The scene for red's turn may still be on its way: wait until the board breathes it.
    daemon.firmware.wait_for_leds(lambda leds: leds[led][0] > 0 and leds[led][1:] == (0, 0))
    before = len(sent)
    shades: set[int] = set()

    def breathing(leds) -> bool:
        shades.add(leds[led][0])
        return len(shades) >= 8

    daemon.firmware.wait_for_leds(breathing, timeout=10.0)
    assert sent[before:] == []
    assert "send_scene" in sent


def test_settled_is_false_from_a_changed_reading_until_its_move_is_decided(daemon):
    """docs/api.md, 'Settled': a test may wait on ``settled`` instead of a quiet period, so no
    published state may say settled while a changed board waits to be decided."""
    owner = daemon.owner
    wait_for(owner, lambda s: s["link"]["up"])
    owner.command("new_game", {"players": ["red", "blue"]})
    daemon.sim_board.set_board({"red": ["start"] * 4, "blue": ["start"] * 4})
    wait_for(owner, lambda s: s["phase"] == "draw" and s["settled"])
    daemon.sim_board.scan("1")
    wait_for(owner, lambda s: s["phase"] == "move" and s["settled"])
    subscription = owner.subscribe()
    try:
        daemon.sim_board.lift("start:red")
        daemon.sim_board.place("T4", "red")
        seen: list[dict[str, Any]] = []
        deadline = time.monotonic() + 15
        while not (seen and seen[-1]["settled"] and seen[-1]["history"]):
            assert time.monotonic() < deadline, [(s["settled"], s["history"]) for s in seen]
            state = subscription.get(timeout=1.0)
            if state is not None:
                seen.append(state)
    finally:
        subscription.close()
    changed = next(i for i, s in enumerate(seen) if not s["settled"])
    undecided = [s for s in seen[changed:] if s["settled"] and not s["history"]]
    assert undecided == [], "settled before the move was decided"
    assert seen[-1]["history"] == ["R:start-T4"] and seen[-1]["turn"] == "blue"


def test_the_simulators_hand_holds_two_buttons_and_the_seat_goes_to_the_computer(tmp_path):
    """Issue #34: the board's two-button gestures can be tried on the simulator: Hint and
    Confirm held 3 s give the seat whose turn it is to the computer, and back."""
    from .process import DaemonProcess

    daemon = DaemonProcess(tmp_path)
    daemon.start()
    try:
        daemon.request("POST", "/api/game", {"players": ["red", "blue"]}, pin=True)
        state = daemon.wait(lambda s: s["phase"] == "setup")
        daemon.request("POST", "/api/sim/board", {"pawns": state["pawns"]})
        daemon.wait(lambda s: s["phase"] == "draw")
        hold = {"buttons": ["hint", "confirm"], "seconds": 3.2}
        daemon.request("POST", "/api/sim/hold", hold)
        state = daemon.wait(lambda s: s["computer"] == {"red": "normal"})
        assert state["message"].startswith("The computer plays Red from now on")
        daemon.request("POST", "/api/sim/hold", hold)
        state = daemon.wait(lambda s: s["computer"] == {})
        assert state["message"].startswith("Red is played by a person again")
        # Let go too soon: nothing changes (and the Confirm confirms nothing).
        daemon.request("POST", "/api/sim/hold", {**hold, "seconds": 1.0})
        assert daemon.state()["computer"] == {} and daemon.state()["phase"] == "draw"
    finally:
        daemon.stop()

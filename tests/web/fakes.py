"""An in-memory Service for the web tests: the real turn loop, real snapshots, a virtual board.

FakeService keeps a real :class:`~pawnlight.companion.machine.Companion` (so a real
:class:`~pawnlight.rules.Game` inside), publishes every state as the owner does (the real
:class:`~pawnlight.companion.state.CompanionState`, in a ``Published``), and answers commands
with the companion's own replies and refusals.  Its simulator is the daemon's own
:class:`~pawnlight.devices.sim.board.SimulatedBoard`: lifting and placing pawns turns into
sensor readings through the shipped layout, which go straight to the companion (no firmware in
between), and the LEDs are the board model's own frames.  Time is virtual: after every input the
fake lets half a second pass, so a board that was touched settles at once.

Only the daemon's threads, firmware and journal are missing: this is what the web layer sees.
"""

from __future__ import annotations

import copy
import queue
import threading
import time
from datetime import datetime
from typing import Any

from pawnlight.board import leds as led_frames
from pawnlight.board.layout import Layout
from pawnlight.companion.deck import CardDeck, simulated_uids
from pawnlight.companion.machine import Companion, Settings
from pawnlight.companion.signals import (
    CardScanned,
    Input,
    LinkChanged,
    Pressed,
    Reading,
    StartRecord,
    Tick,
)
from pawnlight.companion.state import CompanionState, Published
from pawnlight.devices.events import BUTTONS
from pawnlight.devices.sim.board import SimulatedBoard
from pawnlight.rules.board import COLOURS
from pawnlight.rules.cards import parse_card
from pawnlight.store.record import GameRecord, write_record
from pawnlight.store.replay import outcome

UIDS = simulated_uids(extra_one=True)
CARD_UIDS: dict[str, list[str]] = {}
for _uid, _card in UIDS.items():
    CARD_UIDS.setdefault(_card, []).append(_uid)

SETTLE = 0.5  # virtual seconds that pass after each input: longer than the settle time


class FakeSubscription:
    def __init__(self, service: FakeService) -> None:
        self.service = service
        self.queue: queue.Queue[dict[str, Any]] = queue.Queue()

    def get(self, timeout: float) -> dict[str, Any] | None:
        try:
            return self.queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        self.service.unsubscribe(self)


class FakeService:
    """See the module docstring.  ``sim=False`` is a service on real hardware (no simulator)."""

    def __init__(self, *, sim: bool = True, enrolled: bool = True, layout: str = "colour"):
        self.layout = Layout.named(layout)
        deck = CardDeck(dict(UIDS) if enrolled else {})
        self.companion = Companion(self.layout, deck, Settings(settle=0.3))
        self.lock = threading.RLock()
        self.now = 0.0
        self.version = 0
        self.subscribers: list[FakeSubscription] = []
        self.closed = 0
        self.commands: list[tuple[str, dict[str, Any]]] = []
        self.pressed: list[str] = []
        self.overrides: dict[str, Any] = {}
        self.fail_next: Exception | None = None
        self.records: dict[int, tuple[Any, datetime]] = {}
        self._state: dict[str, Any] = {}
        self._typed: CompanionState | None = None
        self._copies: dict[str, int] = {}
        self.sim: SimulatedBoard | None = None
        if sim:
            self.sim = SimulatedBoard(
                self.layout,
                write_sensors=lambda values: self._input(Reading(tuple(values), 0.0)),
                read_leds=lambda: self.frame(time.monotonic()),
                present_card=lambda uid: self._input(CardScanned(uid, 0.0)),
                card_uids=dict(UIDS),
                press=self._press,
            )
        self.handle(LinkChanged(True, "simulated board", "sim-1.0", 0.0))
        if self.sim is not None:  # the empty board, read once, as a board that just connected
            self._input(Reading(self.sim.position_reading(), 0.0))

    # -- the Service protocol -----------------------------------------------------------------

    def state(self) -> Published:
        with self.lock:
            return self._copy()

    def subscribe(self) -> FakeSubscription:
        with self.lock:
            subscription = FakeSubscription(self)
            self.subscribers.append(subscription)
            return subscription

    def unsubscribe(self, subscription: FakeSubscription) -> None:
        with self.lock:
            if subscription in self.subscribers:
                self.subscribers.remove(subscription)
                self.closed += 1

    def command(self, name: str, args: dict[str, Any], timeout: float = 5.0) -> dict[str, Any]:
        with self.lock:
            self.commands.append((name, dict(args)))
            if self.fail_next is not None:
                error, self.fail_next = self.fail_next, None
                raise error
            self.now += 0.01
            reply, effects = self.companion.command(name, args, self.now)
            self._effects(effects)
            self._settle()
            return reply

    def games(self) -> list[dict[str, Any]]:
        """The journal's GameSummary fields, as the daemon's games() gives them."""
        with self.lock:
            rows = []
            for game_id, (game, started) in sorted(self.records.items()):
                result = game.result
                rows.append(
                    {
                        "id": game_id,
                        "started": started.isoformat(),
                        "edition": game.config.edition,
                        "variant": game.config.variant,
                        "players": list(game.config.players),
                        "teams": game.config.teams,
                        "names": {},
                        "turns": len(game.history),
                        "events": len(game.events),
                        "finished": game.over,
                        "winners": [COLOURS[c] for c in result.winners] if result else [],
                        "outcome": outcome(result),
                        "damage": None,
                    }
                )
            return rows

    def export(self, game_id: int) -> str:
        with self.lock:
            game, started = self.records[game_id]  # KeyError for an unknown game
            return write_record(GameRecord.from_game(game, started=started))

    def diagnostics(self) -> dict[str, Any]:
        with self.lock:
            c = self.companion
            # The shape of Owner.diagnostics() on the simulated board.
            return {
                "sim": True,
                "layout": c.layout.name,
                "calibrated": False,
                "link": {"connected": c.link_up, "crc_failures": 0, "reconnects": 1},
                "board": None,
                "sensors": list(c.reading or [0] * 112),
                "last_uid": c.scanned_uid,
                "errors": [],
                "stuck": [],
                "game_id": None,
            }

    # -- driving it from tests ----------------------------------------------------------------

    def handle(self, item: Input) -> None:
        """One input to the companion, then half a second of stillness."""
        with self.lock:
            self._effects(self.companion.handle(item))
            self._settle()

    def link(self, up: bool, detail: str = "") -> None:
        firmware = "sim-1.0" if up else None
        words = detail or ("simulated board" if up else "no board")
        self.handle(LinkChanged(up, words, firmware, self.now))

    def patch(self, **fields: Any) -> None:
        """Lay hand-made fields over every snapshot from now on (a state hard to reach)."""
        with self.lock:
            self.overrides.update(fields)
            self._publish()

    def scan(self, card: str) -> None:
        """Hold a card of this name to the reader (each copy of the pack in turn)."""
        card = parse_card(card)
        copies = CARD_UIDS[card]
        index = self._copies.get(card, 0)
        self._copies[card] = (index + 1) % len(copies)
        self._input(CardScanned(copies[index], 0.0))

    def start(self, players: tuple[str, ...] = ("red", "blue"), **args: Any) -> None:
        """A new game with its board set up: play waits for the first card."""
        self.command("new_game", {"players": list(players), **args})
        assert self.sim is not None, "start() sets up the simulated board"
        self.sim.set_board(self.state()["pawns"])

    def play(self, text: str) -> None:
        """Make a legal move (by its notation) on the simulated board."""
        state = self.state()
        move = next(m for m in state["legal"] if m["text"] == text)
        assert self.sim is not None
        self.sim.set_board(move["pawns"])

    def frame(self, at: float) -> tuple:
        """The LED frame the board model shows now (blinking by the wall clock)."""
        with self.lock:
            companion, layout = self.companion, self.layout
            game = companion.game
            if game is None or companion.phase in ("idle", "enrol", "leader"):
                return led_frames.Canvas(layout).frame()
            if game.over:
                result = game.result
                winner = result.winners[0] if result and result.winners else game.turn
                return led_frames.celebration_picture(layout, winner, at).frame
            moves = game.legal if companion.phase in ("move", "choose") else []
            return led_frames.picture(layout, game.turn, moves, companion.decision, at).frame

    # -- inside --------------------------------------------------------------------------------

    def _input(self, item: Reading | CardScanned | Pressed) -> None:
        """An input from the simulated board, stamped with the virtual time."""
        with self.lock:
            self.now += 0.01
            if isinstance(item, Reading):
                self.handle(Reading(item.values, self.now))
            elif isinstance(item, CardScanned):
                self.handle(CardScanned(item.uid, self.now))
            else:
                self.handle(Pressed(item.button, self.now))

    def _press(self, button: str, bounce: bool = False) -> None:
        # The fake has no contacts: a bouncing press is one press, as the real controls see it.
        if button not in BUTTONS:
            raise ValueError(f"unknown button {button!r} (expected one of {BUTTONS})")
        self.pressed.append(button)
        self._input(Pressed(button, 0.0))

    def _effects(self, effects: list) -> None:
        for effect in effects:
            if isinstance(effect, StartRecord):
                game = self.companion.game
                self.records[len(self.records) + 1] = (game, datetime.now().astimezone())

    def _settle(self) -> None:
        self.now += SETTLE
        self._effects(self.companion.handle(Tick(self.now)))
        self._publish()

    def _publish(self) -> None:
        typed = self.companion.state()
        fresh = Published(typed, self.overrides)
        old = {k: v for k, v in self._state.items() if k != "version"}
        if fresh == old:
            return
        self.version += 1
        self._typed = typed
        self._state = Published(typed, {**self.overrides, "version": self.version})
        for subscription in self.subscribers:
            subscription.queue.put(self._copy())

    def _copy(self) -> Published:
        """A state of its own for each reader (a test may change what it is given)."""
        assert self._typed is not None, "published from the constructor on"
        return Published(self._typed, {**copy.deepcopy(self.overrides), "version": self.version})

"""An in-memory Service for the web tests: the real turn loop, real snapshots, a virtual board.

FakeService keeps a real :class:`~pawnlight.companion.machine.Companion` (so a real
:class:`~pawnlight.rules.Game` inside), builds every state with the real
:func:`~pawnlight.companion.state.snapshot`, and answers commands with the companion's own
replies and refusals.  FakeSim is a physical board in memory: lifting and placing pawns turns
into sensor readings through the shipped layout, exactly as a real board's would, and the LEDs
are the board model's own frames.  Time is virtual: after every input the fake lets half a
second pass, so a board that was touched settles at once.

Only the daemon's threads, devices and journal are missing: this is what the web layer sees.
"""

from __future__ import annotations

import copy
import queue
import threading
import time
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from pawnlight.board import leds as led_frames
from pawnlight.board.cells import (
    CELLS,
    EMPTY,
    SLIDE_CHANNEL_SQUARES,
    START_BASE,
    area_cells,
    safety_cell,
    spot_of_cell,
)
from pawnlight.board.layout import Layout
from pawnlight.board.snapshot import canonical, reading_for
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
from pawnlight.companion.state import snapshot
from pawnlight.rules.board import (
    COLOURS,
    HOME,
    S1,
    S5,
    START,
    TRACK_SQUARES,
    parse_colour,
    place_name,
)
from pawnlight.rules.cards import parse_card
from pawnlight.store.record import GameRecord, write_record

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
        self.overrides: dict[str, Any] = {}
        self.fail_next: Exception | None = None
        self.records: dict[int, tuple[Any, datetime]] = {}
        self.sim: FakeSim | None = FakeSim(self) if sim else None
        self._state: dict[str, Any] = {}
        self._copies: dict[str, int] = {}
        self.handle(LinkChanged(True, "simulated board", "sim-1.0", 0.0))
        if self.sim is not None:
            self.sim.set_board({})  # an empty board, read once, as a board that just connected

    # -- the Service protocol -----------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        with self.lock:
            return copy.deepcopy(self._state)

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
        with self.lock:
            rows = []
            for game_id, (game, started) in sorted(self.records.items(), reverse=True):
                result = game.result
                rows.append(
                    {
                        "id": game_id,
                        "started": started.isoformat(),
                        "edition": game.config.edition,
                        "variant": game.config.variant,
                        "players": list(game.config.players),
                        "turns": len(game.history),
                        "finished": game.over,
                        "winner": COLOURS[result.winners[0]] if result and result.winners else None,
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
            return {
                "link": {"up": c.link_up, "detail": c.link_detail, "firmware": c.firmware},
                "counters": {"readings": 0, "errors": 0},
                "sensors": list(c.reading or ()),
                "last_uid": c.scanned_uid,
            }

    # -- driving it from tests ----------------------------------------------------------------

    def handle(self, item: Input) -> None:
        """One input to the companion, then half a second of stillness."""
        with self.lock:
            self._effects(self.companion.handle(item))
            self._settle()

    def link(self, up: bool, detail: str = "") -> None:
        firmware = "sim-1.0" if up else None
        self.handle(
            LinkChanged(up, detail or ("simulated board" if up else "no board"), firmware, self.now)
        )

    def patch(self, **fields: Any) -> None:
        """Lay hand-made fields over every snapshot from now on (a state hard to reach)."""
        with self.lock:
            self.overrides.update(fields)
            self._publish()

    def scan(self, card: str) -> None:
        card = parse_card(card)
        copies = CARD_UIDS[card]
        index = self._copies.get(card, 0)
        self._copies[card] = (index + 1) % len(copies)
        with self.lock:
            self.now += 0.01
            self.handle(CardScanned(copies[index], self.now))

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

    # -- inside --------------------------------------------------------------------------------

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
        fresh = {**snapshot(self.companion), **self.overrides}
        old = {k: v for k, v in self._state.items() if k != "version"}
        if fresh == old:
            return
        self.version += 1
        fresh["version"] = self.version
        self._state = fresh
        for subscription in self.subscribers:
            subscription.queue.put(copy.deepcopy(fresh))

    def led_colours(self) -> dict[str, str]:
        """Every LED by its key, as the board model would light it now (wall-clock blinking)."""
        with self.lock:
            frame = self._frame(time.monotonic())
            colours: dict[str, str] = {}
            for cell in range(CELLS):
                colours[led_key(cell)] = "#{:02x}{:02x}{:02x}".format(
                    *frame[self.layout.led_of[cell]]
                )
            for index, square in enumerate(SLIDE_CHANNEL_SQUARES):
                rgb = frame[self.layout.slide_led_of[index]]
                colours[f"slide:T{square}"] = "#{:02x}{:02x}{:02x}".format(*rgb)
            return colours

    def _frame(self, at: float) -> tuple:
        companion, layout = self.companion, self.layout
        game = companion.game
        if game is None or companion.phase in ("idle", "enrol", "leader"):
            return led_frames.Canvas(layout).frame()
        if game.over:
            winner = game.result.winners[0] if game.result and game.result.winners else game.turn
            return led_frames.celebration_frame(layout, winner, at)
        moves = game.legal if companion.phase in ("move", "choose") else []
        return led_frames.frame(layout, game.turn, moves, companion.decision, at)


def led_key(cell: int) -> str:
    """The simulator's key of a cell's LED: T4, S2:red, start:red:1, home:red:1."""
    if cell < TRACK_SQUARES:
        return f"T{cell}"
    spot = spot_of_cell(cell)
    colour = COLOURS[spot.colour]
    if cell < START_BASE:
        return f"{place_name(spot.place)}:{colour}"
    word = "start" if spot.place == START else "home"
    return f"{word}:{colour}:{cell - area_cells(spot.place, spot.colour).start + 1}"


def parse_square(square: str) -> tuple[int, int]:
    """``T4`` / ``S2:red`` / ``start:red`` / ``home:red`` as (place, colour or -1)."""
    text = square.strip()
    name, _, colour_name = text.partition(":")
    try:
        if not colour_name and name[:1] in "Tt" and name[1:].isdigit():
            number = int(name[1:])
            if number < TRACK_SQUARES:
                return number, -1
        elif colour_name:
            colour = parse_colour(colour_name)
            lowered = name.lower()
            if lowered in ("start", "home"):
                return (START if lowered == "start" else HOME), colour
            if lowered[:1] == "s" and lowered[1:].isdigit() and 1 <= int(lowered[1:]) <= 5:
                return S1 + int(lowered[1:]) - 1, colour
    except ValueError:
        pass
    raise ValueError(
        f"unknown square {square!r} (expected T0..T59, S1:red..S5:red, start:red or home:red)"
    )


class FakeSim:
    """A physical board in memory: which cell holds which colour."""

    def __init__(self, service: FakeService) -> None:
        self.service = service
        self.cells = [EMPTY] * CELLS
        self.pressed: list[str] = []

    def _feed(self) -> None:
        service = self.service
        reading = reading_for(service.layout, canonical(self.cells))
        with service.lock:
            service.now += 0.01
            service.handle(Reading(reading, service.now))

    def _cells(self, square: str) -> list[int]:
        place, colour = parse_square(square)
        if place < TRACK_SQUARES:
            return [place]
        if S1 <= place <= S5:
            return [safety_cell(colour, place)]
        return list(area_cells(place, colour))

    def scan(self, card: str) -> None:
        self.service.scan(card)

    def lift(self, square: str) -> dict[str, Any]:
        with self.service.lock:
            taken = [c for c in self._cells(square) if self.cells[c] != EMPTY]
            if not taken:
                raise ValueError(f"there is no pawn on {square}")
            cell = taken[-1]
            colour = self.cells[cell]
            self.cells[cell] = EMPTY
            self._feed()
            return {"ok": True, "square": square, "colour": COLOURS[colour]}

    def place(self, square: str, colour: str) -> dict[str, Any]:
        with self.service.lock:
            value = parse_colour(colour)
            place, owner = parse_square(square)
            if place in (START, HOME) and owner != value:
                raise ValueError(f"a {COLOURS[value]} pawn does not go in {COLOURS[owner]}'s area")
            free = [c for c in self._cells(square) if self.cells[c] == EMPTY]
            if not free:
                raise ValueError(f"{square} is taken: lift that pawn first")
            self.cells[free[0]] = value
            self._feed()
            return {"ok": True, "square": square, "colour": COLOURS[value]}

    def leds(self) -> dict[str, str]:
        return self.service.led_colours()

    def board(self) -> dict[str, Any]:
        with self.service.lock:
            pawns: dict[str, list[str]] = {}
            for cell, value in enumerate(self.cells):
                if value == EMPTY:
                    continue
                spot = spot_of_cell(cell)
                name = "T" + str(cell) if cell < TRACK_SQUARES else place_name(spot.place)
                pawns.setdefault(COLOURS[value], []).append(name)
            return {"pawns": pawns}

    def set_board(self, pawns: Mapping[str, Any]) -> None:
        cells = [EMPTY] * CELLS
        if not isinstance(pawns, Mapping):
            raise ValueError("pawns must map colours to lists of places")
        for name, places in pawns.items():
            colour = parse_colour(name)
            if not isinstance(places, list):
                raise ValueError(f"the pawns of {name} must be a list")
            for text in places:
                if not isinstance(text, str):
                    raise ValueError(f"{text!r} is not a place")
                square = text if text[:1] in "Tt" else f"{text}:{COLOURS[colour]}"
                free = [c for c in self._cells(square) if cells[c] == EMPTY]
                if not free:
                    raise ValueError(f"no room for a {COLOURS[colour]} pawn on {text}")
                cells[free[0]] = colour
        with self.service.lock:
            self.cells = cells
            self._feed()

    def press(self, button: str) -> None:
        if button not in ("confirm", "undo", "new_game"):
            raise ValueError(f"unknown button {button!r} (expected confirm, undo or new_game)")
        self.pressed.append(button)
        with self.service.lock:
            self.service.now += 0.01
            self.service.handle(Pressed(button, self.service.now))

"""A test bench for the companion: a deck, a layout, and readings made from positions."""

from __future__ import annotations

from pawnlight.board.layout import Layout
from pawnlight.board.snapshot import reading_for, true_occupancy
from pawnlight.companion.deck import CardDeck, simulated_uids
from pawnlight.companion.machine import Companion, Settings
from pawnlight.companion.signals import CardScanned, Reading, RecordEvent, Tick
from pawnlight.rules import Position

UIDS = simulated_uids(extra_one=True)
CARD_UIDS: dict[str, list[str]] = {}
for _uid, _card in UIDS.items():
    CARD_UIDS.setdefault(_card, []).append(_uid)


class Bench:
    """Drives a Companion as players would; time advances by hand."""

    def __init__(self, layout: str = "colour") -> None:
        self.layout = Layout.named(layout)
        self.companion = Companion(self.layout, CardDeck(dict(UIDS)), Settings(settle=0.3))
        self.now = 0.0
        self.effects: list = []
        self._copy: dict[str, int] = {}

    def advance(self, seconds: float) -> None:
        self.now += seconds
        self.effects += self.companion.handle(Tick(self.now))

    def show(self, position: Position, settle: bool = True) -> None:
        """Put the physical board in ``position`` (all at once), then wait past the settle time."""
        reading = reading_for(self.layout, true_occupancy(position))
        self.now += 0.01
        self.effects += self.companion.handle(Reading(reading, self.now))
        # Settled: longer than the settle time; not: held a moment (longer than sensor flicker).
        self.advance(0.5 if settle else 0.15)

    def play(self, move) -> None:
        """Make ``move`` on the board: lift the moving pawns, then show the result; answer the
        question a board that cannot see the move asks."""
        touched = set()
        for step in move.steps:
            touched.add((step.colour, step.origin))
            if step.swapped >= 0:
                touched.add((step.swapped, step.target))
        # The touched pawns are in the players' hands, on no square at all.
        groups = [
            None if pawns is None else tuple(p for p in pawns if (c, p) not in touched)
            for c, pawns in enumerate(move.before)
        ]
        in_hand = Position.from_places(groups)
        self.show(in_hand, settle=False)
        self.show(move.after)
        if self.companion.phase == "choose":
            from pawnlight.rules import move_text

            self.command("resolve", move=move_text(move))

    def scan(self, card: str) -> None:
        copies = CARD_UIDS[card]
        index = self._copy.get(card, 0)
        self._copy[card] = (index + 1) % len(copies)
        self.now += 0.01
        self.effects += self.companion.handle(CardScanned(copies[index], self.now))

    def command(self, name: str, **args):
        self.now += 0.01
        reply, effects = self.companion.command(name, args, self.now)
        self.effects += effects
        return reply

    def recorded(self) -> list:
        return [e.event for e in self.effects if isinstance(e, RecordEvent)]

    @property
    def game(self):
        return self.companion.game

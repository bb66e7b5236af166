"""The companion: the turn loop of a game on a physical board.

Inputs in (sensor readings, card tags, buttons, ticks, commands from the web page), effects out
(LED frames, records to write, buzzes). One owner thread calls it, one input at a time, so it
needs no locks; it reads time only from the inputs, so tests drive it with made-up timestamps.

:class:`Companion` only dispatches: each input or command goes to the module of its concept,
which changes the companion's :class:`~.table.Table` and returns effects:

* ``cards``       a card held to the reader (enrolment, the leader draw, the turn's card);
* ``leader``      the leader draw; ``games`` a game begun, resumed, or the match's next;
* ``turns``       the recogniser's decisions: a move played, a question, a takeback;
* ``recognition`` which recogniser each phase gets, presence boards' colours, ``settled``;
* ``commands``    the owner's commands and the board's buttons; ``points`` doubling;
* ``sentences``   the page's words; ``config`` the one check of settings and game configs;
* ``lights``      the LED picture; ``state`` the frozen :class:`~.state.CompanionState`.

Phases (companion.phases.CompanionPhase), as the status page shows them:

* ``idle``    no game;
* ``enrol``   the pack's card tags are being enrolled;
* ``leader``  the leader draw: each player scans a card, the highest leads;
* ``setup``   the board must be made to show the game's position (a new game, a resumed game, an
  undo) before play goes on; the corrections are shown one by one;
* ``draw``    waiting for the player to scan a card;
* ``move``    the card's legal moves are lit; the players move, and the move is recognised;
* ``choose``  the board fits two moves that look alike: the players say which;
* ``double``  point play: a double was called and waits for answers;
* ``over``    the game has ended.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..board.health import wires
from ..board.health.stuck import pawn_cells
from ..rules.game import Game
from . import board_buttons, commands, games, leader, remote
from .cards import scanned
from .config import SETTING_NAMES, ConfigError, Settings
from .describe import state_of
from .lights import picture_for
from .signals import (
    CardScanned,
    Effect,
    Held,
    Input,
    LinkChanged,
    Pressed,
    Reading,
    RemoteInput,
    ShowLeds,
    StatusLight,
    Tick,
    Trouble,
)
from .state import CompanionState
from .table import NO_GAME, Table
from .turns import decided

__all__ = ["ANIMATION_RATE", "NO_GAME", "Companion", "Settings"]

#: Frames a second at most for LED animations (blinking, breathing, the celebration).
ANIMATION_RATE = 25


class Companion(Table):
    """The turn loop. See the module docstring for the phases and the modules."""

    def state(self) -> CompanionState:
        """The companion now, as frozen values (its JSON is ``GET /api/state``)."""
        return state_of(self)

    # -- inputs -------------------------------------------------------------------------------

    def handle(self, item: Input | RemoteInput) -> list[Effect]:
        # Inputs come from several threads: a reading stamped a moment before the last tick
        # may arrive after it. Time never goes backwards for the recogniser.
        self.now = max(self.now, item.at)
        if self.started is None:
            self.started = self.now
        effects: list[Effect] = []
        if self.asking_until is not None and self.now >= self.asking_until:
            self.asking_until = None  # one press never ends a game: the question lapses
            self.warning = None
        if isinstance(item, Trouble):
            # Only words: the LEDs catch up on the next tick, and saying it can never fail.
            if not item.over:
                self.warning = item.text
            elif self.warning == item.text:
                self.warning = None
            return []
        if isinstance(item, Reading):
            self.reading = item.values
            self.stuck_watch.observe(item.values, item.at)
            self._watch_wires(item.values)
            if self.recogniser is not None:
                # Dated when the board saw it (the owner maps the board's time), which may be
                # before the last tick: settling counts from when the pawns moved.
                self.decision = self.recogniser.feed(item.values, item.at, self.now)
                effects += decided(self)
        elif isinstance(item, Tick):
            self._watch_stuck(item.at)
            if self.wire_warning is not None and self.warning is None:
                self.warning = self.wire_warning  # a broken wire is said until it is mended
            effects += board_buttons.watch_chord(self)
            if self.recogniser is not None and self.reading is not None:
                self.decision = self.recogniser.tick(self.now)
                effects += decided(self)
        elif isinstance(item, CardScanned):
            effects += scanned(self, item.uid)
        elif isinstance(item, Pressed):
            effects += board_buttons.button(self, item.button, item.held)
        elif isinstance(item, Held):
            effects += board_buttons.held(self, item.buttons)
        elif isinstance(item, LinkChanged):
            self.link_up, self.link_detail, self.firmware = item.up, item.detail, item.firmware
            effects.append(StatusLight("ok" if item.up else "link-down"))
        elif isinstance(item, RemoteInput):
            effects += remote.take(self, item)
        # A remote game: the turns played here published, the next one from another board lit.
        effects += remote.follow(self)
        # Animations (blinks, breathing) change the frame on every tick: send those at most
        # ANIMATION_RATE times a second; anything that changed the game goes out at once.
        animating = isinstance(item, Tick) and not effects
        return effects + self._lights(animating)

    def _watch_wires(self, values: Sequence[int]) -> None:
        """A reading no sensor can give, on any place (START and HOME too), is a broken or
        shorted wire: said in the warning, with the place and the pin, for as long as it lasts.
        The layout reads such a place as unknown, so no move is recognised on a guess."""
        faults = wires.wire_faults(self.layout, values)
        found = [fault.as_json(self.layout) for fault in faults]
        if found == self.wire_faults and (self.warning is not None or not found):
            return
        said, self.wire_faults = self.wire_warning, found
        self.wire_warning = wires.warning(self.layout, faults)
        if self.wire_warning is not None:
            self.warning = self.wire_warning
        elif self.warning == said:
            self.warning = None

    def _watch_stuck(self, at: float) -> None:
        """Once a second: a sensor stuck on "pawn" where the game has none is a warning."""
        if at - self.stuck_checked < 1.0:
            return
        self.stuck_checked = at
        game, watch = self.game, self.stuck_watch
        suspects = watch.suspects(at, pawn_cells(game.position)) if game else ()
        self.stuck = [suspect.as_json(watch.sensing, at) for suspect in suspects]
        if self.stuck and not self.warning:
            self.warning = f"a sensor may be stuck: {self.stuck[0]['text']}"

    def command(
        self, name: str, args: Mapping[str, object], at: float
    ) -> tuple[dict[str, object], list[Effect]]:
        """A command from the web page (PIN checked there); CommandRefused when refused."""
        self.now = max(self.now, at)
        if self.started is None:
            self.started = self.now
        reply, effects = commands.command(self, name, args)
        return reply, effects + remote.follow(self) + self._lights()

    # -- from the journal ---------------------------------------------------------------------

    def resume(
        self,
        game: Game,
        computer: Mapping[str, str] | None = None,
        earlier: Sequence[Game] = (),
    ) -> list[Effect]:
        """Carry on with a game reloaded from the journal (games.resume)."""
        return games.resume(self, game, computer, earlier) + self._lights()

    def restore_settings(self, saved: Mapping[str, object]) -> None:
        """The settings last changed on the page (kept in the journal), checked as if sent again."""
        try:
            self.settings = self.settings.changed(
                {name: saved[name] for name in SETTING_NAMES if name in saved}
            )
        except ConfigError as error:
            self.warning = f"the saved settings were not restored: {error}"

    def restore_remote(self, saved: Mapping[str, object] | None) -> list[Effect]:
        """Carry on with the remote game the resumed game belongs to (kept in the journal)."""
        return remote.restore(self, saved) + remote.follow(self) + self._lights()

    def restore_leader(self, saved: Mapping[str, object]) -> list[Effect]:
        """Carry on with a leader draw interrupted by a restart (kept in the journal)."""
        return leader.restore(self, saved) + self._lights()

    # -- LEDs ---------------------------------------------------------------------------------

    def _lights(self, animating: bool = False) -> list[Effect]:
        if animating and self.now - self.last_frame_at < 1 / ANIMATION_RATE:
            return []
        picture = picture_for(self, self.now, record=False)
        frame = picture.frame
        if frame == self.last_frame:
            return []
        self.last_frame, self.last_scene = frame, picture.scene
        self.last_frame_at = self.now
        return [ShowLeds(frame, picture.scene, self.now)]

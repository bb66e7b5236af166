"""The owner thread: the one thread that runs the companion and carries out its effects.

Device threads (the serial link, gpiozero, card readers) and the web server only put items on
the owner's queue. The owner takes them one at a time, hands them to the companion, then does
what the companion asked, in order: a move is written to the journal (and synced) before the
LED frame that confirms it goes out. After each item it takes the companion's frozen state and,
when it differs from the last one published, publishes it to every subscriber (the SSE streams).

When a write fails (disk full, a read-only file, a journal that cannot be opened) the owner holds
the game where it is rather than confirm what is not durable: the unwritten events wait in order,
the LEDs breathe magenta (storage fault), the page says what is wrong and how to fix it, board
inputs wait, commands are refused in words, and every half second the writes are tried again.
Once they succeed the held LEDs, cards and buttons go out as if nothing had happened: nothing is
lost and nothing is asked again.  A kill during the fault loses only what was never confirmed.

The owner coordinates; each job has its own module: the items waiting and the readings taken in
(runtime.inbox), the writes and the storage fault (runtime.storage_guard, with its advice in
runtime.disk_advice), the LEDs held meanwhile (runtime.held_lights), what is resumed and written
(runtime.records), and the published state with its subscribers (runtime.publisher).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from functools import partial
from pathlib import Path
from typing import Any

from pawnlight.board.leds import Scene
from pawnlight.companion.machine import Companion
from pawnlight.companion.service import CommandRefused, SimulatedBoardControls
from pawnlight.companion.signals import (
    Buzz,
    ClearTurns,
    Effect,
    FinishRecord,
    Input,
    PublishDoubling,
    PublishSeating,
    PublishSetup,
    PublishTakeback,
    PublishTurn,
    RecordEvent,
    Remember,
    RemoteInput,
    SaveDeck,
    ShowLeds,
    StartRecord,
    StatusLight,
    Tick,
    Trouble,
)
from pawnlight.companion.state import Published
from pawnlight.runtime import records
from pawnlight.runtime.disk_advice import NEARLY_FULL, mount_point, storage_advice, storage_kind
from pawnlight.runtime.held_lights import HeldLights
from pawnlight.runtime.inbox import Barrier, Command, Inbox
from pawnlight.runtime.owner_core import RemotePort
from pawnlight.runtime.publisher import (
    RESTART_WINDOW,
    RESTARTS_SHOWN,
    BoardHealth,
    Publisher,
    Shown,
    Storage,
    Subscription,
)
from pawnlight.runtime.storage_guard import FILES_CHECK, STORAGE_RETRY, StorageGuard
from pawnlight.store.errors import StoreError
from pawnlight.store.journal import Journal
from pawnlight.store.safekeeping import open_for_play

__all__ = [
    "FILES_CHECK",
    "NEARLY_FULL",
    "RESTARTS_SHOWN",
    "RESTART_WINDOW",
    "STORAGE_RETRY",
    "BoardHealth",
    "Owner",
    "RemotePort",
    "Storage",
    "mount_point",
    "storage_advice",
    "storage_kind",
]

log = logging.getLogger("pawnlight")


#: The web's commands the remote link answers (remote.link.board_link), not the companion.
REMOTE_COMMANDS = ("remote_host", "remote_join")
NOT_REMOTE = (
    "this board plays alone: start it with --remote mqtt://HOST:PORT --board-id NAME to host "
    "or join a remote game (docs/remote.md)"
)


class Owner:
    """Runs a Companion on its own thread; implements the web layer's Service."""

    def __init__(
        self,
        companion: Companion,
        journal_path: Path,
        *,
        send_leds: Callable[[Sequence[tuple[int, int, int]]], None] = lambda frame: None,
        send_scene: Callable[[Scene, int], bool] | None = None,
        buzz: Callable[[str], None] = lambda pattern: None,
        status: Callable[[str], None] = lambda state: None,
        save_deck: Callable[[dict[str, str]], None] = lambda uids: None,
        channels: int = 112,
        tick: float = 0.01,
        clock: Callable[[], float] = time.monotonic,
        diagnostics: Callable[[], dict[str, Any]] = dict,
        sim: SimulatedBoardControls | None = None,
    ) -> None:
        self.companion = companion
        self.journal_path = journal_path
        self.sim = sim
        self._buzz = buzz
        self._save_deck = save_deck
        self._tick = tick
        self._clock = clock
        self._diagnostics = diagnostics
        self.errors: list[str] = []
        self.inbox = Inbox(channels, clock, diagnostics, self.errors)
        self.lights = HeldLights(companion, send_leds, send_scene, status)
        self.publisher = Publisher()
        self.guard = StorageGuard(self)
        self._journal: Journal | None = None
        self.game_id: int | None = None
        #: The earlier games of the match the current game belongs to, oldest first.
        self.match_ids: list[int] = []
        # Turns of the game that are durable: the page marks the later ones "not saved yet".
        self.saved_turns = 0
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread: threading.Thread | None = None
        #: The remote-play link (``--remote``), set by the daemon; None: this board plays alone.
        self.remote: RemotePort | None = None
        self._publish()

    # -- from other threads -------------------------------------------------------------------

    def post(self, item: object) -> None:
        """Device threads call this with their events (any thread, never blocks)."""
        self.inbox.put(item)

    def state(self) -> Published:
        return self.publisher.state()

    def subscribe(self) -> Subscription:
        return self.publisher.subscribe()

    def command(self, name: str, args: dict[str, Any], timeout: float = 5.0) -> dict[str, Any]:
        if name in REMOTE_COMMANDS:  # hosting or joining: the link talks to the broker first
            if self.remote is None:
                raise CommandRefused(NOT_REMOTE, 409)
            return self.remote.command(name, args)
        reply: Future[dict[str, Any]] = Future()
        self.inbox.put(Command(name, dict(args), reply))
        try:
            return reply.result(timeout=timeout)
        except TimeoutError:
            raise CommandRefused("the board did not answer in time", 503) from None

    def caught_up(self, timeout: float) -> bool:
        """Wait until everything posted so far has been handled and published.  The simulator's
        buttons answer only then, so whoever reads the state on the answer (the simulator page,
        a test) sees the press's effect, as a command's answer does."""
        barrier = Barrier(threading.Event())
        self.inbox.put(barrier)
        return barrier.passed.wait(timeout)

    @property
    def card_reads(self) -> int:
        """CardRead events taken in and published (the simulator waits on them)."""
        return self.inbox.card_reads

    def wait_for_card(self, reads_before: int, timeout: float) -> bool:
        """Wait until a card read beyond ``reads_before`` has reached the owner."""
        return self.inbox.wait_for_card(reads_before, timeout)

    def wait_for_reading(self, wanted: Callable[[tuple[int, ...]], bool], timeout: float) -> bool:
        """Wait until the readings taken in and published satisfy ``wanted`` (the simulator's
        hands wait on this between touches)."""
        return self.inbox.wait_for_reading(wanted, timeout)

    def games(self) -> list[dict[str, Any]]:
        with Journal.open(self.journal_path, readonly=True) as journal:
            return [summary._asdict() for summary in journal.games()]

    def export(self, game_id: int) -> str:
        with Journal.open(self.journal_path, readonly=True) as journal:
            return journal.export(game_id)

    def diagnostics(self) -> dict[str, Any]:
        info = dict(self._diagnostics())
        info.update(
            sensors=list(self.inbox.taken),
            last_uid=self.inbox.last_uid,
            errors=list(self.errors[-20:]),
            stuck=list(self.companion.stuck),
            wire_faults=list(self.companion.wire_faults),
            game_id=self.game_id,
        )
        return info

    # -- lifecycle ----------------------------------------------------------------------------

    def start(self, resume: bool = True) -> None:
        self._thread = threading.Thread(target=self._run, args=(resume,), name="owner")
        self._thread.start()
        self._ready.wait(timeout=30)

    def stop(self) -> None:
        self._stop.set()
        self.inbox.put(None)
        if self._thread is not None:
            self._thread.join(timeout=10)

    # -- the owner thread ---------------------------------------------------------------------

    def _run(self, resume: bool) -> None:
        # The journal is written only from this thread (it refuses writes from others).
        try:
            self._journal, notices = open_for_play(self.journal_path)
            for notice in notices:  # a damaged journal kept aside, a lost write-ahead log
                self._fail(notice)
            if resume:
                records.restore(self)
        except (StoreError, OSError) as error:
            # Nothing can be recorded until it is fixed: a storage fault, tried again every half
            # second like a held write.  The unfinished game is resumed as soon as the journal
            # can be read, and no new game is begun over it meanwhile (commands wait).
            if self._journal is not None:
                self._journal.close()
                self._journal = None
            if resume:
                self.guard.unsaved.append(lambda journal: records.restore(self))
            self.guard.failed(error)
        finally:
            self._ready.set()
        next_tick = self._clock()
        while not self._stop.is_set():
            timeout = max(0.0, next_tick - self._clock())
            try:
                item = self.inbox.get(timeout=timeout)
            except queue.Empty:
                item = Tick(self._clock())
                next_tick = self._clock() + self._tick
            if item is None:
                continue
            try:
                self._handle(item)
            except Exception as error:  # keep the game alive; say what happened
                log.exception("owner: %r failed", item)
                self._fail(f"internal error handling {type(item).__name__}: {error}")
            self._publish()
        if self._journal is not None:
            self._journal.close()

    def _handle(self, item: object) -> None:
        companion = self.companion
        if isinstance(item, Barrier):
            # The items before it were published after each was handled (_run).
            item.passed.set()
            return
        if isinstance(item, Command):
            self._answer(item)
            return
        if isinstance(item, RemoteInput):
            if self.guard.fault is None:
                self._execute(companion.handle(item))
            else:  # a copy would be recorded: it waits, as a card does
                self.guard.held_inputs.append(item)
            return
        translated = self._translate(item)
        if translated is None:
            return
        if self.guard.fault is not None:
            self.guard.while_failing(translated)
            return
        if isinstance(translated, Tick):
            self.guard.check_files(translated)  # the journal's files deleted or replaced
        self._execute(companion.handle(translated))

    def _answer(self, item: Command) -> None:
        if self.guard.fault is not None:
            item.reply.set_exception(CommandRefused(self.guard.fault, 409))
            return
        try:
            reply, effects = self.companion.command(item.name, item.args, self._clock())
            self._execute(effects)
        except CommandRefused as error:
            item.reply.set_exception(error)
            return
        except Exception as error:
            # Answer at once (never leave the page waiting for a timeout), then report it.
            item.reply.set_exception(CommandRefused(f"internal error: {error}", 500))
            raise
        # Published before the answer: whoever reads the state on the answer (the page after
        # its POST, a test) sees what the command did, never the state from before it.
        self._publish()
        item.reply.set_result(reply)

    def _translate(self, item: object) -> Input | None:
        """Device events to companion inputs (runtime.inbox keeps the latest of every channel)."""
        return self.inbox.translate(item)

    def _execute(self, effects: list[Effect]) -> None:
        for effect in effects:
            if isinstance(effect, RecordEvent | StartRecord | FinishRecord | Remember):
                self._record(effect)
            elif isinstance(
                effect,
                PublishTurn
                | PublishDoubling
                | PublishTakeback
                | PublishSeating
                | PublishSetup
                | ClearTurns,
            ):
                self._tell_remote(effect)
            elif self.guard.fault is not None:
                # Nothing that would confirm an unsaved move goes out; the newest is kept.
                if isinstance(effect, ShowLeds):
                    self.lights.hold(leds=effect)
                elif isinstance(effect, StatusLight):
                    self.lights.hold(status=effect.state)
                elif isinstance(effect, SaveDeck):
                    self._save_deck(effect.uids)
            elif isinstance(effect, ShowLeds):
                self.lights.show(effect)
            elif isinstance(effect, Buzz):
                self._buzz(effect.pattern)
            elif isinstance(effect, StatusLight):
                self.lights.status(effect.state)
            elif isinstance(effect, SaveDeck):
                self._save_deck(effect.uids)

    def _record(self, effect: RecordEvent | StartRecord | FinishRecord | Remember) -> None:
        if isinstance(effect, RecordEvent):
            self.guard.record(partial(records.append, self, effect=effect))
        elif isinstance(effect, StartRecord):
            # The companion plays the new game already: none of its turns is durable until
            # its record is (a held start must not leave the old game's count standing).
            self.saved_turns = 0
            self.guard.record(partial(records.new_record, self, effect=effect))
        elif isinstance(effect, FinishRecord):
            self.guard.record(partial(records.finish_record, self, effect=effect))
        else:
            self.guard.record(partial(records.remember, effect=effect))

    def _tell_remote(
        self,
        effect: PublishTurn
        | PublishDoubling
        | PublishTakeback
        | PublishSeating
        | PublishSetup
        | ClearTurns,
    ) -> None:
        remote = self.remote
        if remote is None:
            return
        if isinstance(effect, PublishTurn):
            # Recorded just before (the effects' order): a turn is durable, then published.
            if self.guard.fault is None:
                remote.publish(effect.event)
        elif isinstance(effect, PublishDoubling):
            # Recorded just before, as a turn: said to the other boards once durable.
            if self.guard.fault is None:
                remote.publish_doubling(effect.doubling)
        elif isinstance(effect, PublishTakeback):
            remote.publish_takeback(effect.takeback)
        elif isinstance(effect, PublishSeating):
            remote.publish_seating(effect.seating)
        elif isinstance(effect, PublishSetup):
            remote.publish_setup(effect.setup)
        else:
            remote.clear(effect.game, effect.seq, effect.upto)

    def _fail(self, message: str) -> None:
        log.error(message)
        self.errors.append(message)
        self._tell(Trouble(message, self._clock()))
        self.lights.status("error")

    def _tell(self, trouble: Trouble) -> None:
        """The companion learns of trouble outside the game as it learns of everything: an
        input (its warning is its own state, never written from here)."""
        self._execute(self.companion.handle(trouble))

    def _publish(self) -> None:
        """Publish the state when anything in it changed (equal states are not sent again),
        then count what was taken in as seen (runtime.inbox)."""
        guard = self.guard
        self.publisher.publish(
            Shown(
                self.companion.state(),
                self.game_id,
                Storage(guard.fault, len(guard.unsaved), self.saved_turns),
                self.inbox.board_health(),
            )
        )
        self.inbox.taken_in()

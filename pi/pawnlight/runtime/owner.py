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
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import resource
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Protocol

from pawnlight.board.leds import Scene, error_picture
from pawnlight.companion.lights import dimmed, dimmed_scene
from pawnlight.companion.machine import Companion
from pawnlight.companion.service import CommandRefused, SimulatedBoardControls
from pawnlight.companion.signals import (
    Buzz,
    CardScanned,
    ClearTurns,
    Effect,
    FinishRecord,
    Held,
    Input,
    LinkChanged,
    Pressed,
    PublishDoubling,
    PublishSeating,
    PublishSetup,
    PublishTakeback,
    PublishTurn,
    Reading,
    RecordEvent,
    Remember,
    RemoteInput,
    RemoteResync,
    SaveDeck,
    ShowLeds,
    StartRecord,
    StatusLight,
    Tick,
    Trouble,
)
from pawnlight.companion.state import CompanionState, Published
from pawnlight.companion.table import seats_of
from pawnlight.devices.controls import ButtonPressed, ButtonsHeld
from pawnlight.devices.events import (
    CardRead,
    FirmwareError,
    LinkState,
    SensorChanged,
    SensorSnapshot,
)
from pawnlight.remote.protocol import DoublingEvent, Seating, Setup, Takeback, TurnEvent
from pawnlight.rules.editions import Variant
from pawnlight.rules.game import Game, GameError, Result
from pawnlight.runtime.board_clock import BoardClock
from pawnlight.store.errors import JournalDamaged, StoreError
from pawnlight.store.journal import Decided, Journal
from pawnlight.store.record import GameRecord
from pawnlight.store.safekeeping import open_for_play, set_aside

log = logging.getLogger("pawnlight")

#: Seconds between attempts to write held events while the storage is failing.
STORAGE_RETRY = 0.5
#: Seconds between checks, while nothing is written, that the journal's files are still the ones
#: in the data folder (each write checks them too).
FILES_CHECK = 2.0
#: The board's firmware restarting this many times within RESTART_WINDOW seconds is shown on the
#: page (``board_health``): brown-outs or the watchdog, a cable or power supply to check.  It
#: goes away once the board has gone RESTART_WINDOW seconds without restarting.
RESTARTS_SHOWN = 2
RESTART_WINDOW = 300.0


#: The web's commands the remote link answers (remote.link.board_link), not the companion.
REMOTE_COMMANDS = ("remote_host", "remote_join")
NOT_REMOTE = (
    "this board plays alone: start it with --remote mqtt://HOST:PORT --board-id NAME to host "
    "or join a remote game (docs/remote.md)"
)


class RemotePort(Protocol):
    """What the owner needs of the remote link (remote.link.board_link.RemoteLink)."""

    def publish(self, event: TurnEvent) -> None: ...

    def publish_takeback(self, takeback: Takeback) -> None: ...

    def publish_seating(self, seating: Seating) -> None: ...

    def publish_setup(self, setup: Setup) -> None: ...

    def publish_doubling(self, doubling: DoublingEvent) -> None: ...

    def clear(self, game: str, seq: int, upto: int) -> None: ...

    def command(self, name: str, args: dict[str, Any]) -> dict[str, Any]: ...


@dataclass
class _Command:
    name: str
    args: dict[str, Any]
    reply: Future[dict[str, Any]]


@dataclass(frozen=True)
class _Barrier:
    """Set once every item posted before it has been handled and its state published."""

    passed: threading.Event


@dataclass(frozen=True)
class Storage:
    """Whether the journal can be written (``storage`` of the published state)."""

    problem: str | None  # the storage fault's words, None while writes succeed
    unsaved: int  # events waiting to be written
    saved_turns: int  # turns of the history that are durable

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.problem is None,
            "problem": self.problem,
            "unsaved": self.unsaved,
            "saved_turns": self.saved_turns,
        }


@dataclass(frozen=True)
class BoardHealth:
    """How steady the board has been (``board_health`` of the published state)."""

    restarts: int  # firmware restarts within the last RESTART_WINDOW seconds

    def to_json(self) -> dict[str, Any]:
        return {
            "steady": self.restarts < RESTARTS_SHOWN,
            "restarts": self.restarts,
            "minutes": round(RESTART_WINDOW / 60),
        }


@dataclass(frozen=True)
class _Shown:
    """Everything a published state is made of: a new one is published when this changes."""

    companion: CompanionState
    game_id: int | None
    storage: Storage
    board: BoardHealth


class _Subscription:
    def __init__(self, owner: Owner) -> None:
        self._owner = owner
        self.queue: queue.Queue[dict[str, Any]] = queue.Queue(maxsize=64)

    def get(self, timeout: float) -> dict[str, Any] | None:
        try:
            return self.queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def offer(self, state: dict[str, Any]) -> None:
        try:
            self.queue.put_nowait(state)
        except queue.Full:  # a stalled reader: drop its oldest state, keep the newest
            with contextlib.suppress(queue.Empty):
                self.queue.get_nowait()
            with contextlib.suppress(queue.Full):
                self.queue.put_nowait(state)

    def close(self) -> None:
        self._owner._unsubscribe(self)


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
        self._send_leds = send_leds
        #: A board that runs scenes itself is sent each scene once (with its time in ms), not
        #: the 25 frames a second its animation would take; it answers False when the board
        #: cannot take scenes now (not connected, older firmware): frames go out instead.
        self._send_scene = send_scene
        self._shown_scene: Scene | None = None
        self._buzz = buzz
        self._status = status
        self._save_deck = save_deck
        self._tick = tick
        self._clock = clock
        self._diagnostics = diagnostics
        self._inbox: queue.Queue[object] = queue.Queue()
        self._values: list[int] = [0] * channels
        # The readings as the companion has taken them in and published (_published).
        self._taken: tuple[int, ...] = tuple(self._values)
        self._reading_taken = threading.Condition()  # notified when _taken changes
        self._have_reading = False
        # The board's times of its changes on our clock, and the time of the last Reading
        # handed on (readings never go back in time).
        self._board_clock = BoardClock()
        self._reading_at = float("-inf")
        # When the board's firmware restarted (our clock), the last RESTART_WINDOW seconds, and
        # the link's count of restarts as last read.
        self._restarts: deque[float] = deque()
        self._restarts_counted = 0
        self._journal: Journal | None = None
        self.game_id: int | None = None
        #: The earlier games of the match the current game belongs to, oldest first.
        self.match_ids: list[int] = []
        self._subscribers: list[_Subscription] = []
        self._subscribers_lock = threading.Lock()
        self._state: Published | None = None
        self._shown: _Shown | None = None
        self._version = 0
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread: threading.Thread | None = None
        self.last_uid: str | None = None
        # CardRead events taken in and published, for the simulator to wait on.
        self.card_reads = 0
        self._cards_pending = 0
        self._card_read = threading.Condition()
        self.errors: list[str] = []
        # Storage fault: the writes not yet durable (in order), what went wrong, and what the
        # companion asked for meanwhile that would have confirmed them (held until they are).
        self._unsaved: list[Callable[[Journal], object]] = []
        # Turns of the game that are durable: the page marks the later ones "not saved yet".
        self._saved_turns = 0
        self.storage_fault: str | None = None
        self._held_leds: ShowLeds | None = None
        self._held_status: str | None = None
        self._held_inputs: list[CardScanned | Pressed | RemoteInput] = []
        self._storage_tried = 0.0
        self._files_checked = 0.0
        #: The remote-play link (``--remote``), set by the daemon; None: this board plays alone.
        self.remote: RemotePort | None = None
        # The game in play is still to be written to a fresh journal (the damaged one kept
        # aside): until that write succeeds, every retry tries it again.
        self._rewrite_due = False
        self._publish()

    # -- from other threads -------------------------------------------------------------------

    def post(self, item: object) -> None:
        """Device threads call this with their events (any thread, never blocks)."""
        self._inbox.put(item)

    def state(self) -> Published:
        assert self._state is not None  # published from the constructor on
        return self._state

    def subscribe(self) -> _Subscription:
        subscription = _Subscription(self)
        with self._subscribers_lock:
            self._subscribers.append(subscription)
        subscription.offer(self.state())  # replay the current state on connect
        return subscription

    def _unsubscribe(self, subscription: _Subscription) -> None:
        with self._subscribers_lock:
            if subscription in self._subscribers:
                self._subscribers.remove(subscription)

    def command(self, name: str, args: dict[str, Any], timeout: float = 5.0) -> dict[str, Any]:
        if name in REMOTE_COMMANDS:  # hosting or joining: the link talks to the broker first
            if self.remote is None:
                raise CommandRefused(NOT_REMOTE, 409)
            return self.remote.command(name, args)
        reply: Future[dict[str, Any]] = Future()
        self._inbox.put(_Command(name, dict(args), reply))
        try:
            return reply.result(timeout=timeout)
        except TimeoutError:
            raise CommandRefused("the board did not answer in time", 503) from None

    def caught_up(self, timeout: float) -> bool:
        """Wait until everything posted so far has been handled and published.  The simulator's
        buttons answer only then, so whoever reads the state on the answer (the simulator page,
        a test) sees the press's effect, as a command's answer does."""
        barrier = _Barrier(threading.Event())
        self._inbox.put(barrier)
        return barrier.passed.wait(timeout)

    def wait_for_card(self, reads_before: int, timeout: float) -> bool:
        """Wait until a card read beyond ``reads_before`` has reached the owner."""
        with self._card_read:
            return self._card_read.wait_for(lambda: self.card_reads > reads_before, timeout)

    def wait_for_reading(self, wanted: Callable[[tuple[int, ...]], bool], timeout: float) -> bool:
        """Wait until the readings taken in and published satisfy ``wanted`` (the simulator's
        hands wait on this between touches)."""
        with self._reading_taken:
            return self._reading_taken.wait_for(lambda: wanted(self._taken), timeout)

    def games(self) -> list[dict[str, Any]]:
        with Journal.open(self.journal_path, readonly=True) as journal:
            return [summary._asdict() for summary in journal.games()]

    def export(self, game_id: int) -> str:
        with Journal.open(self.journal_path, readonly=True) as journal:
            return journal.export(game_id)

    def diagnostics(self) -> dict[str, Any]:
        info = dict(self._diagnostics())
        info.update(
            sensors=list(self._taken),
            last_uid=self.last_uid,
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
        self._inbox.put(None)
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
                self._restore()
        except (StoreError, OSError) as error:
            # Nothing can be recorded until it is fixed: a storage fault, tried again every half
            # second like a held write.  The unfinished game is resumed as soon as the journal
            # can be read, and no new game is begun over it meanwhile (commands wait).
            if self._journal is not None:
                self._journal.close()
                self._journal = None
            if resume:
                self._unsaved.append(self._restore_held)
            self._storage_failed(error)
        finally:
            self._ready.set()
        next_tick = self._clock()
        while not self._stop.is_set():
            timeout = max(0.0, next_tick - self._clock())
            try:
                item = self._inbox.get(timeout=timeout)
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

    def _restore(self) -> None:
        """Carry on where the board stopped: its settings, then a leader draw in progress (it
        is newer than any unfinished game: starting one ends the draw), else the unfinished
        game, with the match it belongs to."""
        assert self._journal is not None
        settings = self._recall("settings")
        if settings is not None:
            self.companion.restore_settings(settings)
        leader = self._recall("leader")
        if leader is not None:
            log.info("resuming the leader draw")
            self._execute(self.companion.restore_leader(leader))
            return
        self._resume()
        # The remote game the resumed game belongs to (docs/remote.md), if any.
        self._execute(self.companion.restore_remote(self._recall("remote")))

    def _restore_held(self, journal: Journal) -> None:
        """The restore that could not be done at start, once the journal can be read."""
        self._restore()

    def _recall(self, name: str) -> dict[str, Any] | None:
        """Board state kept in the journal; a damaged one is reported and left out, never
        in the way of the game."""
        assert self._journal is not None
        try:
            return self._journal.recall(name)
        except StoreError as error:
            self._fail(f"{error}; going on without them")
            return None

    def _resume(self) -> None:
        assert self._journal is not None
        game_id = self._journal.unfinished() or self._match_between_games()
        if game_id is None:
            return
        game: Game = self._journal.resume(game_id)
        meta = self._journal.load(game_id).meta
        computer = meta.get("computer")
        seats = self._recall("seats")  # seats changed during the game (POST /api/seat)
        if seats is not None:
            computer = seats.get("computer")
        self.game_id = game_id
        self._saved_turns = len(game.history)
        earlier = self._match_games(meta.get("match"))
        log.info("resuming game %s at turn %s", game_id, len(game.history))
        self._execute(
            self.companion.resume(game, computer if isinstance(computer, dict) else None, earlier)
        )

    def _match_between_games(self) -> int | None:
        """The newest game, when it ended as a game of a match ends (point play, or a match's
        second game or later): the match goes on from it with *next game*."""
        assert self._journal is not None
        games = self._journal.games()
        if not games:
            return None
        last = games[-1]
        if last.damage or not last.finished or not last.winners:
            return None  # no game, one ended early (abandoned), or one nobody won
        meta = self._journal.load(last.id).meta
        return last.id if last.variant == Variant.POINTS or "match" in meta else None

    def _match_games(self, match: object) -> list[Game]:
        """The match's earlier games, replayed from the journal (their points carry over)."""
        assert self._journal is not None
        self.match_ids = []
        if match is None:
            return []
        ids = match.get("games") if isinstance(match, dict) else None
        try:
            if not isinstance(ids, list) or not all(isinstance(i, int) for i in ids):
                raise StoreError(f"its match names no games: {match!r}")
            games = [self._journal.resume(i) for i in ids]
            if any(not g.over for g in games):
                raise StoreError("an earlier game of the match is not finished")
        except StoreError as error:
            self._fail(f"the match goes on from this game only: {error}")
            return []
        self.match_ids = list(ids)
        return games

    def _handle(self, item: object) -> None:
        companion = self.companion
        if isinstance(item, _Barrier):
            # The items before it were published after each was handled (_run).
            item.passed.set()
            return
        if isinstance(item, _Command):
            if self.storage_fault is not None:
                item.reply.set_exception(CommandRefused(self.storage_fault, 409))
                return
            try:
                reply, effects = companion.command(item.name, item.args, self._clock())
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
            return
        if isinstance(item, RemoteInput):
            if self.storage_fault is None:
                self._execute(companion.handle(item))
            else:  # a copy would be recorded: it waits, as a card does
                self._held_inputs.append(item)
            return
        translated = self._translate(item)
        if translated is None:
            return
        if self.storage_fault is not None:
            self._while_storage_fails(translated)
            return
        if isinstance(translated, Tick) and translated.at - self._files_checked >= FILES_CHECK:
            self._files_checked = translated.at
            self._record(_heal)  # the journal's files deleted or replaced: rescued now
        self._execute(companion.handle(translated))

    def _translate(self, item: object) -> Input | None:
        """Device events to companion inputs; the owner keeps the latest of every channel."""
        if isinstance(item, SensorSnapshot):
            if len(item.values) != len(self._values):
                # The link refuses these; a reading of the wrong size must never replace ours.
                self.errors.append(
                    f"a sensor snapshot of {len(item.values)} channels was ignored "
                    f"(the board has {len(self._values)})"
                )
                return None
            self._values = list(item.values)
            self._have_reading = True
            return self._reading(item.at)
        if isinstance(item, SensorChanged):
            if 0 <= item.channel < len(self._values):
                self._values[item.channel] = item.value
            at = item.at
            if item.board_ms is not None:  # a 1.2 board: when the change happened, not was read
                at = self._board_clock.place(item.at, item.board_ms)
            if not self._have_reading:
                return None
            return self._reading(at)
        if isinstance(item, CardRead):
            self.last_uid = item.uid
            self._cards_pending += 1  # counted once the state with it is published
            return CardScanned(item.uid, item.at)
        if isinstance(item, ButtonPressed):
            return Pressed(item.name, item.at, item.held)
        if isinstance(item, ButtonsHeld):
            return Held(item.names, item.at)
        if isinstance(item, LinkState):
            self._board_clock.reset()  # a new link or a new boot: the board's uptime restarts
            self._count_restarts()
            return LinkChanged(item.up, item.detail, item.firmware, self._clock())
        if isinstance(item, FirmwareError):
            self.errors.append(f"board error {item.code}: {item.message}")
            return None
        if isinstance(item, Reading | CardScanned | Pressed | Held | LinkChanged | Tick | Trouble):
            return item  # Trouble: the remote link's words (another board under this id)
        raise TypeError(f"the owner does not know {type(item).__name__}")

    def _count_restarts(self) -> None:
        """A link event may be a restart of the board's firmware: the link's counter says."""
        link = self._diagnostics().get("link")
        total = link.get("firmware_restarts", 0) if isinstance(link, dict) else 0
        if isinstance(total, int):
            now = self._clock()
            self._restarts.extend([now] * max(0, total - self._restarts_counted))
            self._restarts_counted = total

    def _board_health(self) -> BoardHealth:
        now = self._clock()
        while self._restarts and now - self._restarts[0] >= RESTART_WINDOW:
            self._restarts.popleft()
        return BoardHealth(len(self._restarts))

    def _reading(self, at: float) -> Reading:
        """The channels' values as a Reading at ``at``, never before the previous one."""
        self._reading_at = max(self._reading_at, at)
        return Reading(tuple(self._values), self._reading_at)

    def _execute(self, effects: list[Effect]) -> None:
        for effect in effects:
            if isinstance(effect, RecordEvent):
                self._record(partial(self._append, effect=effect))
            elif isinstance(effect, StartRecord):
                # The companion plays the new game already: none of its turns is durable until
                # its record is (a held start must not leave the old game's count standing).
                self._saved_turns = 0
                self._record(partial(self._new_record, effect=effect))
            elif isinstance(effect, FinishRecord):
                self._record(partial(self._finish_record, effect=effect))
            elif isinstance(effect, Remember):
                self._record(partial(_remember, effect=effect))
            elif isinstance(effect, PublishTurn):
                # Recorded just before (the effects' order): a turn is durable, then published.
                if self.remote is not None and self.storage_fault is None:
                    self.remote.publish(effect.event)
            elif isinstance(effect, PublishDoubling):
                # Recorded just before, as a turn: said to the other boards once durable.
                if self.remote is not None and self.storage_fault is None:
                    self.remote.publish_doubling(effect.doubling)
            elif isinstance(effect, PublishTakeback):
                if self.remote is not None:
                    self.remote.publish_takeback(effect.takeback)
            elif isinstance(effect, PublishSeating):
                if self.remote is not None:
                    self.remote.publish_seating(effect.seating)
            elif isinstance(effect, PublishSetup):
                if self.remote is not None:
                    self.remote.publish_setup(effect.setup)
            elif isinstance(effect, ClearTurns):
                if self.remote is not None:
                    self.remote.clear(effect.game, effect.seq, effect.upto)
            elif self.storage_fault is not None:
                # Nothing that would confirm an unsaved move goes out; the newest is kept.
                if isinstance(effect, ShowLeds):
                    self._held_leds = effect
                elif isinstance(effect, StatusLight):
                    self._held_status = effect.state
                elif isinstance(effect, SaveDeck):
                    self._save_deck(effect.uids)
            elif isinstance(effect, ShowLeds):
                self._show(effect)
            elif isinstance(effect, Buzz):
                self._buzz(effect.pattern)
            elif isinstance(effect, StatusLight):
                self._status(effect.state)
            elif isinstance(effect, SaveDeck):
                self._save_deck(effect.uids)

    def _new_record(self, journal: Journal, effect: StartRecord) -> None:
        meta: dict[str, Any] = {"computer": dict(effect.computer)} if effect.computer else {}
        match = []
        if effect.match and self.game_id is not None:
            match = [*self.match_ids, self.game_id]
            meta["match"] = {"games": match}
        self.game_id = journal.new_game(effect.config, seed=effect.seed, meta=meta)
        self.match_ids = match

    def _append(self, journal: Journal, effect: RecordEvent) -> None:
        """Write down what the companion decided (no second run of the rules); an event that
        does not say (seq 0) is checked against the store's own replay."""
        decided = None
        if effect.seq:
            decided = Decided(effect.seq, effect.turns, effect.result)
        journal.append(self._current_game(), effect.event, decided)
        if effect.seq:
            self._saved_turns = effect.turns

    def _current_game(self) -> int:
        if self.game_id is None:
            raise GameError("no game is open in the journal to record this in")
        return self.game_id

    def _finish_record(self, journal: Journal, effect: FinishRecord) -> None:
        if self.game_id is not None:
            # No result: the game was ended early (a new game started over it).
            journal.finish(self.game_id, effect.result or Result((), reason="abandoned"))

    def _record(self, write: Callable[[Journal], object]) -> None:
        """Make one write durable, or hold it (and everything after it) until it can be."""
        if self.storage_fault is not None:
            self._unsaved.append(write)
            return
        try:
            self._write(write)
        except (StoreError, OSError) as error:
            if isinstance(error, GameError):  # the rules refuse it: retrying cannot help
                self._fail(f"could not record: {error}")
                return
            self._unsaved.append(write)
            self._storage_failed(error)

    def _write(self, write: Callable[[Journal], object]) -> None:
        if self._journal is None:  # it could not be opened at start: try again
            self._journal = Journal.open(self.journal_path)
        try:
            write(self._journal)
        finally:
            # A rescue of deleted or replaced files: the players are told what happened.
            notices, self._journal.notices = self._journal.notices, []
            for notice in notices:
                self._fail(notice)

    # -- storage faults -------------------------------------------------------------------------

    def _storage_failed(self, error: Exception) -> None:
        first = self.storage_fault is None
        self.storage_fault = storage_advice(error, self.journal_path)
        self._tell(Trouble(self.storage_fault, self._clock()))
        if first:
            log.error("storage fault: %s", self.storage_fault)
            self.errors.append(self.storage_fault)
            companion = self.companion
            if companion.last_frame is not None:
                self._held_leds = ShowLeds(
                    companion.last_frame, companion.last_scene, companion.now
                )
            self._status("error")
        self._show_storage_fault()

    def _show_storage_fault(self) -> None:
        self._storage_tried = self._clock()
        picture = error_picture(self.companion.layout, self._storage_tried, record=False)
        self._show(ShowLeds(picture.frame, picture.scene, self._storage_tried))

    def _show(self, leds: ShowLeds) -> None:
        """Light the LEDs: a scene once to a board that runs it, else the frame."""
        brightness = self.companion.settings.brightness
        if leds.scene is not None and self._send_scene is not None:
            scene = dimmed_scene(leds.scene, brightness)
            if scene == self._shown_scene:
                return
            if self._send_scene(scene, round(leds.at * 1000)):
                self._shown_scene = scene
                return
        self._shown_scene = None
        self._send_leds(dimmed(leds.frame, brightness))

    def _while_storage_fails(self, item: Input) -> None:
        """Board inputs while writes fail: readings are kept (the owner has the latest values),
        cards and buttons wait their turn, the link's state and the buttons held go through (the
        owner's unlock needs no storage), ticks retry."""
        if isinstance(item, Tick):
            if item.at - self._storage_tried >= STORAGE_RETRY:
                self._retry_storage()
        elif isinstance(item, LinkChanged | Held):
            self._execute(self.companion.handle(item))
        elif isinstance(item, CardScanned | Pressed):
            self._held_inputs.append(item)

    def _reopen(self) -> None:
        """Every retry starts from a freshly opened journal: a connection opened while the
        storage was read-only stays read-only after the remount, and one whose file was cut
        short or damaged reads nothing sound.  A damaged journal is kept aside, a fresh one
        started, and the game in play written to it from the companion's memory."""
        journal = self._journal
        notices = []
        if journal is not None:
            try:
                journal.reopen()
            except JournalDamaged as error:
                # Kept aside before its connection lets go (closing, SQLite removes the -wal by
                # its name: the fresh journal's must not be there yet).
                kept = set_aside(self.journal_path)
                journal.close()
                self._journal = None
                what = str(error).split("; it was left as it is")[0]
                notices.append(
                    f"{what[0].upper()}{what[1:]}. It was kept aside as {kept.name} and a new "
                    "journal was started."
                )
            else:
                self._rewrite_if_due(journal)
                return
        journal, found = open_for_play(self.journal_path)
        self._journal = journal
        notices += found
        for notice in notices:
            self._fail(notice)
        if notices and self.game_id is not None:
            self._rewrite_due = True
        self._rewrite_if_due(journal)

    def _rewrite_if_due(self, journal: Journal) -> None:
        """A rewrite that failed half-way (the storage failing again) is tried with every retry
        until it is done; the journal stores the game once however often it is tried."""
        if self._rewrite_due:
            self._rewrite_game(journal)
            self._rewrite_due = False

    def _rewrite_game(self, journal: Journal) -> None:
        """The journal was kept aside as damaged while a game was on: the game as the companion
        holds it (every event played, its computer seats) becomes the fresh journal's first; the
        held writes of its events then find them there (nothing is written twice)."""
        game = self.companion.game
        if game is None:
            return
        computer = dict(seats_of(self.companion))
        meta: dict[str, Any] = {"computer": computer} if computer else {}
        record = GameRecord.from_game(game, meta=meta)
        self.game_id = journal.import_record(record)
        self.match_ids = []
        self._saved_turns = len(game.history)
        self._fail(
            f"The game in play was written to the fresh journal from memory as game "
            f"{self.game_id}, with all {len(game.history)} turns."
        )

    def _retry_storage(self) -> None:
        try:
            self._reopen()
        except (StoreError, OSError) as error:
            self._storage_failed(error)
            return
        while self._unsaved:
            try:
                self._write(self._unsaved[0])
            except (StoreError, OSError) as error:
                if isinstance(error, GameError):
                    self._unsaved.pop(0)
                    self._fail(f"could not record: {error}")
                    continue
                self._storage_failed(error)
                return
            self._unsaved.pop(0)
        log.info("storage works again: every held move is recorded")
        assert self.storage_fault is not None
        self._tell(Trouble(self.storage_fault, self._clock(), over=True))
        self.storage_fault = None
        self._status(self._held_status or ("ok" if self.companion.link_up else "link-down"))
        self._held_status = None
        if self._held_leds is not None:
            self._show(self._held_leds)
            self._held_leds = None
        held, self._held_inputs = self._held_inputs, []
        now = self._clock()
        if self._have_reading:
            self._execute(self.companion.handle(self._reading(now)))
        for item in held:
            if self.storage_fault is not None:
                self._held_inputs.append(item)
            else:
                self._execute(self.companion.handle(item))
        if self.remote is not None and self.storage_fault is None:
            # The turns recorded now were not published while they could not be saved.
            self._execute(self.companion.handle(RemoteResync(self._clock())))

    def _fail(self, message: str) -> None:
        log.error(message)
        self.errors.append(message)
        self._tell(Trouble(message, self._clock()))
        self._status("error")

    def _tell(self, trouble: Trouble) -> None:
        """The companion learns of trouble outside the game as it learns of everything: an
        input (its warning is its own state, never written from here)."""
        self._execute(self.companion.handle(trouble))

    def _publish(self) -> None:
        """Publish the state when anything in it changed (equal states are not sent again)."""
        shown = _Shown(
            self.companion.state(),
            self.game_id,
            Storage(self.storage_fault, len(self._unsaved), self._saved_turns),
            self._board_health(),
        )
        if self._state is not None and shown == self._shown:
            self._published()
            return
        self._shown = shown
        self._version += 1
        extra = {"version": self._version, "game_id": self.game_id}
        state = Published(
            shown.companion,
            {**extra, "storage": shown.storage.to_json(), "board_health": shown.board.to_json()},
        )
        self._state = state
        with self._subscribers_lock:
            subscribers = list(self._subscribers)
        for subscription in subscribers:
            subscription.offer(state)
        self._published()

    def _published(self) -> None:
        """What has been taken in is now in the published state: the readings diagnostics()
        shows and the card reads the simulator waits on, so whoever sees a touch or a card
        arrive there finds it in the state too, never a state from before it."""
        taken = tuple(self._values)
        if taken != self._taken:
            with self._reading_taken:
                self._taken = taken
                self._reading_taken.notify_all()
        if self._cards_pending:
            with self._card_read:
                self.card_reads += self._cards_pending
                self._cards_pending = 0
                self._card_read.notify_all()


def _heal(journal: Journal) -> None:
    journal.heal()


def _remember(journal: Journal, effect: Remember) -> None:
    journal.remember(effect.name, effect.value)


#: Free space below which a failing write is taken for a full storage (SQLite needs a few pages).
NEARLY_FULL = 1 << 20


def storage_kind(error: Exception, journal: Path) -> str:
    """Which storage fault an error is: "full", "size-limit", "read-only", "damaged", "gone"
    (the journal's files deleted or replaced and not yet rescued) or "io" (anything else)."""
    lowered = str(error).lower()
    try:
        vfs = os.statvfs(journal.parent if journal.parent.exists() else journal.parent.parent)
    except OSError:
        vfs = None
    limit = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
    try:
        size = journal.stat().st_size
    except OSError:
        size = None
    if "no space" in lowered or "is full" in lowered:
        return "full"
    if "file too large" in lowered or (
        limit != resource.RLIM_INFINITY and size is not None and size + 65536 >= limit
    ):
        return "size-limit"
    if (
        "readonly" in lowered
        or "read-only" in lowered
        or "permission" in lowered
        or (vfs is not None and vfs.f_flag & os.ST_RDONLY)
    ):
        return "read-only"
    if isinstance(error, JournalDamaged) or size == 0 or "malformed" in lowered:
        return "damaged"
    if "not a database" in lowered:
        return "damaged"
    if "deleted or replaced" in lowered:
        return "gone"
    if vfs is not None and vfs.f_bavail * vfs.f_frsize < NEARLY_FULL:
        return "full"
    return "io"


def mount_point(path: Path) -> Path:
    """The mount point of the file system that holds ``path`` (``/`` at the most)."""
    here = path.absolute()
    while not here.exists() and here != here.parent:
        here = here.parent
    while not os.path.ismount(here) and here != here.parent:
        here = here.parent
    return here


def storage_advice(error: Exception, journal: Path) -> str:
    """What went wrong with the journal, and what to do about it, in words for the page: each
    kind of fault (:func:`storage_kind`) its own."""
    detail = str(error)
    kind = storage_kind(error, journal)
    if kind == "full":
        what = f"the storage that holds {journal.parent} is full"
        fix = f"free some space on it ({journal.parent})"
    elif kind == "size-limit":
        limit = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
        what = f"pawnlight may not write files larger than {limit} bytes (a file-size limit)"
        fix = (
            "raise or remove the limit of the pawnlight service (LimitFSIZE= in its systemd "
            "unit, or ulimit -f in the shell that started it)"
        )
    elif kind == "read-only":
        what = f"the storage that holds {journal} is read-only"
        fix = (
            f"remount it read-write (sudo mount -o remount,rw {mount_point(journal)}), or make "
            "the journal and its "
            "folder writable by pawnlight again; a storage that turns read-only by itself is "
            "often an SD card that is failing"
        )
    elif kind == "damaged":
        what = f"the journal file {journal.name} is damaged or was cut short"
        fix = (
            "nothing to do: pawnlight keeps it aside, starts a fresh journal and writes the game "
            "in play to it (docs/records.md, 'Damage')"
        )
    elif kind == "gone":
        what = f"the journal's files in {journal.parent} were deleted or replaced"
        fix = (
            "leave pawnlight's files in place while it runs; it writes what it holds to a "
            "fresh journal as soon as the storage lets it"
        )
    else:
        what = f"the storage that holds {journal.parent} reports an error"
        fix = (
            "check the storage: it has free space and is writable, but a read or write failed "
            "(an SD card that is failing does this; docs/records.md, 'When the journal cannot "
            "be written')"
        )
    return (
        f"The game cannot be saved: {what} ({detail}). Moves are not confirmed until it can: "
        f"{fix}. Play resumes by itself once it works again; nothing made so far is lost."
    )

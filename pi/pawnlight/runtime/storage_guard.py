"""The owner's writes to the journal, held in order while the storage fails.

When a write fails (disk full, a read-only file, a journal that cannot be opened) the game is
held where it is rather than confirm what is not durable: the unwritten events wait in order,
the LEDs breathe magenta (storage fault), the page says what is wrong and how to fix it
(runtime.disk_advice), board inputs wait, commands are refused in words, and every half second
the writes are tried again.  Once they succeed the held LEDs, cards and buttons go out as if
nothing had happened: nothing is lost and nothing is asked again.  A kill during the fault loses
only what was never confirmed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pawnlight.board.leds import error_picture
from pawnlight.companion.signals import (
    CardScanned,
    Held,
    Input,
    LinkChanged,
    Pressed,
    RemoteInput,
    RemoteResync,
    ShowLeds,
    Tick,
    Trouble,
)
from pawnlight.companion.table import seats_of
from pawnlight.rules.game import GameError
from pawnlight.runtime.disk_advice import storage_advice
from pawnlight.store.errors import JournalDamaged, StoreError
from pawnlight.store.journal import Journal
from pawnlight.store.record import GameRecord
from pawnlight.store.safekeeping import open_for_play, set_aside

if TYPE_CHECKING:
    from pawnlight.runtime.owner_core import OwnerCore

log = logging.getLogger("pawnlight")

#: Seconds between attempts to write held events while the storage is failing.
STORAGE_RETRY = 0.5
#: Seconds between checks, while nothing is written, that the journal's files are still the ones
#: in the data folder (each write checks them too).
FILES_CHECK = 2.0


def _heal(journal: Journal) -> None:
    journal.heal()


class StorageGuard:
    """Makes the owner's writes durable, or holds them (and the board) until they can be."""

    def __init__(self, owner: OwnerCore) -> None:
        self._owner = owner
        #: The storage fault's words for the page; None while writes succeed.
        self.fault: str | None = None
        # The writes not yet durable (in order), and what the companion was asked meanwhile
        # that would have confirmed them (held until they are).
        self.unsaved: list[Callable[[Journal], object]] = []
        self.held_inputs: list[CardScanned | Pressed | RemoteInput] = []
        self._tried = 0.0
        self._files_checked = 0.0
        # The game in play is still to be written to a fresh journal (the damaged one kept
        # aside): until that write succeeds, every retry tries it again.
        self._rewrite_due = False

    def check_files(self, tick: Tick) -> None:
        """Every FILES_CHECK seconds: the journal's files deleted or replaced are rescued."""
        if tick.at - self._files_checked >= FILES_CHECK:
            self._files_checked = tick.at
            self.record(_heal)

    def record(self, write: Callable[[Journal], object]) -> None:
        """Make one write durable, or hold it (and everything after it) until it can be."""
        if self.fault is not None:
            self.unsaved.append(write)
            return
        try:
            self._write(write)
        except (StoreError, OSError) as error:
            if isinstance(error, GameError):  # the rules refuse it: retrying cannot help
                self._owner._fail(f"could not record: {error}")
                return
            self.unsaved.append(write)
            self.failed(error)

    def _write(self, write: Callable[[Journal], object]) -> None:
        owner = self._owner
        if owner._journal is None:  # it could not be opened at start: try again
            owner._journal = Journal.open(owner.journal_path)
        journal = owner._journal
        try:
            write(journal)
        finally:
            # A rescue of deleted or replaced files: the players are told what happened.
            notices, journal.notices = journal.notices, []
            for notice in notices:
                owner._fail(notice)

    def failed(self, error: Exception) -> None:
        owner = self._owner
        first = self.fault is None
        self.fault = storage_advice(error, owner.journal_path)
        owner._tell(Trouble(self.fault, owner._clock()))
        if first:
            log.error("storage fault: %s", self.fault)
            owner.errors.append(self.fault)
            owner.lights.hold_current()
            owner.lights.status("error")
        self._show_fault()

    def _show_fault(self) -> None:
        owner = self._owner
        self._tried = owner._clock()
        picture = error_picture(owner.companion.layout, self._tried, record=False)
        owner.lights.show(ShowLeds(picture.frame, picture.scene, self._tried))

    def while_failing(self, item: Input) -> None:
        """Board inputs while writes fail: readings are kept (the owner has the latest values),
        cards and buttons wait their turn, the link's state and the buttons held go through (the
        owner's unlock needs no storage), ticks retry."""
        if isinstance(item, Tick):
            if item.at - self._tried >= STORAGE_RETRY:
                self.retry()
        elif isinstance(item, LinkChanged | Held):
            self._owner._execute(self._owner.companion.handle(item))
        elif isinstance(item, CardScanned | Pressed):
            self.held_inputs.append(item)

    def _reopen(self) -> None:
        """Every retry starts from a freshly opened journal: a connection opened while the
        storage was read-only stays read-only after the remount, and one whose file was cut
        short or damaged reads nothing sound.  A damaged journal is kept aside, a fresh one
        started, and the game in play written to it from the companion's memory."""
        owner = self._owner
        journal = owner._journal
        notices = []
        if journal is not None:
            try:
                journal.reopen()
            except JournalDamaged as error:
                # Kept aside before its connection lets go (closing, SQLite removes the -wal by
                # its name: the fresh journal's must not be there yet).
                kept = set_aside(owner.journal_path)
                journal.close()
                owner._journal = None
                what = str(error).split("; it was left as it is")[0]
                notices.append(
                    f"{what[0].upper()}{what[1:]}. It was kept aside as {kept.name} and a new "
                    "journal was started."
                )
            else:
                self._rewrite_if_due(journal)
                return
        journal, found = open_for_play(owner.journal_path)
        owner._journal = journal
        notices += found
        for notice in notices:
            owner._fail(notice)
        if notices and owner.game_id is not None:
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
        owner = self._owner
        game = owner.companion.game
        if game is None:
            return
        computer = dict(seats_of(owner.companion))
        meta: dict[str, Any] = {"computer": computer} if computer else {}
        record = GameRecord.from_game(game, meta=meta)
        owner.game_id = journal.import_record(record)
        owner.match_ids = []
        owner.saved_turns = len(game.history)
        owner._fail(
            f"The game in play was written to the fresh journal from memory as game "
            f"{owner.game_id}, with all {len(game.history)} turns."
        )

    def retry(self) -> None:
        try:
            self._reopen()
        except (StoreError, OSError) as error:
            self.failed(error)
            return
        while self.unsaved:
            try:
                self._write(self.unsaved[0])
            except (StoreError, OSError) as error:
                if isinstance(error, GameError):
                    self.unsaved.pop(0)
                    self._owner._fail(f"could not record: {error}")
                    continue
                self.failed(error)
                return
            self.unsaved.pop(0)
        log.info("storage works again: every held move is recorded")
        self._resume_play()

    def _resume_play(self) -> None:
        """Every held write is durable: the held LEDs, readings, cards and presses go out."""
        owner = self._owner
        assert self.fault is not None
        owner._tell(Trouble(self.fault, owner._clock(), over=True))
        self.fault = None
        owner.lights.release()
        held, self.held_inputs = self.held_inputs, []
        now = owner._clock()
        if owner.inbox.have_reading:
            owner._execute(owner.companion.handle(owner.inbox.reading(now)))
        for item in held:
            if self.fault is not None:
                self.held_inputs.append(item)
            else:
                owner._execute(owner.companion.handle(item))
        if owner.remote is not None and self.fault is None:
            # The turns recorded now were not published while they could not be saved.
            owner._execute(owner.companion.handle(RemoteResync(owner._clock())))

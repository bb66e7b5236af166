"""What the owner's helpers (:mod:`.records`, :mod:`.storage_guard`) use of the owner, named
as protocols so that they and :mod:`.owner`, which builds them, import in one direction only."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from pawnlight.companion.machine import Companion
from pawnlight.companion.signals import Effect, Trouble
from pawnlight.remote.protocol import DoublingEvent, Seating, Setup, Takeback, TurnEvent
from pawnlight.runtime.held_lights import HeldLights
from pawnlight.runtime.inbox import Inbox
from pawnlight.store.journal import Journal


class RemotePort(Protocol):
    """What the owner needs of the remote link (remote.link.board_link.RemoteLink)."""

    def publish(self, event: TurnEvent) -> None: ...

    def publish_takeback(self, takeback: Takeback) -> None: ...

    def publish_seating(self, seating: Seating) -> None: ...

    def publish_setup(self, setup: Setup) -> None: ...

    def publish_doubling(self, doubling: DoublingEvent) -> None: ...

    def clear(self, game: str, seq: int, upto: int) -> None: ...

    def command(self, name: str, args: dict[str, Any]) -> dict[str, Any]: ...


class OwnerCore(Protocol):
    """The owner's state and the three things its helpers ask of it (runtime/owner.py)."""

    companion: Companion
    journal_path: Path
    errors: list[str]
    inbox: Inbox
    lights: HeldLights
    game_id: int | None
    match_ids: list[int]
    saved_turns: int
    remote: RemotePort | None
    _journal: Journal | None
    _clock: Callable[[], float]

    def _execute(self, effects: list[Effect]) -> None: ...

    def _fail(self, message: str) -> None: ...

    def _tell(self, trouble: Trouble) -> None: ...

"""What goes into the companion (inputs) and what comes out of it (effects).

The companion never touches a device, a file or a socket: the owner thread turns device events
into inputs, hands them over one at a time, and carries out the effects in order. Effects are
ordered so that a move is recorded (and synced) before the LED frame that confirms it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..board.leds import RGB, Scene
from ..remote.protocol import DoublingEvent, Seating, Setup, Takeback, TurnEvent
from ..rules.game import Event, GameConfig, Result

# -- inputs ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reading:
    """Every sensor channel's value at one moment (the owner keeps the latest of each)."""

    values: tuple[int, ...]
    at: float


@dataclass(frozen=True)
class CardScanned:
    uid: str
    at: float


@dataclass(frozen=True)
class Pressed:
    """A button on the board: one of ``devices.events.BUTTONS``; ``held``: the other buttons
    already held down when it was pressed."""

    button: str
    at: float
    held: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Held:
    """The board's buttons held down now (every press and release changes it): the companion
    times buttons held together (board_buttons.UNLOCK_CHORD)."""

    buttons: frozenset[str]
    at: float


@dataclass(frozen=True)
class Tick:
    """Time passes: stable boards get accepted, LEDs blink."""

    at: float


@dataclass(frozen=True)
class LinkChanged:
    up: bool
    detail: str
    firmware: str | None
    at: float


@dataclass(frozen=True)
class Trouble:
    """Something outside the game went wrong (the journal, the storage): the owner says so,
    and it is shown as the warning.  ``over``: it has been put right, and its warning goes if
    it is still the one shown."""

    text: str
    at: float
    over: bool = False


Input = Reading | CardScanned | Pressed | Held | Tick | LinkChanged | Trouble


@dataclass(frozen=True)
class RemoteTurn:
    """A turn of the remote game, played at another board (docs/remote.md)."""

    event: TurnEvent
    at: float


@dataclass(frozen=True)
class RemoteBoard:
    """A board of the remote game came online or went offline (this board's own id: its
    connection to the broker)."""

    board: str
    online: bool
    at: float


@dataclass(frozen=True)
class RemoteResync:
    """The connection to the broker is new: offer every turn played here again (the broker
    may have lost them; other boards drop the copies they have)."""

    at: float


@dataclass(frozen=True)
class RemoteTakeback:
    """Another board asks to take back the last turn, or answers this board's asking."""

    takeback: Takeback
    at: float


@dataclass(frozen=True)
class RemoteSeating:
    """The host's seating of the remote game: seats handed to its computer and back, and
    whether the game is adjourned."""

    seating: Seating
    at: float


@dataclass(frozen=True)
class RemoteDoubling:
    """Point play: a double called, accepted or dropped at another board."""

    doubling: DoublingEvent
    at: float


#: What the remote link hands the companion (remote.link.board_link).
RemoteInput = (
    RemoteTurn | RemoteBoard | RemoteResync | RemoteTakeback | RemoteSeating | RemoteDoubling
)

# -- effects --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ShowLeds:
    """The LEDs now (``frame``), and the animation it is an instant of (``scene``, None when
    no effect describes it), at the companion's time ``at`` in seconds: a board that runs
    scenes is sent the scene once, others every changed frame."""

    frame: tuple[RGB, ...]
    scene: Scene | None = None
    at: float = 0.0


@dataclass(frozen=True)
class Buzz:
    pattern: str  # see devices.controls.PATTERNS


@dataclass(frozen=True)
class StatusLight:
    state: str  # ok, link-down, error


@dataclass(frozen=True)
class StartRecord:
    """A new game begins: open its record in the journal."""

    config: GameConfig
    seed: int | None = None
    #: Colours the computer plays with their player specs, (("blue", "heuristic"),): kept in the
    #: record's header so a resumed game still has them.
    computer: tuple[tuple[str, str], ...] = ()
    #: The next game of the match the current record belongs to (the winner leads it, points
    #: carry over): the record names the match's earlier games so a restart keeps the match.
    match: bool = False


@dataclass(frozen=True)
class RecordEvent:
    """Append one event to the current game's record; durable before the next effect runs.

    It carries what the companion's game decided with the event (``seq``: the event's number
    in the game, 1 for the first; the turns played; the result if the event ended the game),
    so the store writes it down instead of playing the rules a second time."""

    event: Event
    seq: int = 0  # 0: not told, the store checks the event against its own replay
    turns: int = 0
    result: Result | None = None


@dataclass(frozen=True)
class FinishRecord:
    result: Result | None


@dataclass(frozen=True)
class SaveDeck:
    """The enrolled pack changed: keep it (the owner writes it with store.deck_file)."""

    uids: dict[str, str]


@dataclass(frozen=True)
class Remember:
    """Keep a piece of the board's state that is not a game in the journal (``settings``, the
    ``leader`` draw in progress), so a restart carries on with it; None forgets it."""

    name: str
    value: dict[str, Any] | None


@dataclass(frozen=True)
class PublishTurn:
    """A turn played at this board, recorded: send it to the other boards of the remote game."""

    event: TurnEvent


@dataclass(frozen=True)
class PublishTakeback:
    """Ask the other boards of the remote game to take back a turn, or answer their asking."""

    takeback: Takeback


@dataclass(frozen=True)
class PublishSetup:
    """The remote game's setup (its join code and seats), retained under this board's own
    name: any board of the game gives it back to a broker that lost it."""

    setup: Setup


@dataclass(frozen=True)
class PublishSeating:
    """The host's seating changed (a seat handed, the game adjourned or resumed): retained on
    the broker for every board, those away included."""

    seating: Seating


@dataclass(frozen=True)
class PublishDoubling:
    """Point play: a double called or answered here, recorded: retained for the other boards."""

    doubling: DoublingEvent


@dataclass(frozen=True)
class ClearTurns:
    """Turns from ``seq`` on were taken back: the ones this board published are withdrawn from
    the broker (so a board catching up does not play them again)."""

    game: str
    seq: int
    upto: int  # the turns played before the takeback (the ones from seq to upto - 1 go)


Effect = (
    ShowLeds
    | Buzz
    | StatusLight
    | StartRecord
    | RecordEvent
    | FinishRecord
    | SaveDeck
    | Remember
    | PublishTurn
    | PublishTakeback
    | PublishSeating
    | PublishSetup
    | PublishDoubling
    | ClearTurns
)

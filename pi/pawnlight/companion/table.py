"""What the companion knows at the table: the game (in its match), the phase, the recogniser,
the words on the page.  One mutable object, changed only by the companion's concept modules
(cards, turns, games, commands, ...) on the owner thread; readers get a frozen
:class:`~pawnlight.companion.state.CompanionState` of it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..board.health.stuck import StuckSensorDetector
from ..board.layout import COLOUR, Layout
from ..board.leds import Frame, Scene
from ..board.recognise import Decision, Recogniser, Waiting
from ..board.tracking import PawnTracker
from ..i18n.marks import N_
from ..i18n.message import Message, say
from ..remote.protocol import DoublingEvent, Handed, Inbox, Setup, TurnEvent
from ..rules.board import COLOURS
from ..rules.game import Game, GameConfig
from ..rules.match import Match
from ..rules.moves import Move
from ..rules.position import Position
from .config import Settings
from .deck import CardDeck, Enrolment
from .phases import CompanionPhase

if TYPE_CHECKING:
    from ..players.base import Player

#: What the page says before any game (the status page's Owner section starts one): a catalog
#: message, so each phone says it in its language.
NO_GAME = say(
    Message(N_("No game yet: the owner starts one on the status page (Owner, with the PIN)."))
)


@dataclass
class LeaderDraw:
    """The leader draw in progress: who still has to scan, what each drew."""

    config: GameConfig
    drawing: list[str]  # colours still to scan, in seat order
    draws: dict[str, str]
    rounds: int = 1


@dataclass(frozen=True, slots=True)
class TakebackAsk:
    """A takeback asked for in a remote game: the turn it goes back to, the board that asked,
    the boards that agreed so far (every board must).  A value: an agreement makes a new one."""

    seq: int
    by: str
    agreed: frozenset[str]

    @classmethod
    def asked(cls, seq: int, by: str) -> TakebackAsk:
        """Asked by ``by``, who agrees with itself."""
        return cls(seq, by, frozenset({by}))

    def agreed_by(self, board: str) -> TakebackAsk:
        return replace(self, agreed=self.agreed | {board})

    def everyone(self, boards: Iterable[str]) -> bool:
        """Every one of ``boards`` agreed."""
        return set(boards) <= self.agreed


@dataclass
class RemoteGame:
    """The remote game this board plays in (docs/remote.md): its setup, this board's id, which
    boards are online, the other boards' turns not yet played here."""

    setup: Setup
    me: str
    seats: dict[int, str]  # colour -> board id
    online: dict[str, bool]
    inbox: Inbox = field(default_factory=Inbox)
    #: Turns of the game offered for publishing so far (this board's own are published).
    offered: int = 0
    #: Point play: the doublings (``Game.doublings``) offered for publishing so far, and the
    #: other boards' not yet taken here, by their round and colour.
    doublings_offered: int = 0
    doubling_inbox: dict[tuple[int, int], DoublingEvent] = field(default_factory=dict)
    #: The turn (its number) of this board's own colour lit as a copy: one this board lost (its
    #: journal gone, the game joined again) and the broker gave back.
    own_copy: int | None = None
    #: The warning the remote game shows now (replaced, not stacked), and a card refused while
    #: paused (its warning goes when the game goes on).
    said: str | None = None
    paused_card: str | None = None
    #: A takeback asked for and not yet settled (companion.remote.takebacks).
    takeback: TakebackAsk | None = None
    #: The seats the host handed since the setup (to its computer while a board was away, and
    #: back), in turn order; ``seats`` is the seating in force for the turn the game is at.
    handed: list[Handed] = field(default_factory=list)
    #: Since when (the companion's clock) each board of the game has been offline: from when
    #: this board last heard it, or from this daemon's start (never the machine's boot).
    offline_since: dict[str, float] = field(default_factory=dict)
    #: The host's turns for a colour its seating (not heard yet, perhaps) does not give it, by
    #: number: played once the seating says so, refused once the game is past them.
    unseated: dict[int, TurnEvent] = field(default_factory=dict)
    #: Refused turns already said (board, number): a forged message retained is said once.
    refused: set[tuple[str, int]] = field(default_factory=set)
    #: The host adjourned the game: it waits, saved, to be resumed with its join code.
    adjourned: bool = False

    def remote_colour(self, colour: int) -> bool:
        return self.seats.get(colour, self.me) != self.me

    def seat_at(self, colour: int, seq: int) -> Handed | None:
        """The last seat handing of ``colour`` in force at turn ``seq`` (None: the setup's)."""
        found = None
        for each in self.handed:
            if each.seq <= seq and each.colour == colour:
                found = each
        return found

    def seated_at(self, seq: int) -> dict[int, str]:
        """Each colour's board for turn ``seq``."""
        base = self.setup.seats
        seats = {COLOURS.index(colour): board for colour, board in base.items()}
        for colour in seats:
            handed = self.seat_at(colour, seq)
            if handed is not None:
                seats[colour] = handed.board
        return seats

    def by_computer(self, seq: int) -> set[int]:
        """The colours the host's computer plays at turn ``seq``."""
        return {c for c in self.seats if (h := self.seat_at(c, seq)) is not None and h.computer}

    def offline(self) -> list[str]:
        """The game's boards that are offline and hold a seat now, this board first when its
        own link is down (a board whose seats the host's computer plays does not pause it)."""
        boards = {*self.seats.values(), self.me}
        return [b for b in sorted(boards, key=lambda b: b != self.me) if not self.online.get(b)]

    def away_for(self, board: str, now: float) -> float:
        """Seconds ``board`` has been offline (0 while online)."""
        if self.online.get(board):
            return 0.0
        return max(0.0, now - self.offline_since.get(board, now))

    def count_offline_from(self, now: float) -> None:
        """Boards offline and not heard since this daemon started count from ``now``."""
        for board, up in self.online.items():
            if not up:
                self.offline_since.setdefault(board, now)


class Table:
    """The companion's working state (see the module docstring)."""

    def __init__(
        self,
        layout: Layout,
        deck: CardDeck,
        settings: Settings | None = None,
        offline_grace: float = 120.0,
    ) -> None:
        self.layout = layout
        self.deck = deck
        self.settings = settings or Settings()
        self.match: Match | None = None
        self.phase: CompanionPhase = CompanionPhase.IDLE
        self.recogniser: Recogniser | None = None
        #: Presence boards: which colour stands where, followed from every change (None on a
        #: colour board, which reads the colours itself).
        self.pawns: PawnTracker | None = None if layout.sensing == COLOUR else PawnTracker()
        #: The colours the guidance shown last asks for (pawns put down are taken to follow it).
        self.colours_asked: tuple[int, ...] | None = None
        self.decision: Decision = Waiting()
        self.reading: tuple[int, ...] | None = None
        self.link_up = False
        self.link_detail = "not connected"
        self.firmware: str | None = None
        self.message: str = NO_GAME
        self.warning: str | None = None
        #: The warning the turn's card brought (a card drawn twice): it goes with its turn.
        self.card_warning: str | None = None
        #: A warning about the moment it was said in (a card scanned when none is wanted, the
        #: boards out of step): it goes as soon as the game moves to another phase.
        self.passing_warning: str | None = None
        self.enrolment: Enrolment | None = None
        self.leader: LeaderDraw | None = None
        self.choices: tuple[Move, ...] = ()
        #: The board moved on while a question was open: an answer now is refused as stale.
        self.withdrawn = False
        self.choice_unchanged = False
        #: The choice the board's Hint button stepped to (lit alone, taken by Confirm); None
        #: while nobody has stepped: the LEDs show each in turn and Confirm takes the first.
        self.choice_shown: int | None = None
        self.scanned_uid: str | None = None
        self.last_frame: Frame | None = None
        self.last_scene: Scene | None = None  # the animation the last frame is an instant of
        self.last_frame_at = 0.0
        self.takeback_since: float | None = None
        #: Colours played by the computer: colour -> (spec, Player).
        self.computer: dict[int, tuple[str, Player]] = {}
        #: Seats changed during a game may be kept in the journal (``seats``: changed in this
        #: game, or one before a restart): the next game begun forgets them (its record holds
        #: its own seats).
        self.seats_kept = True
        #: The one move lit for a person to make: the computer's choice, or a hint.
        self.guided: Move | None = None
        self.guided_by = ""
        #: What happened on the last turn, in board words ("Red drew a 5: no pawn can go ...").
        self.news = ""
        #: Until when the board asks for a second New game press (None: not asking).
        self.asking_until: float | None = None
        #: The board's buttons held down now, and since when the unlock chord has been held
        #: (None: it is not held); ``chord_done``: this hold has already lifted the PIN lock.
        self.held: frozenset[str] = frozenset()
        self.chord_since: float | None = None
        self.chord: frozenset[str] | None = None  # which chord (board_buttons.CHORDS) is held
        self.chord_done = False
        #: The warning before and after the last press of Hint, which opens the chord.
        self.hint_warning: tuple[str | None, str | None] = (None, None)
        #: Times the board's buttons lifted the web's PIN lock, and when last (commands.py).
        self.unlocks = 0
        self.unlocked_at: float | None = None
        self.now = 0.0
        #: The companion's clock at its first input (None before): offline time counts from
        #: there at the most, so it restarts with the daemon.
        self.started: float | None = None
        #: Sensors that read a pawn for a long time while the rest of the board changes: what
        #: the watch suspects (board.health.stuck, as JSON for the diagnostics page).
        self.stuck_watch = StuckSensorDetector(layout)
        self.stuck: list[dict[str, Any]] = []
        #: Places whose reading no sensor can give (board.health.wires, as JSON), and the
        #: warning they put up (it goes when they read right again).
        self.wire_faults: list[dict[str, Any]] = []
        self.wire_warning: str | None = None
        self.stuck_checked = 0.0
        #: The remote game this board plays in (None: a game at this table alone), and which
        #: boards on the broker are online, as last heard (this board's own: its link).
        self.remote: RemoteGame | None = None
        #: Seconds a board of a remote game must have been offline before its host may hand
        #: its seats to the computer or adjourn the game (``offline_grace``, docs/remote.md).
        self.offline_grace = offline_grace
        self.presence: dict[str, bool] = {}

    @property
    def game(self) -> Game | None:
        return self.match.current if self.match is not None else None

    def game_phase(self) -> CompanionPhase:
        """The phase the game itself waits in (idle without a game)."""
        game = self.game
        return CompanionPhase.IDLE if game is None else CompanionPhase.of_game(game.phase)

    def previous_position(self) -> Position | None:
        """The position before the last move that changed the board (for takebacks)."""
        game = self.game
        if game is None:
            return None
        for turn in reversed(game.history):
            if turn.before != turn.after:
                return turn.before
        return None


def seat_players(seats: tuple[tuple[str, str], ...]) -> dict[int, tuple[str, Player]]:
    """Checked computer seats (config.computer_seats) -> each colour's spec and player."""
    from ..players import make_player
    from ..rules.board import parse_colour

    players: dict[int, tuple[str, Player]] = {}
    for name, spec in seats:
        colour = parse_colour(name)
        players[colour] = (spec, make_player(spec, seed=colour))
    return players


def seats_of(table: Table) -> tuple[tuple[str, str], ...]:
    """The computer seats as colour names and specs, in colour order."""
    from ..rules.board import COLOURS

    return tuple((COLOURS[c], spec) for c, (spec, _) in sorted(table.computer.items()))

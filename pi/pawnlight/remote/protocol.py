"""The messages the boards of a remote game exchange through the broker, and their topics.

Every board writes only under its own prefix, ``pawnlight/boards/<board id>/`` (the broker's
ACL enforces it, so a board cannot forge another's move):

* ``pawnlight/boards/<board>/presence``                retained; ``{"online": true|false}``,
  the ``false`` also left as the connection's last will;
* ``pawnlight/boards/<board>/codes/<join code>``       retained; the game's :class:`Setup`, from
  its host and a copy from every board of it (a broker that lost its store gets it back);
* ``pawnlight/boards/<board>/games/<game>/events/<seq>`` retained; a :class:`TurnEvent`: the
  turn ``seq`` (0 for the first) of the game, played at that board (an empty retained message
  clears it once the turn is taken back);
* ``pawnlight/boards/<board>/games/<game>/takeback/<seq>`` a :class:`Takeback`: that board asks
  to take back the game's turns from ``seq`` on, or agrees, or refuses;
* ``pawnlight/boards/<host>/games/<game>/seating``     retained; the host's :class:`Seating`: the
  seats handed to its computer while their board was away (and back), and an adjournment;
* ``pawnlight/boards/<board>/games/<game>/doubling/<round>/<colour>`` retained; point play's
  :class:`DoublingEvent`: the colour's double (round ``round``, 0 for the first called) or its
  answer to that double, said at the board where the colour is seated.

Retained events are the catch-up: a board that was away subscribes again and the broker hands
it every turn of the game, which it replays from where its own journal stands.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from dataclasses import dataclass
from typing import Any

from .. import strict_json
from ..errors import PawnlightError
from ..i18n.marks import N_
from ..i18n.message import Message, msg, say
from ..rules import phrases
from ..rules.board import COLOURS
from ..rules.moves import Move, Rules
from ..rules.notation import move_text
from ..rules.position import Position

#: The protocol's version, in every message.
VERSION = 1

PREFIX = "pawnlight/boards"

#: A board's id: letters, digits and ``-``, unique on its broker.
BOARD_ID = re.compile(r"^[A-Za-z0-9-]{1,64}$")
#: A game's id and a join code.
GAME_ID = re.compile(r"^[a-z0-9]{4,32}$")
CODE = re.compile(r"^[A-Z0-9]{4,16}$")
#: A turn's or a double's number in a topic: ASCII digits only (``str.isdigit`` takes "²").
SEQ = re.compile(r"^[0-9]{1,9}$")
#: The largest message a board reads from the broker (a setup is the largest: well under 4 KB).
MAX_MESSAGE = 64 * 1024
#: The deepest nesting a message may have (a setup's config: three levels).
MAX_DEPTH = 8
#: A topic longer than this is no pawnlight topic.
MAX_TOPIC = 256
#: Join codes are read aloud and typed: no 0/O, 1/I.
CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"

#: A turn's text when no pawn moved (rules.game: a forfeit, point play's discard).
NO_MOVE = ("forfeit", "discard")


class ProtocolError(PawnlightError, ValueError):
    """A message or topic that is not what the protocol says (in words)."""


def check_board_id(name: object) -> str:
    if not isinstance(name, str) or not BOARD_ID.match(name):
        raise ProtocolError(
            f"a board id is 1 to 64 letters, digits and '-', not {name!r}"
            if isinstance(name, str)
            else "a board id must be a string"
        )
    return name


def new_game_id() -> str:
    return secrets.token_hex(5)


def new_code() -> str:
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(6))


# -- topics -------------------------------------------------------------------------------------


def presence_topic(board: str) -> str:
    return f"{PREFIX}/{board}/presence"


def code_topic(board: str, code: str) -> str:
    return f"{PREFIX}/{board}/codes/{code}"


def event_topic(board: str, game: str, seq: int) -> str:
    return f"{PREFIX}/{board}/games/{game}/events/{seq}"


def takeback_topic(board: str, game: str, seq: int) -> str:
    return f"{PREFIX}/{board}/games/{game}/takeback/{seq}"


def doubling_topic(board: str, game: str, round_: int, colour: int) -> str:
    return f"{PREFIX}/{board}/games/{game}/doubling/{round_}/{COLOURS[colour]}"


def seating_topic(host: str, game: str) -> str:
    return f"{PREFIX}/{host}/games/{game}/seating"


#: What a board subscribes to: every board's presence, a game's events, a code's setup.
PRESENCE_ALL = f"{PREFIX}/+/presence"


def events_of(game: str) -> str:
    """Every board's turns and takebacks of one game."""
    return f"{PREFIX}/+/games/{game}/#"


def code_any(code: str) -> str:
    return f"{PREFIX}/+/codes/{code}"


@dataclass(frozen=True)
class Topic:
    """A topic read back: its kind (presence, code, event), the board that wrote it, and for an
    event its game and sequence number."""

    kind: str
    board: str
    game: str | None = None
    seq: int | None = None
    code: str | None = None
    colour: int | None = None  # a doubling's colour (its round is ``seq``)


def parse_topic(topic: str) -> Topic:
    if len(topic) > MAX_TOPIC:
        raise ProtocolError(f"not a pawnlight topic: {topic[:64]!r}... (too long)")
    parts = topic.split("/")
    if len(parts) < 4 or "/".join(parts[:2]) != PREFIX or not BOARD_ID.match(parts[2]):
        raise ProtocolError(f"not a pawnlight topic: {topic!r}")
    board, rest = parts[2], parts[3:]
    if rest == ["presence"]:
        return Topic("presence", board)
    if len(rest) == 2 and rest[0] == "codes" and CODE.match(rest[1]):
        return Topic("code", board, code=rest[1])
    if (
        len(rest) == 4
        and rest[0] == "games"
        and GAME_ID.match(rest[1])
        and rest[2] in ("events", "takeback")
        and SEQ.match(rest[3])
    ):
        kind = "event" if rest[2] == "events" else "takeback"
        return Topic(kind, board, game=rest[1], seq=int(rest[3]))
    if (
        len(rest) == 5
        and rest[0] == "games"
        and GAME_ID.match(rest[1])
        and rest[2] == "doubling"
        and SEQ.match(rest[3])
        and rest[4] in COLOURS
    ):
        return Topic(
            "doubling", board, game=rest[1], seq=int(rest[3]), colour=COLOURS.index(rest[4])
        )
    if len(rest) == 3 and rest[0] == "games" and GAME_ID.match(rest[1]) and rest[2] == "seating":
        return Topic("seating", board, game=rest[1])
    raise ProtocolError(f"not a pawnlight topic: {topic!r}")


# -- messages -----------------------------------------------------------------------------------


def position_hash(position: Position) -> str:
    """A short fingerprint of a position (its pawn lists, in a canonical JSON)."""
    text = json.dumps(position.to_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class TurnEvent:
    """One turn of a remote game, published by the board where its colour is seated."""

    game: str
    seq: int  # the turn's place in the game's history, 0 for the first
    board: str
    colour: int
    card: str
    move: str  # the move's notation, or "forfeit" / "discard"
    hash: str  # position_hash of the position after the turn

    def to_json(self) -> dict[str, Any]:
        return {
            "v": VERSION,
            "game": self.game,
            "seq": self.seq,
            "board": self.board,
            "colour": COLOURS[self.colour],
            "card": self.card,
            "move": self.move,
            "hash": self.hash,
        }

    def encode(self) -> bytes:
        return json.dumps(self.to_json(), separators=(",", ":")).encode()

    def same_turn(self, other: TurnEvent) -> bool:
        return (self.seq, self.colour, self.card, self.move, self.hash) == (
            other.seq,
            other.colour,
            other.card,
            other.move,
            other.hash,
        )


def _encode(**fields: object) -> bytes:
    """A message: its fields after the protocol's version, as compact JSON."""
    return json.dumps({"v": VERSION, **fields}, separators=(",", ":")).encode()


def _object(payload: bytes, what: str) -> dict[str, Any]:
    try:
        data = strict_json.loads(payload, max_depth=MAX_DEPTH, max_bytes=MAX_MESSAGE, what=what)
    except ValueError as error:  # too large, too deep, too many digits, not JSON: in words
        raise ProtocolError(str(error)) from None
    if not isinstance(data, dict):
        raise ProtocolError(f"{what} must be a JSON object")
    if data.get("v") != VERSION:
        raise ProtocolError(f"{what} is of protocol version {data.get('v')!r}, not {VERSION}")
    return data


def _text(data: dict[str, Any], key: str, what: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value or len(value) > 200:
        raise ProtocolError(f"{what}: {key} must be a short string")
    return value


def _count(data: dict[str, Any], key: str, what: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 10**9:
        raise ProtocolError(f"{what}: {key} must be a whole number")
    return value


def decode_event(payload: bytes, topic: Topic) -> TurnEvent:
    """An event read from the broker, checked against the topic it came on: a board writes only
    its own topics (the broker's ACL), so the topic says who sent it."""
    what = f"the event on {topic.board}'s topic"
    data = _object(payload, what)
    seq = _count(data, "seq", what)
    colour = _text(data, "colour", what)
    if colour not in COLOURS:
        raise ProtocolError(f"{what}: no colour {colour!r}")
    event = TurnEvent(
        game=_text(data, "game", what),
        seq=seq,
        board=_text(data, "board", what),
        colour=COLOURS.index(colour),
        card=_text(data, "card", what),
        move=_text(data, "move", what),
        hash=_text(data, "hash", what),
    )
    if (event.board, event.game, event.seq) != (topic.board, topic.game, topic.seq):
        raise ProtocolError(f"{what} names another board, game or turn than its topic")
    return event


#: What a doubling message says: the colour doubles, or answers the double of its round.
DOUBLING_ACTIONS = ("double", "accept", "drop")


@dataclass(frozen=True)
class DoublingEvent:
    """Point play: a colour calls a double (``round``: how many were called before it in the
    game), or accepts or drops out of the double of that round; ``seq``: the turns played
    before it.  Published by the board where the colour is seated."""

    game: str
    round: int
    seq: int
    board: str
    colour: int
    action: str  # one of DOUBLING_ACTIONS

    def encode(self) -> bytes:
        return _encode(
            game=self.game,
            round=self.round,
            seq=self.seq,
            board=self.board,
            colour=COLOURS[self.colour],
            action=self.action,
        )

    def topic(self) -> str:
        return doubling_topic(self.board, self.game, self.round, self.colour)


def decode_doubling(payload: bytes, topic: Topic) -> DoublingEvent:
    what = f"the doubling on {topic.board}'s topic"
    data = _object(payload, what)
    action = _text(data, "action", what)
    if action not in DOUBLING_ACTIONS:
        raise ProtocolError(f"{what}: action must be one of {', '.join(DOUBLING_ACTIONS)}")
    colour = _text(data, "colour", what)
    if colour not in COLOURS:
        raise ProtocolError(f"{what}: no colour {colour!r}")
    event = DoublingEvent(
        game=_text(data, "game", what),
        round=_count(data, "round", what),
        seq=_count(data, "seq", what),
        board=_text(data, "board", what),
        colour=COLOURS.index(colour),
        action=action,
    )
    if (event.board, event.game, event.round, event.colour) != (
        topic.board,
        topic.game,
        topic.seq,
        topic.colour,
    ):
        raise ProtocolError(f"{what} names another board, game, double or colour than its topic")
    return event


#: What a takeback message says.
TAKEBACK_ANSWERS = ("ask", "agree", "refuse")


@dataclass(frozen=True)
class Takeback:
    """A board asks to take back the game's turns from ``seq`` on (the last turn played), or
    answers another board's asking: every board of the game must agree."""

    game: str
    seq: int
    board: str
    answer: str  # one of TAKEBACK_ANSWERS

    def encode(self) -> bytes:
        return _encode(game=self.game, seq=self.seq, board=self.board, answer=self.answer)


def decode_takeback(payload: bytes, topic: Topic) -> Takeback:
    what = f"the takeback on {topic.board}'s topic"
    data = _object(payload, what)
    answer = _text(data, "answer", what)
    if answer not in TAKEBACK_ANSWERS:
        raise ProtocolError(f"{what}: answer must be one of {', '.join(TAKEBACK_ANSWERS)}")
    seq = _count(data, "seq", what)
    takeback = Takeback(_text(data, "game", what), seq, _text(data, "board", what), answer)
    if (takeback.board, takeback.game, takeback.seq) != (topic.board, topic.game, topic.seq):
        raise ProtocolError(f"{what} names another board, game or turn than its topic")
    return takeback


@dataclass(frozen=True)
class Handed:
    """From turn ``seq`` on, ``colour`` (an index) is played at ``board``, by its computer when
    ``computer`` (a seat the host took over while its board was away, or gave back)."""

    seq: int
    colour: int
    board: str
    computer: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "from": self.seq,
            "colour": COLOURS[self.colour],
            "board": self.board,
            "computer": self.computer,
        }


@dataclass(frozen=True)
class Seating:
    """The host's word on a game's seats since its setup (each change in turn order), and
    whether the game is adjourned (saved on every board, to be resumed with its join code)."""

    game: str
    host: str
    handed: tuple[Handed, ...] = ()
    adjourned: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "v": VERSION,
            "game": self.game,
            "host": self.host,
            "handed": [each.to_json() for each in self.handed],
            "adjourned": self.adjourned,
        }

    def encode(self) -> bytes:
        return json.dumps(self.to_json(), separators=(",", ":")).encode()


def decode_seating(data: object, topic: Topic | None = None) -> Seating:
    """A seating message (from the host's topic when ``topic`` is given), checked."""
    what = "the host's seating"
    if isinstance(data, bytes):
        data = _object(data, what)
    if not isinstance(data, dict):
        raise ProtocolError(f"{what} must be a JSON object")
    game, host = _text(data, "game", what), check_board_id(data.get("host"))
    if topic is not None and (topic.board, topic.game) != (host, game):
        raise ProtocolError(f"{what} names another board or game than its topic")
    handed, adjourned = data.get("handed"), data.get("adjourned", False)
    if not isinstance(handed, list) or not isinstance(adjourned, bool):
        raise ProtocolError(f"{what}: handed must be a list, adjourned true or false")
    changes: list[Handed] = []
    for item in handed:
        if not isinstance(item, dict):
            raise ProtocolError(f"{what}: each seat handed must be an object")
        seq, colour, computer = item.get("from"), item.get("colour"), item.get("computer")
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
            raise ProtocolError(f"{what}: from must be a turn number")
        if colour not in COLOURS or not isinstance(computer, bool):
            raise ProtocolError(f"{what}: a seat handed needs a colour and computer true/false")
        board = check_board_id(item.get("board"))
        changes.append(Handed(seq, COLOURS.index(colour), board, computer))
    if [c.seq for c in changes] != sorted(c.seq for c in changes):
        raise ProtocolError(f"{what}: the seats handed must be in turn order")
    return Seating(game, host, tuple(changes), adjourned)


@dataclass(frozen=True)
class Setup:
    """A remote game as its host announced it: the new game's body (``POST /api/game``'s),
    each colour's board, and the code other boards join with."""

    game: str
    host: str
    code: str
    config: dict[str, Any]
    seats: dict[str, str]  # colour name -> board id

    def to_json(self) -> dict[str, Any]:
        return {
            "v": VERSION,
            "game": self.game,
            "host": self.host,
            "code": self.code,
            "config": dict(self.config),
            "seats": dict(self.seats),
        }

    def encode(self) -> bytes:
        return json.dumps(self.to_json(), separators=(",", ":")).encode()

    def boards(self) -> list[str]:
        """Every board of the game, the host first."""
        others = sorted(set(self.seats.values()) - {self.host})
        return [self.host, *others]


def decode_setup(data: object) -> Setup:
    what = "the game's setup"
    if isinstance(data, bytes):
        data = _object(data, what)
    if not isinstance(data, dict):
        raise ProtocolError(f"{what} must be a JSON object")
    game, code = _text(data, "game", what), _text(data, "code", what)
    if not GAME_ID.match(game) or not CODE.match(code):
        raise ProtocolError(f"{what}: a bad game id or code")
    config, seats = data.get("config"), data.get("seats")
    if not isinstance(config, dict):
        raise ProtocolError(f"{what}: config must be an object")
    return Setup(game, check_board_id(data.get("host")), code, dict(config), check_seats(seats))


def check_seats(seats: object, players: tuple[str, ...] | None = None) -> dict[str, str]:
    """``{"red": "board-a", "blue": "board-b"}``: every playing colour at one board."""
    if not isinstance(seats, dict) or not seats:
        raise ProtocolError(
            "seats must be an object from each playing colour to its board id, e.g. "
            '{"red": "kitchen", "blue": "grandma"}'
        )
    checked: dict[str, str] = {}
    for colour, board in seats.items():
        if colour not in COLOURS:
            raise ProtocolError(f"seats: no colour {colour!r}")
        checked[colour] = check_board_id(board)
    if players is not None and set(checked) != set(players):
        missing = sorted(set(players) - set(checked))
        extra = sorted(set(checked) - set(players))
        said = f"{', '.join(missing)} not seated" if missing else f"{', '.join(extra)} not playing"
        raise ProtocolError(f"seats must name every playing colour and no other: {said}")
    return checked


def presence_payload(online: bool, nonce: str | None = None, clash: str | None = None) -> bytes:
    """``nonce``: the connection's own random word, so two boards given one id tell each other
    apart; ``clash``: the nonce of a newcomer under this board's id, refused."""
    extra = {k: v for k, v in (("nonce", nonce), ("clash", clash)) if v is not None}
    return _encode(online=online, **extra)


@dataclass(frozen=True)
class Presence:
    online: bool
    nonce: str | None = None
    clash: str | None = None


def read_presence(payload: bytes) -> Presence:
    data = _object(payload, "a presence message")
    online = data.get("online")
    if not isinstance(online, bool):
        raise ProtocolError("a presence message must say online: true or false")
    words = [data.get(key) for key in ("nonce", "clash")]
    if any(w is not None and (not isinstance(w, str) or len(w) > 64) for w in words):
        raise ProtocolError("a presence message's nonce and clash are short strings")
    return Presence(online, words[0], words[1])


def decode_presence(payload: bytes) -> bool:
    return read_presence(payload).online


# -- checking another board's turn ----------------------------------------------------------------


class TurnRefused(PawnlightError, ValueError):
    """Another board's turn that this board's own rules do not allow (in words: a message
    where it is one, so each phone says it in its language)."""


NOT_THIS_TURN = N_("it is %(turn)s's turn here, not %(colour)s's")
NO_FORFEIT = N_("%(colour)s has a legal move for the %(card)s: no forfeit")
NOT_LEGAL = N_("%(move)s is not a legal move for %(colour)s's %(card)s here")
OUT_OF_STEP = N_(
    "the position after %(colour)s's %(move)s differs from the other board's: "
    "the boards are out of step"
)


def _card(card: str) -> Message | str:
    """A card's own name (``5``, ``sorry``) as a value: ``Sorry!`` in the other languages."""
    return Message(N_("sorry")) if card == "sorry" else card


def check_turn(rules: Rules, position: Position, turn: int, event: TurnEvent) -> Move | None:
    """Replay ``event`` with this board's own rules core: the move it names must be legal for
    its card at ``position`` (``turn``'s colour to play), and lead to the position its hash
    names.  The move (None for a turn with no move), or TurnRefused."""
    colour = COLOURS[event.colour]
    named = phrases.colour(event.colour)
    if event.colour != turn:
        raise TurnRefused(say(msg(NOT_THIS_TURN, turn=phrases.colour(turn), colour=named)))
    try:
        options = rules.options(position, event.colour, event.card)
    except ValueError as error:
        raise TurnRefused(f"{colour}'s card {event.card!r}: {error}") from None
    if event.move in NO_MOVE:
        if options.moves and not options.forfeit:
            raise TurnRefused(say(msg(NO_FORFEIT, colour=named, card=_card(event.card))))
        after = position
        move = None
    else:
        move = next((m for m in options.moves if move_text(m) == event.move), None)
        if move is None:
            raise TurnRefused(
                say(msg(NOT_LEGAL, move=event.move, colour=named, card=_card(event.card)))
            )
        after = move.after
    if position_hash(after) != event.hash:
        raise TurnRefused(say(msg(OUT_OF_STEP, colour=named, move=event.move)))
    return move


class Inbox:
    """Another boards' turns as they arrive, in any order and any number of times: each kept by
    its sequence number until the game reaches it.  A second copy of a turn is dropped; a
    different turn under a number already held is a conflict."""

    def __init__(self) -> None:
        self.waiting: dict[int, TurnEvent] = {}

    def offer(self, event: TurnEvent, played: int) -> str:
        """Take ``event`` in, the game having ``played`` turns: ``"new"``, ``"duplicate"`` (seen
        or played already: the caller compares it with the played turn), or ``"conflict"``."""
        if event.seq < played:
            return "duplicate"
        held = self.waiting.get(event.seq)
        if held is not None:
            return "duplicate" if held.same_turn(event) else "conflict"
        self.waiting[event.seq] = event
        return "new"

    def next(self, played: int) -> TurnEvent | None:
        """The turn the game is waiting for, if it has arrived (earlier ones are dropped)."""
        for seq in [s for s in self.waiting if s < played]:
            del self.waiting[seq]
        return self.waiting.get(played)

    def take(self, seq: int) -> None:
        self.waiting.pop(seq, None)

    def forget_from(self, seq: int) -> None:
        """Turns from ``seq`` on were taken back: those held are no longer to be played."""
        for held in [s for s in self.waiting if s >= seq]:
            del self.waiting[held]

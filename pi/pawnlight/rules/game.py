"""A game: seats, turns, cards, moves, the end and its scores, as a replayable list of events.

A :class:`Game` is driven by events — a card drawn (or, in point play, played from the hand), a
move, a forfeit, a double and its answers, an undo — and every event is kept, so a record of them
replays the game exactly under the edition it was played with.  Cards come from outside: from the
players' real pack on a board, from a :class:`~pawnlight.rules.cards.Deck` in a simulation.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from ..errors import PawnlightError
from .board import COLOURS, HOME, PARTNER, S1, S5, parse_colour
from .cards import DRAW_RANK, parse_card
from .editions import VARIANTS, Edition, Variant, by_fields, get_edition
from .house_rules import parse_house_rules, with_house_rules
from .moves import Move, Options, Rules, StepKind, legal_options
from .notation import NotationError, move_text, parse_move
from .position import Position
from .scoring import drop_out_scores, final_scores


class Phase(StrEnum):
    """What a game waits for.  Its values are the words records, the API and the page use
    (``Phase.MOVE == "move"``); the companion's phases (companion.phases) are a superset with
    the same words for these four."""

    DRAW = "draw"  # waiting for the player to draw a card (point play: to play one from the hand)
    MOVE = "move"  # a card waits to be played
    DOUBLE = "double"  # point play: a double was called; the others accept or drop out
    OVER = "over"


# Bound once: looking up an enum member costs a class attribute access through the enum's
# metaclass (about 0.2 us), and a game checks its phase several times a turn.
_DRAW, _MOVE, _DOUBLE, _OVER = Phase.DRAW, Phase.MOVE, Phase.DOUBLE, Phase.OVER

FORFEIT = "forfeit"
DISCARD = "discard"


class GameError(PawnlightError, ValueError):
    """An action the rules do not allow now; the message says why."""


@dataclass(frozen=True)
class GameConfig:
    """Everything fixed when a game starts."""

    edition: str = "hasbro-2002"
    #: Colours taking part, the leader first; play passes clockwise from the leader.
    players: tuple[str, ...] = ("red", "blue", "yellow", "green")
    teams: bool = False
    variant: str = "standard"
    #: Play with the optional fifth "1" card (classic boxes only).
    extra_one: bool = False
    #: House rules played on top of the book, by name (docs/rules.md, "House rules").
    house_rules: tuple[str, ...] = ()

    def __reduce__(self) -> tuple[object, ...]:
        return by_fields(self)

    def check(self) -> None:
        edition = get_edition(self.edition)
        try:
            parse_house_rules(self.house_rules)
        except ValueError as error:
            raise GameError(str(error)) from None
        if self.variant not in VARIANTS:
            raise GameError(f"unknown variant {self.variant!r} (expected {', '.join(VARIANTS)})")
        if self.variant not in edition.variants:
            raise GameError(
                f"the {edition.name} rule book has no {self.variant} game "
                f"(it has: {', '.join(sorted(edition.variants))})"
            )
        colours = [parse_colour(p) for p in self.players]
        if len(set(colours)) != len(colours):
            raise GameError("a colour is named twice in players")
        if not 2 <= len(colours) <= 4:
            raise GameError("a game needs 2 to 4 colours")
        if self.teams and len(colours) != 4:
            raise GameError("partnership play needs all four colours")
        if self.variant == Variant.PATIENCE and (len(colours) != 2 or self.teams):
            raise GameError("Patience Sorry is one player moving two colours")
        if self.extra_one and not edition.extra_one:
            raise GameError(f"the {edition.name} pack has no extra 1 card")

    @property
    def turn_order(self) -> tuple[int, ...]:
        """The colours in playing order: clockwise from the leader."""
        colours = [parse_colour(p) for p in self.players]
        leader = colours[0]
        return tuple(sorted(colours, key=lambda c: (c - leader) % 4))

    @property
    def pawns_each(self) -> int:
        return 3 if self.variant == Variant.QUICK else 4


class EventKind(StrEnum):
    """What an :class:`Event` records.  Its values are the words the journal and the game
    records store (``EventKind.UNDO == "undo"``), so a kind read back as a plain string compares
    equal."""

    DRAW = "draw"  # a card drawn (point play: played from the hand)
    MOVE = "move"
    FORFEIT = "forfeit"
    DOUBLE = "double"  # point play: a double called
    ACCEPT = "accept"  # ... and accepted
    DROP = "drop"  # ... or refused: the player drops out
    UNDO = "undo"


class Event(NamedTuple):
    """One thing that happened, in the order it happened; a game is the replay of its events."""

    kind: str  # an EventKind (a record read back gives the plain word)
    colour: int = -1
    card: str | None = None
    move: str | None = None


class Turn(NamedTuple):
    """A line of the game's history: who played which card, and what came of it."""

    colour: int
    card: str
    text: str  # the move's notation, or "forfeit" / "discard"
    before: Position
    after: Position


class Doubling(NamedTuple):
    """A double called (``action`` "double") or answered ("accept", "drop") in point play."""

    round: int  # which double of the game it belongs to (0: the first called)
    turns: int  # turns played before it
    colour: int
    action: str


class Result(NamedTuple):
    #: The winning colour, or both colours of the winning pair; empty when no one won.
    winners: tuple[int, ...]
    #: Partnership: the pair won before either opponent had four pawns home.
    double_game: bool = False
    scores: dict[int, int] | None = None
    #: Patience Sorry: "success" or "failure".
    patience: str | None = None
    reason: str = ""


class _State(NamedTuple):
    position: Position
    turn: int
    phase: Phase
    card: str | None
    options: Options | None
    #: How many lines of the game's turn list belong to this state (later ones were undone).
    turns: int
    doubled: int = 0
    caller: int = -1
    waiting: frozenset[int] = frozenset()  # players still to answer a double
    accepted: frozenset[int] = frozenset()
    dropped: frozenset[int] = frozenset()
    resume: Phase = _DRAW  # the phase to return to after a double
    result: Result | None = None


class Game:
    """The rules of one game, applied event by event."""

    def __init__(self, config: GameConfig | None = None, position: Position | None = None) -> None:
        """A new game; ``position`` sets up the board other than the variant's usual start (a
        puzzle, a lesson, a test): it must hold exactly the playing colours."""
        self.config = config or GameConfig()
        self.config.check()
        self.edition: Edition = with_house_rules(
            get_edition(self.config.edition), parse_house_rules(self.config.house_rules)
        )
        self.patience = self.config.variant == Variant.PATIENCE
        self.rules = Rules(self.edition, self.config.teams)
        self.order = self.config.turn_order
        if position is None:
            position = Position.initial(
                self.order, self.config.pawns_each, on_circle=self.config.variant == Variant.POINTS
            )
        else:
            position.validate()
            if set(position.colours) != set(self.order):
                raise GameError("the position's colours are not the game's players")
        self._state = _State(position, self.order[0], _DRAW, None, None, 0)
        # Turns are appended to one list, not copied into each state: a state knows how many of
        # them are its own, so undoing needs no copies and a long game no quadratic work.
        self._turns: list[Turn] = []
        self._history: tuple[Turn, ...] = ()
        self._undo: list[tuple[_State, Event]] = []
        self.events: list[Event] = []
        # Who plays after whom while nobody has dropped out (every game but a doubled one).
        self._after = {c: self.order[(i + 1) % len(self.order)] for i, c in enumerate(self.order)}

    # -- reading ------------------------------------------------------------------------------

    @property
    def position(self) -> Position:
        return self._state.position

    @property
    def turn(self) -> int:
        return self._state.turn

    @property
    def phase(self) -> Phase:
        return self._state.phase

    @property
    def card(self) -> str | None:
        return self._state.card

    @property
    def options(self) -> Options | None:
        return self._state.options

    @property
    def legal(self) -> list[Move]:
        options = self._state.options
        return options.moves if options is not None and self.phase == _MOVE else []

    @property
    def history(self) -> tuple[Turn, ...]:
        count = self._state.turns
        if len(self._history) != count or (
            count and self._history[-1] is not self._turns[count - 1]
        ):
            self._history = tuple(self._turns[:count])
        return self._history

    @property
    def result(self) -> Result | None:
        return self._state.result

    @property
    def doubled(self) -> int:
        return self._state.doubled

    @property
    def waiting_for(self) -> frozenset[int]:
        """During a double: the players who have still to accept or drop."""
        return self._state.waiting

    @property
    def active_players(self) -> tuple[int, ...]:
        return tuple(c for c in self.order if c not in self._state.dropped)

    @property
    def over(self) -> bool:
        return self._state.phase == _OVER

    def can_undo(self) -> bool:
        return bool(self._undo)

    def doublings(self) -> list[Doubling]:
        """Point play: every double called and every answer to one, in the game as it stands
        (undone ones left out), each numbered by its double (0 for the first called) and the
        turns played before it: what boards of a remote game compare."""
        found: list[Doubling] = []
        called = -1
        for state, event in self._undo:
            if event.kind == EventKind.DOUBLE:
                called += 1
            elif event.kind not in (EventKind.ACCEPT, EventKind.DROP):
                continue
            found.append(Doubling(called, state.turns, event.colour, str(event.kind)))
        return found

    # -- events -------------------------------------------------------------------------------

    def draw(self, card: object) -> Options:
        """The player whose turn it is draws ``card`` (point play: plays it from the hand);
        ``card`` as :func:`~.cards.parse_card` reads it, anything else a ValueError.

        A card with no legal move is forfeited at once ("If it is impossible to do either, the
        move must be forfeited"); in point play it is the dead hand's discard.
        """
        # A card name already (nearly always) is kept quick.
        card = card if type(card) is str and card in DRAW_RANK else parse_card(card)
        state = self._state
        if state.phase != _DRAW:
            _require(self, _DRAW, "draw a card")
        rules = self.rules
        options = legal_options(state.position, state.turn, card, rules.edition, rules.teams)
        event = _new(Event, (EventKind.DRAW, state.turn, card, None))
        self._undo.append((state, event))
        self.events.append(event)
        self._state = tuple.__new__(
            _State, (state.position, state.turn, _MOVE, card, options, *state[5:])
        )
        if not options.moves:
            # Point play's dead hand: "his turn then ends" (000), "your turn ends" (001), even
            # for a discarded 2; a 2 gives its extra card only when it is played.
            if self.config.variant == Variant.POINTS:
                _finish_turn(self, DISCARD, None, again=False)
            else:
                _finish_turn(self, FORFEIT, None, options.again)
        return options

    def play(self, move: Move | str) -> Move:
        """Play one of the legal moves for the card drawn (a Move or its notation)."""
        state = self._state
        if state.phase != _MOVE:
            _require(self, _MOVE, "move")
        assert state.options is not None
        # One of the generated moves itself (the usual case) needs no search and no check.
        for candidate in state.options.moves:
            if candidate is move:
                chosen = move
                break
        else:
            chosen = _find_legal(self, move)
        notation = move_text(chosen)
        event = _new(Event, (EventKind.MOVE, state.turn, state.card, notation))
        self._undo.append((state, event))
        self.events.append(event)
        _finish_turn(self, notation, chosen, state.options.again)
        return chosen

    def forfeit(self) -> None:
        """End the turn without moving, where the rules let the player decline (an 11)."""
        _require(self, _MOVE, "forfeit")
        state = self._state
        assert state.options is not None
        if not state.options.forfeit:
            raise GameError(
                f"a {state.card} with a legal move must be played "
                "(the rule books allow declining only an 11 that cannot move forward)"
            )
        self._push(Event(EventKind.FORFEIT, state.turn, state.card))
        _finish_turn(self, FORFEIT, None, state.options.again)

    def double(self, colour: int | str) -> None:
        """Point play: ``colour`` calls "double" (or "re-double")."""
        caller = _player(self, colour)
        if self.config.variant != Variant.POINTS or self.edition.scoring.drop_out_win is None:
            raise GameError("doubling belongs to point play in the classic editions")
        state = self._state
        if state.phase not in (_DRAW, _MOVE):
            raise GameError(f"cannot double now (the game is in its {state.phase} phase)")
        others = frozenset(c for c in self.active_players if c != caller)
        self._push(Event(EventKind.DOUBLE, caller))
        self._state = state._replace(
            phase=_DOUBLE,
            caller=caller,
            waiting=others,
            accepted=frozenset(),
            resume=state.phase,
        )

    def accept(self, colour: int | str) -> None:
        _answer(self, colour, EventKind.ACCEPT)

    def drop(self, colour: int | str) -> None:
        _answer(self, colour, EventKind.DROP)

    def undo(self) -> Event:
        """Take back the last event; the undo itself is kept in the events."""
        if not self._undo:
            raise GameError("nothing to undo")
        self._state, undone = self._undo.pop()
        self.events.append(Event(EventKind.UNDO))
        return undone

    def apply(self, event: Event) -> None:
        """Apply a recorded event (replaying a game record)."""
        if event.kind == EventKind.DRAW:
            if event.colour != self.turn and self.phase == _DRAW:
                raise GameError(f"recorded draw by {COLOURS[event.colour]} out of turn")
            self.draw(event.card or "")
        elif event.kind == EventKind.MOVE:
            self.play(event.move or "")
        elif event.kind == EventKind.FORFEIT:
            self.forfeit()
        elif event.kind in (EventKind.DOUBLE, EventKind.ACCEPT, EventKind.DROP):
            getattr(self, event.kind)(event.colour)
        elif event.kind == EventKind.UNDO:
            self.undo()
        else:
            raise GameError(f"unknown event kind {event.kind!r}")

    @classmethod
    def replay(cls, config: GameConfig, events: Iterable[Event]) -> Game:
        game = cls(config)
        for number, event in enumerate(events, 1):
            try:
                game.apply(event)
            except (GameError, NotationError, ValueError) as error:
                message = f"event {number} ({event.kind}) cannot be replayed: {error}"
                raise GameError(message) from None
        return game

    def _push(self, event: Event) -> None:
        self._undo.append((self._state, event))
        self.events.append(event)


_new = tuple.__new__


def _patience_result(position: Position, colours: Sequence[int]) -> Result | None:
    """Patience Sorry: "when two men of each color are Home, two of each color are in Safety".

    "The game does not 'come out' if the third man of one color enters Home before the fourth
    man of the other color has entered Safety."
    """
    home = {c: position.count(c, HOME) for c in colours}
    safe = {c: sum(1 for p in position.pawns(c) if S1 <= p <= S5) for c in colours}
    if all(home[c] == 2 and safe[c] == 2 for c in colours):
        return Result((), patience="success", reason="two of each colour home, two in safety")
    if any(count > 2 for count in home.values()):
        return Result((), patience="failure", reason="a third pawn of one colour went home first")
    return None


# -- inside a game: its workings, as functions of it (compiled, they are called natively) --


def _require(game: Game, phase: Phase, action: str) -> None:
    if game._state.phase != phase:
        if game.phase == _OVER:
            raise GameError(f"cannot {action}: the game is over")
        raise GameError(f"cannot {action} now: waiting for {_waiting_text(game)}")


def _waiting_text(game: Game) -> str:
    state = game._state
    if state.phase == _DRAW:
        return f"{COLOURS[state.turn]} to draw a card"
    if state.phase == _MOVE:
        return f"{COLOURS[state.turn]} to play the {state.card}"
    if state.phase == _DOUBLE:
        return "answers to the double from " + ", ".join(COLOURS[c] for c in state.waiting)
    return "nothing"


def _player(game: Game, colour: int | str) -> int:
    value = parse_colour(colour) if isinstance(colour, str) else colour
    if value not in game.active_players:
        raise GameError(f"{COLOURS[value]} is not playing")
    return value


def _find_legal(game: Game, move: Move | str) -> Move:
    state = game._state
    candidate = (
        parse_move(move, state.position, game.config.teams) if isinstance(move, str) else move
    )
    legal = state.options.moves if state.options else []
    if any(candidate is m for m in legal) or candidate in legal:
        return candidate
    # A split 7 written in another order that ends the same way is the same play.
    if (
        state.card == "7"
        and len(candidate.steps) > 1
        and all(s.kind == StepKind.FORWARD for s in candidate.steps)
        and sum(len(s.path) for s in candidate.steps) == 7
        and any(m.after == candidate.after and len(m.steps) > 1 for m in legal)
    ):
        return candidate
    raise GameError(f"{move_text(candidate)} is not a legal move for the {state.card}")


def _finish_turn(game: Game, label: str, move: Move | None, again: bool) -> None:
    state = game._state
    assert state.card is not None
    after = state.position if move is None else move.after
    turns = game._turns
    if len(turns) > state.turns:
        del turns[state.turns :]  # turns undone since
    turns.append(_new(Turn, (state.turn, state.card, label, state.position, after)))
    # Only a move can end the game, and only for the colours it moved; a colour whose lowest
    # place (places are sorted) is not HOME has a pawn out: that settles nearly every turn.
    result = None
    if move is not None:
        steps = move.steps
        if len(steps) == 1:  # no generator expression for the usual one-pawn move
            maybe_won = after[steps[0][0]][0] == HOME  # type: ignore[index]
        else:
            maybe_won = any(after[s[0]][0] == HOME for s in steps)  # type: ignore[index]
        if maybe_won or game.patience:
            result = _result(game, after, {s.colour for s in steps})
    if result is not None:
        phase, turn = _OVER, state.turn
    else:
        phase = _DRAW
        if again:
            turn = state.turn
        elif state.dropped:
            turn = _next_player(game, state.turn, state.dropped)
        else:
            turn = game._after[state.turn]
    # Built directly rather than by _replace, which costs more than the rest of a turn.
    game._state = tuple.__new__(
        _State,
        (after, turn, phase, None, None, state.turns + 1, *state[6:12], result),
    )


def _next_player(game: Game, colour: int, dropped: frozenset[int]) -> int:
    order = game.order
    index = order.index(colour)
    for step in range(1, len(order) + 1):
        candidate = order[(index + step) % len(order)]
        if candidate not in dropped:
            return candidate
    return colour


def _answer(game: Game, colour: int | str, answer: EventKind) -> None:
    player = _player(game, colour)
    state = game._state
    if state.phase != _DOUBLE or player not in state.waiting:
        raise GameError(f"{COLOURS[player]} has no double to answer")
    game._push(Event(answer, player))
    waiting = state.waiting - {player}
    accepted = state.accepted | {player} if answer == EventKind.ACCEPT else state.accepted
    dropped = state.dropped | {player} if answer == EventKind.DROP else state.dropped
    state = state._replace(waiting=waiting, accepted=accepted, dropped=dropped)
    if waiting:
        game._state = state
        return
    if not accepted:
        # "If all players drop out on a double ... the game ends, and the player calling the
        # double wins twenty-five points."
        scores = drop_out_scores(game.edition, game.order, state.caller)
        result = Result((state.caller,), scores=scores, reason="every other player dropped")
        game._state = state._replace(phase=_OVER, result=result, card=None, options=None)
        return
    state = state._replace(doubled=state.doubled + 1, phase=state.resume)
    if state.turn in state.dropped:
        # The player to move dropped out: the card goes unplayed and play passes on.
        state = state._replace(
            phase=_DRAW,
            card=None,
            options=None,
            turn=_next_player(game, state.turn, dropped),
        )
    game._state = state


def _result(game: Game, position: Position, moved: set[int]) -> Result | None:
    if game.patience:
        return _patience_result(position, game.order)
    if game.config.teams:
        for colour in moved:
            pair = (colour, PARTNER[colour])
            if all(position.all_home(c) for c in pair):
                opponents = [c for c in game.order if c not in pair]
                double = game.edition.double_team_win and not any(
                    position.all_home(c) for c in opponents
                )
                return Result(tuple(sorted(pair)), double, reason="all eight pawns home")
        return None
    for colour in moved:
        if position.all_home(colour):
            scores = None
            if game.config.variant == Variant.POINTS:
                scores = final_scores(game.edition, position, colour, game._state.doubled)
                for quitter in game._state.dropped:
                    scores[quitter] = 0
            return Result((colour,), scores=scores, reason="all pawns home")
    return None

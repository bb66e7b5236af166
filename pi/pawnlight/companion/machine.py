"""The companion: the turn loop of a game on a physical board.

Inputs in (sensor readings, card tags, buttons, ticks, commands from the web page), effects out
(LED frames, records to write, buzzes). One owner thread calls it, one input at a time, so it
needs no locks; it reads time only from the inputs, so tests drive it with made-up timestamps.

Phases, as the status page shows them:

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

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..board.layout import Layout
from ..board.recognise import (
    Ambiguous,
    Decision,
    Mismatch,
    Recognised,
    Recogniser,
    Takeback,
    Waiting,
)
from ..rules.board import COLOURS, parse_colour
from ..rules.cards import leader_draw
from ..rules.game import DOUBLE, MOVE, OVER, Game, GameConfig, GameError
from ..rules.house_rules import parse_house_rules
from ..rules.match import Match
from ..rules.moves import Move
from ..rules.notation import NotationError, parse, text
from ..rules.position import Position
from .deck import CardDeck, DeckError, Enrolment
from .service import CommandRefused as CommandError
from .signals import (
    Buzz,
    CardScanned,
    Effect,
    FinishRecord,
    Input,
    LinkChanged,
    Pressed,
    Reading,
    RecordEvent,
    SaveDeck,
    ShowLeds,
    StartRecord,
    StatusLight,
    Tick,
)

#: Seconds the board must stay at the previous position before a move is taken back.
TAKEBACK_HOLD = 1.5
#: Frames a second at most for LED animations (blinking, breathing, the celebration).
ANIMATION_RATE = 25

IDLE, ENROL, LEADER, SETUP, DRAW, CHOOSE, OVER_PHASE = (
    "idle",
    "enrol",
    "leader",
    "setup",
    "draw",
    "choose",
    "over",
)


@dataclass(frozen=True)
class Settings:
    brightness: float = 0.6  # 0..1, applied to every LED frame
    settle: float = 0.3  # seconds a board must be still before a move is accepted


@dataclass
class LeaderDraw:
    """The leader draw in progress: who still has to scan, what each drew."""

    config: GameConfig
    drawing: list[str]  # colours still to scan, in seat order
    draws: dict[str, str]
    rounds: int = 1


class Companion:
    """The turn loop. See the module docstring for the phases."""

    def __init__(
        self,
        layout: Layout,
        deck: CardDeck,
        settings: Settings | None = None,
        frames: Callable[[Companion, float], tuple] | None = None,
    ) -> None:
        self.layout = layout
        self.deck = deck
        self.settings = settings or Settings()
        self._frames = frames
        self.match: Match | None = None
        self.phase = IDLE
        self.recogniser: Recogniser | None = None
        self.decision: Decision = Waiting()
        self.reading: tuple[int, ...] | None = None
        self.link_up = False
        self.link_detail = "not connected"
        self.firmware: str | None = None
        self.message = "Start a game from the status page."
        self.warning: str | None = None
        self.enrolment: Enrolment | None = None
        self.leader: LeaderDraw | None = None
        self.choices: tuple[Move, ...] = ()
        self.choice_unchanged = False
        self.scanned_uid: str | None = None
        self.last_frame: tuple | None = None
        self.last_frame_at = 0.0
        self.takeback_since: float | None = None
        #: Colours played by the computer: colour -> (spec, Player).
        self.computer: dict[int, tuple[str, Any]] = {}
        #: The one move lit for a person to make: the computer's choice, or a hint.
        self.guided: Move | None = None
        self.guided_by = ""
        self.now = 0.0

    # -- reading ------------------------------------------------------------------------------

    @property
    def game(self) -> Game | None:
        return self.match.current if self.match is not None else None

    def previous_position(self) -> Position | None:
        """The position before the last move that changed the board (for takebacks)."""
        game = self.game
        if game is None:
            return None
        for turn in reversed(game.history):
            if turn.before != turn.after:
                return turn.before
        return None

    # -- inputs -------------------------------------------------------------------------------

    def handle(self, item: Input) -> list[Effect]:
        # Inputs come from several threads: a reading stamped a moment before the last tick
        # may arrive after it. Time never goes backwards for the recogniser.
        self.now = max(self.now, item.at)
        effects: list[Effect] = []
        if isinstance(item, Reading):
            self.reading = item.values
            if self.recogniser is not None:
                self.decision = self.recogniser.feed(item.values, self.now)
                effects += self._decided()
        elif isinstance(item, Tick):
            if self.recogniser is not None and self.reading is not None:
                self.decision = self.recogniser.tick(self.now)
                effects += self._decided()
        elif isinstance(item, CardScanned):
            effects += self._card(item.uid)
        elif isinstance(item, Pressed):
            effects += self._button(item.button)
        elif isinstance(item, LinkChanged):
            self.link_up, self.link_detail, self.firmware = item.up, item.detail, item.firmware
            effects.append(StatusLight("ok" if item.up else "link-down"))
        # Animations (blinks, breathing) change the frame on every tick: send those at most
        # ANIMATION_RATE times a second; anything that changed the game goes out at once.
        animating = isinstance(item, Tick) and not effects
        return effects + self._lights(animating)

    def command(self, name: str, args: Mapping[str, Any], at: float) -> tuple[dict, list[Effect]]:
        """A command from the web page (PIN checked there); CommandError when refused."""
        self.now = max(self.now, at)
        handler = getattr(self, f"_cmd_{name}", None)
        if handler is None:
            raise CommandError(f"unknown command {name!r}", 404)
        reply, effects = handler(args)
        return reply, effects + self._lights()

    # -- cards --------------------------------------------------------------------------------

    def _card(self, uid: str) -> list[Effect]:
        uid = uid.upper()
        if uid == self.scanned_uid:
            return []  # the same tag still on (or put back on) the reader: ignore
        self.scanned_uid = uid
        if self.phase == ENROL:
            return self._enrol_card(uid)
        try:
            card, warning = self.deck.identify(uid)
        except DeckError as error:
            self.warning = str(error)
            return [Buzz("illegal")]
        if self.phase == LEADER:
            return self._leader_card(uid, card)
        game = self.game
        if self.phase != DRAW or game is None:
            self.warning = f"a {card} was scanned, but no card is wanted now"
            return [Buzz("illegal")]
        self.warning = warning
        colour = COLOURS[game.turn]
        options = game.draw(card)
        self.deck.played_card(uid)
        effects: list[Effect] = [RecordEvent(game.events[-1])]
        if game.phase == MOVE and game.turn in self.computer:
            return effects + self._computer_move(card, options)
        if game.phase == MOVE:
            self.phase = MOVE
            self.message = f"{colour} plays the {card}: make the move lit on the board"
            self._watch(options)
        else:
            last = game.history[-1]
            self.message = f"{colour} drew a {card}: no move possible ({last.text})" + (
                ", draw again" if options.again else ""
            )
            effects += self._after_turn()
        return effects

    def _computer_move(self, card: str, options) -> list[Effect]:
        """A computer seat chooses; a person then makes exactly that move on the board."""
        from ..players import view_of

        game = self.game
        assert game is not None
        colour = COLOURS[game.turn]
        spec, player = self.computer[game.turn]
        move = player.choose(view_of(game), card, options)
        if move is None:  # it declines an 11 that cannot go forward
            game.forfeit()
            self.message = f"{colour} (computer) declines the {card}"
            return [RecordEvent(game.events[-1]), *self._after_turn()]
        self.phase = MOVE
        self.guided, self.guided_by = move, f"{colour} (computer, {spec})"
        self.message = f"{self.guided_by} plays {text(move)}: please make the move lit for it"
        self._watch([move])
        return [Buzz("turn")]

    def _enrol_card(self, uid: str) -> list[Effect]:
        assert self.enrolment is not None
        try:
            card = self.enrolment.scan(uid)
        except DeckError as error:
            self.warning = str(error)
            return [Buzz("illegal")]
        self.warning = None
        if self.enrolment.done:
            self.deck.uids = dict(self.enrolment.scanned)
            self.deck.shuffled()
            self.enrolment = None
            self.phase = IDLE if self.game is None else self._game_phase()
            self.message = "The pack is enrolled."
            return [SaveDeck(), Buzz("confirm")]
        self.message = f"{card} enrolled; {self.enrolment.prompt()}"
        return [Buzz("turn")]

    def _leader_card(self, uid: str, card: str) -> list[Effect]:
        draw = self.leader
        assert draw is not None
        colour = draw.drawing.pop(0)
        draw.draws[colour] = card
        if draw.drawing:
            self.message = f"{colour} drew a {card}; {draw.drawing[0]}, scan a card"
            return [Buzz("turn")]
        best = leader_draw(draw.draws)
        if len(best) > 1:
            draw.drawing = list(best)
            draw.draws = {}
            draw.rounds += 1
            self.message = f"{' and '.join(best)} tie: draw again, {best[0]} first"
            return [Buzz("turn")]
        leader = best[0]
        players = [p for p in draw.config.players if p != leader]
        config = replace(draw.config, players=(leader, *players))
        self.leader = None
        self.deck.shuffled()  # the drawn cards go back into the pack
        effects = self._start(config)
        self.message = f"{leader} drew the highest card and leads. " + self.message
        return effects

    # -- buttons ------------------------------------------------------------------------------

    def _button(self, button: str) -> list[Effect]:
        try:
            if button == "undo":
                return self._cmd_undo({})[1]
            if button == "new_game":
                game = self.game
                if game is None:
                    raise CommandError("no game to restart: start one from the status page")
                return self._cmd_new_game({"config": game.config})[1]
            if button == "confirm":
                return self._confirm()
            if button == "hint":
                reply, effects = self._cmd_hint({})
                if reply["hint"] is None:
                    self.warning = "no hint: this card has no move to suggest"
                return effects
        except CommandError as error:
            self.warning = str(error)
            return [Buzz("illegal")]
        return []

    def _confirm(self) -> list[Effect]:
        """The confirm button: take the first offered choice, decline an 11, or play on."""
        if self.phase == CHOOSE and self.choices:
            return self._cmd_resolve({"move": text(self.choices[0])})[1]
        game = self.game
        if self.phase == MOVE and game is not None and game.options and game.options.forfeit:
            return self._cmd_forfeit({})[1]
        if self.phase == OVER_PHASE:
            return self._cmd_next_game({})[1]
        raise CommandError("nothing to confirm now")

    # -- recognition --------------------------------------------------------------------------

    def _watch(self, options=(), guide_only: bool = False) -> None:
        """Start recognising on the current position (with the card's moves, if any)."""
        game = self.game
        assert game is not None
        self.recogniser = Recogniser(
            self.layout,
            game.position,
            options,
            previous=None if guide_only else self.previous_position(),
            settle=self.settings.settle,
            patience=max(2.0, self.settings.settle),
        )
        self.decision = Waiting()
        if self.reading is not None:
            self.decision = self.recogniser.feed(self.reading, self.now)

    def _decided(self) -> list[Effect]:
        decision = self.decision
        game = self.game
        if game is None:
            return []
        if self.phase == SETUP:
            if self._board_matches():
                self.phase = self._game_phase()
                self.message = self._phase_message()
                self._watch(game.options if game.phase == MOVE else ())
                return [Buzz("turn")]
            return []
        if isinstance(decision, Recognised) and self.phase == MOVE:
            return self._play(decision.move)
        if isinstance(decision, Ambiguous) and self.phase == MOVE:
            self.phase = CHOOSE
            self.choices = decision.moves
            self.choice_unchanged = decision.unchanged
            self.message = "The board fits more than one move: say which one on the page"
            return [Buzz("turn")]
        if isinstance(decision, Takeback) and self.phase in (DRAW, MOVE, CHOOSE):
            # Half-way through a move the board can pass through the last position (a pawn
            # bumped by the mover put back in START first): a takeback must be held longer.
            if self.takeback_since is None:
                self.takeback_since = self.now
            if self.now - self.takeback_since >= TAKEBACK_HOLD:
                self.takeback_since = None
                return self._take_back()
            return []
        self.takeback_since = None
        if isinstance(decision, Mismatch) and self.phase == CHOOSE:
            # The board moved on from the ambiguous result: back to recognising.
            self.phase = MOVE
            self.choices = ()
        return []

    def _board_matches(self) -> bool:
        recogniser = self.recogniser
        return recogniser is not None and recogniser.board == recogniser.expected

    def _play(self, move: Move) -> list[Effect]:
        game = self.game
        assert game is not None
        colour = COLOURS[game.turn]
        try:
            game.play(move)
        except GameError as error:  # cannot happen for a recognised move; keep the game safe
            self.warning = str(error)
            return [Buzz("illegal")]
        self.choices = ()
        self.guided = None
        self.message = f"{colour}: {text(move)}"
        effects: list[Effect] = [RecordEvent(game.events[-1]), Buzz("confirm")]
        return effects + self._after_turn()

    def _after_turn(self) -> list[Effect]:
        game = self.game
        assert game is not None
        self.guided = None
        if game.over:
            self.phase = OVER_PHASE
            self.recogniser = None
            result = game.result
            assert result is not None
            self.message = _result_text(result)
            return [FinishRecord(result), Buzz("win")]
        self.phase = self._game_phase()
        if self.phase == DRAW:
            self.message = f"{COLOURS[game.turn]}: scan a card"
        self._watch(())
        return [Buzz("turn")]

    def _take_back(self) -> list[Effect]:
        """The board went back to before the last move: undo it (and any card since)."""
        game = self.game
        assert game is not None
        effects: list[Effect] = []
        while game.can_undo():
            undone = game.undo()
            effects.append(RecordEvent(game.events[-1]))
            if undone.kind == "move":
                break
        self.choices = ()
        self.phase = self._game_phase()
        self.message = "Move taken back. " + self._phase_message()
        self._watch(game.options if game.phase == MOVE else ())
        return [*effects, Buzz("turn")]

    def _game_phase(self) -> str:
        game = self.game
        if game is None:
            return IDLE
        if game.phase == OVER:
            return OVER_PHASE
        if game.phase == DOUBLE:
            return "double"
        return MOVE if game.phase == MOVE else DRAW

    def _phase_message(self) -> str:
        game = self.game
        if game is None:
            return "Start a game from the status page."
        phase = self._game_phase()
        if phase == MOVE:
            return f"{COLOURS[game.turn]} plays the {game.card}: make the move lit on the board"
        if phase == DRAW:
            return f"{COLOURS[game.turn]}: scan a card"
        if phase == "double":
            waiting = ", ".join(COLOURS[c] for c in sorted(game.waiting_for))
            return f"a double was called: {waiting} accept or drop"
        return _result_text(game.result) if game.result else ""

    # -- commands -----------------------------------------------------------------------------

    def _start(self, config: GameConfig, match: bool = False) -> list[Effect]:
        try:
            if match and self.match is not None:
                self.match.next_game()
            else:
                self.match = Match(config)
        except (GameError, ValueError) as error:
            raise CommandError(str(error), 400) from None
        game = self.game
        assert game is not None
        self.phase = SETUP
        self.choices = ()
        self.warning = None
        self.message = "Set up the board as lit, then play: " + self._phase_message()
        self._watch((), guide_only=True)
        computer = tuple((COLOURS[c], spec) for c, (spec, _) in sorted(self.computer.items()))
        effects: list[Effect] = [StartRecord(game.config, computer=computer)]
        effects += self._decided()
        return effects

    def _cmd_new_game(self, args: Mapping[str, Any]) -> tuple[dict, list[Effect]]:
        config = args.get("config") or _config_from(args)
        if "config" not in args:
            self.computer = _computer_seats(args.get("computer", {}), config)
        if self.phase == ENROL:
            raise CommandError("finish or cancel the pack enrolment first")
        effects: list[Effect] = []
        if self.game is not None and not self.game.over:
            effects.append(FinishRecord(None))  # the old game is abandoned, kept in the journal
        if not self.deck.enrolled:
            raise CommandError("enrol the pack of cards first (Enrol on the owner's page)")
        if args.get("draw_leader"):
            config.check()
            self.match = None
            self.leader = LeaderDraw(config, list(config.players), {})
            self.phase = LEADER
            self.recogniser = None
            self.message = f"Leader draw: {config.players[0]}, scan a card"
            return {"ok": True, "phase": self.phase}, effects
        effects += self._start(config)
        return {"ok": True, "phase": self.phase}, effects

    def _cmd_next_game(self, args: Mapping[str, Any]) -> tuple[dict, list[Effect]]:
        game = self.game
        if game is None or not game.over or self.match is None:
            raise CommandError("the next game starts when this one is over")
        return {"ok": True}, self._start(game.config, match=True)

    def _cmd_undo(self, args: Mapping[str, Any]) -> tuple[dict, list[Effect]]:
        game = self.game
        if game is None or not game.can_undo():
            raise CommandError("nothing to undo")
        undone = game.undo()
        self.choices = ()
        effects: list[Effect] = [RecordEvent(game.events[-1])]
        self.phase = SETUP
        self.message = f"Undone: {_event_text(undone)}. Put the board back as lit."
        self._watch((), guide_only=True)
        effects += self._decided()
        return {"ok": True, "undone": _event_text(undone)}, effects

    def _cmd_resolve(self, args: Mapping[str, Any]) -> tuple[dict, list[Effect]]:
        game = self.game
        if self.phase != CHOOSE or game is None:
            raise CommandError("no move to choose between now")
        wanted = args.get("move")
        if wanted is None and self.choice_unchanged and args.get("none"):
            self.phase = MOVE
            self.choices = ()
            self._watch(game.options)
            return {"ok": True}, []
        if not isinstance(wanted, str):
            raise CommandError('say which move: {"move": "<notation>"}', 400)
        try:
            move = parse(wanted, game.position, game.config.teams)
        except NotationError as error:
            raise CommandError(str(error), 400) from None
        chosen = next((m for m in self.choices if m.after == move.after), None)
        if chosen is None:
            offered = ", ".join(text(m) for m in self.choices)
            raise CommandError(f"{wanted} is not one of the moves offered ({offered})", 400)
        return {"ok": True, "played": text(chosen)}, self._play(chosen)

    def _cmd_hint(self, args: Mapping[str, Any]) -> tuple[dict, list[Effect]]:
        """Light the move pawnlight suggests for the card waiting to be played."""
        from ..players import hint

        game = self.game
        if game is None or self.phase != MOVE or game.turn in self.computer:
            raise CommandError("a hint is for a person with a card to play")
        move = hint(game)
        if move is None:
            return {"ok": True, "hint": None}, []
        self.guided, self.guided_by = move, "hint"
        self.message = f"Hint for {COLOURS[game.turn]}: {text(move)}"
        return {"ok": True, "hint": text(move)}, []

    def _cmd_forfeit(self, args: Mapping[str, Any]) -> tuple[dict, list[Effect]]:
        game = self.game
        if game is None or self.phase != MOVE:
            raise CommandError("no card to decline now")
        try:
            game.forfeit()
        except GameError as error:
            raise CommandError(str(error)) from None
        effects: list[Effect] = [RecordEvent(game.events[-1])]
        self.message = f"{COLOURS[game.history[-1].colour]} declines the {game.history[-1].card}"
        return {"ok": True}, effects + self._after_turn()

    def _doubling(self, action: str, args: Mapping[str, Any]) -> tuple[dict, list[Effect]]:
        game = self.game
        if game is None:
            raise CommandError("no game")
        colour = args.get("colour")
        if not isinstance(colour, str):
            raise CommandError('name the colour: {"colour": "red"}', 400)
        try:
            getattr(game, action)(parse_colour(colour))
        except (GameError, ValueError) as error:
            raise CommandError(str(error)) from None
        effects: list[Effect] = [RecordEvent(game.events[-1])]
        if game.over:
            effects += self._after_turn()
        else:
            self.phase = self._game_phase()
            self.message = self._phase_message()
        return {"ok": True, "doubled": game.doubled}, effects

    def _cmd_double(self, args):
        return self._doubling("double", args)

    def _cmd_accept(self, args):
        return self._doubling("accept", args)

    def _cmd_drop(self, args):
        return self._doubling("drop", args)

    def _cmd_enrol(self, args: Mapping[str, Any]) -> tuple[dict, list[Effect]]:
        if self.phase not in (IDLE, OVER_PHASE, ENROL):
            raise CommandError("enrol the pack between games")
        self.enrolment = Enrolment.start(bool(args.get("extra_one", False)))
        self.phase = ENROL
        self.recogniser = None
        self.scanned_uid = None
        self.message = "Enrolling the pack: " + self.enrolment.prompt()
        return {"ok": True, "prompt": self.enrolment.prompt()}, []

    def _cmd_enrol_cancel(self, args: Mapping[str, Any]) -> tuple[dict, list[Effect]]:
        if self.phase != ENROL:
            raise CommandError("no enrolment to cancel")
        self.enrolment = None
        self.phase = IDLE if self.game is None else self._game_phase()
        self.message = "Enrolment cancelled; the pack is as it was."
        return {"ok": True}, []

    def _cmd_settings(self, args: Mapping[str, Any]) -> tuple[dict, list[Effect]]:
        settings = self.settings
        if "brightness" in args:
            value = args["brightness"]
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
                raise CommandError("brightness is a number from 0 to 1", 400)
            settings = replace(settings, brightness=float(value))
        if "settle" in args:
            value = args["settle"]
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise CommandError("settle is a number of seconds", 400)
            if not 0.1 <= value <= 2.0:
                raise CommandError("settle must be between 0.1 and 2 seconds", 400)
            settings = replace(settings, settle=float(value))
        self.settings = settings
        return {"ok": True, "brightness": settings.brightness, "settle": settings.settle}, []

    # -- resume -------------------------------------------------------------------------------

    def resume(self, game: Game, computer: Mapping[str, str] | None = None) -> list[Effect]:
        """Carry on with a game reloaded from the journal: first the board must match it.

        ``computer`` is the record's colours played by the computer ({"blue": "heuristic"}); a
        seat that no longer makes sense (a damaged header) is dropped with a warning rather than
        stopping the game.
        """
        try:
            self.computer = _computer_seats(computer or {}, game.config)
        except CommandError as error:
            self.computer = {}
            self.warning = f"the computer seats were not restored: {error}"
        self.match = Match(game.config, first=game)
        self.phase = SETUP
        self.message = "Game resumed. Set the board as lit, then play on: " + self._phase_message()
        self._watch((), guide_only=True)
        return self._decided() + self._lights()

    # -- LEDs ---------------------------------------------------------------------------------

    def _lights(self, animating: bool = False) -> list[Effect]:
        if self._frames is None:
            return []
        if animating and self.now - self.last_frame_at < 1 / ANIMATION_RATE:
            return []
        frame = self._frames(self, self.now)
        if frame == self.last_frame:
            return []
        self.last_frame = frame
        self.last_frame_at = self.now
        return [ShowLeds(frame)]


def _config_from(args: Mapping[str, Any]) -> GameConfig:
    players = args.get("players", ["red", "blue", "yellow", "green"])
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise CommandError("players must be a list of colour names", 400)
    teams = args.get("teams", False)
    if not isinstance(teams, bool):
        raise CommandError("teams must be true or false", 400)
    try:
        house_rules = tuple(sorted(parse_house_rules(args.get("house_rules"))))
    except ValueError as error:
        raise CommandError(str(error), 400) from None
    config = GameConfig(
        edition=args.get("edition", "hasbro-2002"),
        players=tuple(players),
        teams=teams,
        variant=args.get("variant", "standard"),
        extra_one=bool(args.get("extra_one", False)),
        house_rules=house_rules,
    )
    try:
        config.check()
    except (GameError, ValueError) as error:
        raise CommandError(str(error), 400) from None
    return config


def _computer_seats(seats: object, config: GameConfig) -> dict[int, tuple[str, Any]]:
    """``{"blue": "heuristic", "green": "strong"}`` -> players for those colours."""
    from ..players import make_player

    if not isinstance(seats, Mapping):
        raise CommandError('computer must map colours to players: {"blue": "heuristic"}', 400)
    chosen: dict[int, tuple[str, Any]] = {}
    for name, spec in seats.items():
        try:
            colour = parse_colour(name)
            if COLOURS[colour] not in config.players:
                raise ValueError(f"{name} is not playing")
            if not isinstance(spec, str):
                raise ValueError(f"say which player for {name}: random, heuristic or strong")
            chosen[colour] = (spec, make_player(spec, seed=colour))
        except ValueError as error:
            raise CommandError(str(error), 400) from None
    return chosen


def _event_text(event) -> str:
    if event.kind == "move":
        return f"{COLOURS[event.colour]}'s move {event.move}"
    if event.kind == "draw":
        return f"{COLOURS[event.colour]}'s {event.card}"
    return event.kind


def _result_text(result) -> str:
    if result.patience:
        return f"Patience Sorry: {result.patience}."
    if not result.winners:
        return "The game is over."
    names = " and ".join(COLOURS[c] for c in result.winners)
    double = " — a double game!" if result.double_game else ""
    return f"{names} won{double}"

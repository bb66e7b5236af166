"""The companion: the turn loop of a game on a physical board.

Inputs in (sensor readings, card tags, buttons, ticks, commands from the web page), effects out
(LED frames, records to write, buzzes). One owner thread calls it, one input at a time, so it
needs no locks; it reads time only from the inputs, so tests drive it with made-up timestamps.

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
from dataclasses import dataclass, replace
from typing import Any

from ..board.guidance import corrections
from ..board.health.stuck import StuckSensorDetector, pawn_cells
from ..board.layout import COLOUR, PRESENCE, Layout
from ..board.leds import Scene
from ..board.recognise import (
    Ambiguous,
    Decision,
    Mismatch,
    Recognised,
    Recogniser,
    Takeback,
    Waiting,
)
from ..board.snapshot import true_occupancy
from ..board.tracking import PawnTracker
from ..rules.board import COLOURS, parse_colour
from ..rules.cards import leader_draw
from ..rules.game import Game, GameConfig, GameError, Phase
from ..rules.house_rules import parse_house_rules
from ..rules.match import Match
from ..rules.moves import Move
from ..rules.notation import NotationError, move_text, parse_move
from ..rules.position import Position
from ..rules.words import a_card, card_words, move_words, no_move_reason
from .deck import CardDeck, DeckError, Enrolment
from .lights import picture_for
from .phases import CompanionPhase
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
    Remember,
    SaveDeck,
    ShowLeds,
    StartRecord,
    StatusLight,
    Tick,
    Trouble,
)

#: Seconds the board must stay at the previous position before a move is taken back.
TAKEBACK_HOLD = 1.5
#: Frames a second at most for LED animations (blinking, breathing, the celebration).
ANIMATION_RATE = 25
#: What the page says before any game (the status page's Owner section starts one).
NO_GAME = "No game yet: the owner starts one on the status page (Owner, with the PIN)."
#: Seconds within which the board's New game button must be pressed a second time.
NEW_GAME_CONFIRM = 3.0
#: The phases in which the board is recognised against the game (its position or the card's
#: moves); in the others nothing on the board is expected.
_WATCHING_THE_BOARD = frozenset(
    {CompanionPhase.SETUP, CompanionPhase.DRAW, CompanionPhase.MOVE, CompanionPhase.DOUBLE}
)


@dataclass(frozen=True)
class Settings:
    brightness: float = 0.6  # 0..1, applied to every LED frame
    settle: float = 0.3  # seconds a board must be still before a move is accepted
    speech: bool = False  # spoken announcements (espeak-ng on the Pi's audio out)


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
        self._colours_asked: tuple[int, ...] | None = None
        self.decision: Decision = Waiting()
        self.reading: tuple[int, ...] | None = None
        self.link_up = False
        self.link_detail = "not connected"
        self.firmware: str | None = None
        self.message = NO_GAME
        self.warning: str | None = None
        self.enrolment: Enrolment | None = None
        self.leader: LeaderDraw | None = None
        self.choices: tuple[Move, ...] = ()
        #: The board moved on while a question was open: an answer now is refused as stale.
        self.withdrawn = False
        self.choice_unchanged = False
        self.scanned_uid: str | None = None
        self.last_frame: tuple | None = None
        self.last_scene: Scene | None = None  # the animation the last frame is an instant of
        self.last_frame_at = 0.0
        self.takeback_since: float | None = None
        #: Colours played by the computer: colour -> (spec, Player).
        self.computer: dict[int, tuple[str, Any]] = {}
        #: The one move lit for a person to make: the computer's choice, or a hint.
        self.guided: Move | None = None
        self.guided_by = ""
        #: What happened on the last turn, in board words ("Red drew a 5: no pawn can go ...").
        self.news = ""
        #: Until when the board asks for a second New game press (None: not asking).
        self.asking_until: float | None = None
        self.now = 0.0
        #: Sensors that read a pawn for a long time while the rest of the board changes: what
        #: the watch suspects (board.health.stuck, as JSON for the diagnostics page).
        self.stuck_watch = StuckSensorDetector(layout)
        self.stuck: list[dict[str, Any]] = []
        self._stuck_checked = 0.0

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
            if self.recogniser is not None:
                self.decision = self.recogniser.feed(item.values, self.now)
                effects += self._decided()
        elif isinstance(item, Tick):
            self._watch_stuck(item.at)
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

    def _watch_stuck(self, at: float) -> None:
        """Once a second: a sensor stuck on "pawn" where the game has none is a warning."""
        if at - self._stuck_checked < 1.0:
            return
        self._stuck_checked = at
        game, watch = self.game, self.stuck_watch
        suspects = watch.suspects(at, pawn_cells(game.position)) if game else ()
        self.stuck = [suspect.as_json(watch.sensing, at) for suspect in suspects]
        if self.stuck and not self.warning:
            self.warning = f"a sensor may be stuck: {self.stuck[0]['text']}"

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
        if self.phase == CompanionPhase.ENROL:
            return self._enrol_card(uid)
        try:
            card, warning = self.deck.identify(uid)
        except DeckError as error:
            self.warning = str(error)
            return [Buzz("illegal")]
        if self.phase == CompanionPhase.LEADER:
            return self._leader_card(uid, card)
        game = self.game
        if self.phase != CompanionPhase.DRAW or game is None:
            self.warning = f"a {card} was scanned, but no card is wanted now"
            return [Buzz("illegal")]
        self.warning = warning
        drawer = game.turn
        colour = COLOURS[drawer].capitalize()
        options = game.draw(card)
        self.deck.played_card(uid)
        effects: list[Effect] = [_recorded(game)]
        if game.phase == Phase.MOVE and game.turn in self.computer:
            return effects + self._computer_move(card, options)
        if game.phase == Phase.MOVE:
            self._enter(CompanionPhase.MOVE)
            self.message = f"{colour} plays {a_card(card)}: make the move lit on the board"
        else:
            # A point game's discard never draws again, even of a 2.
            again = not game.over and game.turn == drawer
            self.news = f"{colour} drew {a_card(card)}: {no_move_reason(card)}" + (
                f". The 2 says {colour} draws again" if again else ""
            )
            effects += self._after_turn()
        return effects

    def _computer_move(self, card: str, options) -> list[Effect]:
        """A computer seat chooses; a person then makes exactly that move on the board."""
        from ..players import view_of

        game = self.game
        assert game is not None
        colour = COLOURS[game.turn].capitalize()
        spec, player = self.computer[game.turn]
        move = player.choose(view_of(game), card, options)
        if move is None:  # it declines an 11 that cannot go forward
            game.forfeit()
            self.news = f"{colour} (computer) declines {a_card(card)}"
            return [_recorded(game), *self._after_turn()]
        self.guided, self.guided_by = move, f"{colour} (computer, {spec})"
        self._enter(CompanionPhase.MOVE)
        self.message = (
            f"{self.guided_by} plays {a_card(card)}: {move_words(move)}. "
            "Please make the move lit for it"
        )
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
            self._enter()
            self.message = "The pack is enrolled."
            return [SaveDeck(dict(self.deck.uids)), Buzz("confirm")]
        self.message = f"{card} enrolled; {self.enrolment.prompt()}"
        return [Buzz("turn")]

    def _leader_card(self, uid: str, card: str) -> list[Effect]:
        draw = self.leader
        assert draw is not None
        colour = draw.drawing.pop(0)
        draw.draws[colour] = card
        if draw.drawing:
            self.message = f"{colour} drew a {card}; {draw.drawing[0]}, scan a card"
            return [self._remember_leader(), Buzz("turn")]
        best = leader_draw(draw.draws)
        if len(best) > 1:
            draw.drawing = list(best)
            draw.draws = {}
            draw.rounds += 1
            self.message = f"{' and '.join(best)} tie: draw again, {best[0]} first"
            return [self._remember_leader(), Buzz("turn")]
        leader = best[0]
        players = [p for p in draw.config.players if p != leader]
        config = replace(draw.config, players=(leader, *players))
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
                return self._new_game_button()
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

    def _new_game_button(self) -> list[Effect]:
        """One press during an unfinished game only asks (LEDs and buzzer); a second press
        within NEW_GAME_CONFIRM seconds ends it and starts the same game again."""
        game = self.game
        if game is None:
            raise CommandError("no game to restart: start one from the status page")
        if not game.over and self.asking_until is None:
            self.asking_until = self.now + NEW_GAME_CONFIRM
            self.warning = (
                f"New game pressed: press it again within {NEW_GAME_CONFIRM:g} s to end this game"
            )
            return [Buzz("ask")]
        self.asking_until = None
        return self._cmd_new_game({"config": game.config})[1]

    def _confirm(self) -> list[Effect]:
        """The confirm button: take the first offered choice, decline an 11, or play on."""
        if self.phase == CompanionPhase.CHOOSE and self.choices:
            return self._cmd_resolve({"move": move_text(self.choices[0])})[1]
        game = self.game
        if (
            self.phase == CompanionPhase.MOVE
            and game is not None
            and game.options
            and game.options.forfeit
        ):
            return self._cmd_forfeit({})[1]
        if self.phase == CompanionPhase.OVER:
            return self._cmd_next_game({})[1]
        raise CommandError("nothing to confirm now")

    # -- recognition --------------------------------------------------------------------------

    def _enter(self, phase: CompanionPhase | None = None) -> None:
        """Go to ``phase`` (the game's own when None) and recognise what that phase expects.

        Recognition is derived afresh from the phase and the game's card every time: the card's
        legal moves in ``move`` (only the computer's choice for a computer seat), the position
        alone in ``setup``, ``draw`` and ``double``, nothing otherwise. So no phase can inherit
        a recogniser made for another (a double answered after a restart or an undo).
        """
        self.phase = self._game_phase() if phase is None else phase
        self._colours_asked = None
        self.choices = ()
        self.withdrawn = False
        self.takeback_since = None
        game = self.game
        if self.phase != CompanionPhase.MOVE:
            self.guided = None
        if game is None or self.phase not in _WATCHING_THE_BOARD:
            self.recogniser = None
            self.decision = Waiting()
            return
        if self.phase == CompanionPhase.SETUP:
            self._watch((), guide_only=True)
        elif self.phase == CompanionPhase.MOVE:
            self._watch(self._moves_to_recognise())
        else:
            self._watch(())

    def _moves_to_recognise(self) -> list[Move]:
        game = self.game
        assert game is not None and game.phase == Phase.MOVE
        legal = game.legal
        if self.guided is not None and self.guided not in legal:
            self.guided = None
        if game.turn in self.computer:
            if self.guided is None:  # resumed, or undone back to the computer's card
                spec, player = self.computer[game.turn]
                from ..players import view_of

                assert game.card is not None and game.options is not None
                move = player.choose(view_of(game), game.card, game.options)
                if move is not None:
                    self.guided = move
                    self.guided_by = f"{COLOURS[game.turn]} (computer, {spec})"
            if self.guided is not None:
                return [self.guided]
        return legal

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

    def _follow_colours(self) -> None:
        """Presence boards: follow the colours on the board, and guide by colour where the
        board is wrong (or looks right, but a pawn of a known colour stands on another's place:
        then a swap is asked for). See board/tracking.py."""
        tracker, recogniser, game = self.pawns, self.recogniser, self.game
        if tracker is None or recogniser is None or game is None or recogniser.board is None:
            return
        tracker.follow(recogniser.board, self._colours_asked)
        decision = self.decision
        target = None
        if self.phase == CompanionPhase.SETUP:
            target = game.position
        elif isinstance(decision, Mismatch):
            target = decision.target
        if target is None:
            return
        wanted = true_occupancy(target)
        if self.phase == CompanionPhase.SETUP and tracker.setting_up:
            # Set up from whatever the board held: its pawns' colours are unknown, so none is
            # moved to a place on a guess (a green pawn into red START); each is lifted off and
            # a pawn of the right colour asked for.
            board = recogniser.board
            found = corrections(
                board, wanted, PRESENCE, blind=True, suspect=tracker.unverified(board)
            )
            if found:
                self.decision = Mismatch(found, target, None)
            return
        looks_right = self.phase == CompanionPhase.SETUP and recogniser.board == recogniser.expected
        if isinstance(decision, Mismatch) or (looks_right and tracker.contradicts(wanted)):
            found = corrections(tracker.believed(wanted), wanted, COLOUR)
            if found:
                move = decision.move if isinstance(decision, Mismatch) else None
                self.decision = Mismatch(found, target, move)
                self._colours_asked = wanted

    def _decided(self) -> list[Effect]:
        self._follow_colours()
        decision = self.decision
        game = self.game
        if game is None:
            return []
        if self.phase == CompanionPhase.SETUP:
            if self._board_matches():
                if self.pawns is not None:
                    self.pawns.reset(game.position)
                self._enter()
                self.message = self._phase_message()
                return [Buzz("turn")]
            return []
        if self.phase in (CompanionPhase.MOVE, CompanionPhase.CHOOSE):
            # The board is the authority, over a pending question too: a legal move made on it
            # is played, and the question follows what it shows now.
            if isinstance(decision, Recognised):
                return self._play(decision.move)
            if isinstance(decision, Ambiguous):
                if self.phase == CompanionPhase.CHOOSE and decision.moves == self.choices:
                    return []
                self.phase = CompanionPhase.CHOOSE
                self.choices = decision.moves
                self.choice_unchanged = decision.unchanged
                self.message = "The board fits more than one move: say which one on the page"
                return [Buzz("turn")]
        if isinstance(decision, Takeback) and self.phase in (
            CompanionPhase.DRAW,
            CompanionPhase.MOVE,
            CompanionPhase.CHOOSE,
        ):
            # Half-way through a move the board can pass through the last position (a pawn
            # bumped by the mover put back in START first): a takeback must be held longer.
            if self.takeback_since is None:
                self.takeback_since = self.now
            if self.now - self.takeback_since >= TAKEBACK_HOLD:
                self.takeback_since = None
                return self._take_back()
            return []
        self.takeback_since = None
        if self.phase == CompanionPhase.CHOOSE:
            # The board moved on from what was asked: the question is withdrawn.
            self.phase = CompanionPhase.MOVE
            self.choices = ()
            self.withdrawn = True
            self.message = self._phase_message()
        return []

    def _board_matches(self) -> bool:
        recogniser, game = self.recogniser, self.game
        if recogniser is None or game is None or recogniser.board != recogniser.expected:
            return False
        # A presence board that looks right may still have pawns of known colours swapped.
        return self.pawns is None or not self.pawns.contradicts(true_occupancy(game.position))

    def _play(self, move: Move) -> list[Effect]:
        game = self.game
        assert game is not None
        colour = COLOURS[game.turn]
        again = bool(game.options is not None and game.options.again)
        try:
            game.play(move)
        except GameError as error:  # cannot happen for a recognised move; keep the game safe
            self.warning = str(error)
            return [Buzz("illegal")]
        if self.pawns is not None:
            self.pawns.reset(game.position)  # the board shows the move, in the move's colours
        self.choices = ()
        self.guided = None
        self.news = f"{colour.capitalize()}: {move_words(move)}"
        if again and not game.over:
            self.news += f". The 2 says {colour} draws again"
        effects: list[Effect] = [_recorded(game), Buzz("confirm")]
        return effects + self._after_turn()

    def _after_turn(self) -> list[Effect]:
        game = self.game
        assert game is not None
        self.guided = None
        self._enter()
        if game.over:
            result = game.result
            assert result is not None
            said = _result_text(result)
            self.message = f"{self.news}. {said}" if self.news else said
            return [FinishRecord(result), Buzz("win")]
        self.message = self._phase_message()
        if self.news:
            self.message = f"{self.news}. {self.message[:1].upper()}{self.message[1:]}"
        return [Buzz("turn")]

    def _take_back(self) -> list[Effect]:
        """The board went back to before the last move: undo it (and any card since)."""
        game = self.game
        assert game is not None
        effects: list[Effect] = []
        while game.can_undo():
            undone = game.undo()
            effects.append(_recorded(game))
            if undone.kind == "move":
                break
        self._enter()
        self.message = "Move taken back. " + self._phase_message()
        return [*effects, Buzz("turn")]

    def _game_phase(self) -> CompanionPhase:
        game = self.game
        if game is None:
            return CompanionPhase.IDLE
        return CompanionPhase.of_game(game.phase)

    def _phase_message(self) -> str:
        game = self.game
        if game is None:
            return NO_GAME
        phase = self._game_phase()
        if phase == CompanionPhase.MOVE:
            card = a_card(game.card or "")
            return f"{COLOURS[game.turn].capitalize()} plays {card}: make the move lit on the board"
        if phase == CompanionPhase.DRAW:
            return f"{COLOURS[game.turn].capitalize()}: draw a card and scan it"
        if phase == CompanionPhase.DOUBLE:
            waiting = ", ".join(COLOURS[c] for c in sorted(game.waiting_for))
            return f"a double was called: {waiting} accept or drop"
        return _result_text(game.result) if game.result else ""

    # -- commands -----------------------------------------------------------------------------

    def _start(self, config: GameConfig, match: bool = False) -> list[Effect]:
        """Set up a game (the match's next one with ``match``) and open its record."""
        try:
            if match and self.match is not None:
                self.match.next_game()
            else:
                self.match = Match(config)
        except (GameError, ValueError) as error:
            raise CommandError(str(error), 400) from None
        game = self.game
        assert game is not None
        effects: list[Effect] = []
        if self.leader is not None:
            self.leader = None
            effects.append(Remember("leader", None))
        self.warning = None
        self.news = ""
        if self.pawns is not None:
            # The board is set up afresh (other colours, maybe): from the first full board seen
            # the pawns in START are of its colour, then they are followed.
            self.pawns.reset(game.position, seen=False, set_up=True)
        self._enter(CompanionPhase.SETUP)
        self.message = f"Set up the board as lit, then {COLOURS[game.turn]} draws the first card."
        computer = tuple((COLOURS[c], spec) for c, (spec, _) in sorted(self.computer.items()))
        effects.append(StartRecord(game.config, computer=computer, match=match))
        effects += self._decided()
        return effects

    def _new_game(
        self, config: GameConfig, match: bool = False, draw_leader: bool = False
    ) -> list[Effect]:
        """The one way a game begins, mid-game or not, alone, as a match's next game or after a
        leader draw: the game under way (if unfinished) is ended as abandoned, then the new one
        is set up (or its leader drawn first)."""
        if self.phase == CompanionPhase.ENROL:
            raise CommandError("finish or cancel the pack enrolment first")
        if not self.deck.enrolled:
            raise CommandError("enrol the pack of cards first (Enrol on the owner's page)")
        try:
            config.check()
        except (GameError, ValueError) as error:
            raise CommandError(str(error), 400) from None
        effects: list[Effect] = []
        if self.game is not None and not self.game.over:
            effects.append(FinishRecord(None))  # the old game is abandoned, kept in the journal
        if draw_leader:
            self.match = None
            self.leader = LeaderDraw(config, list(config.players), {})
            self._enter(CompanionPhase.LEADER)
            self.message = f"Leader draw: {config.players[0]}, scan a card"
            return [*effects, self._remember_leader()]
        return effects + self._start(config, match=match)

    def _cmd_new_game(self, args: Mapping[str, Any]) -> tuple[dict, list[Effect]]:
        config = args.get("config") or _config_from(args)
        if "config" not in args:
            self.computer = _computer_seats(args.get("computer", {}), config)
        effects = self._new_game(config, draw_leader=bool(args.get("draw_leader")))
        return {"ok": True, "phase": self.phase}, effects

    def _cmd_next_game(self, args: Mapping[str, Any]) -> tuple[dict, list[Effect]]:
        game = self.game
        if game is None or not game.over or self.match is None:
            raise CommandError("the next game starts when this one is over")
        return {"ok": True}, self._new_game(game.config, match=True)

    def _cmd_undo(self, args: Mapping[str, Any]) -> tuple[dict, list[Effect]]:
        game = self.game
        if game is None or not game.can_undo():
            raise CommandError("nothing to undo")
        undone = game.undo()
        self.news = ""
        effects: list[Effect] = [_recorded(game)]
        self._enter(CompanionPhase.SETUP)
        said = _event_words(undone, game)
        self.message = f"Undone: {said}. Put the board back as lit."
        effects += self._decided()
        return {"ok": True, "undone": _event_text(undone), "said": said}, effects

    def _cmd_resolve(self, args: Mapping[str, Any]) -> tuple[dict, list[Effect]]:
        game = self.game
        stale = self.phase == CompanionPhase.MOVE and self.withdrawn
        if game is None or (self.phase != CompanionPhase.CHOOSE and not stale):
            raise CommandError("no move to choose between now")
        if self.phase == CompanionPhase.MOVE:
            raise CommandError(
                "the board has changed since the question was asked: it shows none of the "
                "moves offered now; finish the move on the board"
            )
        wanted = args.get("move")
        if wanted is None and self.choice_unchanged and args.get("none"):
            self._enter(CompanionPhase.MOVE)
            return {"ok": True}, []
        if not isinstance(wanted, str):
            raise CommandError('say which move: {"move": "<notation>"}', 400)
        try:
            move = parse_move(wanted, game.position, game.config.teams)
        except NotationError as error:
            raise CommandError(str(error), 400) from None
        chosen = next((m for m in self.choices if m.after == move.after), None)
        if chosen is None:
            offered = ", ".join(move_text(m) for m in self.choices)
            raise CommandError(f"{wanted} is not one of the moves offered ({offered})", 400)
        # The question follows the board; check once more that it still shows this move.
        decision = self.decision
        if not isinstance(decision, Ambiguous) or chosen.after not in (
            m.after for m in decision.moves
        ):
            raise CommandError(f"the board no longer shows {wanted}: finish the move on the board")
        return {"ok": True, "played": move_text(chosen)}, self._play(chosen)

    def _cmd_hint(self, args: Mapping[str, Any]) -> tuple[dict, list[Effect]]:
        """Light the move pawnlight suggests for the card waiting to be played."""
        from ..players import hint

        game = self.game
        if game is None or self.phase != CompanionPhase.MOVE or game.turn in self.computer:
            raise CommandError("a hint is for a person with a card to play")
        move = hint(game)
        if move is None:
            return {"ok": True, "hint": None}, []
        self.guided, self.guided_by = move, "hint"
        self.message = f"Hint for {COLOURS[game.turn]}: {move_words(move)}"
        return {"ok": True, "hint": move_text(move)}, []

    def _cmd_forfeit(self, args: Mapping[str, Any]) -> tuple[dict, list[Effect]]:
        game = self.game
        if game is None or self.phase != CompanionPhase.MOVE:
            raise CommandError("no card to decline now")
        try:
            game.forfeit()
        except GameError as error:
            raise CommandError(str(error)) from None
        effects: list[Effect] = [_recorded(game)]
        last = game.history[-1]
        self.news = f"{COLOURS[last.colour].capitalize()} declines {a_card(last.card)}"
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
        effects: list[Effect] = [_recorded(game)]
        if game.over:
            effects += self._after_turn()
        else:
            # A board still being put right stays in setup; otherwise the game's phase, with
            # recognition made for it (an accepted double goes back to the card's moves).
            self._enter(CompanionPhase.SETUP if self.phase == CompanionPhase.SETUP else None)
            self.message = self._phase_message()
            effects += self._decided()
        return {"ok": True, "doubled": game.doubled}, effects

    def _cmd_double(self, args):
        return self._doubling("double", args)

    def _cmd_accept(self, args):
        return self._doubling("accept", args)

    def _cmd_drop(self, args):
        return self._doubling("drop", args)

    def _cmd_enrol(self, args: Mapping[str, Any]) -> tuple[dict, list[Effect]]:
        if self.phase not in (CompanionPhase.IDLE, CompanionPhase.OVER, CompanionPhase.ENROL):
            raise CommandError("enrol the pack between games")
        self.enrolment = Enrolment.start(bool(args.get("extra_one", False)))
        self._enter(CompanionPhase.ENROL)
        self.scanned_uid = None
        self.message = "Enrolling the pack: " + self.enrolment.prompt()
        return {"ok": True, "prompt": self.enrolment.prompt()}, []

    def _cmd_enrol_cancel(self, args: Mapping[str, Any]) -> tuple[dict, list[Effect]]:
        if self.phase != CompanionPhase.ENROL:
            raise CommandError("no enrolment to cancel")
        self.enrolment = None
        self._enter()
        self.message = "Enrolment cancelled; the pack is as it was."
        return {"ok": True}, []

    def _cmd_pin_lockout(self, args: Mapping[str, Any]) -> tuple[dict, list[Effect]]:
        """The web page counted too many wrong PINs from the network: say so where the
        players look (the page's warning, the buzzer, the status LED)."""
        minutes = args.get("minutes")
        if isinstance(minutes, bool) or not isinstance(minutes, int) or not 1 <= minutes <= 1440:
            raise CommandError("minutes is a whole number from 1 to 1440", 400)
        self.warning = (
            f"Too many wrong PINs were tried from the network: the owner's login is locked for "
            f"{minutes} min. If that was not you, someone on this network is guessing the PIN."
        )
        return {"ok": True}, [Buzz("illegal"), StatusLight("error")]

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
        if "speech" in args:
            if not isinstance(args["speech"], bool):
                raise CommandError("speech is true or false", 400)
            settings = replace(settings, speech=args["speech"])
        changed_settle = settings.settle != self.settings.settle
        self.settings = settings
        if changed_settle and self.phase in _WATCHING_THE_BOARD:
            self._enter(self.phase)  # recognise with the new settle time from now on
        saved = {
            "brightness": settings.brightness,
            "settle": settings.settle,
            "speech": settings.speech,
        }
        return {"ok": True, **saved}, [Remember("settings", saved)]

    def _remember_leader(self) -> Remember:
        draw = self.leader
        assert draw is not None
        config = draw.config
        return Remember(
            "leader",
            {
                "edition": config.edition,
                "variant": config.variant,
                "players": list(config.players),
                "teams": config.teams,
                "extra_one": config.extra_one,
                "computer": {COLOURS[c]: spec for c, (spec, _) in sorted(self.computer.items())},
                "drawing": list(draw.drawing),
                "draws": dict(draw.draws),
                "round": draw.rounds,
            },
        )

    # -- resume -------------------------------------------------------------------------------

    def resume(
        self,
        game: Game,
        computer: Mapping[str, str] | None = None,
        earlier: Sequence[Game] = (),
    ) -> list[Effect]:
        """Carry on with a game reloaded from the journal: first the board must match it.

        ``computer`` is the record's colours played by the computer ({"blue": "heuristic"}); a
        seat that no longer makes sense (a damaged header) is dropped with a warning rather than
        stopping the game. ``earlier``: the match's games before this one, oldest first (their
        points carry over, the game number counts them).
        """
        try:
            self.computer = _computer_seats(computer or {}, game.config)
        except CommandError as error:
            self.computer = {}
            self.warning = f"the computer seats were not restored: {error}"
        self.match = Match(game.config, first=game, earlier=earlier)
        if self.pawns is not None:
            # The board was last seen at the game's position (or part-way to the next one), or
            # still as it was before an undo not yet put back.
            self.pawns.reset(game.position, seen=False, maybe=_before_undos(game))
        self.guided = None
        if game.over:  # a match between games: its result, and the next game to start
            self._enter(CompanionPhase.OVER)
            assert game.result is not None
            self.message = _result_text(game.result)
            return self._lights()
        self._enter(CompanionPhase.SETUP)
        self.message = "Game resumed. Set the board as lit, then play on: " + self._phase_message()
        return self._decided() + self._lights()

    def restore_settings(self, saved: Mapping[str, Any]) -> None:
        """The settings last changed on the page (kept in the journal), checked as if sent again."""
        try:
            names = ("brightness", "settle", "speech")
            self._cmd_settings({k: saved[k] for k in names if k in saved})
        except CommandError as error:
            self.warning = f"the saved settings were not restored: {error}"

    def restore_leader(self, saved: Mapping[str, Any]) -> list[Effect]:
        """Carry on with a leader draw interrupted by a restart (kept in the journal)."""
        try:
            config = _config_from(saved)
            computer = _computer_seats(saved.get("computer", {}), config)
            drawing, draws, rounds = saved["drawing"], saved["draws"], saved["round"]
            if not (
                isinstance(drawing, list)
                and drawing
                and all(d in config.players for d in drawing)
                and isinstance(draws, dict)
                and all(c in config.players and isinstance(v, str) for c, v in draws.items())
                and isinstance(rounds, int)
            ):
                raise CommandError("its draws do not fit its players")
        except (CommandError, KeyError) as error:
            self.warning = f"the leader draw in progress was not restored: {error}"
            return [Remember("leader", None)]
        self.computer = computer
        self.match = None
        self.leader = LeaderDraw(config, list(drawing), dict(draws), rounds)
        self._enter(CompanionPhase.LEADER)
        self.message = f"Leader draw resumed: {drawing[0]}, scan a card"
        return self._lights()

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


def _recorded(game: Game) -> RecordEvent:
    """The game's newest event, with what the game decided with it, for the record."""
    return RecordEvent(
        game.events[-1], len(game.events), len(game.history), game.result if game.over else None
    )


def _before_undos(game: Game) -> tuple[Position, ...]:
    """Where the pawns stood before the undos the game's events end with, if any."""
    events = game.events
    end = len(events)
    while end and events[end - 1].kind == "undo":
        end -= 1
    if end == len(events):
        return ()
    # The game's first position (a game may start from a set position): before its first turn.
    first = game.history[0].before if game.history else game.position
    try:
        earlier = Game(game.config, first)
        for event in events[:end]:
            earlier.apply(event)
    except (GameError, ValueError):
        return ()
    return (earlier.position,)


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
    edition, variant = args.get("edition", "hasbro-2002"), args.get("variant", "standard")
    if not isinstance(edition, str) or not isinstance(variant, str):
        # Checked here: the compiled GameConfig (docs/rules-core.md) refuses other types itself,
        # with a TypeError instead of words.
        raise CommandError("edition and variant must be names", 400)
    config = GameConfig(
        edition=edition,
        players=tuple(players),
        teams=teams,
        variant=variant,
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


def _event_words(event, game: Game) -> str:
    """An undone event in board words (the game is back at the position it was made in)."""
    colour = COLOURS[event.colour].capitalize() if event.colour >= 0 else ""
    if event.kind == "move":
        try:
            move = parse_move(event.move, game.position, game.config.teams)
        except NotationError:
            return f"{colour}'s move"
        return f"{colour}'s move ({move_words(move)})"
    if event.kind == "draw":
        return f"{colour}'s {card_words(event.card)}"
    return event.kind


def _result_text(result) -> str:
    if result.patience:
        return f"Patience Sorry: {result.patience}."
    if not result.winners:
        return "The game is over."
    names = " and ".join(COLOURS[c] for c in result.winners)
    double = " — a double game!" if result.double_game else ""
    return f"{names} won{double}"

"""The board's buttons: Confirm, Undo, Hint and New game pressed on the board, and the chords
held together (the owner's unlock, a seat handed to the computer or back).  A press acts
through the same commands as the page (``commands.command``), so a button can do nothing the
owner's page could not; a refusal becomes a warning in words and a buzz."""

from __future__ import annotations

from ..i18n.marks import N_
from ..i18n.message import Message, Said, msg, say
from ..rules.board import COLOURS
from ..rules.notation import move_text
from .cards import said_error
from .commands import LOCKOUT_WARNING, UNLOCK_HOLD, command
from .games import begin as begin_game
from .phases import CompanionPhase
from .remote import answer_takeback, takeback_asked
from .service import CommandRefused
from .signals import Buzz, Effect, StatusLight
from .table import Table
from .turns import shown_message

NEW_GAME_AGAIN = N_("New game pressed: press it again within %(seconds)s s to end this game")

#: Seconds within which the board's New game button must be pressed a second time.
NEW_GAME_CONFIRM = 3.0

#: The owner's unlock (docs/daemon.md, "The owner's unlock"): Hint and Undo held down together
#: for UNLOCK_HOLD seconds say that someone is at the board, and the web's PIN lockout is lifted.
#: Nothing in play holds two buttons; the press that completes the chord does nothing else (Hint
#: first, so Undo takes nothing back), and the lift only gives logins back: it needs the PIN.
UNLOCK_CHORD = frozenset({"hint", "undo"})
#: A player leaving the table (or coming back), with nobody's phone at hand: Hint and Confirm
#: held together for UNLOCK_HOLD seconds give the seat whose turn it is to the computer, or
#: back to a person (docs/daemon.md, "Buttons").  Hint first: Confirm then settles nothing.
SEAT_CHORD = frozenset({"hint", "confirm"})
CHORDS = (UNLOCK_CHORD, SEAT_CHORD)
#: The computer a seat given away on the board gets (the page's New game default).
SEAT_PLAYER = "normal"
#: Seconds the page says so after a lift (the web's login window after a lift is as long).
UNLOCK_SHOWN = 300.0
UNLOCKED = "The board’s buttons lifted the PIN lock: log in with your PIN now"


def button(table: Table, name: str, held: frozenset[str] = frozenset()) -> list[Effect]:
    """A press of one of the board's buttons; ``held``: the others held down at the time."""
    if any(name in chord and held | {name} >= chord for chord in CHORDS):
        return []  # it completes a chord (held()): nothing else
    before = table.warning
    try:
        if name in ("confirm", "undo") and takeback_asked(table):
            # Another board asks to take back a turn: Confirm agrees, Undo refuses.
            return answer_takeback(table, {"agree": name == "confirm"})[1]
        if name == "undo":
            return command(table, "undo", {})[1]
        if name == "new_game":
            return _new_game_button(table)
        if name == "confirm":
            return _confirm(table)
        if name == "hint" and table.phase == CompanionPhase.CHOOSE and len(table.choices) > 1:
            return _show_next_choice(table)
        if name == "hint":
            reply, effects = command(table, "hint", {})
            if reply["hint"] is None:
                table.warning = say(Message(N_("no hint: this card has no move to suggest")))
            return effects
    except CommandRefused as error:
        # A refusal in words: its message where it is one, so each phone says it in its own.
        said = error.args[0] if error.args else None
        table.warning = said if isinstance(said, Said) else str(error)
        return [Buzz("illegal")]
    finally:
        if name == "hint":  # it may open the unlock chord: a lift puts the warning back
            table.hint_warning = (before, table.warning)
    return []


def _new_game_button(table: Table) -> list[Effect]:
    """One press during an unfinished game only asks (LEDs and buzzer); a second press
    within NEW_GAME_CONFIRM seconds ends it and starts the same game again."""
    game = table.game
    if game is None:
        raise CommandRefused(say(Message(N_("no game to restart: start one from the status page"))))
    if not game.over and table.asking_until is None:
        table.asking_until = table.now + NEW_GAME_CONFIRM
        table.warning = say(msg(NEW_GAME_AGAIN, seconds=f"{NEW_GAME_CONFIRM:g}"))
        return [Buzz("ask")]
    table.asking_until = None
    return begin_game(table, game.config)


def _show_next_choice(table: Table) -> list[Effect]:
    """Hint while the board fits several moves: light the next one alone, for Confirm (the
    first press the second choice: Confirm alone takes the first)."""
    shown = table.choice_shown or 0
    table.choice_shown = (shown + 1) % len(table.choices)
    table.message = shown_message(table.choices, table.choice_shown)
    return []


def _confirm(table: Table) -> list[Effect]:
    """The confirm button: take the offered choice the board lights (the first until Hint
    stepped to another), decline an 11, or play on."""
    if table.phase == CompanionPhase.CHOOSE and table.choices:
        shown = table.choice_shown or 0
        return command(table, "resolve", {"move": move_text(table.choices[shown])})[1]
    game = table.game
    if (
        table.phase == CompanionPhase.MOVE
        and game is not None
        and game.options
        and game.options.forfeit
    ):
        return command(table, "forfeit", {})[1]
    if table.phase == CompanionPhase.OVER:
        return command(table, "next_game", {})[1]
    raise CommandRefused(say(Message(N_("nothing to confirm now"))))


# -- the owner's unlock -----------------------------------------------------------------------


def held(table: Table, buttons: frozenset[str]) -> list[Effect]:
    """The buttons held down changed: the unlock chord starts, or ends (and lifts the lock if
    it was held long enough and no tick has yet seen that: while the game is held for a
    storage fault, ticks do not reach the companion)."""
    table.held = buttons
    chord = next((chord for chord in CHORDS if buttons >= chord), None)
    if chord is not None:
        if table.chord_since is None or table.chord != chord:
            table.chord, table.chord_since, table.chord_done = chord, table.now, False
        return []
    effects = watch_chord(table)
    table.chord_since = table.chord = None
    return effects


def watch_chord(table: Table) -> list[Effect]:
    """On every tick: a chord held for UNLOCK_HOLD seconds does its work, once a hold (the
    unlock chord lifts the lock, the seat chord hands the seat whose turn it is over)."""
    since = table.chord_since
    if since is None or table.chord_done or table.now - since < UNLOCK_HOLD:
        return []
    table.chord_done = True
    if table.chord == SEAT_CHORD:
        return seat_by_board(table)
    return owner_at_board(table)


def _forget_the_chords_hint(table: Table) -> None:
    """A chord begins with Hint: what that press said (a hint, or a refusal) is not news."""
    before, after = table.hint_warning
    if table.warning == after:
        table.warning = before


def seat_by_board(table: Table) -> list[Effect]:
    """The seat chord: the seat whose turn it is goes to the computer, or back to a person."""
    _forget_the_chords_hint(table)
    game = table.game
    if game is None or game.over or game.turn is None:
        table.warning = say(
            Message(N_("no game in play: a seat goes to the computer during a game"))
        )
        return [Buzz("illegal")]
    colour = COLOURS[game.turn]
    player = None if game.turn in table.computer else SEAT_PLAYER
    try:
        effects = command(table, "seat", {"colour": colour, "player": player})[1]
    except CommandRefused as error:
        table.warning = said_error(error)
        return [Buzz("illegal")]
    return [*effects, Buzz("turn")]


def owner_at_board(table: Table) -> list[Effect]:
    """Someone at the board asked for the PIN lock to be lifted.  The companion counts it in its
    state (``owner_unlock``); the web lifts its lockouts when it sees the count change, and the
    page says so for UNLOCK_SHOWN seconds.  The buzzer plays the unlock tune."""
    table.unlocks += 1
    table.unlocked_at = table.now
    _forget_the_chords_hint(table)
    if table.warning is not None and table.warning.startswith(LOCKOUT_WARNING):
        table.warning = None
    return [Buzz("unlock"), StatusLight("ok" if table.link_up else "link-down")]


def unlock_notice(table: Table) -> str | None:
    """What the page says after a lift, for UNLOCK_SHOWN seconds."""
    at = table.unlocked_at
    return UNLOCKED if at is not None and table.now - at < UNLOCK_SHOWN else None

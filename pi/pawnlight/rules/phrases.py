"""Places, moves and cards as catalog messages (docs/languages.md): the words of rules/words.py
kept as message ids with their values, so each phone and the voice say them in their own
language.  The English of every message here is exactly what rules/words.py has always said.

A place is said with its preposition (``on``, ``from``, ``to``, ``for``) as one message, because
the other languages decline or contract the article with it (German *auf dem* / *auf den*,
French *du*, Spanish *al*).  The game's own words follow the glossary in docs/rules.md.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..i18n.marks import N_
from ..i18n.message import Message, msg
from .board import HOME, S1, S5, START, TRACK_SQUARES
from .moves import Move, Step

SIDE = TRACK_SQUARES // 4  # 15 squares a side

#: A colour inside a sentence (``the red pawn``) and at its start (``Red plays a 5``).
COLOUR: tuple[str, ...] = (N_("red"), N_("blue"), N_("yellow"), N_("green"))
CAPITAL: tuple[str, ...] = (N_("Red"), N_("Blue"), N_("Yellow"), N_("Green"))
#: The ordinals the board's places need (at most the 5th safety square).
ORDINALS: tuple[str, ...] = (N_("1st"), N_("2nd"), N_("3rd"), N_("4th"), N_("5th"))

# The places, by kind, each with its preposition: on (in, for START and HOME), from, to, for;
# and last the place on its own, named (a screen reader's name of a square: rules/words.py's).
_PLACES: dict[str, tuple[str, str, str, str, str]] = {
    "after_long": (
        N_("on the 2nd square after %(colour)s's long slide"),
        N_("from the 2nd square after %(colour)s's long slide"),
        N_("to the 2nd square after %(colour)s's long slide"),
        N_("for the 2nd square after %(colour)s's long slide"),
        N_("the 2nd square after %(colour)s's long slide"),
    ),
    "short_triangle": (
        N_("on the triangle of %(colour)s's short slide"),
        N_("from the triangle of %(colour)s's short slide"),
        N_("to the triangle of %(colour)s's short slide"),
        N_("for the triangle of %(colour)s's short slide"),
        N_("the triangle of %(colour)s's short slide"),
    ),
    "short": (
        N_("on the %(nth)s square of %(colour)s's short slide"),
        N_("from the %(nth)s square of %(colour)s's short slide"),
        N_("to the %(nth)s square of %(colour)s's short slide"),
        N_("for the %(nth)s square of %(colour)s's short slide"),
        N_("the %(nth)s square of %(colour)s's short slide"),
    ),
    "circle": (
        N_("on %(colour)s's start circle"),
        N_("from %(colour)s's start circle"),
        N_("to %(colour)s's start circle"),
        N_("for %(colour)s's start circle"),
        N_("%(colour)s's start circle"),
    ),
    "after_circle": (
        N_("on the %(nth)s square after %(colour)s's start circle"),
        N_("from the %(nth)s square after %(colour)s's start circle"),
        N_("to the %(nth)s square after %(colour)s's start circle"),
        N_("for the %(nth)s square after %(colour)s's start circle"),
        N_("the %(nth)s square after %(colour)s's start circle"),
    ),
    "long_triangle": (
        N_("on the triangle of %(colour)s's long slide"),
        N_("from the triangle of %(colour)s's long slide"),
        N_("to the triangle of %(colour)s's long slide"),
        N_("for the triangle of %(colour)s's long slide"),
        N_("the triangle of %(colour)s's long slide"),
    ),
    "long": (
        N_("on the %(nth)s square of %(colour)s's long slide"),
        N_("from the %(nth)s square of %(colour)s's long slide"),
        N_("to the %(nth)s square of %(colour)s's long slide"),
        N_("for the %(nth)s square of %(colour)s's long slide"),
        N_("the %(nth)s square of %(colour)s's long slide"),
    ),
    "long_end": (
        N_("on the end of %(colour)s's long slide"),
        N_("from the end of %(colour)s's long slide"),
        N_("to the end of %(colour)s's long slide"),
        N_("for the end of %(colour)s's long slide"),
        N_("the end of %(colour)s's long slide"),
    ),
    "past_long": (
        N_("on the 1st square after %(colour)s's long slide"),
        N_("from the 1st square after %(colour)s's long slide"),
        N_("to the 1st square after %(colour)s's long slide"),
        N_("for the 1st square after %(colour)s's long slide"),
        N_("the 1st square after %(colour)s's long slide"),
    ),
    "safety": (
        N_("on %(colour)s's %(nth)s safety square"),
        N_("from %(colour)s's %(nth)s safety square"),
        N_("to %(colour)s's %(nth)s safety square"),
        N_("for %(colour)s's %(nth)s safety square"),
        N_("%(colour)s's %(nth)s safety square"),
    ),
    "start": (
        N_("in %(colour)s START"),
        N_("from %(colour)s START"),
        N_("to %(colour)s START"),
        N_("for %(colour)s START"),
        N_("%(colour)s START"),
    ),
    "home": (
        N_("in %(colour)s HOME"),
        N_("from %(colour)s HOME"),
        N_("to %(colour)s HOME"),
        N_("for %(colour)s HOME"),
        N_("%(colour)s HOME"),
    ),
}
#: The preposition forms, as indexes into each place's messages (NAMED: no preposition).
AT, FROM, TO, FOR, NAMED = range(5)


def colour(index: int) -> Message:
    return Message(COLOUR[index])


def capital(index: int) -> Message:
    return Message(CAPITAL[index])


def ordinal(n: int) -> Message | str:
    return Message(ORDINALS[n - 1]) if 1 <= n <= len(ORDINALS) else f"{n}th"


def _square_kind(square: int) -> tuple[str, int, int]:
    """A track square's kind, the colour it is named after, its ordinal (0: none)."""
    side, offset = divmod(square % TRACK_SQUARES, SIDE)
    if offset == 0:
        return "after_long", (side - 1) % 4, 0
    if offset == 1:
        return "short_triangle", side, 0
    if offset in (2, 3):
        return "short", side, offset - 1
    if offset == 4:
        return "circle", side, 0
    if 5 <= offset <= 8:
        return "after_circle", side, offset - 4
    if offset == 9:
        return "long_triangle", side, 0
    if 10 <= offset <= 12:
        return "long", side, offset - 9
    if offset == 13:
        return "long_end", side, 0
    return "past_long", side, 0


def place(number: int, owner: int, form: int) -> Message:
    """Where a pawn of ``owner`` is, with the preposition ``form`` (AT, FROM, TO, FOR):
    ``on blue's start circle``, ``from red START``; NAMED: ``blue's start circle``."""
    if number < TRACK_SQUARES:
        kind, named, nth = _square_kind(number)
    elif S1 <= number <= S5:
        kind, named, nth = "safety", owner, number - S1 + 1
    else:
        kind, named, nth = ("start" if number == START else "home"), owner, 0
    values: dict[str, Message | str] = {"colour": colour(named)}
    if nth:
        values["nth"] = ordinal(nth)
    return msg(_PLACES[kind][form], **values)


AND = N_("%(first)s and %(second)s")
LEAVES = N_("a %(colour)s pawn leaves START %(place)s")
GOES_HOME = N_("the %(colour)s pawn %(at)s goes HOME")
GOES = N_("the %(colour)s pawn %(at)s goes %(to)s")
SLIDES = N_("%(step)s and slides %(to)s")
SWITCHES = N_("the %(colour)s pawn %(at)s switches places with the %(other)s pawn %(other_at)s")
SWITCH_SLIDES = N_("%(step)s, then slides %(to)s")
SENT_BACK = N_("%(step)s (%(who)s back to START)")
PAWNS = N_("%(n)s %(colour)s pawns")
THEN = N_("%(first)s; then %(then)s")
NO_PAWN_MOVES = N_("no pawn moves")


def joined(items: Iterable[Message | str]) -> Message | str:
    """``a and b and c`` as nested whole messages (each language's own *and*)."""
    listed = list(items)
    if not listed:
        return ""
    said = listed[-1]
    for item in reversed(listed[:-1]):
        said = msg(AND, first=item, second=said)
    return said


def step(each: Step) -> Message:
    """One pawn's part of a move, with who goes back to START."""
    said: Message
    if each.swapped >= 0:
        said = msg(
            SWITCHES,
            colour=colour(each.colour),
            at=place(each.origin, each.colour, AT),
            other=colour(each.swapped),
            other_at=place(each.target, each.swapped, AT),
        )
        if each.slide:
            said = msg(SWITCH_SLIDES, step=said, to=place(each.final, each.colour, TO))
    else:
        if each.origin == START:
            said = msg(
                LEAVES, colour=colour(each.colour), place=place(each.target, each.colour, FOR)
            )
        elif each.target == HOME:
            said = msg(
                GOES_HOME, colour=colour(each.colour), at=place(each.origin, each.colour, AT)
            )
        else:
            said = msg(
                GOES,
                colour=colour(each.colour),
                at=place(each.origin, each.colour, AT),
                to=place(each.target, each.colour, TO),
            )
        if each.slide is not None:
            said = msg(SLIDES, step=said, to=place(each.final, each.colour, TO))
    counts: dict[int, int] = {}
    for bumped, _ in each.bumped:
        counts[bumped] = counts.get(bumped, 0) + 1
    if counts:
        who = [
            colour(c) if n == 1 else msg(PAWNS, n=n, colour=colour(c)) for c, n in counts.items()
        ]
        said = msg(SENT_BACK, step=said, who=joined(who))
    return said


def move(whole: Move) -> Message:
    """A whole move, to go inside a sentence: its steps in order (a split 7)."""
    steps = [step(each) for each in whole.steps]
    if not steps:
        return Message(NO_PAWN_MOVES)
    said = steps[-1]
    for earlier in reversed(steps[:-1]):
        said = msg(THEN, first=earlier, then=said)
    return said


#: A card with its article, to go inside a sentence (``Red plays a 5``).
A_CARD: dict[str, str] = {
    "1": N_("a 1"),
    "2": N_("a 2"),
    "3": N_("a 3"),
    "4": N_("a 4"),
    "5": N_("a 5"),
    "7": N_("a 7"),
    "8": N_("an 8"),
    "10": N_("a 10"),
    "11": N_("an 11"),
    "12": N_("a 12"),
    "sorry": N_("a Sorry!"),
}
A_CARD_OTHER = N_("a %(card)s")


def a_card(card: str) -> Message:
    known = A_CARD.get(card)
    return Message(known) if known else msg(A_CARD_OTHER, card=card)


#: Why no pawn could move with a card, in the words of the card.
CANNOT: dict[str, str] = {
    "1": N_("no pawn can leave START or go forward 1"),
    "2": N_("no pawn can leave START or go forward 2"),
    "4": N_("no pawn can go backward 4"),
    "7": N_("no pawn can go forward 7, not even split between two"),
    "10": N_("no pawn can go forward 10 or backward 1"),
    "11": N_("no pawn can go forward 11 or switch places"),
    "sorry": N_("no pawn in START with an opponent on the track to bump"),
}
CANNOT_FORWARD = N_("no pawn can go forward %(n)s")


def no_move_reason(card: str) -> Message:
    known = CANNOT.get(card)
    return Message(known) if known else msg(CANNOT_FORWARD, n=card)

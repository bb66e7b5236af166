"""Places and moves in board words: how a person at the table names them.

A real board has no numbered squares. People say "red's start circle", "the 2nd square after
blue's long slide", "yellow's 3rd safety square", "green START". This module is the one place
that turns the rules core's places (``T0``..``T59``, ``S1``..``S5``, START, HOME) and moves into
those words, always with the colour of the pawn concerned. The compact notation
(rules/notation.py) stays the language of records and the API's ``text`` fields.

The landmarks follow docs/coordinates.md, 'Places': on side k (b = 15k) of the colour of that
side, the short slide runs T(b+1)->T(b+4) (its end circle is the start circle), the long slide
T(b+9)->T(b+13).
"""

from __future__ import annotations

from collections.abc import Iterable

from .board import COLOURS, HOME, S1, S5, START, TRACK_SQUARES
from .moves import Move, Step

SIDE = TRACK_SQUARES // 4  # 15 squares a side


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def square_words(square: int) -> str:
    """A track square by its landmarks: ``blue's start circle``, ``the 2nd square of red's long
    slide``, ``the 1st square after green's long slide``."""
    side, offset = divmod(square % TRACK_SQUARES, SIDE)
    owner = COLOURS[side]
    before = COLOURS[(side - 1) % 4]
    if offset == 0:
        return f"the 2nd square after {before}'s long slide"
    if offset == 1:
        return f"the triangle of {owner}'s short slide"
    if offset in (2, 3):
        return f"the {ordinal(offset - 1)} square of {owner}'s short slide"
    if offset == 4:
        return f"{owner}'s start circle"
    if 5 <= offset <= 8:
        return f"the {ordinal(offset - 4)} square after {owner}'s start circle"
    if offset == 9:
        return f"the triangle of {owner}'s long slide"
    if 10 <= offset <= 12:
        return f"the {ordinal(offset - 9)} square of {owner}'s long slide"
    if offset == 13:
        return f"the end of {owner}'s long slide"
    return f"the 1st square after {owner}'s long slide"


def place_words(place: int, colour: int) -> str:
    """Where a pawn of ``colour`` stands: a track square, its safety square, START or HOME."""
    if place < TRACK_SQUARES:
        return square_words(place)
    name = COLOURS[colour]
    if S1 <= place <= S5:
        return f"{name}'s {ordinal(place - S1 + 1)} safety square"
    return f"{name} {'START' if place == START else 'HOME'}"


def at_place(place: int, colour: int) -> str:
    """``on blue's start circle``, ``in red START``."""
    return ("in " if place in (START, HOME) else "on ") + place_words(place, colour)


def step_words(step: Step) -> str:
    """One pawn's part of a move, in words, with who goes back to START."""
    name = COLOURS[step.colour]
    if step.swapped >= 0:
        other = COLOURS[step.swapped]
        return (
            f"the {name} pawn {at_place(step.origin, step.colour)} switches places with the "
            f"{other} pawn {at_place(step.target, step.swapped)}"
            + (f", then slides to {square_words(step.final)}" if step.slide else "")
            + _sent_back(step.bumped)
        )
    if step.origin == START:
        words = f"a {name} pawn leaves START for {place_words(step.target, step.colour)}"
    elif step.target == HOME:
        words = f"the {name} pawn {at_place(step.origin, step.colour)} goes HOME"
    else:
        words = (
            f"the {name} pawn {at_place(step.origin, step.colour)} goes to "
            f"{place_words(step.target, step.colour)}"
        )
    if step.slide is not None:
        words += f" and slides to {square_words(step.final)}"
    return words + _sent_back(step.bumped)


def _sent_back(bumped: Iterable[tuple[int, int]]) -> str:
    """`` (blue back to START)``; two pawns of one colour are said once: ``(2 red pawns ...)``."""
    counts: dict[str, int] = {}
    for colour, _ in bumped:
        counts[COLOURS[colour]] = counts.get(COLOURS[colour], 0) + 1
    if not counts:
        return ""
    names = [name if n == 1 else f"{n} {name} pawns" for name, n in counts.items()]
    return f" ({' and '.join(names)} back to START)"


def move_words(move: Move) -> str:
    """A whole move in words, to go inside a sentence: its steps joined (a split 7)."""
    return "; then ".join(step_words(step) for step in move.steps) or "no pawn moves"


def sentence(text: str) -> str:
    """``text`` starting with a capital, as a line on its own."""
    return text[:1].upper() + text[1:]


def sent_back(move: Move) -> list[str]:
    """The colours of the pawns a move sends back to START, in order."""
    return [COLOURS[colour] for step in move.steps for colour, _ in step.bumped]


#: Why no pawn could move with a card, in the words of the card.
_CANNOT: dict[str, str] = {
    "1": "no pawn can leave START or go forward 1",
    "2": "no pawn can leave START or go forward 2",
    "4": "no pawn can go backward 4",
    "7": "no pawn can go forward 7, not even split between two",
    "10": "no pawn can go forward 10 or backward 1",
    "11": "no pawn can go forward 11 or switch places",
    "sorry": "no pawn in START with an opponent on the track to bump",
}


def no_move_reason(card: str) -> str:
    """``no pawn can go forward 5``: why a card was forfeited."""
    return _CANNOT.get(card, f"no pawn can go forward {card}")


def card_words(card: str) -> str:
    return "Sorry!" if card == "sorry" else card


def a_card(card: str) -> str:
    """``a 5``, ``an 8``, ``an 11``, ``a Sorry!``."""
    article = "an" if card in ("8", "11") else "a"
    return f"{article} {card_words(card)}"

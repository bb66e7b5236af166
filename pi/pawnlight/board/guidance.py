"""Guidance: the fewest corrections that bring the board to a target position, best first.

A correction is one thing a person does with one hand: lift a pawn off, put a pawn on, or move
a pawn from one place to another (a lift and a put merged, which is why pairing surpluses with
shortages makes the list shortest).  Colour boards pair only pawns of the same colour; presence
boards know the colour of a pawn only from where it stands (safety, START and HOME belong to a
colour), so a track pawn may be paired with any shortage.

The list is ordered so that the first correction can always be done right now: readings that
fit no colour first (nothing else can be trusted on that square), then moves to a free place
(shortest first: a knocked pawn is usually right next to where it belongs), lifts, puts, and
last the moves and puts whose place is still taken by a pawn that has to leave first.  The
companion shows one correction at a time and recomputes the list from every new board, so the
guidance follows whatever the players actually do.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import NamedTuple

from pawnlight.i18n.marks import N_
from pawnlight.i18n.message import Message, msg
from pawnlight.rules import phrases
from pawnlight.rules.board import COLOURS, Place
from pawnlight.rules.position import Position
from pawnlight.rules.words import place_words

from .cells import (
    AREA_STARTS,
    AREAS,
    EMPTY,
    SPOTS_PER_AREA,
    SQUARE_CELLS,
    UNKNOWN,
    cells_of,
    place_of_cell,
)
from .geometry import distance
from .layout import COLOUR, Layout
from .snapshot import Occupancy, read_occupancy, sense, true_occupancy


class Fix(StrEnum):
    """What a correction asks a hand to do; the words are the state's ``guidance[].action``."""

    LIFT = "lift"  # take a pawn off
    PUT = "put"  # put a pawn down
    MOVE = "move"  # a lift and a put merged: carry a pawn from one place to another
    CHECK = "check"  # a pawn whose colour cannot be read: look at it


class Correction(NamedTuple):
    """One thing to do to the board."""

    action: Fix
    #: Where a pawn is lifted from (LIFT, MOVE) or checked (CHECK); else None.
    source: Place | None
    #: Where a pawn is put (PUT, MOVE); else None.
    target: Place | None
    #: The pawn's colour when known (sensed, or implied by where it stands); for PUT and CHECK the
    #: colour that belongs there; -1 when nobody can tell.
    colour: int = -1

    @property
    def text(self) -> str:
        """The correction in board words (``move the red pawn from blue's start circle to red
        START``): what the page lists and reads out."""
        return self._say(_words)

    @property
    def code(self) -> str:
        """The same with square codes (``move the red pawn from T12 to red START``): the page's
        tap-to-show detail, the logs."""
        return self._say(str)

    def _say(self, name: Callable[[Place], str]) -> str:
        pawn = f"{COLOURS[self.colour]} pawn" if self.colour >= 0 else "pawn"
        if self.action == Fix.LIFT:
            assert self.source is not None
            return f"lift the {pawn} from {name(self.source)}"
        if self.action == Fix.PUT:
            assert self.target is not None
            return f"put a {pawn} {_preposition(self.target)} {name(self.target)}"
        if self.action == Fix.MOVE:
            assert self.source is not None and self.target is not None
            return f"move the {pawn} from {name(self.source)} to {name(self.target)}"
        assert self.source is not None
        belongs = f" (a {pawn} belongs there)" if self.colour >= 0 else ""
        return (
            f"check the pawn {_preposition(self.source)} {name(self.source)}: its colour cannot "
            "be read" + belongs
        )

    @property
    def said(self) -> Message:
        """:attr:`text` as a catalog message (pawnlight.i18n.message), to be said in the
        language of each phone: its English is :attr:`text`."""
        known = self.colour >= 0
        values: dict[str, Message] = {"colour": phrases.colour(self.colour)} if known else {}
        if self.action == Fix.LIFT:
            assert self.source is not None
            said = msg(_SAID[Fix.LIFT][known], at=_place(self.source, phrases.FROM), **values)
        elif self.action == Fix.PUT:
            assert self.target is not None
            said = msg(_SAID[Fix.PUT][known], at=_place(self.target, phrases.AT), **values)
        elif self.action == Fix.MOVE:
            assert self.source is not None and self.target is not None
            said = msg(
                _SAID[Fix.MOVE][known],
                at=_place(self.source, phrases.FROM),
                to=_place(self.target, phrases.TO),
                **values,
            )
        else:
            assert self.source is not None
            said = msg(_SAID[Fix.CHECK][known], at=_place(self.source, phrases.AT), **values)
        return said

    def __str__(self) -> str:
        return self.text


#: The corrections as messages: without a colour, with one.
_SAID: dict[Fix, tuple[str, str]] = {
    Fix.LIFT: (N_("lift the pawn %(at)s"), N_("lift the %(colour)s pawn %(at)s")),
    Fix.PUT: (N_("put a pawn %(at)s"), N_("put a %(colour)s pawn %(at)s")),
    Fix.MOVE: (N_("move the pawn %(at)s %(to)s"), N_("move the %(colour)s pawn %(at)s %(to)s")),
    Fix.CHECK: (
        N_("check the pawn %(at)s: its colour cannot be read"),
        N_("check the pawn %(at)s: its colour cannot be read (a %(colour)s pawn belongs there)"),
    ),
}


def _place(place: Place, form: int) -> Message:
    return phrases.place(place.number, place.colour, form)


def _words(place: Place) -> str:
    return place_words(place.number, place.colour)


def _preposition(place: Place) -> str:
    return "in" if place.is_area else "on"


class _Need(NamedTuple):
    spot: Place
    colour: int  # -1: could be any colour; _UNREADABLE: a colour board cannot read it


#: A pawn a colour board reads as no colour: it is only ever lifted off, never moved into a place
#: that needs a colour (where it would read wrong again).
_UNREADABLE = -2


def corrections(
    board: Occupancy,
    target: Occupancy,
    sensing: str,
    blind: bool = False,
    suspect: frozenset[int] = frozenset(),
) -> tuple[Correction, ...]:
    """The corrections from a sensed ``board`` to a ``target`` given in true colours.

    ``blind``: nobody knows the colours of the pawns on the board (a presence board set up for a
    new game from whatever it held): a pawn is never moved to a place on a guess at its colour;
    it is lifted off, and a pawn of the colour the place needs is asked for.  ``suspect``: square
    cells whose pawn, though where a pawn is wanted, is of a colour nobody knows: lifted and
    replaced like a wrong one."""
    surplus: list[_Need] = []
    shortage: list[_Need] = []
    checks: list[Correction] = []
    wanted = sense(target, sensing)
    colour_board = sensing == COLOUR
    for cell in SQUARE_CELLS:
        have, want = board[cell], wanted[cell]
        if have == want and cell not in suspect:
            continue
        spot = place_of_cell(cell)
        if have == UNKNOWN:
            if target[cell] == EMPTY:
                surplus.append(_Need(spot, _UNREADABLE))
            else:
                checks.append(Correction(Fix.CHECK, spot, None, target[cell]))
        elif have == EMPTY:
            shortage.append(_Need(spot, target[cell]))
        else:
            # A presence board cannot tell a pawn's colour, even on a coloured square: someone
            # may have put it in the wrong safety zone.  Such a pawn may go anywhere.
            surplus.append(_Need(spot, have if colour_board else -1))
            if want != EMPTY:
                shortage.append(_Need(spot, target[cell]))
    for (place, colour), first in zip(AREAS, AREA_STARTS, strict=True):
        spot = Place(place, colour)
        have_counts = Counter(v for v in board[first : first + SPOTS_PER_AREA] if v != EMPTY)
        want_counts = Counter(v for v in target[first : first + SPOTS_PER_AREA] if v != EMPTY)
        if not colour_board:
            # Presence: count the pawns; an extra one may be of any colour (a bumped pawn put in
            # the wrong START), a missing one is of the area's colour.
            extra = sum(have_counts.values()) - sum(want_counts.values())
            surplus.extend([_Need(spot, -1)] * max(extra, 0))
            shortage.extend([_Need(spot, colour)] * max(-extra, 0))
            continue
        unreadable = have_counts.pop(UNKNOWN, 0)
        for value in sorted(set(have_counts) | set(want_counts)):
            extra = have_counts[value] - want_counts[value]
            surplus.extend([_Need(spot, value)] * max(extra, 0))
            while extra < 0 and unreadable:
                checks.append(Correction(Fix.CHECK, spot, None, value))
                unreadable -= 1
                extra += 1
            shortage.extend([_Need(spot, value)] * max(-extra, 0))
        surplus.extend([_Need(spot, _UNREADABLE)] * unreadable)
    moves = _pair([need for need in surplus if need.colour >= 0] if blind else surplus, shortage)
    paired_from = Counter(m.source for m in moves)
    paired_to = Counter(m.target for m in moves)
    lifts = [
        Correction(Fix.LIFT, need.spot, None, max(need.colour, -1))
        for need in _unpaired(surplus, paired_from)
    ]
    puts = [
        Correction(Fix.PUT, None, need.spot, need.colour) for need in _unpaired(shortage, paired_to)
    ]
    return _plan(board, checks, moves, lifts, puts)


def guide_to(layout: Layout, position: Position, reading: Sequence[int]) -> tuple[Correction, ...]:
    """Resume after a restart: the corrections that bring the board to the game's ``position``.

    Empty once the board matches.  Call it with every new reading; the list follows the board.
    """
    return corrections(read_occupancy(layout, reading), true_occupancy(position), layout.sensing)


def cost(board: Occupancy, target: Occupancy, sensing: str) -> int:
    return len(corrections(board, target, sensing))


# -- pairing and ordering -------------------------------------------------------------------------


def _pair(surplus: list[_Need], shortage: list[_Need]) -> list[Correction]:
    """Pair surplus pawns with shortages of their colour, nearest first; unknowns take the rest.

    Known colours go first, so the pawns that could go anywhere are kept for what is left: that
    pairs as many as possible (each pair saves one correction).
    """
    moves: list[Correction] = []
    free_shortage = list(shortage)
    for colour in (0, 1, 2, 3, -1):
        sources = [need for need in surplus if need.colour == colour]
        while sources:
            options = [
                (distance(s.spot, d.spot), i, j)
                for i, s in enumerate(sources)
                for j, d in enumerate(free_shortage)
                if s.spot != d.spot and (colour < 0 or d.colour == colour)
            ]
            if not options:
                break
            _, i, j = min(options)
            source = sources.pop(i)
            sink = free_shortage.pop(j)
            moves.append(Correction(Fix.MOVE, source.spot, sink.spot, source.colour))
    return moves


def _unpaired(needs: list[_Need], paired: Counter[Place | None]) -> list[_Need]:
    left = Counter(paired)
    result = []
    for need in needs:
        if left[need.spot] > 0:
            left[need.spot] -= 1
        else:
            result.append(need)
    return result


def _plan(
    board: Occupancy,
    checks: list[Correction],
    moves: list[Correction],
    lifts: list[Correction],
    puts: list[Correction],
) -> tuple[Correction, ...]:
    """Order the corrections so that each one can be done when its turn comes.

    Walks through the corrections on a model of the board, taking at each point the most useful
    one that can be done: a move to a free place (shortest first), else a lift, else a put on a
    free place.  Pawns that must change places (a cycle of moves, each waiting for the next to
    leave) are broken up by lifting one of them first and putting it down last.
    """
    free: Counter[Place | None] = Counter()
    for spot in {c.target for c in moves + puts} | {c.source for c in moves + lifts}:
        assert spot is not None
        free[spot] = sum(1 for cell in cells_of(spot) if board[cell] == EMPTY)
    plan = list(checks)
    moves = sorted(moves, key=lambda m: (distance(m.source, m.target), m.source, m.target))  # type: ignore[arg-type]
    lifts = list(lifts)
    puts = list(puts)
    while moves or lifts or puts:
        ready = next((m for m in moves if free[m.target] > 0), None)
        if ready is not None:
            moves.remove(ready)
            free[ready.target] -= 1
            free[ready.source] += 1
        elif lifts:
            ready = lifts.pop(0)
            free[ready.source] += 1
        elif (ready := next((p for p in puts if free[p.target] > 0), None)) is not None:
            puts.remove(ready)
            free[ready.target] -= 1
        else:
            blocked = moves[0] if moves else None
            blocker = next((m for m in moves if blocked and m.source == blocked.target), None)
            if blocker is None:
                return tuple(plan + moves + puts)  # cannot happen with a consistent board
            moves.remove(blocker)
            lifts.append(Correction(Fix.LIFT, blocker.source, None, blocker.colour))
            puts.append(Correction(Fix.PUT, None, blocker.target, blocker.colour))
            continue
        plan.append(ready)
    return tuple(plan)

"""Moves and the legal-move generator.

A :class:`Move` records everything that happens, so applying it needs no further rule checks and
the LEDs can show all of it: each pawn's path, the slide it takes, every pawn it bumps or sweeps,
the pawn it switches with, and the position that results.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from .board import (
    BACKWARD_PATHS,
    FORWARD_PATHS,
    HOME,
    PARTNER,
    SLIDE_AT,
    START,
    TRACK_SQUARES,
    Slide,
    start_circle,
)
from .cards import parse_card
from .editions import Edition
from .position import Position

# What kind of action a step is.
FORWARD, BACKWARD, START_OUT, SORRY, SWITCH = range(5)
STEP_KINDS = ("forward", "backward", "start", "sorry", "switch")

_FORWARD_CARDS = {"1": 1, "2": 2, "3": 3, "5": 5, "7": 7, "8": 8, "10": 10, "11": 11, "12": 12}


class Step(NamedTuple):
    """One pawn's part of a move."""

    colour: int
    kind: int
    origin: int
    #: The square the card itself brings the pawn to (the triangle, when it then slides).
    target: int
    #: Every square entered on the way, ending with ``target``.
    path: tuple[int, ...]
    slide: Slide | None
    #: Pawns sent back to START, as ``(colour, square)``: the pawn landed on, or everything swept.
    bumped: tuple[tuple[int, int], ...]
    #: For a switch, the colour of the pawn that moves from ``target`` to ``origin``; else -1.
    swapped: int = -1

    @property
    def final(self) -> int:
        """Where the pawn ends up: the slide's end when it slides."""
        return self.slide.end if self.slide is not None else self.target


class Move(NamedTuple):
    steps: tuple[Step, ...]
    #: The whole position after the move, slides, bumps and switches applied.
    after: Position

    @property
    def bumped(self) -> tuple[tuple[int, int], ...]:
        return tuple(b for step in self.steps for b in step.bumped)

    @property
    def slides(self) -> tuple[Slide, ...]:
        return tuple(step.slide for step in self.steps if step.slide is not None)


class Options(NamedTuple):
    """What a player may do with a card."""

    moves: list[Move]
    #: The player may end the turn without moving (always when ``moves`` is empty).
    forfeit: bool
    #: The card gives another draw (the 2).
    again: bool


class Rules(NamedTuple):
    """The rules a game is played under: an edition, and whether partners play together."""

    edition: Edition
    teams: bool = False

    def options(self, position: Position, player: int, card: str) -> Options:
        return legal_options(position, player, card, self.edition, self.teams)

    def moves(self, position: Position, player: int, card: str) -> list[Move]:
        return self.options(position, player, card).moves


# -- applying -------------------------------------------------------------------------------------


def _apply(
    position: Position,
    colour: int,
    origin: int,
    final: int,
    bumped: Iterable[tuple[int, int]],
    swapped: int = -1,
    target: int = -1,
) -> Position:
    groups = [None if g is None else list(g) for g in position]
    mine = groups[colour]
    assert mine is not None
    mine.remove(origin)
    mine.append(final)
    if swapped >= 0:
        theirs = groups[swapped]
        assert theirs is not None
        theirs.remove(target)
        theirs.append(origin)
    for c, square in bumped:
        group = groups[c]
        assert group is not None
        group.remove(square)
        group.append(START)
    return Position(*(None if g is None else tuple(sorted(g)) for g in groups))


def _sweep(slide: Slide, occupancy: list[int], mover_square: int) -> tuple[tuple[int, int], ...]:
    """Every pawn on the slide except the mover: "remove EVERY man ON the Slide"."""
    return tuple(
        (occupancy[square], square)
        for square in slide.squares
        if occupancy[square] >= 0 and square != mover_square
    )


def make_step(
    position: Position,
    occupancy: list[int],
    colour: int,
    kind: int,
    origin: int,
    path: tuple[int, ...],
    teams: bool,
    allow_own: bool = False,
) -> tuple[Step, Position, bool] | None:
    """Build a forward, backward, start or Sorry! step ending on ``path[-1]``.

    Returns the step, the position after it, and whether it lands on the partner's pawn (which
    the classic books allow only as a last resort); None when the rules forbid it.
    """
    target = path[-1]
    slide = None
    partner_hit = False
    bumped: tuple[tuple[int, int], ...] = ()
    if target < TRACK_SQUARES:
        landing_slide = SLIDE_AT[target]
        if landing_slide is not None and landing_slide.colour != colour:
            # Ending on another colour's triangle: slide, sweeping the slide (own pawns too).
            slide = landing_slide
            if origin < TRACK_SQUARES:
                occupancy = occupancy.copy()
                occupancy[origin] = -1
            bumped = _sweep(slide, occupancy, -1)
        else:
            occupant = occupancy[target]
            if occupant >= 0 and target != origin:
                if occupant == colour and not allow_own:
                    return None  # rule C: never onto one's own pawn
                partner_hit = teams and occupant == PARTNER[colour]
                bumped = ((occupant, target),)
    elif target != HOME and target in position[colour]:  # type: ignore[operator]
        return None  # one pawn per safety square
    step = Step(colour, kind, origin, target, path, slide, bumped)
    after = _apply(position, colour, origin, step.final, bumped)
    return step, after, partner_hit


def make_switch(
    position: Position, occupancy: list[int], colour: int, origin: int, target: int
) -> tuple[Step, Position]:
    """An 11's exchange of the pawn on ``origin`` with the opponent on ``target``.

    The player's pawn slides if it lands on another colour's triangle (Hasbro: "If your switch
    landed you on a triangle at the beginning of another player's slide, slide to the end!");
    the opponent's pawn, which made no move of its own, stays where it is put.
    """
    swapped = occupancy[target]
    slide = SLIDE_AT[target]
    bumped: tuple[tuple[int, int], ...] = ()
    if slide is not None and slide.colour != colour:
        after_swap = occupancy.copy()
        after_swap[origin] = swapped
        bumped = _sweep(slide, after_swap, target)
    else:
        slide = None
    step = Step(colour, SWITCH, origin, target, (target,), slide, bumped, swapped)
    after = _apply(position, colour, origin, step.final, bumped, swapped, target)
    return step, after


# -- generating -----------------------------------------------------------------------------------


def _in_play(pawns: tuple[int, ...]) -> list[int]:
    """Distinct places of pawns on the track or in the safety zone."""
    seen: list[int] = []
    for place in pawns:
        if place < HOME and place not in seen:
            seen.append(place)
    return seen


def legal_options(
    position: Position, player: int, card: str, edition: Edition, teams: bool = False
) -> Options:
    """Every legal way for ``player`` to play ``card`` (rules A-I, the slides, every card rule)."""
    card = parse_card(card)
    partner = PARTNER[player]
    team_play = teams and position[partner] is not None
    movers = (player, partner) if team_play else (player,)
    opponents = [c for c in position.colours if c not in movers]
    occupancy = position.track_occupancy()
    found: list[tuple[Move, bool]] = []

    def add(built: tuple[Step, Position, bool] | None) -> None:
        if built is not None:
            step, after, partner_hit = built
            found.append((Move((step,), after), partner_hit))

    def moves_of(colour: int, paths: tuple, kind: int, count: int) -> None:
        for place in _in_play(position.pawns(colour)):
            path = paths[colour][place][count]
            if path is not None:
                add(make_step(position, occupancy, colour, kind, place, path, team_play))

    if card in ("1", "2"):
        for colour in movers:
            if START in position.pawns(colour):
                circle = start_circle(colour)
                add(make_step(position, occupancy, colour, START_OUT, START, (circle,), team_play))
    if card == "sorry":
        _sorry(position, occupancy, movers, opponents, player, edition, team_play, add)
    elif card == "4":
        for colour in movers:
            moves_of(colour, BACKWARD_PATHS, BACKWARD, 4)
    else:
        for colour in movers:
            moves_of(colour, FORWARD_PATHS, FORWARD, _FORWARD_CARDS[card])
    forward_moves = len(found)
    if card == "10":
        for colour in movers:
            moves_of(colour, BACKWARD_PATHS, BACKWARD, 1)
    elif card == "11":
        for colour in movers:
            for place in _in_play(position.pawns(colour)):
                if place >= TRACK_SQUARES:
                    continue  # "only for pawns in play on the open track"
                for target in range(TRACK_SQUARES):
                    if occupancy[target] in opponents:
                        step, after = make_switch(position, occupancy, colour, place, target)
                        found.append((Move((step,), after), False))
    elif card == "7":
        parts = edition.team_seven_parts if team_play else 2
        found.extend(_split_sevens(position, movers, parts, team_play))

    # Classic special rule 2: landing on the partner only when nothing else is possible.
    last_resort = team_play and edition.partner_landing == "last-resort"
    if last_resort and any(not hit for _, hit in found):
        found = [entry for entry in found if not entry[1]]
    moves = [move for move, _ in found]
    declinable = card == "11" and forward_moves == 0
    return Options(moves, not moves or declinable, card == "2")


def _sorry(position, occupancy, movers, opponents, player, edition, team_play, add) -> None:
    """Sorry!: a pawn from START takes the place of an opponent's pawn on the track."""
    starters = [c for c in movers if START in position.pawns(c)]
    targets = [sq for sq in range(TRACK_SQUARES) if occupancy[sq] in opponents]
    allow_own = False
    if not targets and team_play and starters:
        # "A SORRY card must be used at all times, even though it may mean the removal of a
        # partner's man" (classic); Hasbro: "you might send your own or your partner's pawn back".
        if edition.team_sorry_fallback == "team":
            victims = set(movers)
            allow_own = True
        else:
            victims = {PARTNER[player]}
        targets = [sq for sq in range(TRACK_SQUARES) if occupancy[sq] in victims]
    for colour in starters:
        circle = start_circle(colour)
        for square in targets:
            if occupancy[square] == colour and not allow_own:
                continue
            # Onto one's own start circle a Sorry! is the same move as starting a pawn out.
            kind = START_OUT if square == circle else SORRY
            path = (square,)
            add(make_step(position, occupancy, colour, kind, START, path, team_play, allow_own))


def _split_sevens(
    position: Position, movers: tuple[int, ...], max_parts: int, teams: bool
) -> list[tuple[Move, bool]]:
    """A 7 split between two (or, in Hasbro team play, up to seven) pawns, each part forward.

    Parts are played in order, each seeing the bumps and slides of the ones before.  Orders that
    end in the same position are one move; orders that differ (a slide sweeping the other pawn,
    say) are separate moves.
    """
    results: dict[Position, tuple[tuple[Step, ...], bool]] = {}
    visited: set = set()

    def extend(
        here: Position, steps: tuple[Step, ...], moved: frozenset, remaining: int, hit: bool
    ) -> None:
        if remaining == 0:
            best = results.get(here)
            if best is None or (best[1] and not hit):
                results[here] = (steps, hit)
            return
        key = (here, remaining, moved, hit)
        if key in visited:
            return
        visited.add(key)
        occupancy = here.track_occupancy()
        last_part = len(steps) + 1 == max_parts
        for colour in movers:
            for place in _in_play(here.pawns(colour)):
                if (colour, place) in moved:
                    continue
                low = remaining if last_part else 1
                high = remaining - 1 if not steps else remaining
                for count in range(low, high + 1):
                    path = FORWARD_PATHS[colour][place][count]
                    if path is None:
                        continue
                    built = make_step(here, occupancy, colour, FORWARD, place, path, teams)
                    if built is None:
                        continue
                    step, after, partner_hit = built
                    gone = {pawn for pawn in step.bumped}
                    still_moved = frozenset(m for m in moved if m not in gone)
                    extend(
                        after,
                        (*steps, step),
                        still_moved | {(colour, step.final)},
                        remaining - count,
                        hit or partner_hit,
                    )

    extend(position, (), frozenset(), 7, False)
    return [(Move(steps, after), hit) for after, (steps, hit) in results.items()]


def apply_move(move: Move) -> Position:
    return move.after

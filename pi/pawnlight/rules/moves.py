"""Moves and the legal-move generator.

A :class:`Move` records everything that happens, so applying it needs no further rule checks and
the LEDs can show all of it: each pawn's path, the slide it takes, every pawn it bumps or sweeps,
the pawn it switches with, and the position that results.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final, NamedTuple

from .board import (
    BACKWARD_PATHS,
    FORWARD_PATHS,
    HOME,
    PARTNER,
    SLIDE_AT,
    START,
    START_CIRCLES,
    TRACK_SQUARES,
    Paths,
    Slide,
    diamond_square,
)
from .cards import parse_card
from .editions import Edition
from .position import Position, track_occupancy

# Compiled (setup.py), the generator reads its own final names as C statics but a name imported
# from another module through a dictionary: the board's tables read on every move are bound here.
_SLIDE_AT: Final = SLIDE_AT
_FORWARD_PATHS: Final = FORWARD_PATHS
_PARTNER: Final = PARTNER
_CIRCLE: Final = START_CIRCLES


class StepKind(IntEnum):
    """What kind of action a step is.  An int enum: steps are built by the million, compared
    and hashed as plain tuples; ``word`` names the kind for people and logs."""

    FORWARD = 0
    BACKWARD = 1
    START_OUT = 2  # out of START onto the start circle
    SORRY = 3  # out of START onto an opponent's square, bumping it
    SWITCH = 4  # an 11's exchange with an opponent

    @property
    def word(self) -> str:
        return _STEP_WORDS[self]


_STEP_WORDS = ("forward", "backward", "start", "sorry", "switch")

# The generator's loops read the kinds as module globals: cheaper than an enum attribute.
FORWARD: Final = StepKind.FORWARD
BACKWARD: Final = StepKind.BACKWARD
START_OUT: Final = StepKind.START_OUT
SORRY: Final = StepKind.SORRY
SWITCH: Final = StepKind.SWITCH

_FORWARD_CARDS: Final[dict[str, int]] = {
    card: int(card) for card in ("1", "2", "3", "5", "7", "8", "10", "11", "12")
}


class Step(NamedTuple):
    """One pawn's part of a move."""

    colour: int
    kind: StepKind
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


#: Per colour, place and count, the plain step (onto an empty square, no slide); None: no move.
PlainSteps = tuple[tuple[tuple["Step | None", ...], ...], ...]


class Move:
    """A whole move: its steps in order, from the position it was made in.

    The resulting position is worked out from the steps when first asked for, so generating the
    legal moves costs only what deciding them costs.  Moves are equal when they start from the same
    position and take the same steps.
    """

    __slots__ = ("_after", "before", "steps")

    def __init__(
        self, steps: tuple[Step, ...], before: Position, after: Position | None = None
    ) -> None:
        self.steps = steps
        self.before = before
        self._after = after

    @property
    def after(self) -> Position:
        """The whole position after the move, slides, bumps and switches applied."""
        if self._after is None:
            position = self.before
            for step in self.steps:
                position = apply_step(position, step)
            self._after = position
        return self._after

    @property
    def bumped(self) -> tuple[tuple[int, int], ...]:
        return tuple(b for step in self.steps for b in step.bumped)

    @property
    def slides(self) -> tuple[Slide, ...]:
        return tuple(step.slide for step in self.steps if step.slide is not None)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self.steps == other.steps and self.before == other.before

    def __hash__(self) -> int:
        return hash((self.steps, self.before))

    def __repr__(self) -> str:
        return f"Move({self.steps!r})"


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

    def options(self, position: Position, player: int, card: object) -> Options:
        return legal_options(position, player, card, self.edition, self.teams)

    def moves(self, position: Position, player: int, card: object) -> list[Move]:
        return self.options(position, player, card).moves


# -- applying -------------------------------------------------------------------------------------


def apply_step(position: Position, step: Step) -> Position:
    """The position after one step: the pawn moved, a switched pawn exchanged, bumps to START."""
    colour, _, origin, target, _, slide, bumped, swapped = step
    groups = list(position)
    mine = list(groups[colour])  # type: ignore[arg-type]
    mine[mine.index(origin)] = target if slide is None else slide.end
    if swapped < 0 and not bumped:  # the common case, kept short
        mine.sort()
        groups[colour] = tuple(mine)
        return tuple.__new__(Position, groups)
    lists: list[list[int] | None] = [None if g is None else list(g) for g in groups]
    lists[step.colour] = mine
    if step.swapped >= 0:
        theirs = lists[step.swapped]
        assert theirs is not None
        theirs[theirs.index(step.target)] = step.origin
    for colour, square in step.bumped:
        group = lists[colour]
        assert group is not None
        group[group.index(square)] = START
    return tuple.__new__(Position, [None if g is None else tuple(sorted(g)) for g in lists])


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
    kind: StepKind,
    origin: int,
    path: tuple[int, ...],
    teams: bool,
    allow_own: bool = False,
    strict: bool = False,
) -> tuple[Step, bool] | None:
    """Build a forward, backward, start or Sorry! step ending on ``path[-1]``.

    Returns the step and whether it lands on the partner's pawn (which the classic books allow only
    as a last resort); None when the rules forbid it.  ``strict`` is the strict-own-landing house
    rule: no landing on an own pawn at all, not on a triangle, not on the slide's end.
    """
    target = path[-1]
    if target < TRACK_SQUARES:
        landing_slide = _SLIDE_AT[target]
        if landing_slide is not None and landing_slide.colour != colour:
            if strict and _strict_forbids(occupancy, colour, origin, target, landing_slide.end):
                return None
            # Ending on another colour's triangle: slide, sweeping the slide (own pawns too).
            if origin < TRACK_SQUARES:
                occupancy = occupancy.copy()
                occupancy[origin] = -1
            swept = _sweep(landing_slide, occupancy, -1)
            return Step(colour, kind, origin, target, path, landing_slide, swept), False
        occupant = occupancy[target]
        if occupant < 0 or target == origin:
            return Step(colour, kind, origin, target, path, None, ()), False
        if occupant == colour and (strict or not allow_own):
            return None  # rule C: never onto one's own pawn
        partner_hit = teams and occupant == _PARTNER[colour]
        return Step(colour, kind, origin, target, path, None, ((occupant, target),)), partner_hit
    if target != HOME and target in position[colour]:  # type: ignore[operator]
        return None  # one pawn per safety square
    return Step(colour, kind, origin, target, path, None, ()), False


def _strict_forbids(occupancy: list[int], colour: int, origin: int, target: int, end: int) -> bool:
    """Strict-own-landing: the triangle or the slide's end holds another pawn of the mover's."""
    return (occupancy[target] == colour and target != origin) or (
        occupancy[end] == colour and end != origin
    )


def make_switch(occupancy: list[int], colour: int, origin: int, target: int) -> Step:
    """An 11's exchange of the pawn on ``origin`` with the opponent on ``target``.

    The player's pawn slides if it lands on another colour's triangle (Hasbro: "If your switch
    landed you on a triangle at the beginning of another player's slide, slide to the end!");
    the opponent's pawn, which made no move of its own, stays where it is put.
    """
    swapped = occupancy[target]
    slide = _SLIDE_AT[target]
    if slide is not None and slide.colour != colour:
        after_swap = occupancy.copy()
        after_swap[origin] = swapped
        return Step(
            colour,
            SWITCH,
            origin,
            target,
            (target,),
            slide,
            _sweep(slide, after_swap, target),
            swapped,
        )
    return Step(colour, SWITCH, origin, target, (target,), None, (), swapped)


# -- generating -----------------------------------------------------------------------------------


def _in_play(pawns: tuple[int, ...]) -> list[int]:
    """Places of pawns on the track or in the safety zone (no two share one: rule A)."""
    return [place for place in pawns if place < HOME]


_CARDS: Final = frozenset(_FORWARD_CARDS) | {"4", "sorry"}
#: Where a pawn of each colour is held by the diamond-lock house rule (-1: nowhere).
_NO_LOCKS: Final[tuple[int, ...]] = (-1, -1, -1, -1)
_DIAMONDS: Final[tuple[int, ...]] = tuple(diamond_square(colour) for colour in range(4))
_new: Final = tuple.__new__


def legal_options(
    position: Position, player: int, card: object, edition: Edition, teams: bool = False
) -> Options:
    """Every legal way for ``player`` to play ``card`` (rules A-I, the slides, every card rule,
    and the edition's house rules).  ``card`` as :func:`~.cards.parse_card` reads it (``"7"``,
    ``7``, ``"Sorry!"``); anything else is a ValueError."""
    # A name already (nearly always) is kept quick; typed apart, so the compiled comparisons
    # below stay string comparisons.
    name = card if type(card) is str and card in _CARDS else parse_card(card)
    partner = _PARTNER[player]
    team_play = teams and position[partner] is not None
    movers = (player, partner) if team_play else (player,)
    house = edition.house_rules
    strict = bool(house) and edition.strict_own_landing
    locks = _DIAMONDS if house and edition.diamond_lock else _NO_LOCKS
    # Which colour stands on each track square: the 7, the 11 and Sorry! read it all over; the
    # other cards ask only whether a landing square is taken (a bit per track square, cheaper
    # than building the list), and build it only for a landing the rules must decide.
    taken = _taken_squares(position)
    occupancy = track_occupancy(position) if name in _READ_THE_TRACK else None
    found: list[tuple[Step, bool]] = []

    if name == "1" or name == "2":
        for colour in movers:
            if START in position[colour]:  # type: ignore[operator]
                circle = _CIRCLE[colour]
                if not taken >> circle & 1 and _SLIDE_AT[circle] is None:  # a free start circle
                    found.append((_START_OUT[colour], False))
                    continue
                if occupancy is None:
                    occupancy = track_occupancy(position)
                path = _ALONE[circle]
                built = make_step(
                    position, occupancy, colour, START_OUT, START, path, team_play, False, strict
                )
                if built is not None:
                    found.append(built)
    if name == "sorry":
        assert occupancy is not None  # read above for a Sorry!
        found.extend(_sorry(position, occupancy, movers, player, edition, team_play, strict))
    elif name == "4":
        occupancy = _straight(
            found, position, taken, occupancy, movers, _PLAIN_BACKWARD, BACKWARD, 4, _NO_LOCKS,
            team_play, strict,
        )  # fmt: skip
    else:
        occupancy = _straight(
            found, position, taken, occupancy, movers, _PLAIN_FORWARD, FORWARD,
            _FORWARD_CARDS[name], locks, team_play, strict,
        )  # fmt: skip
    forward_moves = len(found)
    if name == "10":
        occupancy = _straight(
            found, position, taken, occupancy, movers, _PLAIN_BACKWARD, BACKWARD, 1, _NO_LOCKS,
            team_play, strict,
        )  # fmt: skip
    elif name == "11":
        assert occupancy is not None
        targets = _opponents_on_track(position, movers)
        for colour in movers:
            own = position[colour]
            assert own is not None  # a mover plays
            for place in own:
                if place < TRACK_SQUARES:  # "only for pawns in play on the open track"
                    for target in targets:
                        slide = _SLIDE_AT[target]
                        if slide is None:  # the usual exchange, built here without a call
                            step = _new(
                                Step,
                                (
                                    colour,
                                    SWITCH,
                                    place,
                                    target,
                                    _ALONE[target],
                                    None,
                                    (),
                                    occupancy[target],
                                ),
                            )
                            found.append((step, False))
                            continue
                        if strict and (
                            slide.colour != colour
                            and occupancy[slide.end] == colour
                            and slide.end != place
                        ):
                            continue  # strict-own-landing: the switch would slide onto one
                        found.append((make_switch(occupancy, colour, place, target), False))

    moves = [Move((step,), position) for step, hit in found if not hit]
    hits = len(moves) < len(found)
    if name == "7":
        assert occupancy is not None
        parts = edition.team_seven_parts if team_play else 2
        if parts == 2:
            sevens = _two_part_sevens(position, occupancy, movers, team_play, strict, locks)
        else:
            sevens = _split_sevens(position, movers, parts, team_play, strict, locks)
        for move, hit in sevens:
            if hit:
                hits = True
            else:
                moves.append(move)
        if hits and (edition.partner_landing == "bump" or not moves):
            moves = [Move((step,), position) for step, _ in found]
            moves.extend(move for move, _ in sevens)
    elif hits and (edition.partner_landing == "bump" or not moves):
        # Classic special rule 2: landing on the partner only when nothing else is possible.
        moves = [Move((step,), position) for step, _ in found]
    declinable = name == "11" and forward_moves == 0
    return _new(Options, (moves, not moves or declinable, name == "2"))


def _straight(
    found: list[tuple[Step, bool]],
    position: Position,
    taken: int,
    occupancy: list[int] | None,
    movers: tuple[int, ...],
    plain_steps: PlainSteps,
    kind: StepKind,
    count: int,
    locks: tuple[int, ...],
    team_play: bool,
    strict: bool,
) -> list[int] | None:
    """Every pawn in play moved ``count`` squares one way (forward, or backward for the 4 and the
    10's one back); returns the occupancy list if a landing needed it built."""
    for colour in movers:
        plain = plain_steps[colour]
        lock = locks[colour]
        own = position[colour]
        assert own is not None  # a mover plays
        for place in own:
            if place >= HOME:
                continue
            step = plain[place][count]
            if step is None or place == lock:
                continue
            # The common landings, decided here without a call: an empty square off any other
            # colour's triangle, or a free safety square or home.
            target = step[3]
            if target < TRACK_SQUARES:
                slide = _SLIDE_AT[target]
                if not taken >> target & 1 and (slide is None or slide.colour == colour):
                    found.append((step, False))
                    continue
            elif target != HOME and target in own:
                continue  # one pawn per safety square
            else:
                found.append((step, False))
                continue
            if occupancy is None:
                occupancy = track_occupancy(position)
            built = make_step(
                position, occupancy, colour, kind, place, step[4], team_play, False, strict
            )
            if built is not None:
                found.append(built)
    return occupancy


def _taken_squares(position: Position) -> int:
    """The track squares with a pawn on them, as the bits of an int (bit n: square n)."""
    taken = 0
    for pawns in position:
        if pawns is not None:
            for place in pawns:
                if place < TRACK_SQUARES:
                    taken |= 1 << place
    return taken


#: ``(square,)`` for every place: the path of a switch or a Sorry!, shared rather than rebuilt.
_ALONE: Final[tuple[tuple[int], ...]] = tuple((place,) for place in range(START + 1))
#: The cards whose moves read the whole track (every opponent, every split).
_READ_THE_TRACK: Final = frozenset({"7", "11", "sorry"})


def _plain_steps(kind: StepKind, paths: Paths) -> PlainSteps:
    """Per colour, place and count: the step onto an empty square with no slide (None where the
    count leads nowhere); a value, so every call shares the same one."""
    return tuple(
        tuple(
            tuple(
                None if not path else Step(colour, kind, place, path[-1], path, None, ())
                for path in paths[colour][place]
            )
            for place in range(len(paths[colour]))
        )
        for colour in range(4)
    )


_PLAIN_FORWARD: Final = _plain_steps(FORWARD, FORWARD_PATHS)
_PLAIN_BACKWARD: Final = _plain_steps(BACKWARD, BACKWARD_PATHS)
#: Each colour's pawn out of START onto its free start circle.
_START_OUT: Final[tuple[Step, ...]] = tuple(
    Step(c, START_OUT, START, circle, (circle,), None, ()) for c, circle in enumerate(START_CIRCLES)
)


def _opponents_on_track(position: Position, movers: tuple[int, ...]) -> list[int]:
    """The track squares holding a pawn of a colour other than the movers', in square order."""
    squares = [
        place
        for colour in range(4)
        if colour not in movers
        for place in position[colour] or ()
        if place < TRACK_SQUARES
    ]
    squares.sort()
    return squares


def _sorry(
    position: Position,
    occupancy: list[int],
    movers: tuple[int, ...],
    player: int,
    edition: Edition,
    team_play: bool,
    strict: bool = False,
) -> list[tuple[Step, bool]]:
    """Sorry!: a pawn from START takes the place of an opponent's pawn on the track."""
    # A mover is in the game: its pawns are a tuple, never None.
    starters = [c for c in movers if START in position[c]]  # type: ignore[operator]
    if not starters:
        return []
    targets = _opponents_on_track(position, movers)
    allow_own = False
    fallback = not targets and team_play
    if fallback:
        # "A SORRY card must be used at all times, even though it may mean the removal of a
        # partner's man" (classic); Hasbro: "you might send your own or your partner's pawn back".
        if edition.team_sorry_fallback == "team":
            victims = set(movers)
            allow_own = True
        else:
            victims = {_PARTNER[player]}
        targets = [sq for sq in range(TRACK_SQUARES) if occupancy[sq] in victims]
    found = []
    for colour in starters:
        circle = _CIRCLE[colour]
        for square in targets:
            if occupancy[square] == colour and not allow_own:
                continue
            # Onto one's own start circle a Sorry! is the same move as starting a pawn out.
            kind = START_OUT if square == circle else SORRY
            if not fallback:
                slide = _SLIDE_AT[square]
                if slide is None or slide.colour == colour:
                    # An opponent off any other colour's triangle, the usual Sorry!: bumped.
                    bumped = ((occupancy[square], square),)
                    step = _new(
                        Step, (colour, kind, START, square, _ALONE[square], None, bumped, -1)
                    )
                    found.append((step, False))
                    continue
            built = make_step(
                position,
                occupancy,
                colour,
                kind,
                START,
                _ALONE[square],
                team_play,
                allow_own,
                strict,
            )
            if built is not None:
                # With no opponent to pick on, every Sorry! removes a team pawn, whether it bumps
                # the partner or slides from the partner's triangle, sweeping it: rule 1 makes
                # each a move in its own right, never a last resort to be filtered out (rule 2).
                found.append((built[0], False) if fallback else built)
    return found


def _after_step(occupancy: list[int], step: Step) -> list[int]:
    """The track occupancy after a forward step, without building the whole position."""
    after = occupancy.copy()
    for _, square in step.bumped:
        after[square] = -1
    if step.origin < TRACK_SQUARES:
        after[step.origin] = -1
    if step.final < TRACK_SQUARES:
        after[step.final] = step.colour
    return after


def _two_part_sevens(
    position: Position,
    occupancy: list[int],
    movers: tuple[int, ...],
    teams: bool,
    strict: bool = False,
    locks: tuple[int, ...] = _NO_LOCKS,
) -> list[tuple[Move, bool]]:
    """The usual split 7: two pawns, the second part played on the board the first one left.

    A specialised, flat form of :func:`_split_sevens` (which it must agree with): the split is the
    most expensive thing the generator does and this is on every 7 drawn.  Parts that land on an
    empty square off any other colour's triangle (nearly all of them) are worked out here on bare
    lists; the rest go through :func:`make_step` and :func:`apply_step`.
    """
    # Keyed by the position after, or for two plain parts by the places that changed.
    results: dict[Position | tuple[int, ...], tuple[tuple[Step, Step], bool]] = {}
    for colour in movers:
        own = position[colour]
        assert own is not None
        lock = locks[colour]
        paths_here = _FORWARD_PATHS[colour]
        for place in _in_play(own):
            if place == lock:
                continue
            for count in range(1, 7):
                path = paths_here[place][count]
                if path is None:
                    break  # past home: longer moves are impossible too
                target = path[-1]
                if target < TRACK_SQUARES:
                    slide = _SLIDE_AT[target]
                    plain = occupancy[target] < 0 and (slide is None or slide.colour == colour)
                else:
                    if target != HOME and target in own:
                        continue  # one pawn per safety square
                    plain = True
                if not plain:
                    _seven_after_first(
                        results, position, occupancy, movers, teams, strict, locks,
                        colour, place, path, count,
                    )  # fmt: skip
                    continue
                first = _PLAIN_FORWARD[colour][place][count]
                assert first is not None  # a path exists, so its plain step does
                middle_own = list(own)
                middle_own[middle_own.index(place)] = target
                # The board after the first part: the call's own occupancy list, changed here
                # and put back after the second parts (a copy per first part cost more).
                middle_occupancy = occupancy
                if place < TRACK_SQUARES:
                    occupancy[place] = -1
                if target < TRACK_SQUARES:
                    occupancy[target] = colour
                middle: Position | None = None
                rest = 7 - count
                for colour2 in movers:
                    same = colour2 == colour
                    own2 = middle_own if same else position[colour2]
                    lock2 = locks[colour2]
                    paths2 = _FORWARD_PATHS[colour2]
                    for place2 in own2:  # type: ignore[union-attr]
                        if place2 >= HOME or (same and place2 == target) or place2 == lock2:
                            continue  # not in play, the same pawn again, or a locked one
                        path2 = paths2[place2][rest]
                        if path2 is None:
                            continue
                        target2 = path2[-1]
                        if target2 < TRACK_SQUARES:
                            slide2 = _SLIDE_AT[target2]
                            standing = middle_occupancy[target2]
                            if (slide2 is not None and slide2.colour != colour2) or standing >= 0:
                                if standing == colour2 and (
                                    slide2 is None or slide2.colour == colour2
                                ):
                                    continue  # rule C: never onto one's own pawn
                                if middle is None:
                                    middle = apply_step(position, first)
                                built2 = make_step(
                                    middle, middle_occupancy, colour2, FORWARD, place2, path2,
                                    teams, False, strict,
                                )  # fmt: skip
                                if built2 is None:
                                    continue
                                second, hit = built2
                                after = apply_step(middle, second)
                                best = results.get(after)
                                if best is None or (best[1] and not hit):
                                    results[after] = ((first, second), hit)
                                continue
                        elif target2 != HOME and target2 in own2:  # type: ignore[operator]
                            continue
                        # Both parts plain: the result is known by the pawns that changed place,
                        # a cheaper key than the position after (worked out when asked for).  No
                        # part bumps or slides, so no general result (which sends a pawn to
                        # START or moves one three squares more) can be the same position.
                        if not same:
                            key: tuple[int, ...] = (
                                (colour, place, target, colour2, place2, target2)
                                if colour < colour2
                                else (colour2, place2, target2, colour, place, target)
                            )
                        elif target2 == place:  # onto the first pawn's square: one pawn moved
                            key = (colour, place2, target)
                        else:
                            low, high = (place, place2) if place < place2 else (place2, place)
                            key = (
                                (colour, low, high, target, target2)
                                if target < target2
                                else (colour, low, high, target2, target)
                            )
                        if key not in results:
                            plain2 = _PLAIN_FORWARD[colour2][place2][rest]
                            assert plain2 is not None  # a path exists, so its plain step does
                            results[key] = ((first, plain2), False)
                if target < TRACK_SQUARES:
                    occupancy[target] = -1
                if place < TRACK_SQUARES:
                    occupancy[place] = colour
    return [
        (Move(steps, position, after if type(after) is Position else None), hit)
        for after, (steps, hit) in results.items()
    ]


def _seven_after_first(
    results: dict[Position | tuple[int, ...], tuple[tuple[Step, Step], bool]],
    position: Position,
    occupancy: list[int],
    movers: tuple[int, ...],
    teams: bool,
    strict: bool,
    locks: tuple[int, ...],
    colour: int,
    place: int,
    path: tuple[int, ...],
    count: int,
) -> None:
    """The second parts after a first part that slides or bumps: the general, slower way."""
    built = make_step(position, occupancy, colour, FORWARD, place, path, teams, False, strict)
    if built is None:
        return
    first, first_hit = built
    middle = apply_step(position, first)
    middle_occupancy = _after_step(occupancy, first)
    rest = 7 - count
    for colour2 in movers:
        lock2 = locks[colour2]
        for place2 in _in_play(middle[colour2]):  # type: ignore[arg-type]
            if (colour2 == colour and place2 == first.final) or place2 == lock2:
                continue  # the same pawn again, or a locked one
            path2 = _FORWARD_PATHS[colour2][place2][rest]
            if path2 is None:
                continue
            target2 = path2[-1]
            if target2 < TRACK_SQUARES:
                slide2 = _SLIDE_AT[target2]
                plain = middle_occupancy[target2] < 0 and (
                    slide2 is None or slide2.colour == colour2
                )
            else:
                plain = target2 == HOME or target2 not in middle[colour2]  # type: ignore[operator]
                if not plain:
                    continue  # one pawn per safety square
            if plain:  # an empty square: the position after built here, not by apply_step
                moved = list(middle[colour2])  # type: ignore[arg-type]
                moved[moved.index(place2)] = target2
                moved.sort()
                groups = list(middle)
                groups[colour2] = tuple(moved)
                after = _new(Position, groups)
                best = results.get(after)
                if best is None or (best[1] and not first_hit):
                    second = _PLAIN_FORWARD[colour2][place2][rest]
                    assert second is not None  # a path exists, so its plain step does
                    results[after] = ((first, second), first_hit)
                continue
            built2 = make_step(
                middle, middle_occupancy, colour2, FORWARD, place2, path2, teams, False, strict
            )
            if built2 is None:
                continue
            second, second_hit = built2
            after = apply_step(middle, second)
            hit = first_hit or second_hit
            best = results.get(after)
            if best is None or (best[1] and not hit):
                results[after] = ((first, second), hit)


def _split_sevens(
    position: Position,
    movers: tuple[int, ...],
    max_parts: int,
    teams: bool,
    strict: bool = False,
    locks: tuple[int, ...] = _NO_LOCKS,
) -> list[tuple[Move, bool]]:
    """A 7 split between two (or, in Hasbro team play, up to seven) pawns, each part forward.

    Parts are played in order, each seeing the bumps and slides of the ones before.  Orders that
    end in the same position are one move; orders that differ (a slide sweeping the other pawn,
    say) are separate moves.
    """
    results: dict[Position, tuple[tuple[Step, ...], bool]] = {}
    visited: set[tuple[Position, int, frozenset[tuple[int, int]], bool]] = set()

    def extend(
        here: Position,
        steps: tuple[Step, ...],
        moved: frozenset[tuple[int, int]],
        remaining: int,
        hit: bool,
    ) -> None:
        if remaining == 0:
            best = results.get(here)
            if best is None or (best[1] and not hit):
                results[here] = (steps, hit)
            return
        if max_parts > 2:
            key = (here, remaining, moved, hit)
            if key in visited:
                return
            visited.add(key)
        occupancy = track_occupancy(here)
        last_part = len(steps) + 1 == max_parts
        for colour in movers:
            for place in _in_play(here[colour]):  # type: ignore[arg-type]
                if (colour, place) in moved or place == locks[colour]:
                    continue
                low = remaining if last_part else 1
                high = remaining - 1 if not steps else remaining
                for count in range(low, high + 1):
                    path = _FORWARD_PATHS[colour][place][count]
                    if path is None:
                        continue
                    built = make_step(
                        here, occupancy, colour, FORWARD, place, path, teams, False, strict
                    )
                    if built is None:
                        continue
                    step, partner_hit = built
                    after = apply_step(here, step)
                    still_moved = moved - set(step.bumped) if step.bumped else moved
                    extend(
                        after,
                        (*steps, step),
                        still_moved | {(colour, step.final)},
                        remaining - count,
                        hit or partner_hit,
                    )

    extend(position, (), frozenset(), 7, False)
    return [(Move(steps, position, after), hit) for after, (steps, hit) in results.items()]

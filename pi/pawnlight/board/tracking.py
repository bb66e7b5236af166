"""Which colour stands where on a presence board, followed from every change the board shows.

A presence board senses that a place holds a pawn, not which colour it is.  The companion knows
more: every recognised move put known colours on known squares, and since then it has seen every
pawn lifted and put down.  A :class:`PawnTracker` keeps that knowledge, so that guidance can ask
for the right colour on each square, and ask for a swap where presence alone cannot see the
difference.  (Issue #16: red moves onto T4, blue's Sorry! replaces it, the Sorry! is undone: the
pawn on T4 is blue, and a red one must come back there; a presence board sees no difference
between that and a red pawn left in blue's START.)

Lifted pawns go into the *hand*; a pawn put down takes a colour from it: the colour of the START
or HOME it is put in if the hand holds one, else the colour guidance asked for there if the hand
holds one, else the hand's only colour.  Lifted pawns of colours not in the game are taken to be
put away, and a pawn put in a START or HOME while the hand holds no playing colour to come from
the box, of that area's colour.  When none of these tells, the pawn is *unknown* (PAWN), and an
unknown pawn is taken to be the right one: the tracker only ever objects to what it knows.
"""

from __future__ import annotations

from collections import Counter

from pawnlight.rules.position import Position

from .cells import AREA_STARTS, AREAS, EMPTY, PAWN, SPOTS_PER_AREA, SQUARE_CELLS
from .snapshot import Occupancy, canonical, true_occupancy


class PawnTracker:
    """The colours on a presence board as far as they are known (see the module docstring)."""

    def __init__(self) -> None:
        self._squares: list[int] = [EMPTY] * len(SQUARE_CELLS)
        self._areas: list[Counter[int]] = [Counter() for _ in AREAS]
        self._hand: Counter[int] = Counter()
        self._pawns = 0  # pawns of the game: when all are on the board, the hand is empty
        self._playing: frozenset[int] = frozenset()  # a lifted pawn of another colour goes away
        self._sensed: Occupancy | None = None
        self._assumed: tuple[Occupancy, ...] = ()
        self._set_up = False  # follow only once the board reads as the position (a new game)
        # Squares whose pawn's colour is known while a new game is set up: seen empty since the
        # set-up began (a pawn put there later is the one asked for), or followed there already.
        self._trusted: set[int] = set()
        # Squares whose pawn took the colour guidance asked for while the hand held others too:
        # the other colours it may be, should a START or HOME later want the one it took.
        self._guessed: dict[int, frozenset[int]] = {}

    def reset(
        self,
        position: Position,
        seen: bool = True,
        maybe: tuple[Position, ...] = (),
        set_up: bool = False,
    ) -> None:
        """The board shows ``position`` in its colours (a move was recognised, the board was set
        up as lit).  ``seen=False``: that is only the best guess (after a restart); the first
        board followed then takes the colours of the first of ``position`` and ``maybe`` (other
        positions the board may still show, such as the one before an undo) that it reads as,
        and keeps them only where it has a pawn.  ``set_up``: a new game, set up from whatever
        the board held before (pawns of other colours put away, others taken from the box):
        nothing is followed until the board first reads as ``position``."""
        truth = canonical(true_occupancy(position))
        known: Occupancy | None = None
        if self._sensed is not None:
            known = self.colours()
        elif self._assumed and not self._set_up:
            known = self._assumed[0]  # after a restart: the journal's position, as _first takes
        self._trusted = {
            cell for cell in SQUARE_CELLS if known is not None and known[cell] == truth[cell]
        }
        self._pawns = sum(1 for _ in position.items())
        self._playing = frozenset(position.colours)
        self._hand.clear()
        self._load(truth)
        self._sensed = _presence(truth) if seen else None
        others = tuple(canonical(true_occupancy(p)) for p in maybe)
        self._assumed = () if seen else (truth, *others)
        self._set_up = set_up and not seen

    @property
    def setting_up(self) -> bool:
        """A new game is being set up and the board has not yet read as its position: the
        colours of the pawns on it are not known."""
        return self._set_up and self._sensed is None

    def unverified(self, board: Occupancy) -> frozenset[int]:
        """While a new game is set up: the squares where the game wants a pawn and the board has
        one that has stood there since before the set-up began (a pawn of the last game, of a
        colour nobody knows). Each must be lifted and the right colour put down."""
        if not self.setting_up:
            return frozenset()
        target = self._assumed[0]
        return frozenset(
            cell
            for cell in SQUARE_CELLS
            if board[cell] != EMPTY and target[cell] != EMPTY and cell not in self._trusted
        )

    def follow(self, board: Occupancy, wanted: Occupancy | None = None) -> None:
        """The presence board now shows ``board``: lifted pawns go into the hand, pawns put down
        take a colour from it.  ``wanted``: the colours guidance asks for (a true occupancy)."""
        board = _presence(board)
        if self._sensed is None:
            # After a restart the sensors may first report an empty or half-read board: the
            # colours are taken from the first board that holds every pawn of the game.
            if self._set_up:
                self._trusted.update(cell for cell in SQUARE_CELLS if board[cell] == EMPTY)
                if board == _presence(self._assumed[0]) and not self.unverified(board):
                    self._first(board)
            elif sum(1 for v in board if v != EMPTY) >= self._pawns:
                self._first(board)
            return
        before, self._sensed = self._sensed, board
        if board == before:
            return
        for cell in SQUARE_CELLS:
            if before[cell] != EMPTY and board[cell] == EMPTY:
                self._hand[self._squares[cell]] += 1
                self._squares[cell] = EMPTY
                self._guessed.pop(cell, None)
        for index, first in enumerate(AREA_STARTS):
            lost = _count(before, first) - _count(board, first)
            for _ in range(max(lost, 0)):
                self._hand[self._take_from_area(index)] += 1
        for cell in SQUARE_CELLS:
            if before[cell] == EMPTY and board[cell] != EMPTY:
                want = wanted[cell] if wanted is not None else EMPTY
                others = frozenset(self._held()) - {want, PAWN}
                self._squares[cell] = colour = self._from_hand(want)
                if colour == want and others:
                    self._guessed[cell] = others
        for index, first in enumerate(AREA_STARTS):
            gained = _count(board, first) - _count(before, first)
            for _ in range(max(gained, 0)):
                own = AREAS[index][1]
                if own not in self._held():
                    self._reclaim(own)
                self._areas[index][self._from_hand(own, area=True)] += 1
        self._settle_hand()

    def colours(self) -> Occupancy:
        """The board in true colours as known: PAWN where a pawn's colour is not known."""
        cells = list(self._squares)
        for area in self._areas:
            spots = sorted(area.elements())
            cells += spots + [EMPTY] * (SPOTS_PER_AREA - len(spots))
        return canonical(cells)

    def believed(self, target: Occupancy) -> Occupancy:
        """The board as best believed against ``target`` (a true occupancy): each unknown pawn
        taken to be the colour the target has there, or one the board is short of."""
        cells = list(self.colours())
        short = Counter(v for v in target if v != EMPTY)
        short.subtract(v for v in cells if v not in (EMPTY, PAWN))
        for cell in SQUARE_CELLS:
            if cells[cell] == PAWN and target[cell] != EMPTY:
                cells[cell] = target[cell]
                short[target[cell]] -= 1
        for (_, colour), first in zip(AREAS, AREA_STARTS, strict=True):
            for cell in range(first, first + SPOTS_PER_AREA):
                if cells[cell] == PAWN:
                    cells[cell] = colour
                    short[colour] -= 1
        for cell in SQUARE_CELLS:
            if cells[cell] == PAWN:
                colour = max(short, key=lambda c: (short[c], -c), default=0)
                cells[cell] = colour
                short[colour] -= 1
        return canonical(cells)

    def contradicts(self, target: Occupancy) -> bool:
        """A pawn of a known colour stands where ``target`` wants another colour, or (setting
        up a new game) one of unknown colour stands where a pawn is wanted."""
        if self._sensed is None and self._set_up:
            return True  # nothing is known until the board first reads as the position
        return self.believed(target) != canonical(target)

    # -- inside ---------------------------------------------------------------------------------

    def _load(self, truth: Occupancy) -> None:
        self._guessed = {}
        self._squares = [truth[cell] for cell in SQUARE_CELLS]
        self._areas = [
            Counter(v for v in truth[first : first + SPOTS_PER_AREA] if v != EMPTY)
            for first in AREA_STARTS
        ]

    def _first(self, board: Occupancy) -> None:
        """The first board after a restart: the game's colours where it has pawns, the areas'
        own colours in START and HOME, unknown elsewhere."""
        assumed = next((t for t in self._assumed if _presence(t) == board), self._assumed[0])
        self._squares = [
            EMPTY if board[cell] == EMPTY else (assumed[cell] if assumed[cell] != EMPTY else PAWN)
            for cell in SQUARE_CELLS
        ]
        self._areas = [
            Counter({colour: _count(board, first)}) if _count(board, first) else Counter()
            for (_, colour), first in zip(AREAS, AREA_STARTS, strict=True)
        ]
        self._sensed = board
        self._assumed = ()
        self._guessed = {}

    def _take_from_area(self, index: int) -> int:
        """A pawn lifted from a START or HOME: the one pawn that does not belong there if there
        is one (people put right what guidance points at), else one of the area's colour."""
        area = self._areas[index]
        own = AREAS[index][1]
        foreign = [c for c in area if c not in (own, PAWN)]
        if len(foreign) == 1:
            colour = foreign[0]
        elif not foreign and own in area:
            colour = own
        else:
            colour = PAWN  # only unknown pawns there, or several wrong ones: cannot tell
        taken = colour if area[colour] > 0 else next(iter(area), None)
        if taken is not None:
            area[taken] -= 1
            if area[taken] <= 0:
                del area[taken]
        return colour

    def _held(self) -> list[int]:
        """The colours in the hand that can be put back: the game's, and unknown pawns."""
        hand = self._hand
        return [c for c in hand if hand[c] > 0 and (c in self._playing or c == PAWN)]

    def _reclaim(self, colour: int) -> None:
        """A pawn is put in the START or HOME of ``colour``, which the hand no longer holds, as
        a square took it on guidance's word while the hand held another colour: a lifted pawn
        of the area's colour goes there (docs/daemon.md), so that square's pawn was the other
        one, if the hand still holds exactly one of the colours it may be. The hand then holds
        ``colour`` for the area."""
        held = self._held()
        for cell, others in sorted(self._guessed.items()):
            usable = [c for c in others if c in held]
            if self._squares[cell] != colour or len(usable) != 1:
                continue
            self._squares[cell] = usable[0]
            self._hand[usable[0]] -= 1
            if self._hand[usable[0]] <= 0:
                del self._hand[usable[0]]
            self._hand[colour] += 1
            del self._guessed[cell]
            return

    def _from_hand(self, preferred: int, area: bool = False) -> int:
        """The colour of a pawn put down: ``preferred`` (the area's own colour, or the colour
        guidance asks for) if the hand holds one, else the hand's only colour. Lifted pawns of
        colours not in the game are put away, not back: with no playing colour in the hand, the
        pawn came from the box (of the area's colour in a START or HOME, else unknown)."""
        hand = self._hand
        held = self._held()
        if preferred in held:
            colour = preferred
        elif len(held) == 1 and held[0] != PAWN:
            colour = held[0]
        elif not held and area:
            return preferred
        else:
            if hand[PAWN] > 0:  # an unknown pawn from the hand: still unknown
                hand[PAWN] -= 1
            return PAWN
        hand[colour] -= 1
        if hand[colour] <= 0:
            del hand[colour]
        return colour

    def _settle_hand(self) -> None:
        """Once every pawn is back on the board the hand is empty: if what is left in it is one
        colour, that is the colour of the unknown pawns."""
        on_board = sum(1 for v in self._sensed or () if v != EMPTY)
        if on_board < self._pawns or not self._hand:
            return
        left = {c for c in self._hand if self._hand[c] > 0 and c in self._playing}
        if len(left) == 1:
            colour = left.pop()
            self._squares = [colour if v == PAWN else v for v in self._squares]
            for area in self._areas:
                if area[PAWN]:
                    area[colour] += area.pop(PAWN)
        self._hand.clear()
        self._guessed = {}


def _presence(board: Occupancy) -> Occupancy:
    return tuple(EMPTY if v == EMPTY else PAWN for v in board)


def _count(board: Occupancy, first: int) -> int:
    return sum(1 for v in board[first : first + SPOTS_PER_AREA] if v != EMPTY)

"""How good a position is for one side: the heuristic every computer player builds on.

A pawn is worth the squares it has come (more in the safety zone and home, where nothing can
touch it), less what it stands to lose: the chance that an opponent's next card lands on it
(or sweeps it off a slide) times the squares it would lose going back to START.  A pawn just past
its own START is worth extra because a 4 (or a 10 played backward) takes it almost home.  A side
is compared with its opponents, the leading opponent weighing most, so bumping the leader pays.

Everything per square is worked out once into tables; :class:`Evaluator` only adds them up.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from ..rules.board import (
    BACKWARD_PATHS,
    FORWARD_PATHS,
    HOME,
    NEXT,
    PARTNER,
    PLACE_COUNT,
    SLIDE_AT,
    START,
    START_CIRCLES,
    TRACK_SQUARES,
    start_circle,
)
from ..rules.position import Position

WIN = 100_000.0
#: Forward distances of the cards that only go forward (the 7, 10 and 4 are added apart).
_FORWARD_COUNTS = {"1": (1,), "2": (2,), "3": (3,), "5": (5,), "8": (8,), "11": (11,), "12": (12,)}


@dataclass(frozen=True)
class Weights:
    """The heuristic's knobs, tuned by tournaments (docs/players.md)."""

    safety: float = 8.0  # a pawn in the safety zone can no longer be bumped
    home: float = 14.0
    start: float = -6.0  # a pawn in START still needs a 1, a 2 or a Sorry! to come out
    risk: float = 0.6  # how much of the expected loss to an opponent's next card counts
    backward: float = 0.25  # share of the squares a 4 or a backward 10 would save
    leader: float = 0.5  # share of the opponents' term given to the leading opponent alone
    blocked_circle: float = 2.0  # own pawn on the start circle stops the next one coming out


def _togo_table() -> tuple[tuple[int, ...], ...]:
    """TOGO[colour][place]: forward steps to HOME (START counts one more than the circle)."""
    table = []
    for colour in range(4):
        row = []
        for place in range(PLACE_COUNT):
            if place == START:
                row.append(65)
                continue
            steps, here = 0, place
            while here != HOME:
                here = NEXT[colour][here]
                steps += 1
            row.append(steps)
        table.append(tuple(row))
    return tuple(table)


TOGO = _togo_table()


def _landing(colour: int, square: int) -> tuple[int, ...]:
    """The track squares a pawn ending on ``square`` empties: itself, or a whole slide."""
    slide = SLIDE_AT[square]
    if slide is not None and slide.colour != colour:
        return slide.squares
    return (square,)


def _hits_from(colour: int, place: int) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """(square, cards): the squares a pawn of ``colour`` on ``place`` can hit with one card.

    "Hit" is bump or sweep.  A 7 may be split, so it reaches 1 to 7 squares ahead; a 10 also
    reaches one square back and a 4 four back.  A pawn in START threatens its start circle with
    a 1 or a 2.  The Sorry! (any square) is handled apart.
    """
    moves: list[tuple[str, tuple[int, ...]]]
    if place == START:
        moves = [("1", (start_circle(colour),)), ("2", (start_circle(colour),))]
    elif place < HOME:
        counts = [(card, n, FORWARD_PATHS) for card, ns in _FORWARD_COUNTS.items() for n in ns]
        counts += [("7", n, FORWARD_PATHS) for n in range(1, 8)]
        counts += [("10", 10, FORWARD_PATHS), ("10", 1, BACKWARD_PATHS), ("4", 4, BACKWARD_PATHS)]
        moves = [
            (card, path)
            for card, n, paths in counts
            if (path := paths[colour][place][n]) is not None and path[-1] < TRACK_SQUARES
        ]
    else:
        return ()
    found: dict[int, set[str]] = {}
    for card, path in moves:
        for hit in _landing(colour, path[-1]):
            found.setdefault(hit, set()).add(card)
    return tuple((square, tuple(sorted(cards))) for square, cards in found.items())


#: HITS[colour][place]: see :func:`_hits_from`.
HITS = tuple(tuple(_hits_from(c, p) for p in range(PLACE_COUNT)) for c in range(4))


def _backward_gain_table() -> tuple[tuple[int, ...], ...]:
    """GAIN[colour][place]: squares saved if a 4 (or a 10's step back) moved the pawn now."""
    table = []
    for colour in range(4):
        row = [0] * PLACE_COUNT
        for place in range(TRACK_SQUARES):
            best = 0
            for n in (1, 4):
                path = BACKWARD_PATHS[colour][place][n]
                if path is not None:
                    best = max(best, TOGO[colour][place] - TOGO[colour][path[-1]])
            row[place] = best
        table.append(tuple(row))
    return tuple(table)


BACKWARD_GAIN = _backward_gain_table()


_THREAT_CACHES: dict[tuple[tuple[str, float], ...], dict[int, dict[int, float]]] = {}


def _threat_cache(chance: Mapping[str, float]) -> dict[int, dict[int, float]]:
    """The threat maps for one set of card chances, shared by every evaluator using it (the
    strong player's rollouts make one evaluator per seat, all with the same chances)."""
    key = tuple(sorted(chance.items()))
    cache = _THREAT_CACHES.get(key)
    if cache is None:
        if len(_THREAT_CACHES) > 32:  # the chances change every turn: keep only recent ones
            _THREAT_CACHES.clear()
        cache = _THREAT_CACHES[key] = {}
    return cache


def card_weights(probabilities: Mapping[str, float], draws: int) -> dict[str, float]:
    """The chance that a player holding ``draws`` cards has at least one of each kind."""
    if draws <= 1:
        return dict(probabilities)
    return {card: 1.0 - (1.0 - p) ** draws for card, p in probabilities.items()}


class Evaluator:
    """Scores positions for ``team`` against ``opponents`` given the chances of the next cards."""

    def __init__(
        self,
        team: Sequence[int],
        opponents: Sequence[int],
        probabilities: Mapping[str, float],
        draws: int = 1,
        teams: bool = False,
        weights: Weights | None = None,
    ) -> None:
        self.team = tuple(team)
        self.opponents = tuple(opponents)
        self.teams = teams
        self.w = weights or Weights()
        self.chance = card_weights(probabilities, draws)
        self._sorry = self.chance.get("sorry", 0.0)
        # A pawn in START threatens its own start circle with a 1 or a 2.
        self._start_chance = min(1.0, self.chance.get("1", 0.0) + self.chance.get("2", 0.0))
        self._threat_cache = _threat_cache(self.chance)
        self._static, self._loss = _value_tables(self.w)
        self._enemy_cache: dict[tuple[int, ...], dict[int, tuple[int, ...]]] = {}

    @property
    def static(self) -> tuple[tuple[float, ...], ...]:
        """Per colour and place, a pawn's worth before risks (the 4's promise included)."""
        return self._static

    # -- pieces ----------------------------------------------------------------------------

    def _threats(self, colour: int, place: int) -> dict[int, float]:
        """Square -> chance that the pawn of ``colour`` on ``place`` hits it with its next card."""
        key = colour * PLACE_COUNT + place
        cached = self._threat_cache.get(key)
        if cached is None:
            chance = self.chance
            cached = {
                square: min(1.0, in_order(chance[c] for c in cards))
                for square, cards in HITS[colour][place]
            }
            self._threat_cache[key] = cached
        return cached

    def _enemies(self, playing: tuple[int, ...]) -> dict[int, tuple[int, ...]]:
        enemies = self._enemy_cache.get(playing)
        if enemies is None:
            enemies = {
                colour: tuple(
                    c for c in playing if c != colour and not (self.teams and c == PARTNER[colour])
                )
                for colour in playing
            }
            self._enemy_cache[playing] = enemies
        return enemies

    def colour_values(self, position: Position) -> dict[int, float]:
        """Every playing colour's worth: pawn values, less expected losses, plus the 4's promise."""
        playing = tuple(c for c in range(4) if position[c] is not None)
        track: dict[int, list[int]] = {}
        in_start: dict[int, bool] = {}
        for colour in playing:
            pawns: tuple[int, ...] = position[colour]  # type: ignore[assignment]
            track[colour] = [p for p in pawns if p < TRACK_SQUARES]
            in_start[colour] = pawns[-1] == START  # sorted, and START is the largest place
        enemies_of = self._enemies(playing)
        risk_weight = self.w.risk
        values: dict[int, float] = {}
        for colour in playing:
            pawns = position[colour]  # type: ignore[assignment]
            static = self._static[colour]
            value = 0.0
            for place in pawns:
                value += static[place]
            mine = track[colour]
            if mine:
                loss = self._loss[colour]
                enemies = enemies_of[colour]
                lead_track, lead_togo = -1, 99
                togo = TOGO[colour]
                for place in mine:
                    risk = 0.0
                    for enemy in enemies:
                        for attacker in track[enemy]:
                            risk += self._threats(enemy, attacker).get(place, 0.0)
                        if in_start[enemy] and place == START_CIRCLES[enemy]:
                            risk += self._start_chance
                    if risk > 1.0:
                        risk = 1.0
                    value -= risk_weight * risk * loss[place]
                    if togo[place] < lead_togo:
                        lead_track, lead_togo = place, togo[place]
                sorry = self._sorry * 0.5 * sum(1 for e in enemies if in_start[e])
                if sorry:
                    # A Sorry! takes one pawn, most likely the most advanced one on the track.
                    value -= risk_weight * min(1.0, sorry) * loss[lead_track]
            if in_start[colour] and START_CIRCLES[colour] in pawns:
                value -= self.w.blocked_circle
            values[colour] = value
        return values

    def score(self, position: Position) -> float:
        """The team's worth less its opponents', from the team's point of view; WIN when won."""
        team = self.team
        if all(position.all_home(c) for c in team):
            return WIN
        values = self.colour_values(position)
        mine = in_order(values[c] for c in team)
        rivals = [values[c] for c in self.opponents if c in values]
        if not rivals:
            return mine
        if self.teams:
            return mine - in_order(rivals)
        mean = in_order(rivals) / len(rivals)
        leader = max(rivals)
        return mine - len(team) * (self.w.leader * leader + (1 - self.w.leader) * mean)


@cache
def _value_tables(w: Weights) -> tuple[tuple[tuple[float, ...], ...], ...]:
    """Per colour and place, under the given weights (built once per set of weights): the pawn's
    worth with the promise of a 4 included, and what it loses when bumped back to START."""
    static = []
    loss = []
    for colour in range(4):
        values = [_pawn_value(colour, place, w) for place in range(PLACE_COUNT)]
        static.append(
            tuple(v + w.backward * BACKWARD_GAIN[colour][p] for p, v in enumerate(values))
        )
        loss.append(tuple(v - values[START] for v in values))
    return tuple(static), tuple(loss)


def _pawn_value(colour: int, place: int, w: Weights) -> float:
    if place == START:
        return w.start
    if place == HOME:
        return 64 + w.home
    progress = 64 - TOGO[colour][place]
    return progress + (w.safety if place >= TRACK_SQUARES else 0.0)


class PatienceEvaluator:
    """Patience Sorry's aim: two pawns of each colour home and two in the safety zone.

    A third pawn of one colour home loses the game, so it scores as a loss; otherwise each pawn is
    worth how close it is to its target (the two most advanced aim for HOME, the others for the
    safety zone), and bumping one's own other colour costs what it costs any pawn.
    """

    def __init__(self, colours: Sequence[int]) -> None:
        self.colours = tuple(colours)

    def score(self, position: Position) -> float:
        total = 0.0
        for colour in self.colours:
            pawns = sorted(position[colour] or (), key=lambda p: TOGO[colour][p])
            home = sum(1 for p in pawns if p == HOME)
            if home > 2:
                return -WIN
            for rank, place in enumerate(pawns):
                togo = TOGO[colour][place]
                # Safety squares are 1..5 from home: the last two pawns only need to get there.
                total -= togo if rank < 2 else max(0, togo - 5) + (8 if place == START else 0)
                if rank >= 2 and place == 64 and home == 2:
                    total -= 6  # S5 with two home: any forward card would put a third home
        if all(
            sum(1 for p in position[c] or () if p == HOME) == 2
            and sum(1 for p in position[c] or () if 60 <= p < HOME) == 2
            for c in self.colours
        ):
            return WIN
        return total


def in_order(values: Iterable[float]) -> float:
    """Floats added left to right.  Python 3.12 made ``sum()`` of floats compensated, which
    changes last bits: the players score (and the learned weights reproduce) bit for bit alike
    on Python 3.11 and 3.13."""
    total = 0.0
    for value in values:
        total += value
    return total

"""Seeded tournaments between computer players: who wins how often, with 95% intervals.

Seats rotate: in game ``g`` entrant ``i`` sits at seat ``(i + g) mod n`` (seat 0 leads), so no
entrant always leads.  The ``n`` games of one rotation are dealt the same cards, like duplicate
bridge: each entrant gets, in turn, every seat's cards, which takes most of the luck of the deal
out of the comparison.  Every game's seeds come from the tournament seed and the game's number,
so the same seed gives the same numbers, however many processes play.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..rules.board import COLOURS
from ..rules.editions import Variant
from ..rules.game import GameConfig
from .confidence import wilson_interval
from .parallel import run_all
from .registry import level_of, make_player, parse_spec
from .table import play_game

#: Colours at the table for 2, 3 and 4 players: two players sit opposite each other.
TABLE_COLOURS: dict[int, tuple[str, ...]] = {
    2: ("red", "yellow"),
    3: ("red", "blue", "yellow"),
    4: ("red", "blue", "yellow", "green"),
}


@dataclass(frozen=True)
class TournamentSettings:
    entrants: tuple[str, ...]  # one player spec per seat
    games: int
    seed: int = 1
    edition: str = "hasbro-2002"
    variant: str = Variant.STANDARD
    teams: bool = False
    extra_one: bool = False
    house_rules: tuple[str, ...] = ()

    def check(self) -> None:
        for spec in self.entrants:
            parse_spec(spec)
        if self.games < 1:
            raise ValueError("a tournament needs at least one game")
        if self.variant == Variant.PATIENCE:
            raise ValueError("Patience Sorry has one player: use `pawnlight simulate` instead")
        if len(self.entrants) not in TABLE_COLOURS:
            raise ValueError("a tournament needs 2 to 4 entrants, one per seat")
        self.config(0).check()

    def config(self, game: int) -> GameConfig:
        return GameConfig(
            edition=self.edition,
            players=TABLE_COLOURS[len(self.entrants)],
            teams=self.teams,
            variant=self.variant,
            extra_one=self.extra_one,
            house_rules=self.house_rules,
        )


@dataclass(frozen=True)
class GamePlan:
    """Everything one game needs, small enough to send to another process."""

    number: int
    config: GameConfig
    #: seats[s] is the entrant index sitting at seat s (seat 0 leads).
    seats: tuple[int, ...]
    specs: tuple[str, ...]
    deck_seed: str
    player_seed: str


@dataclass(frozen=True)
class GameOutcome:
    number: int
    seats: tuple[int, ...]
    #: Entrant indices that won (two in partnership play, none when nobody did).
    winners: tuple[int, ...]
    turns: int
    #: Point play: each entrant's points in this game.
    points: tuple[int, ...] = ()


def seating(entrants: int, game: int) -> tuple[int, ...]:
    """seats[s]: the entrant at seat s in game ``game`` (entrant i sits at seat (i + game) % n)."""
    return tuple((seat - game) % entrants for seat in range(entrants))


def plans(settings: TournamentSettings) -> list[GamePlan]:
    n = len(settings.entrants)
    return [
        GamePlan(
            number=g,
            config=settings.config(g),
            seats=seating(n, g),
            specs=settings.entrants,
            deck_seed=f"{settings.seed}:deal:{g // n}",
            player_seed=f"{settings.seed}:players:{g}",
        )
        for g in range(settings.games)
    ]


def play_planned(plan: GamePlan) -> GameOutcome:
    order = plan.config.turn_order
    players = {
        colour: make_player(plan.specs[entrant], f"{plan.player_seed}:{entrant}", None)
        for colour, entrant in zip(order, plan.seats, strict=True)
    }
    game = play_game(plan.config, players, plan.deck_seed)
    result = game.result
    assert result is not None
    entrant_of = dict(zip(order, plan.seats, strict=True))
    points: tuple[int, ...] = ()
    if result.scores:
        by_entrant = {entrant_of[c]: p for c, p in result.scores.items()}
        points = tuple(by_entrant.get(i, 0) for i in range(len(plan.seats)))
    return GameOutcome(
        plan.number,
        plan.seats,
        tuple(sorted(entrant_of[c] for c in result.winners)),
        len(game.history),
        points,
    )


@dataclass
class Standing:
    """One kind of player over the tournament: all the seats it held, summed."""

    spec: str
    seats: int  # how many entrants are this player
    games: int  # games x seats: the trials
    wins: int = 0
    points: int = 0
    #: Wins when sitting at each seat (0: leader), and the games played there.
    seat_wins: list[int] = field(default_factory=list)
    seat_games: list[int] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)


@dataclass
class TournamentResult:
    settings: TournamentSettings
    outcomes: list[GameOutcome]

    @property
    def standings(self) -> list[Standing]:
        n = len(self.settings.entrants)
        table: dict[str, Standing] = {}
        # One player, one line, under the name it was first given: "heuristic" and "normal"
        # are the same player.
        names = [level_of(spec) for spec in self.settings.entrants]
        for name, spec in zip(names, self.settings.entrants, strict=True):
            if name not in table:
                table[name] = Standing(spec, 0, 0, seat_wins=[0] * n, seat_games=[0] * n)
            table[name].seats += 1
        for outcome in self.outcomes:
            for seat, entrant in enumerate(outcome.seats):
                standing = table[names[entrant]]
                standing.games += 1
                standing.seat_games[seat] += 1
                if entrant in outcome.winners:
                    standing.wins += 1
                    standing.seat_wins[seat] += 1
                if outcome.points:
                    standing.points += outcome.points[entrant]
        return list(table.values())

    @property
    def seat_wins(self) -> list[int]:
        """Wins by seat whoever sat there: the leader's advantage."""
        wins = [0] * len(self.settings.entrants)
        for outcome in self.outcomes:
            for seat, entrant in enumerate(outcome.seats):
                if entrant in outcome.winners:
                    wins[seat] += 1
        return wins

    @property
    def mean_turns(self) -> float:
        return sum(o.turns for o in self.outcomes) / max(1, len(self.outcomes))


def run_tournament(
    settings: TournamentSettings,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> TournamentResult:
    settings.check()
    outcomes = []
    for outcome in run_all(play_planned, plans(settings), jobs):
        outcomes.append(outcome)
        if progress is not None:
            progress(len(outcomes))
    return TournamentResult(settings, outcomes)


def describe_seats(settings: TournamentSettings) -> str:
    order = settings.config(0).turn_order
    return ", ".join(COLOURS[c] for c in order)


def points_game(settings: TournamentSettings) -> bool:
    return settings.variant == Variant.POINTS


def format_result(result: TournamentResult, extra: Sequence[str] = ()) -> str:
    """The tournament as a plain-text table (what the command prints)."""
    settings = result.settings
    lines = [
        f"tournament: {len(result.outcomes)} games, {settings.edition} {settings.variant}"
        + (" (partnership)" if settings.teams else "")
        + (f", house rules {', '.join(settings.house_rules)}" if settings.house_rules else "")
        + f", seed {settings.seed}, seats rotate ({describe_seats(settings)})",
        f"{'player':<28} {'seats':>5} {'wins':>6} {'rate':>7}  {'95% interval':<15} by seat",
    ]
    for standing in result.standings:
        low, high = standing.interval
        by_seat = " ".join(
            f"{w / g:.0%}" if g else "-"
            for w, g in zip(standing.seat_wins, standing.seat_games, strict=True)
        )
        line = (
            f"{standing.spec:<28} {standing.seats:>5} {standing.wins:>6} {standing.rate:>7.1%}"
            f"  {low:>6.1%}–{high:<7.1%} {by_seat}"
        )
        if points_game(settings):
            line += f"  points/game {standing.points / max(1, standing.games):.1f}"
        lines.append(line)
    games = max(1, len(result.outcomes))
    seat_rates = " ".join(f"{w / games:.1%}" for w in result.seat_wins)
    lines.append(
        f"wins by seat (seat 1 leads): {seat_rates}; mean length {result.mean_turns:.0f} turns"
    )
    lines.extend(extra)
    return "\n".join(lines)


#: The two tables a comparison plays: head-to-head, and one against three of the other.
COMPARISON_TABLES = (2, 4)


@dataclass
class Comparison:
    """One player against another, where skill shows most (head-to-head, two seats rotating)
    and where a family plays most (one against three of the other)."""

    player: str
    against: str
    results: list[TournamentResult]

    def standing(self, table: int) -> Standing:
        """The compared player's standing at the table of ``table`` seats."""
        for result in self.results:
            if len(result.settings.entrants) == table:
                return next(s for s in result.standings if s.spec == self.player)
        raise KeyError(table)

    @property
    def verdict(self) -> str:
        """Which player is stronger head-to-head, as its 95% interval says (or that it cannot
        tell)."""
        low, high = self.standing(2).interval
        if low > 0.5:
            return f"{self.player} is stronger than {self.against} head-to-head"
        if high < 0.5:
            return f"{self.player} is weaker than {self.against} head-to-head"
        return f"head-to-head does not tell {self.player} and {self.against} apart"


def compare(
    player: str,
    against: str,
    games: int,
    seed: int = 1,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> Comparison:
    """``games`` games head-to-head, then ``games`` of ``player`` against three ``against``,
    both with the same seed (parity: 50% and 25%)."""
    if parse_spec(player) == parse_spec(against):
        raise ValueError("compare a player with another one, not with itself")
    results = []
    for table in COMPARISON_TABLES:
        entrants = (player,) + (against,) * (table - 1)
        settings = TournamentSettings(entrants, games, seed)
        results.append(run_tournament(settings, jobs, progress))
    return Comparison(player, against, results)


def format_comparison(comparison: Comparison) -> str:
    """Both tables, each headed by what parity is, then the verdict."""
    parts = []
    for result in comparison.results:
        table = len(result.settings.entrants)
        title = "head-to-head" if table == 2 else f"one against {table - 1}"
        parts.append(f"{title} (parity {1 / table:.0%}):\n" + format_result(result))
    parts.append(comparison.verdict)
    return "\n\n".join(parts)

"""Many computer games of one edition and variant, counted: ``pawnlight simulate``.

Each game becomes one CSV row (its length, the winning seat, bumps, slides, forfeits by card...);
the summary adds them up with 95% intervals where a figure is a proportion.
"""

from __future__ import annotations

import csv
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..rules.board import COLOURS
from ..rules.cards import CARDS
from ..rules.editions import Variant
from ..rules.game import GameConfig
from .confidence import wilson_interval
from .game_stats import game_statistics
from .parallel import run_all
from .registry import make_player, parse_spec
from .table import play_game
from .tournament import TABLE_COLOURS, seating

Row = dict[str, Any]
SummaryRow = tuple[str, float, float | None, float | None]


@dataclass(frozen=True)
class SimulationSettings:
    edition: str = "hasbro-2002"
    variant: str = Variant.STANDARD
    games: int = 1000
    seed: int = 1
    #: One player spec per seat (rotated when they differ); patience has one player.
    players: tuple[str, ...] = ("heuristic",) * 4
    teams: bool = False
    extra_one: bool = False
    house_rules: tuple[str, ...] = ()

    @property
    def seats(self) -> int:
        return 2 if self.variant == Variant.PATIENCE else len(self.players)

    @property
    def prefix(self) -> str:
        """The run's file-name prefix: edition, variant and what differs from the defaults."""
        parts = [self.edition, self.variant]
        if self.teams:
            parts.append("teams")
        if self.variant != Variant.PATIENCE and self.seats != 4:
            parts.append(f"{self.seats}p")
        if self.extra_one:
            parts.append("extra1")
        parts.extend(sorted(self.house_rules))
        return "-".join(parts)

    def config(self) -> GameConfig:
        return GameConfig(
            edition=self.edition,
            players=TABLE_COLOURS[self.seats],
            teams=self.teams,
            variant=self.variant,
            extra_one=self.extra_one,
            house_rules=self.house_rules,
        )

    def check(self) -> None:
        for spec in self.players:
            parse_spec(spec)
        if self.games < 1:
            raise ValueError("simulate at least one game")
        self.config().check()
        if self.variant == Variant.PATIENCE and len(self.players) != 1:
            raise ValueError("Patience Sorry has one player: give one player spec")
        if self.variant != Variant.PATIENCE and self.seats not in TABLE_COLOURS:
            raise ValueError("give 2 to 4 player specs, one per seat")
        self.config().check()


@dataclass(frozen=True)
class _Job:
    settings: SimulationSettings
    number: int


def play_and_count(job: _Job) -> Row:
    """Play one game of the simulation and return its CSV row."""
    settings, number = job.settings, job.number
    config = settings.config()
    order = config.turn_order
    if settings.variant == Variant.PATIENCE:
        one = make_player(settings.players[0], f"{settings.seed}:players:{number}", None)
        players = dict.fromkeys(order, one)
        specs = [settings.players[0]] * len(order)
    else:
        seats = seating(settings.seats, number)
        specs = [settings.players[entrant] for entrant in seats]
        players = {
            colour: make_player(spec, f"{settings.seed}:players:{number}:{seat}", None)
            for seat, (colour, spec) in enumerate(zip(order, specs, strict=True))
        }
    game = play_game(config, players, f"{settings.seed}:game:{number}")
    stats = game_statistics(game)
    row: Row = {
        "game": number,
        "edition": settings.edition,
        "variant": settings.variant,
        "teams": int(settings.teams),
        "seats": len(order),
        "players": "/".join(specs),
        "leader": COLOURS[order[0]],
        "winners": "+".join(COLOURS[c] for c in stats.winners),
        "winner_seats": "+".join(str(s + 1) for s in sorted(stats.winner_seats)),
        "patience": stats.patience or "",
        **stats.totals(),
        "doubled": stats.doubled,
        "winner_points": max(stats.scores.values()) if stats.scores else "",
    }
    for card in CARDS:
        row[f"draws_{card}"] = stats.draws[card]
    for card in CARDS:
        row[f"forfeits_{card}"] = stats.forfeits[card]
    return row


def run_simulation(
    settings: SimulationSettings, jobs: int = 1, progress: Callable[[int], None] | None = None
) -> list[Row]:
    settings.check()
    rows = []
    for row in run_all(play_and_count, [_Job(settings, g) for g in range(settings.games)], jobs):
        rows.append(row)
        if progress is not None:
            progress(len(rows))
    return rows


def seat_wins(rows: Sequence[Row], seats: int) -> list[int]:
    """Games won by each seat (seat 1 leads); in partnership play both partners' seats count."""
    wins = [0] * seats
    for row in rows:
        for seat in filter(None, str(row["winner_seats"]).split("+")):
            wins[int(seat) - 1] += 1
    return wins


def summarise(rows: Sequence[Row]) -> list[SummaryRow]:
    """(metric, value, 95% low, 95% high): the figures docs/statistics.md explains."""
    games = len(rows)
    turns = sorted(int(r["turns"]) for r in rows)
    deciles = statistics.quantiles(turns, n=10) if games > 1 else [turns[0]] * 9
    summary: list[SummaryRow] = [
        ("games", games, None, None),
        ("turns_mean", statistics.fmean(turns), None, None),
        ("turns_median", statistics.median(turns), None, None),
        ("turns_p10", deciles[0], None, None),
        ("turns_p90", deciles[-1], None, None),
        ("turns_min", turns[0], None, None),
        ("turns_max", turns[-1], None, None),
    ]
    seats = int(rows[0]["seats"])
    if rows[0]["variant"] == Variant.PATIENCE:
        successes = sum(1 for r in rows if r["patience"] == "success")
        summary.append(
            ("patience_success_rate", successes / games, *wilson_interval(successes, games))
        )
    else:
        for seat, wins in enumerate(seat_wins(rows, seats), 1):
            summary.append((f"seat{seat}_win_rate", wins / games, *wilson_interval(wins, games)))
    for name in ("bumps", "swept", "slides", "switches", "sorries", "forfeits", "doubled"):
        values = [int(r[name]) for r in rows]
        summary.append((f"{name}_per_game", statistics.fmean(values), None, None))
    for card in CARDS:
        draws = sum(int(r[f"draws_{card}"]) for r in rows)
        lost = sum(int(r[f"forfeits_{card}"]) for r in rows)
        rate = lost / draws if draws else 0.0
        summary.append((f"forfeit_rate_{card}", rate, *wilson_interval(lost, draws)))
    points = [int(r["winner_points"]) for r in rows if r["winner_points"] != ""]
    if points:
        summary.append(("winner_points_mean", statistics.fmean(points), None, None))
    return summary


def write_rows(rows: Sequence[Row], path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as file:
        writer = csv.DictWriter(file, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def write_summary(summary: Sequence[SummaryRow], path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(("metric", "value", "ci95_low", "ci95_high"))
        for metric, value, low, high in summary:
            writer.writerow((metric, _number(value), _number(low), _number(high)))


def read_rows(path: Path) -> list[Row]:
    with path.open(newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file))


def _number(value: float | None) -> str:
    if value is None:
        return ""
    return str(value) if float(value).is_integer() else f"{value:.4f}"

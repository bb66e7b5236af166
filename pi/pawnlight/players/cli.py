"""``pawnlight tournament`` and ``pawnlight simulate``.

Only argparse and the rules are imported at start-up; the players, the apologies package and
matplotlib load when a command runs.  The apologies yardstick lives in the player lab
(lab/pawnlight_lab/apologies_match.py), found through its entry point.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..rules.editions import EDITIONS, VARIANTS, Variant


def register(subparsers: Any) -> None:
    """Add the ``tournament`` and ``simulate`` commands to ``pawnlight``'s subparsers."""
    tournament = subparsers.add_parser(
        "tournament",
        help="seeded games between computer players: win rates with 95%% intervals",
        description="Play seeded games between computer players (seats rotate) and report "
        "each player's win rate with its 95% Wilson interval.",
    )
    tournament.add_argument(
        "--players",
        default="heuristic,random,random,random",
        help="one player per seat, comma-separated: random, casual, heuristic, strong, learned, "
        "strong:budget=N,width=N, or a level: easy, normal, hard (default: %(default)s)",
    )
    tournament.add_argument("--games", type=int, default=200)
    tournament.add_argument(
        "--against",
        metavar="PLAYER",
        help="compare the one player of --players with PLAYER: head-to-head (two seats, "
        "rotating) and one against three PLAYERs, --games games each",
    )
    _common(tournament)
    tournament.add_argument(
        "--apologies",
        action="store_true",
        help="also play the same number of games of apologies' RewardV1 against three random "
        "players in apologies' own engine (needs the apologies package)",
    )
    tournament.add_argument("--json", action="store_true", help="print the figures as JSON")
    tournament.set_defaults(handler=_tournament)

    simulate = subparsers.add_parser(
        "simulate",
        help="many computer games of one edition and variant: CSV and plots",
        description="Play many computer games and write one CSV row per game, a summary CSV "
        "and PNG plots (game length, wins by seat, forfeits by card, bumps and slides).",
    )
    simulate.add_argument("--games", type=int, default=1000)
    simulate.add_argument(
        "--players",
        default="heuristic",
        help="the player at every seat, or one per seat comma-separated (default: %(default)s)",
    )
    simulate.add_argument(
        "--seats", type=int, default=4, choices=(2, 3, 4), help="players at the table"
    )
    _common(simulate)
    simulate.add_argument("--out", required=True, metavar="DIR", help="where to write files")
    simulate.add_argument("--no-plots", action="store_true", help="CSV only (no matplotlib)")
    simulate.set_defaults(handler=_simulate)


def _names(text: str) -> tuple[str, ...]:
    """A comma-separated list (checked as house rules by the game's own configuration check)."""
    return tuple(name.strip() for name in text.split(",") if name.strip())


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--edition", default="hasbro-2002", choices=tuple(EDITIONS))
    parser.add_argument("--variant", default=Variant.STANDARD, choices=VARIANTS)
    parser.add_argument("--teams", action="store_true", help="partnership play (4 seats)")
    parser.add_argument("--extra-one", action="store_true", help="the fifth 1 card (parker-1950)")
    parser.add_argument(
        "--house-rules",
        type=_names,
        default=(),
        metavar="NAMES",
        help="house rules, comma-separated: diamond-lock, strict-own-landing (docs/rules.md)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--jobs", type=int, default=1, help="processes to use (the results do not change)"
    )


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def _progress(total: int) -> Callable[[int], None] | None:
    if not sys.stderr.isatty():
        return None

    def show(done: int) -> None:
        print(f"\r{done}/{total} games", end="" if done < total else "\n", file=sys.stderr)

    return show


def _tournament(args: argparse.Namespace) -> int:
    from ..rules.game import GameError
    from .registry import split_specs
    from .tournament import TournamentSettings, format_result, run_tournament

    if args.against is not None:
        return _comparison(args)
    settings = TournamentSettings(
        entrants=split_specs(args.players),
        games=args.games,
        seed=args.seed,
        edition=args.edition,
        variant=args.variant,
        teams=args.teams,
        extra_one=args.extra_one,
        house_rules=args.house_rules,
    )
    started = time.perf_counter()
    try:
        result = run_tournament(settings, jobs=args.jobs, progress=_progress(args.games))
    except (GameError, ValueError) as error:
        return _fail(str(error))
    extra = []
    yardstick = None
    if args.apologies:
        apologies_match = _yardstick("apologies")
        if apologies_match is None:
            return _fail(
                "--apologies needs the player lab: pip install -e 'lab[apologies]' "
                "(docs/players.md)"
            )
        if not apologies_match.available():
            return _fail("the apologies package is not installed (pip install apologies==0.4.2)")
        yardstick = apologies_match.reward_v1_against_random(args.games, args.seed, args.jobs)
        low, high = yardstick.interval
        extra.append(
            f"{'apologies RewardV1 vs 3 random':<28} {1:>5} {yardstick.wins:>6} "
            f"{yardstick.rate:>7.1%}  {low:>6.1%}–{high:<7.1%} (apologies' own engine, "
            f"{yardstick.games} games)"
        )
    elapsed = time.perf_counter() - started
    if args.json:
        print(json.dumps(_as_json(result, yardstick), indent=2))
    else:
        print(format_result(result, extra))
    print(f"took {elapsed:.0f} s", file=sys.stderr)
    return 0


def _yardstick(name: str) -> Any:
    """The player lab's yardstick module ``name``, found through its entry point (the group
    ``pawnlight.yardsticks``, lab/pyproject.toml), or None when the lab is not installed: the
    Pi's package names no module of the lab."""
    from importlib.metadata import entry_points

    for entry in entry_points(group="pawnlight.yardsticks", name=name):
        try:
            return entry.load()
        except ImportError:
            return None
    return None


def _comparison(args: argparse.Namespace) -> int:
    from .registry import split_specs
    from .tournament import compare, format_comparison

    specs = split_specs(args.players)
    if len(specs) != 1 or len(split_specs(args.against)) != 1:
        return _fail("--against compares one player (--players) with one other (--against)")
    if (
        args.apologies
        or args.teams
        or args.variant != Variant.STANDARD
        or args.edition != "hasbro-2002"
    ):
        return _fail("--against plays the standard game of hasbro-2002 only")
    if args.house_rules or args.extra_one:
        return _fail("--against plays without house rules or the fifth 1")
    started = time.perf_counter()
    try:
        comparison = compare(
            specs[0], args.against, args.games, args.seed, args.jobs, _progress(args.games)
        )
    except ValueError as error:
        return _fail(str(error))
    if args.json:
        tables = {
            ("head_to_head" if len(r.settings.entrants) == 2 else "one_against_three"): (
                _as_json(r, None)
            )
            for r in comparison.results
        }
        print(json.dumps({**tables, "verdict": comparison.verdict}, indent=2))
    else:
        print(format_comparison(comparison))
    print(f"took {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return 0


def _as_json(result: Any, yardstick: Any) -> dict[str, Any]:
    settings = result.settings
    answer: dict[str, Any] = {
        "games": len(result.outcomes),
        "edition": settings.edition,
        "variant": settings.variant,
        "teams": settings.teams,
        "seed": settings.seed,
        "players": [
            {
                "player": s.spec,
                "seats": s.seats,
                "wins": s.wins,
                "trials": s.games,
                "rate": s.rate,
                "ci95": list(s.interval),
                "rate_by_seat": [
                    w / g if g else None for w, g in zip(s.seat_wins, s.seat_games, strict=True)
                ],
            }
            for s in result.standings
        ],
        "wins_by_seat": result.seat_wins,
        "mean_turns": result.mean_turns,
    }
    if yardstick is not None:
        answer["apologies_reward_v1"] = {
            "games": yardstick.games,
            "wins": yardstick.wins,
            "rate": yardstick.rate,
            "ci95": list(yardstick.interval),
        }
    return answer


def _simulate(args: argparse.Namespace) -> int:
    from ..rules.game import GameError
    from .registry import split_specs
    from .simulate import SimulationSettings, run_simulation, summarise, write_rows, write_summary

    specs = split_specs(args.players)
    if args.variant == Variant.PATIENCE:
        seats = specs[:1] if len(specs) == 1 else specs
    elif len(specs) == 1:
        seats = specs * args.seats
    else:
        seats = specs
    settings = SimulationSettings(
        edition=args.edition,
        variant=args.variant,
        games=args.games,
        seed=args.seed,
        players=seats,
        teams=args.teams,
        extra_one=args.extra_one,
        house_rules=args.house_rules,
    )
    out = Path(args.out)
    started = time.perf_counter()
    try:
        out.mkdir(parents=True, exist_ok=True)
        rows = run_simulation(settings, jobs=args.jobs, progress=_progress(args.games))
    except (GameError, ValueError) as error:
        return _fail(str(error))
    except OSError as error:
        return _fail(f"{out}: {error.strerror}")
    summary = summarise(rows)
    games_csv = out / f"{settings.prefix}-games.csv"
    summary_csv = out / f"{settings.prefix}-summary.csv"
    write_rows(rows, games_csv)
    write_summary(summary, summary_csv)
    written = [games_csv, summary_csv]
    if not args.no_plots:
        try:
            from .plots import write_plots
        except ImportError:
            return _fail("plots need matplotlib (pip install 'pawnlight[stats]'), or --no-plots")
        title = f"{settings.edition} {settings.variant}" + (" teams" if settings.teams else "")
        written += write_plots(rows, out, settings.prefix, title)
    for metric, value, low, high in summary:
        interval = f"  (95%: {low:.3f}–{high:.3f})" if low is not None and high is not None else ""
        print(
            f"{metric:<24} {value:.3f}{interval}"
            if isinstance(value, float)
            else f"{metric:<24} {value}{interval}"
        )
    print("wrote " + ", ".join(str(p) for p in written))
    print(f"took {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return 0

"""Pictures of a simulation (matplotlib, Agg backend, PNG).

matplotlib is imported here only, and this module only when plots are asked for, so the
``pawnlight`` command starts fast and runs without it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from ..rules.cards import CARDS
from ..rules.editions import Variant
from .confidence import wilson_interval
from .simulate import Row, seat_wins

if TYPE_CHECKING:  # matplotlib is optional (the stats extra): only mypy reads it here
    from matplotlib.axes import Axes


def _pyplot() -> ModuleType:
    import matplotlib

    matplotlib.use("Agg")  # files only: no display on a Pi or in CI
    import matplotlib.pyplot as plt

    return plt


def write_plots(rows: Sequence[Row], out: Path, prefix: str, title: str) -> list[Path]:
    """The four plots of a run, as ``out/<prefix>-<name>.png``; returns their paths."""
    plt = _pyplot()
    written = []
    for name, draw in (
        ("length", _length),
        ("seats", _seats),
        ("forfeits", _forfeits),
        ("bumps-slides", _bumps_slides),
    ):
        figure, axes = plt.subplots(figsize=(6.4, 3.6), dpi=100)
        draw(axes, rows)
        axes.set_title(f"{title}: {axes.get_title()}", fontsize=10)
        figure.tight_layout()
        path = out / f"{prefix}-{name}.png"
        figure.savefig(path)
        plt.close(figure)
        written.append(path)
    return written


def _length(axes: Axes, rows: Sequence[Row]) -> None:
    turns = [int(r["turns"]) for r in rows]
    axes.hist(turns, bins=40, color="#4a7ab5")
    axes.set_xlabel("turns (cards drawn) per game")
    axes.set_ylabel("games")
    axes.set_title(f"game length, {len(rows)} games")


def _seats(axes: Axes, rows: Sequence[Row]) -> None:
    games = len(rows)
    if rows[0]["variant"] == Variant.PATIENCE:
        wins = [sum(1 for r in rows if r["patience"] == "success")]
        labels = ["success"]
        axes.set_title("Patience Sorry: games that come out")
    else:
        wins = seat_wins(rows, int(rows[0]["seats"]))
        labels = [f"seat {i}" + (" (leads)" if i == 1 else "") for i in range(1, len(wins) + 1)]
        axes.set_title("wins by seat (95% interval)")
        fair = 2 / len(wins) if int(rows[0]["teams"]) else 1 / len(wins)
        axes.axhline(fair, color="grey", linestyle="--", linewidth=1, label="no advantage")
        axes.legend(loc="lower right", fontsize=8)
    rates = [w / games for w in wins]
    intervals = [wilson_interval(w, games) for w in wins]
    errors = [
        [r - low for r, (low, _) in zip(rates, intervals, strict=True)],
        [high - r for r, (_, high) in zip(rates, intervals, strict=True)],
    ]
    axes.bar(labels, rates, yerr=errors, capsize=4, color="#e0a030")
    axes.set_ylabel("share of games won")


def _forfeits(axes: Axes, rows: Sequence[Row]) -> None:
    rates, errors_low, errors_high = [], [], []
    for card in CARDS:
        draws = sum(int(r[f"draws_{card}"]) for r in rows)
        lost = sum(int(r[f"forfeits_{card}"]) for r in rows)
        rate = lost / draws if draws else 0.0
        low, high = wilson_interval(lost, draws)
        rates.append(rate)
        errors_low.append(rate - low)
        errors_high.append(high - rate)
    axes.bar(CARDS, rates, yerr=[errors_low, errors_high], capsize=3, color="#b54a4a")
    axes.set_xlabel("card")
    axes.set_ylabel("share of draws with no move")
    axes.set_title("how often each card forfeits")


def _bumps_slides(axes: Axes, rows: Sequence[Row]) -> None:
    bumps = [int(r["bumps"]) for r in rows]
    slides = [int(r["slides"]) for r in rows]
    top = max(*bumps, *slides, 1)
    bins = range(0, top + 2)
    axes.hist(bumps, bins=bins, alpha=0.6, label="pawns sent back to start", color="#b54a4a")
    axes.hist(slides, bins=bins, alpha=0.6, label="slides taken", color="#4a7ab5")
    axes.set_xlabel("per game")
    axes.set_ylabel("games")
    axes.legend(fontsize=8)
    axes.set_title("bumps and slides")

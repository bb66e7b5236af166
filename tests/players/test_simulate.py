"""``pawnlight simulate``'s rows, summary, CSV files and plots."""

import csv

import pytest

from pawnlight.players.simulate import (
    SimulationSettings,
    read_rows,
    run_simulation,
    seat_wins,
    summarise,
    write_rows,
    write_summary,
)


def summary_dict(rows):
    return {metric: (value, low, high) for metric, value, low, high in summarise(rows)}


def test_rows_add_up_and_the_summary_agrees_with_them():
    settings = SimulationSettings(
        games=12, seed=4, players=("heuristic", "random", "random", "random")
    )
    rows = run_simulation(settings)
    assert [r["game"] for r in rows] == list(range(12))
    assert sum(seat_wins(rows, 4)) == 12  # one winner a game
    for row in rows:
        assert (
            sum(
                row[f"draws_{c}"]
                for c in ("1", "2", "3", "4", "5", "7", "8", "10", "11", "12", "sorry")
            )
            == row["turns"]
        )
        assert row["forfeits"] == sum(v for k, v in row.items() if k.startswith("forfeits_"))
        assert row["swept"] <= row["bumps"]
    summary = summary_dict(rows)
    assert summary["games"][0] == 12
    assert summary["turns_mean"][0] == pytest.approx(sum(r["turns"] for r in rows) / 12)
    assert summary["bumps_per_game"][0] == pytest.approx(sum(r["bumps"] for r in rows) / 12)
    assert sum(summary[f"seat{s}_win_rate"][0] for s in range(1, 5)) == pytest.approx(1)
    low, high = summary["seat1_win_rate"][1:]
    assert 0 <= low <= summary["seat1_win_rate"][0] <= high <= 1
    # Mixed players rotate round the seats.
    assert {r["players"].split("/").index("heuristic") for r in rows} == {0, 1, 2, 3}


def test_the_same_seed_gives_the_same_rows():
    settings = SimulationSettings(edition="parker-1950", variant="points", games=4, seed=8)
    assert run_simulation(settings) == run_simulation(settings, jobs=2)


def test_patience_counts_successes():
    settings = SimulationSettings(
        edition="parker-1939", variant="patience", games=6, players=("heuristic",)
    )
    rows = run_simulation(settings)
    summary = summary_dict(rows)
    successes = sum(1 for r in rows if r["patience"] == "success")
    assert summary["patience_success_rate"][0] == pytest.approx(successes / 6)
    assert settings.prefix == "parker-1939-patience"


def test_partnership_wins_count_both_seats():
    settings = SimulationSettings(games=4, teams=True)
    rows = run_simulation(settings)
    assert sum(seat_wins(rows, 4)) == 8
    assert all(r["winner_seats"] in ("1+3", "2+4") for r in rows)


def test_csv_files_round_trip(tmp_path):
    rows = run_simulation(SimulationSettings(games=3, seed=2))
    write_rows(rows, tmp_path / "games.csv")
    write_summary(summarise(rows), tmp_path / "summary.csv")
    back = read_rows(tmp_path / "games.csv")
    assert [int(r["turns"]) for r in back] == [r["turns"] for r in rows]
    with (tmp_path / "summary.csv").open() as file:
        summary = list(csv.reader(file))
    assert summary[0] == ["metric", "value", "ci95_low", "ci95_high"]
    assert ["games", "3", "", ""] in summary


def test_plots_are_png_files(tmp_path):
    pytest.importorskip("matplotlib")
    from pawnlight.players.plots import write_plots

    rows = run_simulation(SimulationSettings(games=4, seed=1))
    paths = write_plots(rows, tmp_path, "hasbro-2002-standard", "test")
    assert [p.name for p in paths] == [
        "hasbro-2002-standard-length.png",
        "hasbro-2002-standard-seats.png",
        "hasbro-2002-standard-forfeits.png",
        "hasbro-2002-standard-bumps-slides.png",
    ]
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in paths)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (SimulationSettings(games=0), "at least one"),
        (SimulationSettings(players=("wizard",) * 4), "unknown player"),
        (SimulationSettings(edition="parker-1939", variant="patience"), "one player"),
        (SimulationSettings(edition="hasbro-2002", variant="quick"), "no quick game"),
    ],
)
def test_bad_settings_are_refused(settings, message):
    with pytest.raises(ValueError, match=message):
        settings.check()

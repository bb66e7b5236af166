"""``pawnlight tournament`` and ``pawnlight simulate`` from the command line."""

import json
import subprocess
import sys

import pytest

from pawnlight.cli import main


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pawnlight.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_tournament_prints_the_same_figures_for_the_same_seed():
    args = ("tournament", "--players", "heuristic,random,random", "--games", "6", "--seed", "4")
    first = run(*args)
    assert first.returncode == 0, first.stderr
    assert "heuristic" in first.stdout and "95% interval" in first.stdout
    assert run(*args, "--jobs", "2").stdout == first.stdout


def test_tournament_json(capsys):
    assert main(["tournament", "--players", "heuristic,random", "--games", "4", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["games"] == 4
    assert [p["player"] for p in answer["players"]] == ["heuristic", "random"]
    assert sum(p["wins"] for p in answer["players"]) == 4
    low, high = answer["players"][0]["ci95"]
    assert 0 <= low <= answer["players"][0]["rate"] <= high <= 1


def test_tournament_takes_a_player_with_several_settings(capsys):
    players = "strong:budget=60,width=2,heuristic"
    assert main(["tournament", "--players", players, "--games", "2", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert [p["player"] for p in answer["players"]] == ["strong:budget=60,width=2", "heuristic"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "heuristic,wizard"], "unknown player"),
        (["--players", "heuristic"], "2 to 4 entrants"),
        (["--edition", "hasbro-2002", "--variant", "quick"], "no quick game"),
        (["--games", "0"], "at least one game"),
    ],
)
def test_tournament_refuses_bad_requests_in_one_line(args, message, capsys):
    assert main(["tournament", *args]) == 2
    error = capsys.readouterr().err
    assert error.startswith("error:") and message in error


def test_simulate_writes_csv_and_plots(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    out_dir = str(tmp_path)
    args = ["--edition", "parker-1950", "--variant", "points", "--games", "5", "--seed", "2"]
    code = main(["simulate", *args, "--out", out_dir])
    assert code == 0
    out = capsys.readouterr().out
    assert "seat1_win_rate" in out and "forfeit_rate_sorry" in out
    names = sorted(p.name for p in tmp_path.iterdir())
    assert "parker-1950-points-games.csv" in names and "parker-1950-points-summary.csv" in names
    assert "parker-1950-points-seats.png" in names
    lines = (tmp_path / "parker-1950-points-games.csv").read_text().splitlines()
    assert len(lines) == 6


def test_simulate_patience_and_csv_only(tmp_path):
    answer = run(
        "simulate",
        "--edition",
        "parker-1939",
        "--variant",
        "patience",
        "--games",
        "3",
        "--out",
        str(tmp_path),
        "--no-plots",
    )
    assert answer.returncode == 0, answer.stderr
    assert "patience_success_rate" in answer.stdout
    assert sorted(p.suffix for p in tmp_path.iterdir()) == [".csv", ".csv"]


def test_the_command_starts_without_loading_the_players_or_matplotlib():
    code = (
        "import sys, pawnlight.cli as cli; cli.build_parser(); "
        "assert 'matplotlib' not in sys.modules; "
        "assert 'pawnlight.players.strong' not in sys.modules"
    )
    assert subprocess.run([sys.executable, "-c", code], timeout=60).returncode == 0

"""The sensor-test, led-test and calibrate commands, unattended on the simulated board."""

from __future__ import annotations

import json

import pytest

from pawnlight.board.cells import parse_cell_name
from pawnlight.board.layout import Layout
from pawnlight.cli import main
from pawnlight.diagnostics.command_runs import parse_ranges
from pawnlight.store.calibration_file import apply_saved_calibration


def test_sensor_test_on_the_simulated_board_finds_the_faults_it_was_given(capsys):
    code = main(["sensor-test", "--sim", "--fault", "dead:T5", "--fault", "swap:T20/T21", "--json"])
    assert code == 1
    findings = json.loads(capsys.readouterr().out)
    assert [(f["kind"], f.get("cell"), f.get("placed")) for f in findings] == [
        ("Dead", "T5", None),
        ("Swapped", None, "T20"),
        ("Swapped", None, "T21"),
    ]
    assert "U1 D5, pin 4" in findings[0]["text"]


def test_a_healthy_simulated_board_passes_the_sensor_test(capsys):
    assert main(["sensor-test", "--sim", "--cells", "T0..T9,red-S1"]) == 0
    out = capsys.readouterr().out
    assert "Tested 11 places." in out and "every sensor works." in out


def test_led_test_on_the_simulated_board(capsys):
    assert main(["led-test", "--sim", "--leds", "0..20", "--fault", "dead-led:7"]) == 1
    out = capsys.readouterr().out
    assert "Tested 21 LEDs." in out
    assert "dead LED 7 at T7 (the 3rd square after red's start circle)" in " ".join(out.split())


def test_calibrate_the_simulated_colour_board_and_the_daemon_can_use_it(tmp_path, capsys):
    assert main(["calibrate", "--sim", "--data", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "The colours are well apart." in out
    assert f"Saved {tmp_path / 'calibration.toml'}" in out
    layout = apply_saved_calibration(Layout.named("colour"), tmp_path)
    assert layout.bands != Layout.named("colour").bands


def test_calibrate_dry_run_saves_nothing(tmp_path, capsys):
    assert main(["calibrate", "--sim", "--dry-run", "--rounds", "1", "--data", str(tmp_path)]) == 0
    assert "Not saved (--dry-run)." in capsys.readouterr().out
    assert not (tmp_path / "calibration.toml").exists()


@pytest.mark.parametrize(
    "argv", [["--sim", "presence"], ["--sim", "--layout", "presence"], ["--sim=presence"]]
)
def test_presence_boards_are_not_calibrated(argv, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PAWNLIGHT_DATA", str(tmp_path))
    assert main(["calibrate", *argv]) == 2
    assert "only colour boards" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_a_simulated_calibration_never_touches_the_real_calibration(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PAWNLIGHT_DATA", str(tmp_path))
    real = tmp_path / "calibration.toml"
    real.write_text("# the board's own calibration\n", encoding="utf-8")
    assert main(["calibrate", "--sim", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert "The colours are well apart." in out  # a colour board was calibrated
    words = " ".join(out.split())
    assert (
        "Not saved: a simulated board's calibration goes only into a folder given with --data"
        in words
    )
    assert real.read_text(encoding="utf-8") == "# the board's own calibration\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["calibration.toml"]


def test_an_unknown_argument_writes_nothing(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PAWNLIGHT_DATA", str(tmp_path))
    with pytest.raises(SystemExit) as exit_:
        main(["calibrate", "--sim", "--rounds", "1", "--dryrun"])
    assert exit_.value.code == 2
    assert "unrecognized arguments: --dryrun" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_faults_need_the_simulated_board_and_must_make_sense(capsys):
    assert main(["sensor-test", "--serial", "/dev/null", "--fault", "dead:T5"]) == 2
    assert "add --sim" in capsys.readouterr().err
    assert main(["sensor-test", "--sim", "--fault", "melted:T5"]) == 2
    assert "bad fault 'melted:T5'" in capsys.readouterr().err


def test_an_absent_board_is_explained(capsys):
    assert main(["doctor", "--serial", "/nonexistent/ttyACM9", "--once"]) == 2
    err = capsys.readouterr().err
    assert "cannot reach the board: there is no port /nonexistent/ttyACM9" in err


def test_ranges():
    assert parse_ranges("T0..T3,red-S1", parse_cell_name) == [0, 1, 2, 3, 60]
    assert parse_ranges("0..2,112", int) == [0, 1, 2, 112]
    with pytest.raises(ValueError, match="backwards"):
        parse_ranges("5..2", int)

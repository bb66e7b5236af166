"""``pawnlight games list|show|export|import|replay|check``."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from pawnlight.cli import main
from pawnlight.rules.game import Game, GameConfig
from pawnlight.store.journal import Journal
from pawnlight.store.record import GameRecord, read_record, write_record

from .randomplay import random_game

CONFIG = GameConfig(edition="parker-1950", players=("red", "blue"))


@pytest.fixture
def data(tmp_path, monkeypatch):
    """A data directory with a finished game (1) and one under way (2)."""
    monkeypatch.delenv("PAWNLIGHT_DATA", raising=False)
    directory = tmp_path / "data"
    with Journal.open(directory / "journal.sqlite3") as journal:
        journal.import_record(write_record(GameRecord.from_game(random_game(CONFIG, 1))))
        game_id = journal.new_game(GameConfig(), names={"red": "Ann"}, meta={"where": "kitchen"})
        game = Game(GameConfig())
        for call in (
            lambda: game.draw("1"),
            lambda: game.play("R:start-T4"),
            lambda: game.draw("5"),
        ):
            call()
            journal.append(game_id, game.events[-1])
    return directory


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["games", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_list(data, capsys):
    code, out, err = run(capsys, "list", "--data", str(data))
    assert code == 0 and err == ""
    header, first, second = out.splitlines()
    assert header.split()[:3] == ["id", "started", "edition"]
    assert first.split()[0] == "1" and "won" in first
    assert second.split()[0] == "2" and second.endswith("in progress")
    # --data may also come before the action, or from $PAWNLIGHT_DATA.
    assert run(capsys, "--data", str(data), "list")[1] == out


def test_list_with_pawnlight_data(data, capsys, monkeypatch):
    monkeypatch.setenv("PAWNLIGHT_DATA", str(data))
    assert "in progress" in run(capsys, "list")[1]


def test_list_without_a_journal(tmp_path, capsys):
    code, out, _ = run(capsys, "list", "--data", str(tmp_path / "nothing"))
    assert code == 0 and out.startswith("no games yet")
    assert not (tmp_path / "nothing").exists()  # listing creates nothing


def test_show(data, capsys):
    code, out, err = run(capsys, "show", "2", "--data", str(data))
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "game 2"
    assert "  players   red (Ann), blue, yellow, green" in lines
    assert '  meta      {"where": "kitchen"}' in lines
    assert "    1. red     1      R:start-T4" in lines
    assert "    2. blue    5      forfeit" in lines
    assert lines[-1] == "result    in progress: yellow to draw"
    code, out, _ = run(capsys, "show", "1", "--data", str(data))
    assert "result    " in out and " won " in out


def test_show_events_lists_undos(tmp_path, capsys):
    game = Game(GameConfig())
    game.draw("1")
    game.play("R:start-T4")
    game.undo()
    path = tmp_path / "undo.jsonl"
    path.write_text(write_record(GameRecord.from_game(game)))
    code, out, _ = run(capsys, "show", str(path), "--events")
    assert code == 0
    assert "history (0 turns, 3 events, 1 of them undo)" in out
    assert "    3. undo (red plays 1: R:start-T4)" in out


def test_export_and_import(data, capsys, tmp_path):
    code, text, _ = run(capsys, "export", "1", "--data", str(data))
    assert code == 0 and read_record(text).result is not None
    target = tmp_path / "out" / "game1.jsonl"
    target.parent.mkdir()
    assert run(capsys, "export", "1", "-o", str(target), "--data", str(data))[0] == 0
    assert target.read_text() == text
    other = tmp_path / "other"
    code, out, _ = run(capsys, "import", str(target), "--data", str(other))
    assert (code, out) == (0, f"imported {target} as game 1\n")
    assert run(capsys, "export", "1", "--data", str(other))[1] == text


def test_importing_the_same_game_twice_is_recognised(data, capsys, tmp_path):
    target = tmp_path / "game1.jsonl"
    assert run(capsys, "export", "1", "-o", str(target), "--data", str(data))[0] == 0
    code, out, _ = run(capsys, "import", str(target), "--data", str(data))
    assert (code, out) == (0, f"{target} is already in the journal as game 1: nothing imported\n")
    listing = run(capsys, "list", "--data", str(data))[1]
    assert len(listing.splitlines()) == 3  # the heading and games 1 and 2: no duplicate
    # A different game (one event fewer) with the same start is a new game.
    lines = target.read_text().splitlines(keepends=True)
    shorter = tmp_path / "shorter.jsonl"
    shorter.write_text("".join(lines[:-2]))
    code, out, err = run(capsys, "import", str(shorter), "--data", str(data))
    assert (code, out) == (0, f"imported {shorter} as game 3\n")
    assert " ".join(err.split()).startswith(f"warning: {shorter} ends after line {len(lines) - 2}")
    assert run(capsys, "import", str(shorter), "--data", str(data))[1].endswith(
        "already in the journal as game 3: nothing imported\n"
    )


def test_a_file_cut_exactly_at_a_line_end_imports_with_a_warning(data, capsys, tmp_path):
    text = run(capsys, "export", "1", "--data", str(data))[1]
    lines = text.splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:9]))  # the header and eight events, each line whole
    code, out, err = run(capsys, "import", str(cut), "--data", str(tmp_path / "new"))
    assert (code, out) == (0, f"imported {cut} as game 1\n")
    words = " ".join(err.split())
    assert words.startswith(f"warning: {cut} ends after line 9 with no result line")
    assert "cut short" in words and "Imported as in progress" in words


def _broken_event(text: str, line: int) -> str:
    """The record with the event on ``line`` (1-based) changed to a move that cannot be made."""
    lines = text.splitlines(keepends=True)
    event = json.loads(lines[line - 1])
    event["move" if "move" in event else "card"] = "T0<>T1" if "move" in event else "12"
    lines[line - 1] = json.dumps(event) + "\n"
    return "".join(lines)


def test_a_rules_error_on_import_names_the_line(data, capsys, tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text(_broken_event(run(capsys, "export", "1", "--data", str(data))[1], 7))
    code, _, err = run(capsys, "import", str(path), "--data", str(data))
    assert code == 2 and err.count("\n") == 1
    assert err.startswith(f"error: {path}: event 6 (") and err.rstrip().endswith("(line 7)")
    assert len(run(capsys, "list", "--data", str(data))[1].splitlines()) == 3


def test_a_changed_result_names_its_line(data, capsys, tmp_path):
    text = run(capsys, "export", "1", "--data", str(data))[1]
    lines = text.splitlines(keepends=True)
    end = json.loads(lines[-1])
    end["result"]["winners"] = ["blue"] if end["result"]["winners"] != ["blue"] else ["red"]
    lines[-1] = json.dumps(end) + "\n"
    path = tmp_path / "changed.jsonl"
    path.write_text("".join(lines))
    for action in ("import", "show"):
        code, _, err = run(capsys, action, str(path), "--data", str(data))
        assert code == 2 and "the recorded result" in err
        assert err.rstrip().endswith(f"(line {len(lines)})")


def test_replay_prints_every_turn_and_the_board_after_it(data, capsys):
    code, out, _ = run(capsys, "replay", "2", "--data", str(data))
    assert code == 0
    assert out.splitlines() == [
        "game 2: 2 turns",
        "    0. start",
        "       red 4 start · blue 4 start · yellow 4 start · green 4 start",
        "    1. red 1: R:start-T4",
        "       red T4, 3 start · blue 4 start · yellow 4 start · green 4 start",
        "    2. blue 5: forfeit",
        "       red T4, 3 start · blue 4 start · yellow 4 start · green 4 start",
    ]
    show = run(capsys, "show", "2", "--data", str(data))[1]
    assert "    1. red     1      R:start-T4" in show and "    2. blue    5      forfeit" in show
    code, out, _ = run(capsys, "replay", "2", "--check", "--data", str(data))
    assert code == 0
    assert out == "ok: game 2 replays: 3 events, 2 turns, in progress, yellow to draw\n"


def test_replay_says_bumps_and_slides_and_fits_80_columns_for_four_players(
    capsys, tmp_path, monkeypatch
):
    game = random_game(GameConfig(), 3)
    (tmp_path / "four.jsonl").write_text(write_record(GameRecord.from_game(game)))
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "replay", "four.jsonl")
    assert code == 0
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 80
    numbered = [line.split(".")[0].strip() for line in lines if line[:5].strip().isdigit()]
    assert numbered == [str(n) for n in range(len(game.history) + 1)]  # show's turn numbers
    slid = [t for t in game.history if ">" in t.text]
    assert slid and f": {slid[0].text} - slides " in out
    assert "bumps " in out and " to start" in out


def test_replay_a_damaged_record_file(data, capsys, tmp_path):
    text = run(capsys, "export", "1", "--data", str(data))[1]
    lines = text.splitlines(keepends=True)
    event = json.loads(lines[6])
    event["move" if "move" in event else "card"] = "T0<>T1" if "move" in event else "12"
    lines[6] = json.dumps(event) + "\n"
    path = tmp_path / "bad.jsonl"
    path.write_text("".join(lines))
    code, out, err = run(capsys, "replay", str(path))
    assert code == 2
    assert err.count("\n") == 1
    assert err.startswith(f"error: {path}: event 6 (")
    assert "(line 7)" in err
    turns = [line for line in out.splitlines() if line[:6].strip().rstrip(".").isdigit()]
    assert turns[0].split()[:2] == ["0.", "start"] and len(turns) >= 2
    assert run(capsys, "replay", str(path), "--check")[:2] == (2, "")


def test_a_truncated_record_file(data, capsys, tmp_path):
    text = run(capsys, "export", "1", "--data", str(data))[1]
    path = tmp_path / "cut.jsonl"
    path.write_text(text[: len(text) // 2])
    line = len(text[: len(text) // 2].splitlines())
    code, out, err = run(capsys, "show", str(path))
    assert code == 2
    assert err.startswith(f"error: {path}: line {line}: not valid JSON")
    assert f" turns, {line - 2} events" in out  # the sound part: lines 2 to line - 1
    code, out, err = run(capsys, "import", str(path), "--data", str(data))
    assert code == 2 and err.startswith(f"error: {path}: line {line}")
    assert "   3" not in run(capsys, "list", "--data", str(data))[1]  # nothing was imported


def test_errors_are_one_line_with_exit_2(data, capsys, tmp_path):
    for args in (
        ("export", "9", "--data", str(data)),
        ("show", "9", "--data", str(data)),
        ("show", str(tmp_path / "missing.jsonl")),
        ("import", str(tmp_path / "missing.jsonl"), "--data", str(data)),
        ("replay", "1", "--data", str(tmp_path / "empty")),
    ):
        code, _, err = run(capsys, *args)
        assert code == 2, args
        assert err.startswith("error: ") and err.count("\n") == 1, (args, err)
    assert "no game 9" in run(capsys, "show", "9", "--data", str(data))[2]


def test_check(data, capsys):
    code, out, _ = run(capsys, "check", "--data", str(data))
    assert (code, out) == (0, f"ok: {data / 'journal.sqlite3'}: 2 games, all replay\n")
    (data / "journal.sqlite3").write_bytes(b"garbage" * 1000)
    for name in ("journal.sqlite3-wal", "journal.sqlite3-shm"):
        (data / name).unlink(missing_ok=True)
    code, out, err = run(capsys, "check", "--data", str(data))
    assert code == 2
    assert "SQLite integrity check: " in out and "not a database" in out
    assert "1 problem(s)" in err


def test_the_installed_command(data):
    """Through a real process, as a user types it."""
    done = subprocess.run(
        [sys.executable, "-m", "pawnlight.cli", "games", "show", "2", "--data", str(data)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("game 2\n")


def test_show_wraps_a_long_meta_to_80_columns(tmp_path, capsys, monkeypatch):
    record = GameRecord.from_game(Game(CONFIG), meta={"where": "the kitchen table " * 8})
    (tmp_path / "meta.jsonl").write_text(write_record(record))
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "show", "meta.jsonl")
    assert code == 0 and max(len(line) for line in out.splitlines()) <= 80
    meta = out[out.index("  meta      ") :].split("\n  started")[0]
    assert "the kitchen table " * 3 in " ".join(meta.split()) + " "

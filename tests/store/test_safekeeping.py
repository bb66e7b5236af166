"""Opening the journal for play: damaged, empty and missing journals and a lost write-ahead log
are reported and kept aside, never silently replaced (issue #16)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import pytest

from pawnlight.cli import main as pawnlight_main
from pawnlight.rules.game import GameConfig
from pawnlight.store.errors import JournalError
from pawnlight.store.journal import Journal, check_file
from pawnlight.store.record import GameRecord, write_record
from pawnlight.store.safekeeping import open_for_play, unsaved_wal_frames

from .randomplay import random_game

CONFIG = GameConfig(players=("red", "blue"))


def journal_with_games(path, games: int = 2) -> None:
    with Journal.open(path) as journal:
        for seed in range(games):
            game = random_game(CONFIG, seed)
            journal.import_record(write_record(GameRecord.from_game(game, seed=seed)))


def test_an_empty_journal_file_is_kept_aside_not_taken_for_a_new_one(tmp_path):
    path = tmp_path / "journal.sqlite3"
    path.write_bytes(b"")
    with pytest.raises(JournalError, match="empty"):
        Journal.open(path)
    assert check_file(path) == [f"{path} is empty (0 bytes)"]
    journal, notices = open_for_play(path)
    journal.close()
    (notice,) = notices
    assert "empty (0 bytes)" in notice and "kept aside as journal-damaged-" in notice
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("journal-damaged-")]
    assert len(kept) == 1 and kept[0].stat().st_size == 0
    assert check_file(path) == []  # the new journal is sound


def test_a_damaged_journal_is_kept_aside_with_its_contents(tmp_path):
    path = tmp_path / "journal.sqlite3"
    path.write_bytes(b"pawnlight? no: " + bytes(range(256)) * 20)
    before = path.read_bytes()
    journal, notices = open_for_play(path)
    journal.close()
    assert "file is not a database" in notices[0] and "new journal was started" in notices[0]
    (kept,) = [p for p in tmp_path.iterdir() if p.name.startswith("journal-damaged-")]
    assert kept.read_bytes() == before


def test_a_sound_journal_opens_with_nothing_to_say(tmp_path):
    path = tmp_path / "journal.sqlite3"
    journal_with_games(path)
    journal, notices = open_for_play(path)
    with journal:
        assert notices == [] and len(journal.games()) == 2


def test_another_programs_database_is_refused_not_set_aside(tmp_path):
    import sqlite3

    path = tmp_path / "journal.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE recipes (name TEXT)")
    db.commit()
    db.close()
    with pytest.raises(JournalError, match="not a pawnlight journal"):
        open_for_play(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["journal.sqlite3"]


KILLED_WRITER = textwrap.dedent(
    """
    import os, signal, sys
    from pawnlight.rules.game import GameConfig
    from pawnlight.store.journal import Journal
    journal = Journal.open(sys.argv[1])
    journal.new_game(GameConfig(players=("red", "blue")))
    os.kill(os.getpid(), signal.SIGKILL)  # the power cut: the WAL is left as it is
    """
)


def test_a_deleted_write_ahead_log_is_detected_by_check_and_at_start(tmp_path, capsys):
    # Issue #16: a -wal deleted while stopped lost turns and `games check` still said ok.
    path = tmp_path / "journal.sqlite3"
    journal_with_games(path)
    killed = subprocess.run([sys.executable, "-c", KILLED_WRITER, str(path)], check=False)
    assert killed.returncode == -signal.SIGKILL
    wal = tmp_path / "journal.sqlite3-wal"
    assert wal.exists() and unsaved_wal_frames(path) > 0
    assert check_file(path) == []  # the log is there: nothing is lost
    os.remove(wal)
    problems = check_file(path)
    assert len(problems) == 1 and "is missing" in problems[0]
    assert pawnlight_main(["games", "--data", str(tmp_path), "check"]) != 0
    assert "is missing" in capsys.readouterr().out
    # The companion opens it (the 2 games the file still has), says so, and keeps the evidence.
    journal, notices = open_for_play(path)
    with journal:
        assert len(journal.games()) == 2
    assert "write-ahead log" in notices[0] and "are lost" in notices[0]
    problems = check_file(path)
    assert len(problems) == 1 and "kept as journal.sqlite3-shm.lost-wal-" in problems[0]


def test_a_missing_journal_with_its_log_left_behind_is_reported(tmp_path):
    path = tmp_path / "journal.sqlite3"
    journal_with_games(path)
    subprocess.run([sys.executable, "-c", KILLED_WRITER, str(path)], check=False)
    os.remove(path)
    journal, notices = open_for_play(path)
    journal.close()
    assert any("was missing" in notice for notice in notices)
    assert any(p.name.endswith("-wal") and "damaged" in p.name for p in tmp_path.iterdir())

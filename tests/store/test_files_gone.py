"""The journal's files deleted or replaced while it is open (issue #33): SQLite goes on writing
into the deleted files without a word, so every confirmed event would be gone after a restart.
The journal notices before and after each write, and writes what its writer still sees to a
fresh journal in their place; a SIGKILL right after loses nothing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import pytest

from pawnlight.rules.game import Game, GameConfig
from pawnlight.store.errors import JournalError
from pawnlight.store.journal import Journal
from pawnlight.store.record import GameRecord, write_record
from pawnlight.store.safekeeping import open_for_play

from .randomplay import Player, random_game

CONFIG = GameConfig(players=("red", "blue"))

#: Plays BEFORE events, does CASE to the files, plays AFTER more, prints the events it was
#: told are durable, then is killed (the power cut, or SIGKILL of the daemon).
WRITER = textwrap.dedent(
    """
    import os, shutil, signal, sys
    from pathlib import Path
    sys.path.insert(0, sys.argv[5])
    from pawnlight.rules.game import Game, GameConfig
    from pawnlight.store.journal import Journal
    from tests.store.randomplay import Player

    path, case, before, after = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    journal = Journal.open(path)
    game = Game(GameConfig(players=("red", "blue")))
    game_id = journal.new_game(game.config, seed=7)
    player = Player(game, 7)
    done = 0
    for n in range(before + after):
        if n == before:
            names = {"all": ["", "-wal", "-shm"], "journal": [""], "wal": ["-wal"],
                     "shm": ["-shm"]}.get(case, [])
            for suffix in names:
                os.remove(f"{path}{suffix}")
            if case.startswith("replace"):
                other = path.with_name("other.sqlite3")
                os.replace(other, path)  # another (older) journal put in its place
                if case == "replace-all":
                    for suffix in ("-wal", "-shm"):
                        os.remove(f"{path}{suffix}")
        player.act()
        journal.append(game_id, game.events[-1])
        done += 1
        print(game_id, done, flush=True)
    print("notices", len(journal.notices), flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
    """
)


def older_journal(path) -> None:
    with Journal.open(path) as journal:
        game = random_game(CONFIG, 3)
        journal.import_record(write_record(GameRecord.from_game(game, seed=3)))


@pytest.mark.parametrize("case", ["all", "journal", "wal", "shm", "replace", "replace-all"])
def test_files_deleted_or_replaced_while_writing_lose_no_confirmed_event(tmp_path, case):
    path = tmp_path / "journal.sqlite3"
    older_journal(tmp_path / "other.sqlite3")
    repository = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    killed = subprocess.run(
        [sys.executable, "-c", WRITER, str(path), case, "6", "4", repository],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    lines = killed.stdout.split("\n")
    assert lines[-2] == "notices 1", killed.stdout  # the rescue was reported once
    game_id, confirmed = map(int, lines[-3].split())
    assert confirmed == 10
    # The restart: everything confirmed is there, and the journal is sound.
    journal, notices = open_for_play(path)
    try:
        assert notices == []
        assert journal.check() == []
        record = journal.load(game_id)
        assert len(record.events) == confirmed
        assert journal.unfinished() == game_id
        assert len(journal.resume(game_id).events) == confirmed
    finally:
        journal.close()
    kept = sorted(p.name for p in tmp_path.iterdir() if "-replaced-" in p.name)
    if case.startswith("replace"):
        # What was put in the journal's place is kept, never deleted.
        (main,) = (k for k in kept if k.endswith(".sqlite3"))
        if case == "replace-all":  # (with "replace", the old -wal/-shm are kept beside it)
            with Journal.open(tmp_path / main, readonly=True) as replaced:
                turns = [g.turns for g in replaced.games()]
            assert turns == [len(random_game(CONFIG, 3).history)]
    elif case == "all":
        assert kept == []
    else:  # what was left of the old journal is kept beside the new one, never deleted
        assert kept and all(k.startswith("journal-replaced-") for k in kept)


def test_a_rescue_keeps_every_game_and_says_what_happened(tmp_path):
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as journal:
        finished = journal.import_record(
            write_record(GameRecord.from_game(random_game(CONFIG, 1), seed=1))
        )
        journal.remember("settings", {"brightness": 40})
        game = Game(CONFIG)
        game_id = journal.new_game(CONFIG)
        player = Player(game, 2)
        for _ in range(3):
            player.act()
            journal.append(game_id, game.events[-1])
        for suffix in ("", "-wal", "-shm"):
            os.remove(f"{path}{suffix}")
        assert journal.files_problem() == (
            "journal.sqlite3 was deleted; journal.sqlite3-wal was deleted; "
            "journal.sqlite3-shm was deleted"
        )
        journal.heal()
        assert journal.files_problem() is None
        (notice,) = journal.notices
        assert "deleted or replaced while pawnlight was running" in notice
        assert "written to a fresh journal.sqlite3" in notice
        player.act()
        journal.append(game_id, game.events[-1])
    with Journal.open(path, readonly=True) as journal:
        assert [g.id for g in journal.games()] == [finished, game_id]
        assert journal.load(game_id).events == tuple(game.events)
        assert journal.recall("settings") == {"brightness": 40}


def test_a_rescue_that_cannot_be_written_is_an_error_and_is_tried_again(tmp_path, monkeypatch):
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as journal:
        game = Game(CONFIG)
        game_id = journal.new_game(CONFIG)
        player = Player(game, 4)
        player.act()
        journal.append(game_id, game.events[-1])
        os.remove(path)
        real_replace = os.replace

        def failing(*args, **kwargs):
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(os, "replace", failing)
        player.act()
        with pytest.raises(Exception, match=r"deleted or replaced.*No space left"):
            journal.append(game_id, game.events[-1])
        monkeypatch.setattr(os, "replace", real_replace)
        assert journal.append(game_id, game.events[-1]) == 2
    with Journal.open(path, readonly=True) as journal:
        assert journal.load(game_id).events == tuple(game.events)
    assert not [p for p in tmp_path.iterdir() if ".rescue-" in p.name]


def files_go_as_the_next_write_commits(path, monkeypatch) -> None:
    """The journal's files are deleted while the next write commits, and the rescue cannot put
    the fresh copy in their place (the disk is full) until ``os.replace`` is given back."""
    real_heal = Journal.heal
    checks = []

    def heal(self):
        checks.append(self)
        if len(checks) == 2:  # the check after the COMMIT
            for suffix in ("", "-wal", "-shm"):
                os.remove(f"{path}{suffix}")
            monkeypatch.setattr(os, "replace", no_space)
        real_heal(self)

    def no_space(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Journal, "heal", heal)


@pytest.mark.parametrize("how", ["new game", "import"])
def test_a_new_game_retried_after_its_rescue_failed_is_stored_once(tmp_path, monkeypatch, how):
    # Issue #33: the game was in the writer's files (the rescue copies it) when the write
    # failed, and the owner's retry of the held write stored it a second time.
    path = tmp_path / "journal.sqlite3"
    real_replace = os.replace
    record = GameRecord.from_game(random_game(CONFIG, 5), seed=5, meta={"computer": {"blue": "x"}})

    def store(journal: Journal) -> int:
        if how == "import":
            return journal.import_record(record)
        return journal.new_game(CONFIG, seed=5, meta={"computer": {"blue": "heuristic"}})

    with Journal.open(path) as journal:
        first = journal.new_game(CONFIG)
        files_go_as_the_next_write_commits(path, monkeypatch)
        with pytest.raises(JournalError, match=r"deleted or replaced.*No space left"):
            store(journal)
        with pytest.raises(JournalError, match="No space left"):
            store(journal)  # retried while the rescue still fails: nothing stored
        monkeypatch.undo()  # space freed
        assert os.replace is real_replace
        game_id = store(journal)
        assert journal.notices and "deleted or replaced" in journal.notices[0]
        later = store(journal)  # the same game asked for again later: a game of its own
    with Journal.open(path, readonly=True) as journal:
        assert [g.id for g in journal.games()] == [first, game_id, later]
        assert journal.check() == []
        if how == "import":
            assert journal.load(game_id).events == record.events

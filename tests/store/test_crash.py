"""Kill the journal's writer with SIGKILL at random points: no acknowledged event is ever lost.

A writer process (journal_writer.py) plays random games into the journal and prints each event
after ``append`` returns.  The test reads a seeded random number of those lines, kills the writer
with SIGKILL (no cleanup, no atexit, no close), collects every line it printed, and reopens the
journal as the companion would after a power cut.  Every printed event must be there, equal;
SQLite's integrity check must pass; every game must replay and the unfinished one resume.  Then
the next writer resumes that game, and so on.

What this proves: acknowledgement happens only after COMMIT, an interrupted transaction leaves no
trace, and resume works from whatever point the kill left.  A SIGKILL leaves the kernel's page
cache intact, so it cannot prove the fsyncs reach the card; that rests on synchronous=FULL
(checked in test_journal.py) and on the storage honouring flushes: see docs/records.md.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from pawnlight.store.journal import Journal
from pawnlight.store.record import event_json

WRITER = Path(__file__).with_name("journal_writer.py")
KILLS = 30


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX signals")
def test_sigkill_never_loses_an_acknowledged_event(tmp_path):
    rng = random.Random(4)  # the kill points: how many acknowledgements to wait for
    path = tmp_path / "journal.sqlite3"
    acknowledged: dict[tuple[int, int], str] = {}  # (game, seq) -> the event as printed
    games_started: set[int] = set()
    inside_append = committed_unacknowledged = 0
    kept: dict[int, int] = {}  # events stored beyond the acknowledged, found at earlier checks
    for kill in range(KILLS):
        wait_for = 0 if kill == 0 else rng.choice((1, 2, 3, 10, 40, 120, 300, 700))
        writer = subprocess.Popen(
            [sys.executable, str(WRITER), str(path), str(1000 + kill)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert writer.stdout is not None
        seen = [writer.stdout.readline() for _ in range(wait_for)]
        os.kill(writer.pid, signal.SIGKILL)
        # Read on through the same file objects, not communicate(): it reads the pipes' file
        # descriptors directly, so lines readline() had already buffered would be lost, and
        # under load (the writer far ahead of the reader) that is many acknowledged events.
        assert writer.stderr is not None
        rest, errors = writer.stdout.read(), writer.stderr.read()
        writer.wait(timeout=60)
        assert writer.returncode == -signal.SIGKILL, errors
        assert all(seen), f"the writer stopped early: {errors}"
        # Everything printed was acknowledged before the kill, read before it or not.
        printed = "".join([*seen, rest]).splitlines(keepends=True)
        # A line cut by the kill is not an acknowledgement.
        lines = [line.rstrip("\n").split(" ", 2) for line in printed if line.endswith("\n")]
        for game_id, seq, event in lines:
            if event == "new":
                games_started.add(int(game_id))
            elif event != "appending":
                acknowledged[int(game_id), int(seq)] = event
        inside_append += bool(lines) and lines[-1][2] == "appending"
        committed_unacknowledged += check_journal(path, acknowledged, games_started, kept)
    assert len(acknowledged) > 500  # the test really exercised the journal
    assert len(games_started) >= 2  # ... across the end of a game
    print(
        f"\n{KILLS} kills, {inside_append} inside append(); {len(acknowledged)} acknowledged "
        f"events in {len(games_started)} games, all found; {committed_unacknowledged} events "
        "committed but not yet acknowledged at the kill were kept"
    )


def check_journal(
    path: Path, acknowledged: dict, games_started: set[int], kept: dict[int, int]
) -> int:
    """Reopen as the companion does; returns 1 if an event beyond the acknowledged was kept."""
    import json

    if not path.exists():
        return 0  # killed before it created the journal
    with Journal.open(path) as journal:  # quick_check, WAL recovery
        assert journal.check() == []
        summaries = {s.id: s for s in journal.games()}
        assert games_started <= set(summaries)
        records = {game_id: journal.load(game_id) for game_id in summaries}
        for (game_id, seq), event in acknowledged.items():
            stored = records[game_id].events
            assert seq <= len(stored), f"game {game_id} lost acknowledged event {seq}"
            assert event_json(stored[seq - 1]) == json.loads(event)
        for game_id in summaries:
            journal.resume(game_id)  # raises if any game does not replay
        extra = 0
        unfinished = journal.unfinished()
        if unfinished is not None:
            count = len(records[unfinished].events)
            last = max((s for g, s in acknowledged if g == unfinished), default=0)
            # Events kept unacknowledged at an earlier kill are built on by the next writer.
            last = max(last, kept.get(unfinished, 0))
            assert count - last in (0, 1)  # at most the one event being written at the kill
            kept[unfinished] = count
            extra = count - last
            resumed = journal.resume(unfinished)
            assert not resumed.over and len(resumed.events) == count
    return extra

"""What the evenings found, as plain tests against the real daemon process."""

from __future__ import annotations

import random

import pytest

from .evening import Evening


@pytest.fixture
def evening(tmp_path):
    evening = Evening(tmp_path)
    evening.start()
    yield evening
    evening.stop()


def start(evening: Evening, config: dict, rng: random.Random) -> dict:
    evening.call("POST", "/api/game", config, pin=True)
    evening.follow_guidance(rng)
    return evening.wait(lambda s: s["phase"] == "draw")


@pytest.mark.slow
def test_a_full_disk_holds_the_draw_until_it_can_be_saved(evening):
    # Found by the evenings: a real write failure (a file-size limit on the daemon, as a full
    # disk) must hold the event, show the fault, and save it once the limit is lifted; and the
    # limit must be liftable again (a bug in the first harness).
    rng = random.Random(1)
    config = {"edition": "parker-1939", "variant": "patience", "players": ["green", "red"]}
    start(evening, config, rng)
    evening.call("POST", "/api/sim/scan", {"card": "12"})  # no move: a forfeit is recorded
    evening.call("POST", "/api/undo", {}, pin=True)
    evening.follow_guidance(rng)
    wal = evening.data / "journal.sqlite3-wal"
    evening.limit_file_size(wal.stat().st_size)
    try:
        evening.call("POST", "/api/sim/scan", {"card": "sorry"})
        held = evening.wait(lambda s: not s["storage"]["ok"], what="the storage fault")
    finally:
        evening.limit_file_size(None)
    assert "cannot be saved" in held["warning"] and held["storage"]["unsaved"] >= 1
    saved = evening.wait(lambda s: s["storage"]["ok"], what="the held write")
    assert saved["warning"] is None
    state = evening.check()  # the journal replays to exactly the live game
    evening.check_records(state)
    assert state["history"] == ["forfeit"]


@pytest.mark.slow
def test_malformed_frames_and_a_power_cut_leave_the_game_playable(evening):
    rng = random.Random(2)
    start(evening, {"players": ["red", "blue"]}, rng)

    def link() -> dict:
        return evening.call("GET", "/api/diagnostics", pin=True)["link"]

    evening.call("POST", "/api/sim/line", {"fault": "power-cut"})

    # The link is up again with the rebooted board: a restart seen in its HELLO, or a new
    # connection after one lost (the page's "up" may still be the old connection's, and a
    # frame sent while the driver reconnects is never read).
    def back() -> bool:
        stats = link()
        return stats["firmware_restarts"] + stats["reconnects"] >= 1 and stats["connected"]

    evening.daemon.wait_for(back, 30)
    evening.wait(lambda s: s["link"]["up"], timeout=30)
    evening.call("POST", "/api/sim/line", {"fault": "garbage"})
    # The ERROR whose text is not UTF-8 and the short SNAPSHOT are a malformed frame each.
    # Sent back to back, before the driver has read the first: each made-up frame has its own
    # sequence number, so neither is dropped as a repeat of the other.
    # (The snapshot first: the fresh snapshot a malformed frame asks for takes the place of a
    # snapshot still waiting on the board.)
    evening.call("POST", "/api/sim/line", {"fault": "bad-snapshot"})
    evening.call("POST", "/api/sim/line", {"fault": "bad-error"})
    evening.daemon.wait_for(lambda: link()["malformed"] >= 2, 30)
    evening.call("POST", "/api/sim/scan", {"card": "1"})
    evening.wait(lambda s: s["phase"] == "move")
    evening.lift("start:red")
    evening.place("T4", "red")
    state = evening.wait(lambda s: s["history"] == ["R:start-T4"], what="the move")
    evening.check_records(evening.check())
    diagnostics = evening.call("GET", "/api/diagnostics", pin=True)
    assert any("malformed ERROR frame" in error for error in diagnostics["errors"])
    assert not any("carte illisible" in error for error in diagnostics["errors"])
    assert state["link"]["up"]


@pytest.mark.slow
def test_journal_files_deleted_and_a_read_only_storage_lose_no_turn_across_a_restart(evening):
    # Issue #33, the evening's storage faults on their own: the journal's files deleted while
    # the game goes on, then the storage read-only and writable again; after a power cut,
    # every confirmed turn is in the journal and the game resumes there.
    rng = random.Random(3)
    start(evening, {"players": ["red", "blue"]}, rng)
    evening.call("POST", "/api/sim/scan", {"card": "5"})  # red cannot move: a forfeit
    evening.wait(lambda s: s["history"] == ["forfeit"])
    assert evening.delete_journal_files() == [
        "journal.sqlite3",
        "journal.sqlite3-wal",
        "journal.sqlite3-shm",
    ]
    evening.daemon.wait_for(lambda: evening.rescues() == 1, 30)
    evening.check()  # the fresh journal holds the turn
    evening.read_only(True)
    try:
        evening.call("POST", "/api/sim/scan", {"card": "5"})  # blue's: held, not saved
        held = evening.wait(lambda s: not s["storage"]["ok"], what="the storage fault")
        assert "is read-only" in held["warning"] and held["storage"]["unsaved"] >= 1
    finally:
        evening.read_only(False)
    saved = evening.wait(lambda s: s["storage"]["ok"], timeout=30, what="the held write")
    assert saved["history"] == ["forfeit", "forfeit"]
    evening.check_records(evening.check())
    evening.restart(kill=True)
    state = evening.wait(lambda s: s["game_id"] == saved["game_id"] and s["phase"] != "idle")
    assert state["history"] == ["forfeit", "forfeit"]
    evening.check_records(evening.check())


@pytest.mark.slow
def test_a_storage_read_only_at_start_heals_once_writable(evening):
    """Issue #44: the daemon started on a read-only storage, a card was drawn (held, rightly),
    the storage made writable: the journal's retry opened a new connection beside the one made
    read-only, which SQLite keeps read-only, and the held draw was never recorded."""
    rng = random.Random(3)
    start(evening, {"players": ["red", "blue"]}, rng)
    evening.read_only(True)
    try:
        evening.restart(kill=True)
        evening.call("POST", "/api/sim/scan", {"card": "1"})
        held = evening.wait(lambda s: not s["storage"]["ok"], what="the storage fault")
        assert "is read-only" in held["warning"], held["warning"]
    finally:
        evening.read_only(False)
    saved = evening.wait(lambda s: s["storage"]["ok"], timeout=30, what="the held draw saved")
    assert saved["card"] == "1"
    state = evening.check()
    evening.check_records(state)

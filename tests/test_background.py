"""The one stoppable background thread (pawnlight.background) the live publisher and the club
page's feed run their loops in."""

from __future__ import annotations

import threading

from pawnlight.background import BackgroundThread


def test_a_loop_runs_until_stopped_and_runs_anew_when_started_again():
    worker = BackgroundThread("pawnlight-test")
    rounds: list[str] = []
    started = threading.Event()

    def loop(word: str) -> None:
        assert threading.current_thread().name == "pawnlight-test"
        assert threading.current_thread().daemon
        started.set()
        while not worker.stopping.wait(0.01):
            pass
        rounds.append(word)

    for word in ("first", "second"):
        started.clear()
        worker.start(loop, word)
        assert started.wait(5)
        assert worker.running
        worker.stop()
        assert not worker.running
    assert rounds == ["first", "second"]


def test_stopping_what_never_started_is_harmless():
    worker = BackgroundThread("pawnlight-test")
    worker.stop()
    assert worker.stopping.is_set() and not worker.running

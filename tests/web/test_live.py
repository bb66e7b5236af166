"""What twenty phones share: the compact state, per-version caching, the history by pages."""

from __future__ import annotations

import threading
import time

from pawnlight.web.live import LiveCache, compact

from .test_pages import _play_turns


def test_the_compact_state_keeps_every_field_but_the_growing_ones():
    state = {
        "version": 3,
        "phase": "move",
        "lit": {"T4": "destination"},
        "history": ["a", "b"],
        "turns": [{"before": {}, "after": {}}] * 2,
        "legal": [{"text": "T4-T8", "pawns": {"red": ["T8"]}}],
        "choices": [],
    }
    small = compact(state, epoch=5)
    assert small == {
        "version": 3,
        "phase": "move",
        "lit": {"T4": "destination"},
        "history_length": 2,
        "history_epoch": 5,
        "legal": [{"text": "T4-T8"}],
        "choices": [],
    }


def test_each_version_is_built_once_however_many_ask_at_once():
    cache = LiveCache()
    state = {"version": 7}
    builds = []

    def build():
        builds.append(1)
        time.sleep(0.05)  # long enough for every other thread to ask meanwhile
        return "built"

    answers = []
    threads = [
        threading.Thread(target=lambda: answers.append(cache.get(state, "k", build)))
        for _ in range(20)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert builds == [1] and answers == ["built"] * 20


def test_only_the_last_versions_are_kept():
    cache = LiveCache()
    for version in range(1, 10):

        def build(v: int = version) -> int:
            return v

        cache.get({"version": version}, "k", build)
    rebuilt = []

    def rebuild() -> int:
        rebuilt.append(1)
        return 1

    cache.get({"version": 1}, "k", rebuild)
    assert rebuilt == [1]
    assert cache.get({"version": 9}, "k", lambda: "again") == 9


def test_the_history_pages_and_a_full_page_keeps_its_etag(client, service, monkeypatch):
    from pawnlight.web import api

    monkeypatch.setattr(api, "HISTORY_PAGE", 2)
    _play_turns(service, 3)
    first = client.get("/api/history?page=1")
    assert first.status_code == 200
    assert [t["text"] for t in first.json["turns"]] == service.state()["history"][:2]
    assert set(first.json["turns"][0]) >= {"colour", "card", "text", "before", "after"}
    second = client.get("/api/history?page=2").json
    assert second["first_turn"] == 3 and len(second["turns"]) == 1
    assert client.get("/api/history?page=3").status_code == 404
    assert client.get("/api/history?page=0").status_code == 400
    service.scan("1")
    service.play(service.state()["legal"][0]["text"])  # a new version, page 1 unchanged
    again = client.get("/api/history?page=1", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304

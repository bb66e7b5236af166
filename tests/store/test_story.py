"""A finished game's story from the journal: ``pawnlight games story``, kept once in the journal
(pawnlight.store.stories), told by the background job (story_job) and the runtime's teller."""

from __future__ import annotations

import json
import sqlite3
import sys
import time

import pytest

from pawnlight.cli import main
from pawnlight.players.heuristic import HeuristicPlayer
from pawnlight.players.table import play_game
from pawnlight.rules.game import Event, EventKind, Game, GameConfig
from pawnlight.runtime import story_job
from pawnlight.runtime.storyteller import StoryTeller
from pawnlight.store.journal import Journal
from pawnlight.store.record import GameRecord
from pawnlight.store.stories import keep_story, people_of, stored_story

from ..helpers import SQUARE_CODE

CONFIG = GameConfig(edition="hasbro-2002", players=("red", "blue"))


def finished() -> Game:
    return play_game(CONFIG, {0: HeuristicPlayer(), 1: HeuristicPlayer()}, "store-story:1")


@pytest.fixture
def data(tmp_path, monkeypatch):
    """A data directory: game 1 finished (blue played by the computer), game 2 under way."""
    monkeypatch.delenv("PAWNLIGHT_DATA", raising=False)
    directory = tmp_path / "data"
    with Journal.open(directory / "journal.sqlite3") as journal:
        record = GameRecord.from_game(finished(), meta={"computer": {"blue": "heuristic"}})
        journal.import_record(record)
        game_id = journal.new_game(CONFIG)
        game = Game(CONFIG)
        game.draw("1")
        journal.append(game_id, game.events[-1])
    return directory


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["games", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_story_json_has_the_contracts_shape(data, capsys):
    code, out, err = run(capsys, "story", "1", "--json", "--data", str(data))
    assert code == 0 and err == ""
    story = json.loads(out)
    assert list(story) == ["game", "turns", "turning_points", "costly_moves", "estimator"]
    assert story["game"] == 1
    game = finished()
    assert len(story["turns"]) == len(game.history)
    for turn in story["turns"]:
        assert list(turn) == ["turn", "colour", "card", "text", "chances"]
        assert sum(turn["chances"].values()) == pytest.approx(1, abs=1e-3)
    assert game.result is not None
    winner = "red" if game.result.winners == (0,) else "blue"
    assert story["turns"][-1]["chances"][winner] == 1
    assert all(list(p) == ["turn", "colour", "swing", "words"] for p in story["turning_points"])
    # blue was the computer's: only red's moves are judged
    assert all(m["colour"] == "red" for m in story["costly_moves"])
    assert set(story["estimator"]) == {"name", "error"}


def test_story_text_says_it_in_words(data, capsys):
    code, out, _ = run(capsys, "story", "1", "--data", str(data))
    assert code == 0
    assert "won in" in out and "The turning points:" in out
    words = out.split("The turning points:")[1]
    assert not SQUARE_CODE.search(words), words


@pytest.mark.parametrize(
    ("game", "said"),
    [("2", "error: game 2 is not finished"), ("9", "error: no game 9 in the journal")],
)
def test_story_of_an_unfinished_or_unknown_game_exits_2_with_one_line(data, capsys, game, said):
    code, out, err = run(capsys, "story", game, "--json", "--data", str(data))
    assert code == 2 and out == ""
    assert err.startswith(said) and err.count("\n") == 1


def test_story_with_no_journal_or_a_bad_id(tmp_path, capsys):
    code, _, err = run(capsys, "story", "1", "--data", str(tmp_path / "none"))
    assert code == 2 and err.startswith("error: no journal at") and err.count("\n") == 1
    with pytest.raises(SystemExit) as stop:
        main(["games", "story", "first", "--data", str(tmp_path)])
    assert stop.value.code == 2
    assert "a game id is a number" in capsys.readouterr().err


def test_a_story_is_kept_once_and_forgotten_when_the_game_changes(data):
    path = data / "journal.sqlite3"
    with Journal.open(path) as journal:
        assert stored_story(journal, 1) is None
        events = len(journal.load(1).events)
        keep_story(journal, 1, events, {"game": 1, "turns": []})
        assert stored_story(journal, 1) == {"game": 1, "turns": []}
        # an undo after the end reopens the game: what was told no longer stands
        journal.append(1, Event(EventKind.UNDO))
        assert stored_story(journal, 1) is None
        journal.delete(1)
    db = sqlite3.connect(path)
    assert db.execute("SELECT count(*) FROM stories").fetchone()[0] == 0
    db.close()


def test_the_people_are_the_colours_the_computer_did_not_play():
    assert people_of({"computer": {"blue": "strong"}}, ("red", "blue")) == [0]
    assert people_of({}, ("red", "blue", "yellow")) == [0, 1, 2]


def test_the_job_keeps_the_story_and_says_how_far_it_got(data, capsys):
    path = str(data / "journal.sqlite3")
    assert story_job.main([path, "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == "kept"
    done = [tuple(map(int, line.split()[1:])) for line in lines[:-1]]
    assert done[-1][0] == done[-1][1] == len(finished().history)
    with Journal.open(path, readonly=True) as journal:
        kept = stored_story(journal, 1)
    assert json.loads(run(capsys, "story", "1", "--json", "--data", str(data))[1]) == kept
    assert story_job.main([path, "2"]) == 3
    assert capsys.readouterr().out.startswith("none game 2 is not finished")


def test_the_teller_works_in_the_background_and_keeps_it(data):
    """The runtime's teller: a job of its own for a finished game, none for one under way."""
    teller = StoryTeller(
        data / "journal.sqlite3", [sys.executable, "-m", "pawnlight.runtime.story_job"]
    )
    try:
        assert teller.status(2) == {"state": "none", "reason": "the game is not finished"}
        assert teller.status(5)["state"] == "none"
        first = teller.status(1)
        assert first["state"] == "working"
        deadline = time.monotonic() + 60
        while (found := teller.status(1))["state"] == "working":
            assert time.monotonic() < deadline, "the story was not told in a minute"
            time.sleep(0.05)
        assert found["state"] == "ready" and found["story"]["game"] == 1
    finally:
        teller.stop()

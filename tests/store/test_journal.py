"""The journal: games event by event in SQLite, listed, exported, imported, deleted, resumed."""

from __future__ import annotations

import itertools
import sqlite3
import threading

import pytest

from pawnlight.rules.board import COLOURS
from pawnlight.rules.game import Event, EventKind, Game, GameConfig, GameError, Result
from pawnlight.store import schema
from pawnlight.store.errors import JournalError
from pawnlight.store.journal import Decided, Journal
from pawnlight.store.record import GameRecord, read_record, write_record

from .randomplay import Player, every_config


@pytest.fixture
def journal(tmp_path):
    with Journal.open(tmp_path / "data" / "journal.sqlite3") as journal:
        yield journal


def play_into(journal: Journal, game_id: int, game: Game, seed: int, events: int | None = None):
    """Play at random, appending each event as the companion does; returns the player."""
    player = Player(game, seed, double=0.01)
    while not game.over and (events is None or events > 0):
        player.act()
        assert journal.append(game_id, game.events[-1]) == len(game.events)
        events = None if events is None else events - 1
    return player


def test_a_new_journal_is_wal_synchronous_full_and_versioned(journal):
    db = sqlite3.connect(journal.path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION
    assert db.execute("PRAGMA application_id").fetchone()[0] == schema.APPLICATION_ID
    db.close()
    # synchronous is a setting of each connection: the writer's is FULL (2).
    assert journal._writer.execute("PRAGMA synchronous").fetchone()[0] == 2


def test_games_are_stored_event_by_event_and_resume_exactly(journal):
    config = GameConfig(edition="parker-1950", variant="points")
    game_id = journal.new_game(config, seed=5, names={"red": "Ann", "blue": "Bo"})
    game = Game(config)
    play_into(journal, game_id, game, seed=5)
    assert journal.unfinished() is None
    resumed = journal.resume(game_id)
    assert resumed.events == game.events
    assert resumed.position == game.position
    assert resumed.result == game.result
    record = journal.load(game_id)
    assert record.names == {"red": "Ann", "blue": "Bo"} and record.seed == 5
    assert record.result == game.result and record.finished is not None
    [summary] = journal.games()
    assert summary.id == game_id
    assert summary.players == ("red", "blue", "yellow", "green")
    assert summary.turns == len(game.history)
    assert summary.events == len(game.events)
    assert summary.finished
    assert game.result is not None
    assert summary.winners == tuple(COLOURS[c] for c in game.result.winners)


def opening() -> Game:
    """Red comes out, blue has no card to move (forfeited at once), yellow comes out on a 2 and
    draws again, and moves on."""
    game = Game(GameConfig())
    game.draw("1")
    game.play("R:start-T4")  # turn 1
    game.draw("5")  # turn 2: blue forfeits
    game.draw("2")
    game.play("Y:start-T34")  # turn 3, and yellow draws again
    game.draw("3")
    game.play("T34-T37")  # turn 4
    return game


def test_a_game_resumes_with_the_card_drawn_before_the_power_cut(tmp_path):
    """What the daemon does at start (runtime/owner.py): the unfinished game, replayed to where
    it stopped, waiting for what it waited for."""
    path = tmp_path / "journal.sqlite3"
    game = opening()
    game.draw("4")  # green has nothing out: a forfeit
    game.draw("7")  # red to play a 7: the card is part of what resumes
    with Journal.open(path) as journal:
        game_id = journal.new_game(game.config)
        for event in game.events:
            journal.append(game_id, event)
    # The power comes back.
    with Journal.open(path) as journal:
        assert journal.unfinished() == game_id
        resumed = journal.resume(game_id)
    assert resumed.position == game.position
    assert resumed.history == game.history
    assert (resumed.phase, resumed.card, resumed.turn) == ("move", "7", 0)


def take_back_a_move(journal: Journal, game_id: int, game: Game) -> list[Event]:
    """As the companion takes a move back (companion/turns.py): undo events until a move is
    undone, with any card drawn since, each undo written to the journal."""
    undone = []
    while game.can_undo():
        undone.append(game.undo())
        journal.append(game_id, game.events[-1])
        if undone[-1].kind == EventKind.MOVE:
            break
    return undone


def test_takebacks_are_undo_events_that_survive_in_the_journal_and_resume(tmp_path):
    config = GameConfig(edition="parker-1950")
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as journal:
        game_id = journal.new_game(config)
        game = Game(config)
        player = Player(game, 8, undo=0.0)
        for _ in range(80):
            player.act()
            journal.append(game_id, game.events[-1])
        turns = list(game.history)
        undone = [take_back_a_move(journal, game_id, game) for _ in range(3)]
        assert all(taken[-1].kind == EventKind.MOVE for taken in undone)
        assert game.position == turns[len(game.history)].before
        kinds = [event.kind for event in game.events]
        assert kinds.count(EventKind.UNDO) == sum(map(len, undone))  # nothing was deleted
    # The power comes back.
    with Journal.open(path) as journal:
        assert journal.unfinished() == game_id
        resumed = journal.resume(game_id)
        assert resumed.position == game.position
        assert resumed.history == game.history
        assert resumed.events == game.events
        # And play goes on from there.
        Player(resumed, 9).act()
        journal.append(game_id, resumed.events[-1])
        assert len(journal.load(game_id).events) == len(game.events) + 1


def test_unfinished_is_the_latest_game_not_over(journal):
    first = journal.new_game(GameConfig())
    second = journal.new_game(GameConfig(players=("red", "yellow")))
    assert journal.unfinished() == second
    journal.finish(second, Result((), reason="abandoned"))
    assert journal.unfinished() == first
    assert journal.games()[1].outcome == "ended early (abandoned)"
    with pytest.raises(JournalError, match="ended early"):
        journal.append(second, Event("draw", 0, "1"))


def test_an_event_the_rules_refuse_is_not_stored(journal):
    game_id = journal.new_game(GameConfig())
    with pytest.raises(GameError, match="event 1 \\(draw\\)"):
        journal.append(game_id, Event("draw", 1, "5"))  # red leads, not blue
    with pytest.raises(ValueError):
        journal.append(game_id, Event("undo", 2))  # malformed
    assert journal.append(game_id, Event("draw", 0, "1")) == 1
    with pytest.raises(GameError, match="event 2 \\(move\\)"):
        journal.append(game_id, Event("move", 0, "1", "T4-T5"))
    assert journal.append(game_id, Event("move", 0, "1", "R:start-T4")) == 2
    assert len(journal.load(game_id).events) == 2
    with pytest.raises(JournalError, match="no game 99"):
        journal.append(99, Event("draw", 0, "1"))


def test_finish_checks_the_result(journal):
    config = GameConfig(players=("red", "blue"))
    game_id = journal.new_game(config)
    with pytest.raises(GameError, match="not over"):
        journal.finish(game_id, Result((0,), reason="red says so"))
    game = Game(config)
    play_into(journal, game_id, game, seed=3)
    journal.finish(game_id, game.result)  # agrees: nothing to do
    assert game.result is not None
    loser = next(c for c in (0, 1) if c not in game.result.winners)
    with pytest.raises(GameError, match="ended with"):
        journal.finish(game_id, Result((loser,)))


def test_undoing_the_winning_move_reopens_the_game(journal):
    config = GameConfig(players=("red", "blue"))
    game_id = journal.new_game(config)
    game = Game(config)
    play_into(journal, game_id, game, seed=11)
    assert journal.unfinished() is None
    game.undo()
    journal.append(game_id, game.events[-1])
    assert journal.unfinished() == game_id
    assert journal.games()[0].outcome == "in progress"
    assert journal.resume(game_id).position == game.position
    # Played again to the end, the result is stored again.
    play_into(journal, game_id, game, seed=12)
    assert journal.load(game_id).result == game.result


def test_export_import_round_trip_and_delete(journal):
    ids = []
    for seed, config in enumerate(list(every_config())[:4]):
        game_id = journal.new_game(config, seed=seed, meta={"table": seed})
        play_into(journal, game_id, Game(config), seed, events=None if seed % 2 else 150)
        ids.append(game_id)
    texts = [journal.export(game_id) for game_id in ids]
    copies = [journal.import_record(text) for text in texts]
    assert [journal.export(game_id) for game_id in copies] == texts
    assert [journal.load(i) for i in copies] == [read_record(t) for t in texts]
    journal.delete(ids[0])
    assert ids[0] not in [s.id for s in journal.games()]
    with pytest.raises(JournalError, match=f"no game {ids[0]}"):
        journal.load(ids[0])
    with pytest.raises(JournalError):
        journal.delete(ids[0])
    # Ids are never reused.
    assert journal.new_game(GameConfig()) > max(copies)


def test_a_record_that_does_not_replay_is_not_imported(journal):
    game = Game(GameConfig())
    game.draw("1")
    game.play("R:start-T4")
    text = write_record(GameRecord.from_game(game)).replace("R:start-T4", "R:start-T5")
    with pytest.raises(Exception, match="event 2 \\(move\\) cannot be replayed"):
        journal.import_record(text)
    assert journal.games() == []


def test_readers_on_other_threads_while_the_owner_writes(journal):
    """The web server lists games while the companion appends; neither disturbs the other."""
    config = GameConfig()
    game_id = journal.new_game(config)
    game = Game(config)
    player = Player(game, 21)
    stop = threading.Event()
    seen: list[list[int]] = [[], []]
    errors: list[BaseException] = []

    def read(seen: list[int]) -> None:
        try:
            while not stop.is_set():
                [summary] = journal.games()
                record = journal.load(game_id)
                seen.append(len(record.events))
                assert summary.events <= len(journal.load(game_id).events)
        except BaseException as error:  # reported in the main thread
            errors.append(error)

    readers = [threading.Thread(target=read, args=(mine,)) for mine in seen]
    for reader in readers:
        reader.start()
    try:
        for _ in range(300):
            if game.over:
                break
            player.act()
            journal.append(game_id, game.events[-1])
    finally:
        stop.set()
        for reader in readers:
            reader.join()
    assert not errors, errors
    for mine in seen:  # each reader saw the game grow, never shrink, never ahead of the writer
        assert mine and mine == sorted(mine) and mine[-1] <= len(game.events)


def test_writes_from_another_thread_are_refused(journal):
    game_id = journal.new_game(GameConfig())
    failures: list[BaseException] = []

    def write() -> None:
        try:
            journal.append(game_id, Event("draw", 0, "1"))
        except JournalError as error:
            failures.append(error)

    thread = threading.Thread(target=write)
    thread.start()
    thread.join()
    assert failures and "thread" in str(failures[0])


def test_read_only_journal(tmp_path):
    path = tmp_path / "journal.sqlite3"
    with pytest.raises(JournalError, match="no journal"):
        Journal.open(path, readonly=True)
    with Journal.open(path) as writer:
        game_id = writer.new_game(GameConfig())
        writer.append(game_id, Event("draw", 0, "3"))
        reader = Journal.open(path, readonly=True)
        assert len(reader.load(game_id).events) == 1
        with pytest.raises(JournalError, match="read-only"):
            reader.new_game(GameConfig())


def test_a_newer_schema_is_refused_and_an_older_one_upgraded(tmp_path, monkeypatch):
    path = tmp_path / "journal.sqlite3"
    Journal.open(path).close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 7")
    db.close()
    with pytest.raises(JournalError, match="schema version 7, newer"):
        Journal.open(path)
    with pytest.raises(JournalError, match="schema version 7, newer"):
        Journal.open(path, readonly=True)
    # Pretend this pawnlight knows version 8 and how to get there from 7.
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 7")
    db.close()
    monkeypatch.setattr(schema, "SCHEMA_VERSION", 8)
    monkeypatch.setattr(schema, "MIGRATIONS", {7: ("ALTER TABLE games ADD COLUMN board TEXT",)})
    with pytest.raises(JournalError, match="older schema version 7"):
        Journal.open(path, readonly=True)
    Journal.open(path).close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 8
    assert "board" in [row[1] for row in db.execute("PRAGMA table_info(games)")]
    db.close()
    monkeypatch.setattr(schema, "MIGRATIONS", {})
    monkeypatch.setattr(schema, "SCHEMA_VERSION", 9)
    with pytest.raises(JournalError, match="cannot upgrade"):
        Journal.open(path)


def test_board_state_is_kept_replaced_and_forgotten(journal):
    assert journal.recall("settings") is None
    journal.remember("settings", {"brightness": 0.3, "settle": 0.5})
    journal.remember("settings", {"brightness": 0.4, "settle": 0.5})
    with Journal.open(journal.path, readonly=True) as reader:
        assert reader.recall("settings") == {"brightness": 0.4, "settle": 0.5}
    journal.remember("settings", None)
    assert journal.recall("settings") is None


def test_a_version_1_journal_is_upgraded_with_its_games_kept(tmp_path):
    """A journal written before the board's state was kept (schema 1) gains the table."""
    path = tmp_path / "journal.sqlite3"
    db = sqlite3.connect(path)
    for statement in schema.TABLES[:2]:  # version 1 had the games and events tables only
        db.execute(statement)
    db.execute(f"PRAGMA application_id = {schema.APPLICATION_ID}")
    db.execute("PRAGMA user_version = 1")
    db.execute("""INSERT INTO games (header) VALUES ('{"format": "pawnlight-record", \
"version": 1, "edition": "hasbro-2002", "variant": "standard", "players": ["red", "blue"], \
"teams": false, "extra_one": false, "started": "2025-12-26T15:04:11+01:00"}')""")
    db.commit()
    db.close()
    with Journal.open(path) as journal:
        assert [g.id for g in journal.games()] == [1]
        journal.remember("leader", {"drawing": ["red"]})
        assert journal.recall("leader") == {"drawing": ["red"]}
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION
    db.close()


def decided(game: Game) -> Decided:
    """What the companion tells the store with an event (companion.machine._recorded)."""
    return Decided(len(game.events), len(game.history), game.result if game.over else None)


@pytest.mark.parametrize("config", list(itertools.islice(every_config(), 6)), ids=str)
def test_what_the_companion_decided_is_written_down_without_running_the_rules(
    journal, config, monkeypatch
):
    """The companion ran the rules; the store writes the event and its outcome down as told
    (the rules are not run a second time) and the record replays to the same game."""
    from pawnlight.store import journal as module

    def no_rules(game, event):
        raise AssertionError("the store ran the rules again")

    game_id = journal.new_game(config, seed=9)
    game = Game(config)
    player = Player(game, 9, double=0.01)
    with monkeypatch.context() as patched:
        patched.setattr(module, "apply_event", no_rules)
        while not game.over:
            player.act()
            assert journal.append(game_id, game.events[-1], decided(game)) == len(game.events)
        game.undo()  # an undo of the winning move reopens the game
        journal.append(game_id, game.events[-1], decided(game))
        assert journal.unfinished() == game_id
        while not game.over:
            player.act()
            journal.append(game_id, game.events[-1], decided(game))
    resumed = journal.resume(game_id)  # a full replay, as at a restart
    assert resumed.events == game.events and resumed.result == game.result
    [summary] = journal.games()
    assert summary.turns == len(game.history) and summary.finished
    assert journal.check() == []  # the file is sound


def test_an_event_out_of_order_is_refused_and_nothing_is_stored(journal):
    config = GameConfig(players=("red", "blue"))
    game_id = journal.new_game(config)
    game = Game(config)
    play_into(journal, game_id, game, seed=4, events=6)
    Player(game, 4).act()
    ahead = Decided(len(game.events) + 1, len(game.history))  # a write went missing
    with pytest.raises(GameError, match="does not follow the record's 6 events"):
        journal.append(game_id, game.events[-1], ahead)
    assert len(journal.load(game_id).events) == 6
    assert journal.append(game_id, game.events[-1], decided(game)) == 7


def test_a_game_ended_early_takes_no_more_decided_events(journal):
    config = GameConfig(players=("red", "blue"))
    game_id = journal.new_game(config)
    game = Game(config)
    play_into(journal, game_id, game, seed=4, events=4)
    journal.finish(game_id, Result((), reason="abandoned"))
    Player(game, 4).act()
    with pytest.raises(JournalError, match="ended early"):
        journal.append(game_id, game.events[-1], decided(game))

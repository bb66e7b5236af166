"""Damaged records and journals: a clear error that says where, and the sound part still readable.

And the journal is never rewritten to "repair" anything: a damaged file stays byte for byte as it
was found.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pawnlight.rules.game import Event, Game, GameConfig
from pawnlight.store.errors import JournalError, RecordError, ReplayError
from pawnlight.store.journal import Journal, check_file
from pawnlight.store.record import (
    GameRecord,
    decode,
    read_record,
    salvage_record,
    write_record,
)
from pawnlight.store.replay import replay_record

from .randomplay import random_game

CONFIG = GameConfig(edition="parker-1950", variant="points")


@pytest.fixture(scope="module")
def finished():
    """A finished point game with doubles and undos, and its record text."""
    game = random_game(CONFIG, 4, double=0.01)
    return game, write_record(GameRecord.from_game(game, seed=4))


def lines_of(text: str) -> list[str]:
    return text.splitlines(keepends=True)


# -- records ------------------------------------------------------------------------------------


def test_a_record_cut_short_in_its_last_line(finished):
    game, text = finished
    lines = lines_of(text)
    cut = "".join(lines[:40]) + lines[40][:17]  # the file ends in the middle of line 41
    with pytest.raises(RecordError) as caught:
        read_record(cut)
    error = caught.value
    assert error.line == 41
    assert str(error).startswith("line 41: not valid JSON")
    assert "cut short" in str(error)
    assert error.intact is not None
    assert error.intact.events == tuple(game.events[:39])
    assert error.intact.damage is not None
    assert "line 41" in error.intact.damage
    salvaged = salvage_record(cut)
    assert salvaged == error.intact
    assert replay_record(salvaged).events == game.events[:39]


def test_a_record_cut_at_a_line_end_is_an_unfinished_game(finished):
    game, text = finished
    record = read_record("".join(lines_of(text)[:31]))
    assert record.result is None and record.damage is None
    assert replay_record(record).position == Game.replay(CONFIG, game.events[:30]).position


@pytest.mark.parametrize(
    ("garbage", "message"),
    [
        ("\x00\x00\x00\x00\n", "not valid JSON"),
        ("[1, 2]\n", "one JSON object"),
        ("\n", "blank line"),
        ('{"n": 10, "event": "draw", "colour": "red"}\n', "needs 'card'"),
        ('{"n": 10, "event": "jump", "colour": "red"}\n', "unknown event kind 'jump'"),
        ('{"n": 10, "event": "draw", "colour": "pink", "card": "1"}\n', "unknown colour"),
        ('{"n": 10, "event": "draw", "colour": "red", "card": "6"}\n', "unknown card '6'"),
        ('{"n": 10, "event": "undo", "colour": "red"}\n', "has no 'colour'"),
        ('{"n": 10, "event": "undo", "when": 3}\n', "unexpected field 'when'"),
        ('{"n": 10, "event": "undo", "event": "undo"}\n', "appears twice"),
        ('{"n": 11, "event": "undo"}\n', "expected event 10 but found n=11"),
        ('{"n": 10.5, "event": "undo"}\n', "needs its number"),
        ('{"winner": "red"}\n', "neither an event"),
        ('{"n": 10, "event": "undo", "x": NaN}\n', "NaN"),
    ],
)
def test_a_garbage_line_is_named_with_its_number(finished, garbage, message):
    game, text = finished
    lines = lines_of(text)
    damaged = "".join([*lines[:10], garbage, *lines[11:]])
    with pytest.raises(RecordError, match=f"^line 11: .*{message}") as caught:
        read_record(damaged)
    assert caught.value.line == 11
    assert caught.value.intact is not None
    assert caught.value.intact.events == tuple(game.events[:9])


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ("this is not a record", "not valid JSON"),
        ('{"format": "chess-pgn", "version": 1}', "not a pawnlight record"),
        ('{"format": "pawnlight-record", "version": 2}', "version 2 is newer"),
        ('{"format": "pawnlight-record", "version": "1"}', "bad record version"),
    ],
)
def test_a_wrong_header(finished, header, message):
    _, text = finished
    damaged = header + "\n" + text.split("\n", 1)[1]
    with pytest.raises(RecordError, match=f"^line 1: .*{message}") as caught:
        read_record(damaged)
    assert caught.value.line == 1 and caught.value.intact is None
    with pytest.raises(RecordError):
        salvage_record(damaged)  # nothing to salvage without a header


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"edition": "monopoly"}, "unknown edition"),
        ({"variant": "patience"}, "no patience game"),
        ({"players": ["red", "red"]}, "named twice"),
        ({"players": "red,blue"}, "list of colour names"),
        ({"names": {"purple": "Al"}}, "not playing"),
        ({"started": "yesterday"}, "ISO 8601"),
        ({"teams": "yes"}, "true or false"),
        ({"seed": "abc"}, "whole number"),
        ({"colour": "red"}, "unexpected field 'colour'"),
        ({"meta": [1, 2]}, "meta must be a JSON object"),
    ],
)
def test_a_header_with_a_bad_field(finished, change, message):
    _, text = finished
    first, rest = text.split("\n", 1)
    header = {**json.loads(first), **change}
    with pytest.raises(RecordError, match=f"^line 1: .*{message}"):
        read_record(json.dumps(header) + "\n" + rest)


def test_an_event_that_does_not_replay(finished):
    game, text = finished
    lines = lines_of(text)
    number = next(
        n for n, e in enumerate(game.events, 1) if e.kind == "move" and n > 20
    )  # a move some way in
    line = json.loads(lines[number])
    line["move"] = "T0<>T1"  # well-formed, but not this game's move
    lines[number] = json.dumps(line) + "\n"
    record = read_record("".join(lines))  # the text is fine; the game is not
    with pytest.raises(ReplayError, match=f"^event {number} \\(move\\) cannot be replayed") as e:
        replay_record(record)
    assert e.value.number == number
    assert e.value.game.events == game.events[: number - 1]
    assert e.value.game.position == Game.replay(CONFIG, game.events[: number - 1]).position


@pytest.mark.parametrize(
    ("field", "value", "message"), [("colour", "green", "green's"), ("card", "12", "plays a 12")]
)
def test_a_move_by_the_wrong_player_or_card_does_not_replay(field, value, message):
    game = Game(GameConfig())
    game.draw("1")
    game.play("R:start-T4")
    record = GameRecord.from_game(game)
    first = record.events[1]
    move = first._replace(card=value) if field == "card" else first._replace(colour=3)
    with pytest.raises(ReplayError, match=message):
        replay_record(GameRecord(record.config, record.started, (record.events[0], move)))


def test_a_result_line_that_disagrees(finished):
    game, text = finished
    lines = lines_of(text)
    end = json.loads(lines[-1])
    winner = game.result.winners[0]
    end["result"]["winners"] = [next(c for c in CONFIG.players if c != CONFIG.players[winner])]
    lines[-1] = json.dumps(end) + "\n"
    with pytest.raises(ReplayError, match="recorded result") as caught:
        replay_record(read_record("".join(lines)))
    assert caught.value.number is None and caught.value.game.over


def test_a_result_on_a_game_that_is_not_over(finished):
    _, text = finished
    lines = lines_of(text)
    with pytest.raises(ReplayError, match="not over"):
        replay_record(read_record("".join([*lines[:20], lines[-1]])))


def test_lines_after_the_result(finished):
    _, text = finished
    count = len(lines_of(text))
    with pytest.raises(RecordError, match=f"^line {count + 1}: a line after the result"):
        read_record(text + '{"n": 1, "event": "undo"}\n')


def test_bytes_that_are_not_utf8(finished):
    game, text = finished
    data = text.encode()
    at = data.index(b"\n", data.index(b'"n": 7,')) - 3  # inside line 8
    with pytest.raises(RecordError, match=r"^line 8: not UTF-8") as caught:
        decode(data[:at] + b"\xff" + data[at + 1 :])
    assert caught.value.intact is not None
    assert caught.value.intact.events == tuple(game.events[:6])


def test_an_empty_record():
    with pytest.raises(RecordError, match="empty"):
        read_record("\n\n")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_damage_gives_a_store_error_and_never_anything_else(finished, data):
    """Cut, splice and flip bytes at random: reading and replaying fail only with clear errors."""
    _, text = finished
    raw = bytearray(text.encode()[:3000])
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(raw) - 1))
        action = data.draw(st.sampled_from(["cut", "flip", "insert", "delete"]))
        if action == "cut":
            del raw[at:]
        elif action == "flip":
            raw[at] = data.draw(st.integers(0, 255))
        elif action == "insert":
            raw[at:at] = data.draw(st.binary(min_size=1, max_size=5))
        else:
            del raw[at : at + data.draw(st.integers(1, 20))]
        if not raw:
            break
    try:
        record = read_record(decode(bytes(raw)))
    except RecordError as error:
        assert error.line is not None and str(error).startswith(f"line {error.line}: ")
        if error.intact is not None:
            assert error.intact.damage
        return
    try:
        replay_record(record)
    except ReplayError as error:
        assert error.game is not None


# -- the journal --------------------------------------------------------------------------------


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def full_journal(tmp_path):
    """A closed journal file holding a few finished games (enough pages to cut in half)."""
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as journal:
        for seed in range(3):
            game = random_game(CONFIG, seed, double=0.01)
            journal.import_record(write_record(GameRecord.from_game(game, seed=seed)))
    return path


def test_a_garbage_database_file_is_reported_not_replaced(tmp_path):
    path = tmp_path / "journal.sqlite3"
    path.write_bytes(b"pawnlight? no: " + bytes(range(256)) * 20)
    before = digest(path)
    with pytest.raises(JournalError, match="is damaged: file is not a database"):
        Journal.open(path)
    with pytest.raises(JournalError, match="file is not a database"):
        Journal.open(path, readonly=True)
    assert digest(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["journal.sqlite3"]


def test_a_truncated_database_file_is_reported_not_replaced(full_journal):
    data = full_journal.read_bytes()
    assert len(data) > 8 * 4096
    full_journal.write_bytes(data[: len(data) // 2])
    before = digest(full_journal)
    with pytest.raises(JournalError, match="damaged") as caught:
        Journal.open(full_journal)
    assert "left as it is" in str(caught.value)
    assert digest(full_journal) == before
    with pytest.raises(JournalError, match="damaged"):
        Journal.open(full_journal, readonly=True)
    # SQLite's own check names the damage.
    assert check_file(full_journal)  # e.g. ["database disk image is malformed"]
    assert digest(full_journal) == before


def test_another_programs_database_is_refused(tmp_path):
    path = tmp_path / "journal.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE recipes (name TEXT)")
    db.commit()
    db.close()
    before = digest(path)
    with pytest.raises(JournalError, match="not a pawnlight journal"):
        Journal.open(path)
    assert digest(path) == before


def tamper(path, statement: str, *args) -> None:
    db = sqlite3.connect(path)
    db.execute(statement, args)
    db.commit()
    db.close()


def test_a_stored_event_that_does_not_replay(full_journal):
    with Journal.open(full_journal) as journal:
        game = journal.resume(2)
        number = next(n for n, e in enumerate(game.events, 1) if e.kind == "move" and n > 30)
    tamper(full_journal, "UPDATE events SET move = 'T0<>T1' WHERE game_id = 2 AND seq = ?", number)
    with Journal.open(full_journal) as journal:
        with pytest.raises(ReplayError, match=f"^game 2, event {number} \\(move\\)") as caught:
            journal.resume(2)
        assert caught.value.game.events == game.events[: number - 1]
        with pytest.raises(ReplayError, match=f"game 2, event {number}"):
            journal.append(2, Event("undo"))
        journal.resume(1)  # the other games are untouched
        assert len(journal.load(2).events) == len(game.events)  # nothing was removed


@pytest.mark.parametrize(
    ("statement", "message"),
    [
        ("UPDATE events SET kind = 'jump' WHERE game_id = 2 AND seq = 25", "unknown event kind"),
        ("UPDATE events SET colour = 'pink' WHERE game_id = 2 AND seq = 25", "unknown colour"),
        ("DELETE FROM events WHERE game_id = 2 AND seq = 25", "missing .*number 26"),
    ],
)
def test_a_damaged_event_row_names_the_game_and_sequence(full_journal, statement, message):
    tamper(full_journal, statement)
    with Journal.open(full_journal) as journal:
        with pytest.raises(JournalError, match=f"^game 2, event 25: .*{message}") as caught:
            journal.load(2)
        error = caught.value
        assert (error.game_id, error.seq) == (2, 25)
        assert error.intact is not None
        assert len(error.intact.events) == 24
        assert replay_record(error.intact).events == list(error.intact.events)
        with pytest.raises(JournalError, match="game 2, event 25"):
            journal.export(2)
        assert len(journal.games()) == 3


def test_a_damaged_header_is_listed_and_reported(full_journal):
    tamper(full_journal, "UPDATE games SET header = '{\"format\": ' WHERE id = 3")
    with Journal.open(full_journal) as journal:
        summaries = journal.games()
        assert [s.damage is not None for s in summaries] == [False, False, True]
        assert summaries[2].damage is not None
        assert "header" in summaries[2].damage
        with pytest.raises(JournalError, match=r"^game 3: its header is damaged"):
            journal.load(3)

"""Game records: writing and reading round-trip, and replaying rebuilds every position."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pawnlight.rules.game import Event, Game, GameConfig, Result
from pawnlight.store.record import (
    FORMAT,
    GameRecord,
    event_json,
    read_record,
    write_record,
)
from pawnlight.store.replay import apply_event, replay_record

from .randomplay import Player, every_config

CONFIGS = list(every_config())
STARTED = datetime(2025, 3, 14, 15, 9, 26, tzinfo=timezone(timedelta(hours=1)))


def played(config: GameConfig, seed: int, **rates: float) -> tuple[Game, list]:
    """A random game and the position after each of its events."""
    game = Game(config)
    player = Player(game, seed, **rates)
    positions = []
    while not game.over:
        player.act()
        positions.append(game.position)
    return game, positions


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.edition}-{c.variant}-"
                         f"{len(c.players)}{'-teams' if c.teams else ''}"
                         f"{'-extra1' if c.extra_one else ''}")  # fmt: skip
@pytest.mark.parametrize("seed", [1, 2])
def test_every_variant_round_trips_and_replays_every_position(config, seed):
    game, positions = played(config, seed, double=0.01)
    record = GameRecord.from_game(
        game, started=STARTED, seed=seed, names={config.players[0]: "Ann"}, meta={"seed": seed}
    )
    text = write_record(record)
    assert all(json.loads(line) for line in text.splitlines())
    back = read_record(text)
    assert back == record
    assert write_record(back) == text
    # Every position, event by event, as it stood when the game was played.
    replayed = Game(back.config)
    for event, position in zip(back.events, positions, strict=True):
        apply_event(replayed, event)
        assert replayed.position == position
    assert replayed.events == game.events
    assert replayed.history == game.history
    assert replay_record(back).result == game.result
    # The rules core's own replay agrees.
    assert Game.replay(back.config, back.events).position == game.position


def test_random_games_include_what_the_format_must_carry():
    """The generator really makes undos, doubles, drops, forfeits and finished point games."""
    kinds: set[str] = set()
    scored = False
    for config in CONFIGS:
        for seed in (1, 2):
            game, _ = played(config, seed, double=0.01)
            kinds |= {e.kind for e in game.events}
            assert game.result is not None
            scored |= bool(game.result.scores) and game.result.reason == "all pawns home"
    assert kinds == {"draw", "move", "forfeit", "double", "accept", "drop", "undo"}
    assert scored


def test_undo_several_deep_is_recorded_not_deleted():
    config = GameConfig()
    game = Game(config)
    game.draw("1")
    game.play("R:start-T4")
    game.draw("5")  # blue has nothing out: forfeited at once
    game.draw("2")
    game.play("Y:start-T34")
    for _ in range(3):
        game.undo()
    text = write_record(GameRecord.from_game(game, started=STARTED))
    kinds = [json.loads(line).get("event") for line in text.splitlines()[1:]]
    assert kinds == ["draw", "move", "draw", "draw", "move", "undo", "undo", "undo"]
    back = replay_record(read_record(text))
    assert back.position == game.position
    assert back.phase == "draw" and back.turn == game.turn
    assert len(back.history) == 1


def test_the_example_in_the_docs_reads_and_replays():
    from pathlib import Path

    docs = Path(__file__).resolve().parents[2] / "docs" / "records.md"
    text = docs.read_text(encoding="utf-8")
    example = text.split("```jsonl\n", 1)[1].split("```", 1)[0]
    record = read_record(example)
    game = replay_record(record)
    assert write_record(record) == example
    assert game.over == (record.result is not None)


def test_header_fields_by_name():
    game = Game(GameConfig(players=(" Blue", "green"), variant="standard"))
    record = GameRecord.from_game(game, started=STARTED, seed=7)
    header = json.loads(write_record(record).splitlines()[0])
    assert header == {
        "format": FORMAT,
        "version": 1,
        "edition": "hasbro-2002",
        "variant": "standard",
        "players": ["blue", "green"],
        "teams": False,
        "extra_one": False,
        "seed": 7,
        "started": "2025-03-14T15:09:26+01:00",
    }


@pytest.mark.parametrize(
    "event",
    [Event("undo", 2), Event("draw", 0), Event("move", 0, "7"), Event("double", 1, "7")],
)
def test_a_malformed_event_is_refused_when_written(event):
    with pytest.raises(ValueError):
        event_json(event)


def test_result_line_round_trips_scores_and_patience():
    for result in (
        Result((1,), scores={0: 15, 1: 40, 2: 10}, reason="all pawns home"),
        Result((0, 2), double_game=True, reason="all eight pawns home"),
        Result((), patience="success", reason="two of each colour home"),
    ):
        record = GameRecord(GameConfig(), STARTED, result=result, finished=STARTED)
        assert read_record(write_record(record)) == record


names = st.dictionaries(
    st.sampled_from(["red", "blue", "yellow", "green"]), st.text(max_size=20), max_size=4
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=8,
)


@settings(max_examples=150, deadline=None)
@given(
    names=names,
    meta=st.dictionaries(st.text(max_size=8), json_values, max_size=4),
    seed=st.none() | st.integers(),
    offset=st.integers(min_value=-12 * 60, max_value=14 * 60),
)
def test_any_names_and_meta_round_trip(names, meta, seed, offset):
    # Names and meta may hold any text: newlines, quotes, U+2028, emoji.
    started = datetime(2024, 1, 2, 3, 4, 5, tzinfo=timezone(timedelta(minutes=offset)))
    record = GameRecord(GameConfig(), started, seed=seed, names=names, meta=meta)
    text = write_record(record)
    assert text.count("\n") == 1
    assert read_record(text) == record


def test_started_may_be_written_with_z():
    record = read_record(write_record(GameRecord(GameConfig(), STARTED)).replace(
        "2025-03-14T15:09:26+01:00", "2025-03-14T14:09:26Z"))  # fmt: skip
    assert record.started == STARTED
    assert record.started.tzinfo is not None and record.started.utcoffset() == timedelta(0)
    assert record.started == STARTED.astimezone(UTC)

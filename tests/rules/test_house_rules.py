"""House rules: diamond-lock and strict-own-landing, in the generator, a game and the JSON API."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime

import pytest

from pawnlight.rules import Game, GameConfig, GameError, json_api
from pawnlight.rules.house_rules import HOUSE_RULES, parse_house_rules, with_house_rules
from pawnlight.rules.moves import StepKind
from pawnlight.store.errors import RecordError
from pawnlight.store.record import GameRecord, read_record, write_record
from pawnlight.store.replay import replay_record

from .helpers import HASBRO, PARKER, PARKER_1939, key, options, pos, results, texts

LOCKED = with_house_rules(PARKER, {"diamond-lock"})
STRICT = with_house_rules(HASBRO, {"strict-own-landing"})

# Red's diamond is T3, one square past its safety entry T2; a 10 played backward from the start
# circle T4 would leave a pawn there.
ON_DIAMOND = pos(red="T3 start start start", blue="T30 start start start")


# -- diamond-lock ---------------------------------------------------------------------------------


def test_without_the_house_rule_a_pawn_on_its_diamond_goes_forward_round_the_board():
    assert texts(ON_DIAMOND, "red", "5", PARKER) == {"T3-T8"}


@pytest.mark.parametrize("card", ["3", "5", "8", "12"])
def test_diamond_lock_holds_the_pawn_against_forward_cards(card):
    answer = options(ON_DIAMOND, "red", card, LOCKED)
    assert answer.moves == [] and answer.forfeit


def test_diamond_lock_lets_the_pawn_leave_backward():
    assert texts(ON_DIAMOND, "red", "4", LOCKED) == {"T3-T59"}
    assert texts(ON_DIAMOND, "red", "10", LOCKED) == {"T3-T2"}  # the 10's backward 1 only
    assert "T3-T13" in texts(ON_DIAMOND, "red", "10", PARKER)


def test_diamond_lock_lets_the_pawn_switch_and_then_the_11_may_be_declined():
    locked = options(ON_DIAMOND, "red", "11", LOCKED)
    assert [m.steps[0].target for m in locked.moves] == [30] and locked.forfeit
    free = options(ON_DIAMOND, "red", "11", PARKER)
    assert len(free.moves) == 2 and not free.forfeit  # T3-T14 as well, so it must be played


def test_diamond_lock_keeps_the_pawn_out_of_a_split_7():
    position = pos(red="T3 T20 start start", blue="T40 start start start")
    assert texts(position, "red", "7", LOCKED) == {"T20-T27"}
    assert len(results(position, "red", "7", PARKER)) == 8  # the whole 7 with either, six splits


def test_a_sorry_still_bumps_a_locked_pawn():
    position = pos(red="T3 start start start", blue="T30 start start start")
    assert texts(position, "blue", "sorry", LOCKED) == {"B:start-T3"}


def test_diamond_lock_changes_nothing_on_the_diamondless_hasbro_board():
    locked = with_house_rules(HASBRO, {"diamond-lock"})
    for card in ("5", "7", "10", "11"):
        assert results(ON_DIAMOND, "red", card, locked) == results(ON_DIAMOND, "red", card, HASBRO)


# -- strict-own-landing ---------------------------------------------------------------------------

# Blue's short slide: triangle T16, channel T17-T18, end T19.


def test_by_default_a_pawn_may_slide_from_a_triangle_its_own_pawn_stands_on():
    position = pos(red="T11 T16 start start", blue="start start start start")
    after = pos(red="T19 start start start", blue="start start start start")
    assert key(after) in results(position, "red", "5", HASBRO)
    assert "T11-T16>T19" in texts(position, "red", "5", HASBRO)


def test_strict_own_landing_forbids_the_triangle_where_an_own_pawn_stands():
    position = pos(red="T11 T16 start start", blue="start start start start")
    assert texts(position, "red", "5", STRICT) == {"T16-T21"}


def test_strict_own_landing_forbids_a_slide_ending_on_an_own_pawn():
    position = pos(red="T11 T19 start start", blue="start start start start")
    assert "T11-T16>T19" in texts(position, "red", "5", HASBRO)
    assert texts(position, "red", "5", STRICT) == {"T19-T24>T28"}


def test_strict_own_landing_forbids_a_switch_that_slides_onto_an_own_pawn():
    position = pos(red="T10 T19 start start", blue="T16 start start start")
    assert any(
        m.steps[0].kind == StepKind.SWITCH and m.steps[0].origin == 10
        for m in _moves(position, HASBRO)
    )
    assert not any(
        m.steps[0].kind == StepKind.SWITCH and m.steps[0].origin == 10
        for m in _moves(position, STRICT)
    )


def test_strict_own_landing_with_no_other_move_forfeits():
    # Green's long slide T54-T58: red's pawn on T58 cannot use a 12 (it would pass home).
    position = pos(red="T42 T58 home home", blue="start start start start")
    assert texts(position, "red", "12", HASBRO) == {"T42-T54>T58"}
    answer = options(position, "red", "12", STRICT)
    assert answer.moves == [] and answer.forfeit


def test_the_flat_split_7_agrees_with_the_general_one_under_house_rules():
    from pawnlight.rules.moves import _DIAMONDS, _split_sevens, _two_part_sevens

    positions = [
        pos(red="T3 T9 T14 S2", blue="T10 T16 T19 start"),
        pos(red="T11 T16 T19 T50", blue="T12 T17 start start"),
        pos(red="T0 T1 T58 S3", yellow="T4 T5 T6 start"),
    ]
    for position in positions:
        for strict in (False, True):
            for locks in ((-1, -1, -1, -1), _DIAMONDS):
                flat = _two_part_sevens(
                    position, position.track_occupancy(), (0,), False, strict, locks
                )
                general = _split_sevens(position, (0,), 2, False, strict, locks)
                assert {(m.after, h) for m, h in flat} == {(m.after, h) for m, h in general}


def _moves(position, edition):
    return options(position, "red", "11", edition).moves


# -- names, games, records, the JSON API ----------------------------------------------------------


def test_house_rule_names_are_checked():
    assert parse_house_rules(["Diamond-Lock", "strict-own-landing"]) == set(HOUSE_RULES)
    assert parse_house_rules(None) == frozenset()
    for bad in (["no-such-rule"], "diamond-lock", [3], 5):
        with pytest.raises(ValueError, match="house"):
            parse_house_rules(bad)


def test_a_game_plays_by_its_house_rules():
    config = GameConfig(
        edition="parker-1950", players=("red", "blue"), house_rules=("diamond-lock",)
    )
    game = Game(config, ON_DIAMOND)
    assert game.edition.diamond_lock
    assert game.draw("5").moves == [] and game.phase == "draw"  # forfeited at once
    plain = Game(GameConfig(edition="parker-1950", players=("red", "blue")), ON_DIAMOND)
    assert plain.draw("5").moves


def test_an_unknown_house_rule_is_refused_by_a_game():
    with pytest.raises(GameError, match="unknown house rule 'sticky'"):
        Game(GameConfig(house_rules=("sticky",)))


def test_the_record_header_keeps_the_house_rules_and_replays_under_them():
    config = GameConfig(edition="parker-1939", house_rules=("strict-own-landing", "diamond-lock"))
    game = Game(config)
    game.draw("1")
    game.play(game.legal[0])
    started = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    text = write_record(GameRecord.from_game(game, started=started))
    header = json.loads(text.splitlines()[0])
    assert header["house_rules"] == ["diamond-lock", "strict-own-landing"]
    back = read_record(text)
    assert back.config.house_rules == ("diamond-lock", "strict-own-landing")
    assert replay_record(back).edition == with_house_rules(PARKER_1939, set(HOUSE_RULES))
    plain = write_record(GameRecord.from_game(Game(GameConfig()), started=started))
    assert "house_rules" not in json.loads(plain.splitlines()[0])


def test_a_record_with_an_unknown_house_rule_is_refused():
    started = datetime(2026, 1, 2, tzinfo=UTC)
    text = write_record(GameRecord.from_game(Game(GameConfig()), started=started))
    header = json.loads(text.splitlines()[0])
    header["house_rules"] = ["sticky"]
    with pytest.raises(RecordError, match="line 1: unknown house rule 'sticky'"):
        read_record(json.dumps(header) + "\n")


REQUEST = {
    "edition": "hasbro-2002",
    "pawns": {"red": ["T11", "T16", "start", "start"], "blue": ["start"] * 4},
    "player": "red",
    "card": "5",
}


def test_the_json_api_takes_house_rules():
    assert {m["text"] for m in json_api.moves(REQUEST)["moves"]} == {"T11-T16>T19", "T16-T21"}
    strict = dict(REQUEST, house_rules=["strict-own-landing"])
    assert [m["text"] for m in json_api.moves(strict)["moves"]] == ["T16-T21"]
    assert json_api.moves(dict(REQUEST, house_rules=[])) == json_api.moves(REQUEST)


@pytest.mark.parametrize("bad", [["no-such-rule"], "strict-own-landing", [1]])
def test_rules_moves_refuses_unknown_house_rules_with_exit_2(bad):
    answer = subprocess.run(
        [sys.executable, "-m", "pawnlight.cli", "rules", "moves"],
        input=json.dumps(dict(REQUEST, house_rules=bad)),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert answer.returncode == 2 and answer.stdout == ""
    assert len(answer.stderr.strip().splitlines()) == 1 and "house" in answer.stderr

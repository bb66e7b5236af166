"""The remote protocol's pure parts, without a broker: topics, messages, a turn checked with
this board's own rules, and turns arriving twice or out of order."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from pawnlight.remote.protocol import (
    DoublingEvent,
    Inbox,
    ProtocolError,
    Setup,
    Takeback,
    TurnEvent,
    TurnRefused,
    check_board_id,
    check_seats,
    check_turn,
    code_any,
    decode_doubling,
    decode_event,
    decode_presence,
    decode_setup,
    decode_takeback,
    event_topic,
    events_of,
    new_code,
    new_game_id,
    parse_topic,
    position_hash,
    presence_payload,
    presence_topic,
    takeback_topic,
)
from pawnlight.rules.game import Game, GameConfig
from pawnlight.rules.notation import move_text


def event_of(game: Game, seq: int, board: str = "board-a", gid: str = "g0001") -> TurnEvent:
    turn = game.history[seq]
    return TurnEvent(gid, seq, board, turn.colour, turn.card, turn.text, position_hash(turn.after))


def two_player_game() -> Game:
    game = Game(GameConfig(players=("red", "blue")))
    game.draw("1")
    game.play(game.legal[0])  # red out of START
    game.draw("4")  # blue cannot move: a forfeit
    return game


def test_topics_read_back():
    assert parse_topic(presence_topic("kitchen")).kind == "presence"
    topic = parse_topic(event_topic("board-b", "a1b2c3", 17))
    assert (topic.kind, topic.board, topic.game, topic.seq) == ("event", "board-b", "a1b2c3", 17)
    assert parse_topic("pawnlight/boards/board-b/codes/K7PQ3X").code == "K7PQ3X"
    assert events_of("a1b2c3") == "pawnlight/boards/+/games/a1b2c3/#"
    topic = parse_topic(takeback_topic("board-b", "a1b2c3", 4))
    assert (topic.kind, topic.board, topic.game, topic.seq) == ("takeback", "board-b", "a1b2c3", 4)
    assert code_any("K7PQ3X") == "pawnlight/boards/+/codes/K7PQ3X"
    for bad in ("pawnlight/boards", "other/boards/a/presence", "pawnlight/boards/a b/presence"):
        with pytest.raises(ProtocolError):
            parse_topic(bad)


def test_board_ids_codes_and_games():
    assert check_board_id("grandma-2") == "grandma-2"
    for bad in ("", "a/b", "a+b", "x" * 65, 7):
        with pytest.raises(ProtocolError):
            check_board_id(bad)
    assert len(new_code()) == 6 and not set(new_code()) & set("01IO")
    assert new_game_id() != new_game_id()


def test_an_event_round_trips_and_must_match_its_topic():
    game = two_player_game()
    event = event_of(game, 0)
    topic = parse_topic(event_topic("board-a", "g0001", 0))
    assert decode_event(event.encode(), topic) == event
    # Sent on another board's topic (the broker lets a board write only its own): refused.
    other = parse_topic(event_topic("board-b", "g0001", 0))
    with pytest.raises(ProtocolError, match="another board"):
        decode_event(event.encode(), other)
    for payload in (b"not json", b"[]", b'{"v": 2}', json.dumps({**event.to_json(), "seq": -1})):
        with pytest.raises(ProtocolError):
            decode_event(payload if isinstance(payload, bytes) else payload.encode(), topic)


def test_a_takeback_round_trips_and_must_match_its_topic():
    asked = Takeback("g0001", 4, "board-a", "ask")
    topic = parse_topic(takeback_topic("board-a", "g0001", 4))
    assert decode_takeback(asked.encode(), topic) == asked
    with pytest.raises(ProtocolError, match="another board"):
        decode_takeback(asked.encode(), parse_topic(takeback_topic("board-b", "g0001", 4)))
    bad = json.dumps({"v": 1, "game": "g0001", "seq": 4, "board": "board-a", "answer": "maybe"})
    with pytest.raises(ProtocolError, match="answer must be"):
        decode_takeback(bad.encode(), topic)


def test_a_doubling_round_trips_and_must_match_its_topic():
    answer = DoublingEvent("g0001", 1, 12, "board-b", 1, "accept")
    topic = parse_topic(answer.topic())
    assert answer.topic() == "pawnlight/boards/board-b/games/g0001/doubling/1/blue"
    assert (topic.kind, topic.board, topic.game, topic.seq, topic.colour) == (
        "doubling",
        "board-b",
        "g0001",
        1,
        1,
    )
    assert decode_doubling(answer.encode(), topic) == answer
    # Another board's topic, another round or another colour than the message names: refused.
    for wrong in (
        DoublingEvent("g0001", 1, 12, "board-a", 1, "accept"),
        DoublingEvent("g0001", 0, 12, "board-b", 1, "accept"),
        DoublingEvent("g0001", 1, 12, "board-b", 2, "accept"),
    ):
        with pytest.raises(ProtocolError, match="another board, game, double or colour"):
            decode_doubling(answer.encode(), parse_topic(wrong.topic()))
    data = json.loads(answer.encode())
    for bad, words in (
        ({**data, "action": "maybe"}, "action must be"),
        ({**data, "round": -1}, "round must be a whole number"),
        ({**data, "seq": True}, "seq must be a whole number"),
        ({**data, "colour": "pink"}, "no colour"),
    ):
        with pytest.raises(ProtocolError, match=words):
            decode_doubling(json.dumps(bad).encode(), topic)
    with pytest.raises(ProtocolError, match="not a pawnlight topic"):
        parse_topic("pawnlight/boards/board-b/games/g0001/doubling/1/pink")


def test_presence_and_setup_round_trip():
    assert decode_presence(presence_payload(True)) is True
    assert decode_presence(presence_payload(False)) is False
    setup = Setup("g0001", "board-a", "K7PQ3X", {"players": ["red", "blue"]}, {"red": "board-a"})
    assert decode_setup(setup.encode()) == setup
    assert setup.boards() == ["board-a"]
    with pytest.raises(ProtocolError):
        decode_setup(b'{"v": 1, "game": "G!", "code": "x"}')


def test_seats_name_every_playing_colour():
    assert check_seats({"red": "a", "blue": "b"}, ("red", "blue")) == {"red": "a", "blue": "b"}
    with pytest.raises(ProtocolError, match="blue not seated"):
        check_seats({"red": "a"}, ("red", "blue"))
    with pytest.raises(ProtocolError, match="green not playing"):
        check_seats({"red": "a", "blue": "b", "green": "c"}, ("red", "blue"))
    with pytest.raises(ProtocolError, match="no colour"):
        check_seats({"purple": "a"})
    with pytest.raises(ProtocolError):
        check_seats([])


def test_a_legal_turn_is_accepted_by_the_other_rules_core():
    played = two_player_game()
    fresh = Game(GameConfig(players=("red", "blue")))
    move = check_turn(fresh.rules, fresh.position, fresh.turn, event_of(played, 0))
    assert move is not None and move_text(move) == "R:start-T4"
    fresh.draw("1")
    fresh.play(move)
    # A forfeit (no move for blue's 4) is a turn too.
    assert check_turn(fresh.rules, fresh.position, fresh.turn, event_of(played, 1)) is None


def test_illegal_moves_and_mismatched_positions_are_refused():
    played = two_player_game()
    fresh = Game(GameConfig(players=("red", "blue")))
    good = event_of(played, 0)
    wrong_colour = TurnEvent("g0001", 0, "board-a", 1, "1", "B:start-T19", good.hash)
    with pytest.raises(TurnRefused, match="red's turn"):
        check_turn(fresh.rules, fresh.position, fresh.turn, wrong_colour)
    illegal = TurnEvent("g0001", 0, "board-a", 0, "1", "R:start-T9", good.hash)
    with pytest.raises(TurnRefused, match="not a legal move"):
        check_turn(fresh.rules, fresh.position, fresh.turn, illegal)
    forged = TurnEvent("g0001", 0, "board-a", 0, "1", "R:start-T4", "0" * 16)
    with pytest.raises(TurnRefused, match="out of step"):
        check_turn(fresh.rules, fresh.position, fresh.turn, forged)
    no_forfeit = TurnEvent("g0001", 0, "board-a", 0, "1", "forfeit", good.hash)
    with pytest.raises(TurnRefused, match="no forfeit"):
        check_turn(fresh.rules, fresh.position, fresh.turn, no_forfeit)
    with pytest.raises(TurnRefused):
        check_turn(fresh.rules, fresh.position, fresh.turn, replace(good, card="Q"))


def test_turns_out_of_order_and_twice():
    played = two_player_game()
    first, second = event_of(played, 0), event_of(played, 1)
    inbox = Inbox()
    assert inbox.offer(second, played=0) == "new"
    assert inbox.next(0) is None  # the first has not arrived: the second waits
    assert inbox.offer(second, played=0) == "duplicate"
    assert inbox.offer(first, played=0) == "new"
    assert inbox.next(0) == first
    inbox.take(0)
    assert inbox.next(1) == second
    assert inbox.offer(first, played=1) == "duplicate"  # played already
    other = TurnEvent("g0001", 1, "board-a", 1, "5", "forfeit", second.hash)
    assert inbox.offer(other, played=1) == "conflict"
    assert inbox.next(2) is None and not inbox.waiting


def test_a_message_past_the_strict_bounds_is_a_protocol_error_never_another():
    """Issue #44: a nesting 5,000 deep raised RecursionError, a topic's non-ASCII digit and a
    5,000-digit number ValueError, and each ended the board's MQTT thread."""
    game = "pawnlight/boards/board-b/games/g0001"
    for topic in (
        f"{game}/events/\u00b2",
        f"{game}/events/{'9' * 5000}",
        f"{game}/takeback/1\u0661",
    ):
        with pytest.raises(ProtocolError, match="not a pawnlight topic"):
            parse_topic(topic)
    turn = parse_topic(f"{game}/events/0")
    deep = b'{"v":1,"x":' + b"[" * 5000 + b"]" * 5000 + b"}"
    with pytest.raises(ProtocolError, match="nested too deeply"):
        decode_event(deep, turn)
    digits = b'{"v":1,"seq":' + b"9" * 5000 + b"}"
    with pytest.raises(ProtocolError):
        decode_event(digits, turn)
    with pytest.raises(ProtocolError, match="too large"):
        decode_event(b'{"v":1,"x":"' + b"a" * 70_000 + b'"}', turn)
    with pytest.raises(ProtocolError, match="appears twice"):
        decode_presence(b'{"v":1,"online":true,"online":false}')

"""The live game message (pawnlight.remote.live): the summary of a state, the wire form read
back strictly, and the throttle that sends the latest at most twice a second."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pawnlight.remote.live import (
    INTERVAL,
    Due,
    Throttle,
    board_of,
    decode,
    encode,
    live_topic,
    summary,
)
from pawnlight.remote.protocol import ProtocolError
from pawnlight.rules.game import Game, GameConfig


def playing_state(**changes: Any) -> dict[str, Any]:
    """A state as GET /api/state gives it mid-game (the keys the summary reads)."""
    game = Game(GameConfig(edition="hasbro-2002", players=("red", "blue")))
    game.draw("1")
    game.play(game.legal[0])
    pawns = game.position.to_json()
    state: dict[str, Any] = {
        "phase": "draw",
        "message": "Blue: draw a card and scan it",
        "edition": "hasbro-2002",
        "variant": "standard",
        "players": ["red", "blue"],
        "teams": False,
        "turn": "blue",
        "card": None,
        "pawns": pawns,
        "history": ["R:start-T4"],
        "scores": None,
        "result": None,
        "remote": None,
        "legal": [{"text": "x"}],
        "lit": {"T4": "turn"},
    }
    state.update(changes)
    return state


def test_topic_and_its_board() -> None:
    assert live_topic("kitchen") == "pawnlight/boards/kitchen/live"
    assert board_of("pawnlight/boards/kitchen/live") == "kitchen"
    for other in (
        "pawnlight/boards/kitchen/presence",
        "pawnlight/boards/kitchen/live/x",
        "pawnlight/boards/bad id/live",
        "other/boards/kitchen/live",
    ):
        assert board_of(other) is None


def test_summary_of_a_game_in_play() -> None:
    state = playing_state(remote={"game": "5f0c1d9a2e", "copy": None})
    game = summary(state)
    assert game is not None
    assert game["players"] == ["red", "blue"]
    assert (game["turn"], game["phase"], game["card"], game["turns"]) == ("blue", "draw", None, 1)
    assert game["pawns"] == state["pawns"]
    assert game["home"] == {"red": 0, "blue": 0}
    assert game["message"] == "Blue: draw a card and scan it"
    assert game["remote"] == "5f0c1d9a2e"
    assert "legal" not in game and "lit" not in game  # what only the board itself needs


def test_no_game_is_none_and_a_long_message_is_cut() -> None:
    assert summary({"phase": "idle", "players": [], "pawns": {}}) is None
    game = summary(playing_state(message="x" * 1000))
    assert game is not None and len(game["message"]) == 300


def test_a_finished_game_has_its_winners_and_scores() -> None:
    pawns = {"red": ["home"] * 4, "blue": ["start", "T3", "home", "S2"]}
    state = playing_state(
        phase="over",
        turn=None,
        pawns=pawns,
        result={"winners": ["red"]},
        scores={"red": 25, "blue": 5},
    )
    game = summary(state)
    assert game is not None
    assert game["winners"] == ["red"] and game["scores"] == {"red": 25, "blue": 5}
    assert game["home"] == {"red": 4, "blue": 1}


def test_encode_then_decode_gives_the_same_game() -> None:
    game = summary(playing_state())
    payload = encode("kitchen", game, 1_700_000_000.0)
    data = json.loads(payload)
    assert data["v"] == 1 and data["board"] == "kitchen"
    assert data["updated"] == "2023-11-14T22:13:20Z"
    live = decode(payload, "kitchen")
    assert live.game == game and live.updated == "2023-11-14T22:13:20Z"
    assert decode(encode("kitchen", None, 0.0), "kitchen").game is None


def _with(game_changes: dict[str, Any] | None = None, **top: Any) -> bytes:
    game = summary(playing_state())
    assert game is not None
    game.update(game_changes or {})
    data = {"v": 1, "board": "kitchen", "updated": "2024-01-01T00:00:00Z", "game": game}
    data.update(top)
    return json.dumps(data).encode()


@pytest.mark.parametrize(
    ("payload", "words"),
    [
        (b"not json", "not JSON"),
        (b"[1, 2]", "JSON object"),
        (_with(v=2), "protocol version 2"),
        (_with(board="grandma"), "another board"),
        (_with(board=None), "board id"),
        (_with(game=[1]), "game must be an object"),
        (_with({"edition": "monopoly"}), "no edition"),
        (_with({"players": ["red", "pink"]}), "colour names"),
        (_with({"players": []}), "has players"),
        (_with({"turn": "green"}), "one of the players"),
        (_with({"pawns": {"red": ["T99"] * 4}}), "unknown location"),
        (_with({"pawns": "everywhere"}), "pawns"),
        (_with({"turns": -1}), "whole number"),
        (_with({"scores": {"red": "lots"}}), "whole numbers"),
        (_with({"message": "x" * 301}), "message"),
        (_with({"card": 5}), "card"),
        (b" " * 20_000, "longer than"),
    ],
)
def test_a_bad_message_is_refused_in_words(payload: bytes, words: str) -> None:
    with pytest.raises(ProtocolError, match=words):
        decode(payload, "kitchen")


def test_throttle_sends_a_change_at_once_then_the_latest_after_the_interval() -> None:
    throttle = Throttle()
    assert throttle.take(0.0) is None and throttle.wait(0.0) is None  # nothing offered
    first = {"turn": "red"}
    throttle.offer(first)
    assert throttle.wait(0.0) == 0.0
    assert throttle.take(0.0) == Due(first)
    # Three changes within the interval: only the last goes, once the interval is over.
    for turn in ("blue", "yellow", "green"):
        throttle.offer({"turn": turn})
    assert throttle.take(0.1) is None
    assert throttle.wait(0.1) == pytest.approx(INTERVAL - 0.1)
    assert throttle.take(INTERVAL) == Due({"turn": "green"})
    assert throttle.take(10.0) is None  # sent: nothing more


def test_throttle_skips_what_was_sent_and_resends_after_a_reconnection() -> None:
    throttle = Throttle(interval=0.5)
    throttle.offer(None)  # no game is news too
    assert throttle.take(0.0) == Due(None)
    throttle.offer(None)
    assert throttle.wait(1.0) is None  # the same again: nothing to send
    throttle.offer({"turn": "red"})
    throttle.offer(None)  # changed back before it went out: nothing to send
    assert throttle.take(1.0) is None
    throttle.resend()
    assert throttle.take(1.0) == Due(None)


class FakeSubscription:
    def __init__(self) -> None:
        self.states: list[dict[str, Any]] = []

    def get(self, timeout: float) -> dict[str, Any] | None:
        return self.states.pop(0) if self.states else None

    def close(self) -> None:
        pass


def test_the_publisher_sends_the_latest_retained_when_connected_and_again_on_reconnection() -> None:
    from pawnlight.remote.link.live_publisher import LivePublisher

    now = [100.0]
    link = {"up": False}
    sent: list[tuple[str, dict[str, Any]]] = []
    publisher = LivePublisher(
        FakeSubscription,
        "kitchen",
        lambda topic, payload: sent.append((topic, json.loads(payload))),
        lambda: link["up"],
        clock=lambda: now[0],
        wall=lambda: 1_700_000_000.0,
    )
    assert not publisher.step(playing_state())  # the broker is away: nothing goes
    link["up"] = True
    assert publisher.step(None)  # connected: the latest goes at once
    assert sent[-1][0] == "pawnlight/boards/kitchen/live"
    assert sent[-1][1]["game"]["turn"] == "blue"
    assert not publisher.step(playing_state(turn="red"))  # within the interval: held
    now[0] += INTERVAL
    assert publisher.step(None) and sent[-1][1]["game"]["turn"] == "red"
    now[0] += 10
    assert not publisher.step(playing_state(turn="red"))  # no change: nothing
    link["up"] = False
    assert not publisher.step(None)
    link["up"] = True
    assert publisher.step(None)  # a new connection: the latest again
    assert sent[-1][1]["game"]["turn"] == "red" and len(sent) == 3
    now[0] += 10
    assert publisher.step({"phase": "idle", "players": []})
    assert sent[-1][1]["game"] is None  # the game ended: no game


def test_the_club_is_not_told_what_lights_up_at_the_board():
    """Issue #47, 7: a board copying a turn says "the move lights up here to copy"; the club's
    page says it of that board, where "here" is wrong."""
    said = "Red draws at board board-a: the move lights up here to copy"
    game = summary(playing_state(message=said))
    assert game is not None
    assert game["message"] == "Red draws at board board-a: the other boards copy the move"

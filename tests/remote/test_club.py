"""The club's model (pawnlight.remote.club_view): the latest of every board, malformed messages
ignored and counted, boards going offline marked, cleared boards gone."""

from __future__ import annotations

from pawnlight.remote.club_view import ClubModel
from pawnlight.remote.live import encode, live_topic, summary
from pawnlight.remote.protocol import presence_payload, presence_topic

from .test_live import playing_state


def live(board: str, **changes: object) -> bytes:
    return encode(board, summary(playing_state(**changes)), 1_700_000_000.0)


def test_boards_are_listed_by_id_with_their_games_and_presence() -> None:
    model = ClubModel()
    assert model.receive(live_topic("kitchen"), live("kitchen"))
    assert model.receive(presence_topic("kitchen"), presence_payload(True))
    assert model.receive(live_topic("attic"), encode("attic", None, 0.0))
    snapshot = model.snapshot()
    assert [b["board"] for b in snapshot["boards"]] == ["attic", "kitchen"]
    attic, kitchen = snapshot["boards"]
    assert attic["game"] is None and attic["online"] is None  # no presence heard
    assert kitchen["online"] is True and kitchen["game"]["turn"] == "blue"
    assert (snapshot["online"], snapshot["playing"]) == (1, 1)
    assert snapshot["messages"] == 3 and snapshot["ignored"] == 0


def test_the_latest_message_wins_and_only_a_change_counts() -> None:
    model = ClubModel()
    model.receive(live_topic("kitchen"), live("kitchen"))
    rev, version = model.board("kitchen").rev, model.version  # type: ignore[union-attr]
    assert not model.receive(live_topic("kitchen"), live("kitchen"))  # the same again
    assert model.version == version
    assert model.receive(live_topic("kitchen"), live("kitchen", turn="red", card="5"))
    board = model.board("kitchen")
    assert board is not None and board.game is not None
    assert (board.game["turn"], board.game["card"]) == ("red", "5")
    assert board.rev > rev and model.version > version


def test_a_board_going_offline_is_marked_and_keeps_its_game() -> None:
    model = ClubModel()
    model.receive(presence_topic("kitchen"), presence_payload(True))
    model.receive(live_topic("kitchen"), live("kitchen"))
    model.receive(presence_topic("kitchen"), presence_payload(False))  # its last will
    board = model.board("kitchen")
    assert board is not None and board.online is False and board.game is not None
    assert model.snapshot()["online"] == 0


def test_malformed_messages_are_ignored_and_counted() -> None:
    model = ClubModel()
    model.receive(live_topic("kitchen"), live("kitchen"))
    shown = model.snapshot()
    bad = [
        (live_topic("kitchen"), b"{nonsense"),
        (live_topic("kitchen"), live("grandma")),  # another board's name on kitchen's topic
        (presence_topic("kitchen"), b'{"v": 1, "online": "yes"}'),
        ("pawnlight/boards/kitchen/codes/ABCD", b"{}"),
        (live_topic("kitchen"), live("kitchen", pawns={"red": ["nowhere"]})),
    ]
    for topic, payload in bad:
        assert not model.receive(topic, payload)
    snapshot = model.snapshot()
    assert snapshot["ignored"] == len(bad) and snapshot["messages"] == len(bad) + 1
    assert "unknown location" in snapshot["problem"]
    assert snapshot["boards"] == shown["boards"]  # nothing shown changed


def test_a_board_whose_messages_are_cleared_is_gone() -> None:
    model = ClubModel()
    model.receive(live_topic("kitchen"), live("kitchen"))
    model.receive(presence_topic("kitchen"), presence_payload(True))
    model.receive(live_topic("kitchen"), b"")  # retained message cleared
    assert model.board("kitchen") is not None  # still present
    model.receive(presence_topic("kitchen"), b"")
    assert model.board("kitchen") is None and model.snapshot()["boards"] == []
    assert not model.receive(live_topic("nobody"), b"")  # never shown: nothing to clear


def test_boards_past_the_limit_are_ignored() -> None:
    model = ClubModel(max_boards=2)
    for name in ("a", "b", "c"):
        model.receive(live_topic(name), live(name))
    assert [b.board for b in model.boards()] == ["a", "b"]
    assert model.ignored == 1 and "more than 2 boards" in str(model.problem)


def test_the_subscribers_connection_is_shown() -> None:
    model = ClubModel()
    assert model.snapshot()["broker"]["connected"] is False
    version = model.version
    model.connection(True, "connected")
    assert model.snapshot()["broker"] == {"connected": True, "detail": "connected"}
    assert model.version == version + 1


def test_the_club_command_refuses_a_bad_broker_address_in_one_line(capsys) -> None:
    from pawnlight.cli import main

    assert main(["club", "--remote", "http://club.example.org"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("error: the remote broker must be mqtt://HOST:PORT")
    assert "Traceback" not in error and error.count("\n") == 1

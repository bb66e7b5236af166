"""A remote game on two companions wired by hand (no broker): each board's turns published,
copied on the other as a lit move, checked with its own rules; cards only at the seat's board;
a board offline pauses the game (issue #36, docs/remote.md)."""

from __future__ import annotations

import dataclasses

import pytest

from pawnlight.companion.service import CommandRefused
from pawnlight.companion.signals import (
    Buzz,
    ClearTurns,
    Pressed,
    PublishDoubling,
    PublishSeating,
    PublishSetup,
    PublishTakeback,
    PublishTurn,
    Remember,
    RemoteBoard,
    RemoteDoubling,
    RemoteResync,
    RemoteSeating,
    RemoteTakeback,
    RemoteTurn,
    StartRecord,
)
from pawnlight.companion.table import TakebackAsk
from pawnlight.remote.protocol import (
    DoublingEvent,
    Handed,
    ProtocolError,
    Seating,
    Setup,
    Takeback,
    TurnEvent,
    decode_seating,
    position_hash,
)
from pawnlight.rules import Position

from .bench import Bench

SETUP = Setup(
    "g0001",
    "board-a",
    "K7PQ3X",
    {"edition": "hasbro-2002", "players": ["red", "blue"]},
    {"red": "board-a", "blue": "board-b"},
)


def board(me: str, setup: Setup = SETUP) -> Bench:
    """A board of ``setup``'s remote game, every board of it online, the board set up."""
    bench = Bench()
    bench.command("remote_start", setup=setup.to_json(), me=me)
    for name in setup.boards():
        bench.effects += bench.companion.handle(RemoteBoard(name, True, bench.now))
    bench.show(bench.game.position)
    assert bench.companion.phase == "draw"
    return bench


def sent(bench: Bench) -> list[TurnEvent]:
    """The turns the board asked to publish since last asked."""
    events = [e.event for e in bench.effects if isinstance(e, PublishTurn)]
    bench.effects = [e for e in bench.effects if not isinstance(e, PublishTurn)]
    return events


def deliver(bench: Bench, events: list[TurnEvent] | list[DoublingEvent]) -> None:
    """Turns from the broker, as the link hands them over (a doubling is one too)."""
    for event in events:
        bench.now += 0.01
        if isinstance(event, DoublingEvent):
            bench.effects += bench.companion.handle(RemoteDoubling(event, bench.now))
        else:
            bench.effects += bench.companion.handle(RemoteTurn(event, bench.now))


def state(bench: Bench) -> dict:
    return bench.companion.state().to_json()


def test_a_turn_at_one_board_is_lit_as_a_copy_on_the_other_and_played_there_once_made():
    a, b = board("board-a"), board("board-b")
    assert state(a)["remote"] == {
        "game": "g0001",
        "host": "board-a",
        "me": "board-a",
        "boards": {
            "board-a": {"online": True, "seats": ["red"], "offline_for": 0.0},
            "board-b": {"online": True, "seats": ["blue"], "offline_for": 0.0},
        },
        "code": SETUP.code,
        "computer": [],
        "away_long": [],
        "adjourned": False,
        "grace": 120.0,
        "copy": None,
        "takeback": None,
    }
    a.scan("1")
    a.play(a.game.legal[0])  # red out of START, at board A
    events = sent(a)
    assert [(e.seq, e.move) for e in events] == [(0, "R:start-T4")]
    deliver(b, events)
    copy = state(b)["remote"]["copy"]
    assert copy["text"] == "R:start-T4"
    assert copy["pawns"] == a.game.position.to_json()
    assert state(b)["phase"] == "move" and "board-a" in state(b)["message"]
    # Only the copy is lit, as a computer seat's move is.
    assert "T4" in state(b)["lit"]
    # The next card waits until the board matches.
    b.scan("2")
    assert "no card is wanted now" in state(b)["warning"]
    b.play(b.game.legal[0])
    assert state(b)["remote"]["copy"] is None
    assert state(b)["warning"] is None  # issue #47, 2: it went with the copy
    assert state(b)["history"] == state(a)["history"] == ["R:start-T4"]
    assert sent(b) == []  # a copy is not published again
    # Blue's card at board B; board A copies it.
    b.scan("1")
    b.play(b.game.legal[0])
    deliver(a, sent(b))
    assert state(a)["remote"]["copy"]["text"] == "B:start-T19"
    a.play(a.game.legal[0])
    for key in ("edition", "players", "teams", "turn", "card", "pawns", "history"):
        assert state(a)[key] == state(b)[key], key


def test_a_card_is_scanned_only_where_its_colour_is_seated():
    a, b = board("board-a"), board("board-b")
    # Each board asks for the card only where it is scanned.
    assert state(a)["message"] == "Red: draw a card and scan it"
    assert state(b)["message"] == "Red draws at board board-a: the move lights up here to copy"
    b.scan("1")  # red's turn: red plays at board A
    assert state(b)["warning"] == (
        "a 1 was scanned, but it is red's turn, and red plays at board board-a: "
        "that card is scanned there, not here (this goes once the game moves on)"
    )
    assert b.game.history == () and b.game.card is None
    a.scan("4")  # red cannot move: a forfeit, published
    events = sent(a)
    assert [e.move for e in events] == ["forfeit"]
    deliver(b, events)
    assert state(b)["turn"] == "blue" and state(b)["history"] == state(a)["history"]


def test_turns_out_of_order_and_twice_wait_for_their_place():
    a, b = board("board-a"), board("board-b")
    a.scan("4")  # red forfeits
    first = sent(a)
    deliver(b, first)
    b.scan("4")  # blue forfeits too
    deliver(a, sent(b))
    a.scan("1")
    a.play(a.game.legal[0])
    second = sent(a)
    assert [e.seq for e in first + second] == [0, 2]
    late = board("board-b")
    # Turn 2 arrives first: it waits for turn 0 and for blue's own turn here.
    deliver(late, second + second)
    assert late.game.history == ()
    deliver(late, first + first)
    assert [t.text for t in late.game.history] == ["forfeit"]
    assert state(late)["remote"]["copy"] is None and state(late)["turn"] == "blue"
    late.scan("4")
    assert state(late)["remote"]["copy"]["text"] == "R:start-T4"
    late.play(late.game.legal[0])
    assert state(late)["history"] == state(a)["history"]
    deliver(late, first + second)  # played already: dropped
    assert state(late)["history"] == state(a)["history"] and state(late)["warning"] is None
    # A new connection to the broker: every turn played here is offered again.
    a.effects += a.companion.handle(RemoteResync(a.now))
    assert [e.seq for e in sent(a)] == [0, 2]


def test_an_illegal_or_mismatched_turn_is_refused():
    b = board("board-b")
    forged = TurnEvent("g0001", 0, "board-a", 0, "1", "R:start-T9", "0" * 16)
    deliver(b, [forged])
    assert "was refused" in state(b)["warning"]
    assert "not a legal move" in state(b)["warning"]
    assert b.game.history == () and state(b)["remote"]["copy"] is None
    a = board("board-a")
    a.scan("1")
    a.play(a.game.legal[0])
    (good,) = sent(a)
    mismatched = TurnEvent(good.game, 0, good.board, 0, "1", good.move, "f" * 16)
    deliver(b, [mismatched])
    assert "out of step" in state(b)["warning"]
    # A turn for red from the board where blue is seated: refused.
    wrong_board = TurnEvent(good.game, 0, "board-b", 0, "1", good.move, good.hash)
    deliver(a, [wrong_board])
    assert "red is seated at board board-a" in state(a)["warning"]
    # The good one is still taken.
    deliver(b, [good])
    assert state(b)["remote"]["copy"]["text"] == "R:start-T4"
    # Issue #47, 2: "out of step" was about the turn it came with: the game has moved on.
    assert state(b)["phase"] == "move" and state(b)["warning"] is None


def test_an_offline_board_pauses_the_game_everywhere():
    a, b = board("board-a"), board("board-b")
    a.effects += a.companion.handle(RemoteBoard("board-b", False, a.now))
    a.advance(0.01)
    assert state(a)["warning"] == "Blue's board is offline (the game is paused)"
    assert state(a)["remote"]["boards"]["board-b"]["online"] is False
    a.scan("1")
    assert "Blue's board is offline: the game waits for it" in state(a)["warning"]
    assert a.game.history == () and a.game.card is None
    a.effects += a.companion.handle(RemoteBoard("board-b", True, a.now))
    a.advance(0.01)
    assert state(a)["warning"] is None
    a.scan("1")
    assert a.game.card == "1"
    # This board's own link down: said so.
    b.effects += b.companion.handle(RemoteBoard("board-b", False, b.now))
    b.advance(0.01)
    assert state(b)["warning"].startswith("This board is not connected")


def asked(bench: Bench) -> list[Takeback]:
    """The takeback messages the board asked to publish since last asked."""
    found = [e.takeback for e in bench.effects if isinstance(e, PublishTakeback)]
    bench.effects = [e for e in bench.effects if not isinstance(e, PublishTakeback)]
    return found


def hear(bench: Bench, messages: list[Takeback]) -> None:
    for message in messages:
        bench.now += 0.01
        bench.effects += bench.companion.handle(RemoteTakeback(message, bench.now))


def two_turns_played() -> tuple[Bench, Bench]:
    a, b = board("board-a"), board("board-b")
    a.scan("1")
    a.play(a.game.legal[0])
    deliver(b, sent(a))
    b.play(b.game.legal[0])
    b.scan("1")
    b.play(b.game.legal[0])
    deliver(a, sent(b))
    a.play(a.game.legal[0])
    assert state(a)["history"] == state(b)["history"] == ["R:start-T4", "B:start-T19"]
    return a, b


def test_a_takeback_needs_every_board_and_then_undoes_it_on_each():
    a, b = two_turns_played()
    reply = a.command("undo")  # at A: asks, undoes nothing yet
    assert reply == {"ok": True, "asked": "blue's B:start-T19"}
    assert len(a.game.history) == 2
    assert state(a)["remote"]["takeback"] == {"seq": 1, "by": "board-a", "agreed": ["board-a"]}
    with pytest.raises(CommandRefused, match="already waiting"):
        a.command("undo")
    hear(b, asked(a))
    assert "Board board-a asks to take back blue's B:start-T19" in state(b)["warning"]
    with pytest.raises(CommandRefused, match="no other board asks"):
        a.command("remote_takeback", agree=True)  # the asking board does not answer itself
    b.command("remote_takeback", agree=True)
    cleared = [e for e in b.effects if isinstance(e, ClearTurns)]
    assert cleared == [ClearTurns("g0001", 1, 2)]  # B withdraws blue's turn from the broker
    hear(a, asked(b))
    a.advance(0.01)
    for bench in (a, b):
        assert [t.text for t in bench.game.history] == ["R:start-T4"]
        assert state(bench)["phase"] == "setup" and state(bench)["remote"]["takeback"] is None
    # Blue plays again at B once the board is put back.
    b.show(b.game.position)
    assert state(b)["phase"] == "draw" and state(b)["turn"] == "blue"


def test_a_refused_takeback_changes_nothing_and_a_board_put_back_is_not_a_takeback():
    a, b = two_turns_played()
    a.command("undo")
    hear(b, asked(a))
    b.command("remote_takeback", agree=False)
    hear(a, asked(b))
    assert "Board board-b refused" in state(a)["warning"]
    for bench in (a, b):
        assert len(bench.game.history) == 2 and state(bench)["remote"]["takeback"] is None
    # The board put back by hand is not taken back in a remote game.
    move = a.game.history[-1]
    a.show(move.before)
    a.advance(2.0)
    assert len(a.game.history) == 2
    with pytest.raises(CommandRefused, match="not possible in a remote game"):
        a.command("seat", colour="red", player="heuristic")


def test_a_remote_game_is_kept_and_restored_then_left_by_a_local_game():
    a = board("board-a")
    kept = [e.value for e in a.effects if isinstance(e, Remember) and e.name == "remote"]
    seating = {"v": 1, "game": SETUP.game, "host": "board-a", "handed": [], "adjourned": False}
    assert kept == [{"setup": SETUP.to_json(), "me": "board-a", "seating": seating}]
    again = Bench()
    again.companion.resume(a.game.__class__.replay(a.game.config, a.game.events))
    assert again.companion.restore_remote(kept[0]) == []
    assert state(again)["remote"]["game"] == "g0001"
    again.command("new_game", players=["red", "green"])
    assert state(again)["remote"] is None
    assert [e.value for e in again.effects if isinstance(e, Remember) and e.name == "remote"] == [
        None
    ]


def test_a_remote_game_that_cannot_be_played_is_refused_in_words():
    bench = Bench()
    bad = {**SETUP.to_json(), "seats": {"red": "board-a"}}
    with pytest.raises(CommandRefused, match="blue not seated"):
        bench.command("remote_start", setup=bad, me="board-a")
    with pytest.raises(CommandRefused, match="no seat in that game"):
        bench.command("remote_start", setup=SETUP.to_json(), me="board-c")
    computer = {**SETUP.to_json(), "config": {"players": ["red", "blue"], "computer": {}}}
    computer["config"]["computer"] = {"blue": "heuristic"}  # blue sits at board-b
    with pytest.raises(CommandRefused, match="the computer plays blue at the host's board"):
        bench.command("remote_start", setup=computer, me="board-a")
    leader = {**SETUP.to_json(), "config": {"players": ["red", "blue"], "draw_leader": True}}
    with pytest.raises(CommandRefused, match="no leader draw"):
        bench.command("remote_start", setup=leader, me="board-a")
    assert Position.from_json(state(bench)["pawns"] or {"red": ["start"] * 4}) is not None


def test_the_host_may_hand_an_away_boards_seat_only_after_the_grace():
    """The grace is counted on the companion's clock from the board's going offline."""
    a, b = board("board-a"), board("board-b")
    a.companion.offline_grace = 60.0
    a.effects += a.companion.handle(RemoteBoard("board-b", False, a.now))
    a.advance(59.0)
    assert state(a)["remote"]["away_long"] == []
    with pytest.raises(CommandRefused, match="offline only 59 s: wait 60 s"):
        a.command("remote_seat", colour="blue", computer=True)
    with pytest.raises(CommandRefused, match="only the host"):
        b.command("remote_seat", colour="red", computer=True)
    a.advance(1.5)
    assert state(a)["remote"]["away_long"] == ["board-b"]
    assert "may let the computer play its colours" in state(a)["warning"]
    a.command("remote_seat", colour="blue", computer=True)
    assert a.companion.computer.keys() == {1}  # the host's computer plays blue
    assert state(a)["remote"]["boards"]["board-a"]["seats"] == ["red", "blue"]
    assert state(a)["warning"] is None  # the away board holds no seat: play goes on
    published = [e.seating for e in a.effects if isinstance(e, PublishSeating)]
    assert published[-1].handed == (Handed(0, 1, "board-a", True),)
    # B, back, hears the seating: blue is the host's from turn 0 on; it takes the host's blue.
    b.effects += b.companion.handle(RemoteSeating(published[-1], b.now))
    b.advance(0.01)
    assert state(b)["remote"]["computer"] == ["blue"]
    assert state(b)["remote"]["boards"]["board-b"]["seats"] == []
    with pytest.raises(CommandRefused, match="board board-b is offline"):
        a.command("remote_seat", colour="blue", computer=False)
    a.effects += a.companion.handle(RemoteBoard("board-b", True, a.now))
    a.command("remote_seat", colour="blue", computer=False)
    assert a.companion.computer == {}
    assert state(a)["remote"]["boards"]["board-b"]["seats"] == ["blue"]


def test_a_seating_that_is_not_the_hosts_is_ignored_and_a_bad_one_is_refused_in_words():
    b = board("board-b")
    forged = Seating(SETUP.game, "board-b", (Handed(0, 0, "board-b", True),))
    b.effects += b.companion.handle(RemoteSeating(forged, b.now))
    assert state(b)["remote"]["boards"]["board-a"]["seats"] == ["red"]
    with pytest.raises(ProtocolError, match="in turn order"):
        decode_seating(
            {
                "v": 1,
                "game": SETUP.game,
                "host": "board-a",
                "handed": [
                    {"from": 3, "colour": "blue", "board": "board-a", "computer": True},
                    {"from": 1, "colour": "blue", "board": "board-b", "computer": False},
                ],
            }
        )
    with pytest.raises(ProtocolError, match="colour and computer"):
        decode_seating({"v": 1, "game": SETUP.game, "host": "board-a", "handed": [{"from": 0}]})


# -- point play's doubling across boards ----------------------------------------------------------

POINTS = Setup(
    "g0002",
    "board-a",
    "K7PQ3Y",
    {"edition": "parker-1950", "players": ["red", "blue", "green"], "variant": "points"},
    {"red": "board-a", "blue": "board-b", "green": "board-c"},
)


def points_board(me: str) -> Bench:
    return board(me, POINTS)


def doublings_sent(bench: Bench) -> list[DoublingEvent]:
    events = [e.doubling for e in bench.effects if isinstance(e, PublishDoubling)]
    bench.effects = [e for e in bench.effects if not isinstance(e, PublishDoubling)]
    return events


def test_a_double_and_its_answers_reach_every_board_in_any_order():
    a, b, c = points_board("board-a"), points_board("board-b"), points_board("board-c")
    a.command("double", colour="red")  # red's turn, red seated at board-a
    called = doublings_sent(a)
    assert [(e.round, e.seq, e.colour, e.action) for e in called] == [(0, 0, 0, "double")]
    deliver(b, called)
    assert state(b)["phase"] == "double" and state(b)["waiting_for"] == ["blue", "green"]
    b.command("drop", colour="blue")
    dropped = doublings_sent(b)
    assert [(e.colour, e.action) for e in dropped] == [(1, "drop")]
    # Board C hears blue's answer before the double it answers: held until the double comes.
    deliver(c, dropped)
    assert state(c)["phase"] == "draw" and c.game.doubled == 0
    deliver(c, called)
    assert state(c)["phase"] == "double" and state(c)["waiting_for"] == ["green"]
    c.command("accept", colour="green")
    accepted = doublings_sent(c)
    for bench in (a, b):
        deliver(bench, [*dropped, *accepted])
    for bench in (a, b, c):
        assert bench.game.doubled == 1 and bench.game.active_players == (0, 3)
        assert state(bench)["phase"] == "draw" and state(bench)["turn"] == "red"
        assert doublings_sent(bench) == []  # the others' answers are not published again
    for key in ("turn", "phase", "doubled", "waiting_for", "history"):
        assert state(a)[key] == state(b)[key] == state(c)[key], key


def test_doubling_at_several_boards_is_said_at_the_colours_own_board_and_turn():
    a, b = points_board("board-a"), points_board("board-b")
    with pytest.raises(CommandRefused, match="blue plays at board board-b"):
        a.command("double", colour="blue")
    with pytest.raises(CommandRefused, match="at its own turn, before its card"):
        b.command("double", colour="blue")  # red's turn
    a.scan("1")
    with pytest.raises(CommandRefused, match="at its own turn, before its card"):
        a.command("double", colour="red")  # the card is played already


def test_a_forged_or_conflicting_doubling_is_refused_in_words():
    a, b = points_board("board-a"), points_board("board-b")
    forged = DoublingEvent(POINTS.game, 0, 0, "board-b", 0, "double")  # red sits at board-a
    deliver(a, [forged])
    assert "is seated at board-a" in state(a)["warning"] and a.game.doubled == 0
    assert state(a)["phase"] == "draw"
    a.command("double", colour="red")
    deliver(b, doublings_sent(a))
    deliver(a, [DoublingEvent(POINTS.game, 0, 0, "board-b", 1, "accept")])
    deliver(a, [DoublingEvent(POINTS.game, 0, 0, "board-b", 1, "drop")])
    assert (
        "board-b says blue chose drop on double 1, but here blue chose accept"
        in (state(a)["warning"])
    )


def test_a_takeback_does_not_undo_a_double():
    a, b = points_board("board-a"), points_board("board-b")
    a.scan("1")
    a.play(a.game.legal[0])
    deliver(b, sent(a))
    b.play(b.game.legal[0])
    b.command("double", colour="blue")
    deliver(a, doublings_sent(b))
    with pytest.raises(CommandRefused, match="a double was called since"):
        a.command("undo")


# -- computer seats chosen when the game starts ------------------------------------------------

WITH_COMPUTER = Setup(
    "g0003",
    "board-a",
    "K7PQ3Z",
    {"players": ["red", "blue", "yellow"], "computer": {"yellow": "strong"}},
    {"red": "board-a", "blue": "board-b", "yellow": "board-a"},
)


def test_the_hosts_computer_plays_a_colour_chosen_at_the_start():
    a, b = Bench(), Bench()
    a.command("remote_start", setup=WITH_COMPUTER.to_json(), me="board-a")
    b.command("remote_start", setup=WITH_COMPUTER.to_json(), me="board-b")
    for bench in (a, b):
        for name in ("board-a", "board-b"):
            bench.effects += bench.companion.handle(RemoteBoard(name, True, bench.now))
        bench.show(bench.game.position)
    # Only the host plays it, with the player chosen; every board counts it as the computer's.
    assert {c: spec for c, (spec, _) in a.companion.computer.items()} == {2: "hard"}
    assert b.companion.computer == {}
    assert state(a)["remote"]["computer"] == state(b)["remote"]["computer"] == ["yellow"]
    bad = {**WITH_COMPUTER.to_json(), "seats": {**WITH_COMPUTER.seats, "yellow": "board-b"}}
    with pytest.raises(CommandRefused, match="the computer plays yellow at the host's board"):
        Bench().command("remote_start", setup=bad, me="board-a")


def test_a_turn_begun_at_a_board_whose_colour_the_host_took_meanwhile_is_put_back():
    """The "fork" of a hung board (docs/remote.md): blue's card was drawn at board B, B hung,
    and the host's computer took blue and played that turn. B, back, hears the seating: its
    half-played turn is put back, and the host's turn is copied instead."""
    a, b = board("board-a"), board("board-b")
    a.scan("1")
    a.play(a.game.legal[0])
    deliver(b, sent(a))
    b.play(b.game.legal[0])  # red's turn copied at B; blue's turn now
    b.scan("2")
    assert state(b)["phase"] == "move" and state(b)["card"] == "2"
    # Meanwhile at the host: B away past the grace, blue handed to the host's computer, played.
    a.companion.offline_grace = 0.0
    a.effects += a.companion.handle(RemoteBoard("board-b", False, a.now))
    a.advance(1.0)
    a.command("remote_seat", colour="blue", computer=True)
    seating = [e.seating for e in a.effects if isinstance(e, PublishSeating)][-1]
    a.scan("1")
    a.play(a.game.legal[0])
    hosts_turn = sent(a)
    assert [(e.seq, e.board, e.card) for e in hosts_turn] == [(1, "board-a", "1")]
    b.effects += b.companion.handle(RemoteSeating(seating, b.now))
    said = state(b)
    assert said["card"] is None and len(said["history"]) == 1
    assert (
        "Blue is played at board board-a now (this board was away): a 2 drawn here goes back"
        in (said["warning"])
    )
    b.show(b.game.position)
    deliver(b, hosts_turn)
    assert state(b)["remote"]["copy"]["text"] == hosts_turn[0].move
    b.play(b.game.legal[0])
    assert state(b)["history"] == state(a)["history"]


def test_a_takeback_is_answered_with_the_boards_own_buttons():
    """No phone at hand: Confirm agrees, Undo refuses (the question says so)."""
    a, b = two_turns_played()
    a.command("undo")
    hear(b, asked(a))
    assert "Confirm on the board (or Agree on the page) agrees" in state(b)["warning"]
    b.effects += b.companion.handle(Pressed("confirm", b.now))
    hear(a, asked(b))
    a.advance(0.01)
    assert [t.text for t in a.game.history] == [t.text for t in b.game.history] == ["R:start-T4"]
    b.show(b.game.position)
    a.show(a.game.position)
    b.scan("1")
    b.play(b.game.legal[0])
    deliver(a, sent(b))
    a.play(a.game.legal[0])
    b.command("undo")
    hear(a, asked(b))
    a.effects += a.companion.handle(Pressed("undo", a.now))
    hear(b, asked(a))
    assert "Board board-a refused" in state(b)["warning"]
    assert len(a.game.history) == len(b.game.history) == 2  # nothing taken back, no undo at A


def test_a_board_that_lost_its_journal_joins_again_and_copies_its_own_turns_back():
    """Every turn is retained on the broker, this board's own too: a board whose journal is gone
    joins again and is given back the whole game, its own colours' turns lit as copies."""
    a, b = two_turns_played()  # red at A, blue at B
    for bench in (a, b):  # what the broker retains: each board's own turns
        bench.effects += bench.companion.handle(RemoteResync(bench.now))
    everything = sorted([*sent(a), *sent(b)], key=lambda e: e.seq)
    assert [e.board for e in everything] == ["board-a", "board-b"]
    fresh = board("board-b")  # the same board, its journal lost, the game joined again
    deliver(fresh, everything)
    assert state(fresh)["remote"]["copy"]["text"] == "R:start-T4"
    fresh.play(fresh.game.legal[0])
    copy = state(fresh)["remote"]["copy"]
    assert copy is not None and copy["text"] == "B:start-T19"  # its own blue, given back
    assert "board-b" in state(fresh)["message"]
    fresh.play(fresh.game.legal[0])
    assert state(fresh)["history"] == state(b)["history"] and state(fresh)["remote"]["copy"] is None
    # Blue's turn is this board's own: published again, the very message the broker holds
    # (the other boards drop it as a duplicate).
    assert sent(fresh) == [everything[1]]


# -- issue #44: hostile messages, the grace after a restart, a game joined again ---------------


def test_a_turn_forged_with_the_hosts_credentials_for_a_guests_colour_is_refused():
    """The host may play a colour only as its seating says: a turn for blue (seated at B) on the
    host's own topic was lit and journalled at the host while B played its real turn."""
    a, b = board("board-a"), board("board-b")
    a.scan("1")
    a.play(a.game.legal[0])
    deliver(b, sent(a))
    b.play(b.game.legal[0])
    b.scan("2")
    b.play(b.game.legal[0])  # blue's real 2 at board B
    (real,) = sent(b)
    forged = TurnEvent(real.game, real.seq, "board-a", real.colour, "1", real.move, real.hash)
    words = "a turn from board board-a for blue (a 1, turn 2) was refused: blue is seated at board"
    # At the host (its own topic) and at B (the host's topic): refused in words, once.
    deliver(a, [forged])
    assert words in state(a)["warning"] and state(a)["remote"]["copy"] is None
    deliver(b, [forged])
    assert words in state(b)["warning"]
    b.effects.clear()
    deliver(b, [forged])  # the retained forgery again (a reconnection): not said again
    assert not [e for e in b.effects if isinstance(e, Buzz)]
    deliver(a, [real])
    assert state(a)["remote"]["copy"]["text"] == real.move
    a.play(a.game.legal[0])
    assert [t.card for t in a.game.history] == [t.card for t in b.game.history] == ["1", "2"]


def test_a_turn_of_the_hosts_computer_waits_for_the_seating_that_hands_it_the_colour():
    """The host's turn for a colour handed to its computer may arrive before the seating."""
    a, b = board("board-a"), board("board-b")
    a.scan("1")
    a.play(a.game.legal[0])
    deliver(b, sent(a))
    b.play(b.game.legal[0])
    handed = Seating(SETUP.game, "board-a", (Handed(1, 1, "board-a", True),))
    after = b.game.rules.options(b.game.position, 1, "2").moves[0].after
    blue = TurnEvent(SETUP.game, 1, "board-a", 1, "2", "B:start-T19", position_hash(after))
    deliver(b, [blue])
    assert state(b)["remote"]["copy"] is None and "refused" not in (state(b)["warning"] or "")
    b.effects += b.companion.handle(RemoteSeating(handed, b.now))
    b.advance(0.01)
    assert state(b)["remote"]["copy"]["text"] == "B:start-T19"


def test_after_a_restart_the_grace_counts_from_the_daemons_start_not_the_machines_boot():
    """The companion's clock is the machine's monotonic clock (its uptime): a game restored at
    start counted a board offline since 0, so the grace had passed at once."""
    a = board("board-a")
    kept = [e.value for e in a.effects if isinstance(e, Remember) and e.name == "remote"][-1]
    again = Bench()
    again.now = 86_400.0  # a day since boot
    again.companion.offline_grace = 120.0
    again.companion.resume(a.game.__class__.replay(a.game.config, a.game.events))
    again.effects += again.companion.restore_remote(kept)
    again.show(a.game.position)
    again.effects += again.companion.handle(RemoteBoard("board-a", True, again.now))
    again.advance(1.0)
    assert state(again)["remote"]["boards"]["board-b"]["offline_for"] < 5
    for command, args in (
        ("remote_seat", {"colour": "blue", "computer": True}),
        ("remote_adjourn", {}),
    ):
        with pytest.raises(CommandRefused, match="offline only"):
            again.command(command, **args)
    again.advance(121.0)
    assert state(again)["remote"]["away_long"] == ["board-b"]
    again.command("remote_adjourn")


def test_joining_the_game_this_board_plays_keeps_it():
    """``remote_start`` with the game this board is in (its own join code again) abandoned it
    and began an empty copy: the journal held the game twice."""
    _, b = two_turns_played()
    b.effects.clear()
    reply = b.command("remote_start", setup=SETUP.to_json(), me="board-b")
    assert reply["kept"] is True and reply["game"] == SETUP.game
    assert state(b)["history"] == ["R:start-T4", "B:start-T19"]
    assert not [e for e in b.effects if isinstance(e, StartRecord | Remember)]  # no new game


def test_every_board_gives_the_setup_back_to_a_broker_on_each_connection():
    """A broker that lost its store lost the join code for good: each board publishes the setup
    under its own name when a game starts there and on every new connection; the host its
    seating too."""
    a, b = board("board-a"), board("board-b")
    for bench in (a, b):
        assert [e.setup for e in bench.effects if isinstance(e, PublishSetup)] == [SETUP]
        bench.effects.clear()
        bench.effects += bench.companion.handle(RemoteResync(bench.now))
        assert [e.setup for e in bench.effects if isinstance(e, PublishSetup)] == [SETUP]
    assert [e.seating.host for e in a.effects if isinstance(e, PublishSeating)] == ["board-a"]
    assert not [e for e in b.effects if isinstance(e, PublishSeating)]


def test_a_takeback_asked_is_a_value_each_agreement_a_new_one():
    """companion.table.TakebackAsk: frozen; agreeing makes a new value, the old one unchanged."""
    asked = TakebackAsk.asked(3, "board-a")
    assert asked.agreed == {"board-a"}
    both = asked.agreed_by("board-b")
    assert asked.agreed == {"board-a"} and both.agreed == {"board-a", "board-b"}
    assert (both.seq, both.by) == (3, "board-a")
    assert both.everyone(["board-a", "board-b"]) and not asked.everyone(["board-a", "board-b"])
    with pytest.raises(dataclasses.FrozenInstanceError):
        asked.seq = 4  # type: ignore[misc]

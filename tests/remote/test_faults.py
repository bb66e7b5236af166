"""Remote play when things go wrong: a board killed mid-move and started again, the broker
restarted, turns delivered twice or forged, a board whose position differs (issue #36).  Two
real daemons, one real Mosquitto; nothing confirmed is lost on either board."""

from __future__ import annotations

import json
import time

import pytest

from pawnlight.remote.protocol import TurnEvent, event_topic, position_hash
from pawnlight.rules.game import Game, GameConfig
from pawnlight.rules.notation import move_text

from .boards import BoardProcess, all_online, shared
from .broker import password_of
from .test_broker import connected, publish
from .test_two_boards import journal_history, start_game

RED_AT_A = {"red": "board-a", "blue": "board-b"}


def settled_alike(a: BoardProcess, b: BoardProcess) -> None:
    """Both boards show the same game, nothing left to copy."""
    a.wait(lambda s: s["remote"]["copy"] is None)
    state = b.wait(lambda s: shared(s) == shared(a.state()) and s["remote"]["copy"] is None)
    assert shared(state) == shared(a.state())


def journals_agree(*boards: BoardProcess) -> None:
    for daemon in boards:
        state = daemon.state()
        assert journal_history(daemon, state["game_id"]) == state["history"]


def retained_event(broker, board: str, game: str, seq: int) -> bytes:
    """A turn as the broker keeps it (retained), read as the dashboard reads."""
    got: list[bytes] = []
    reader = connected(broker, "dashboard")
    reader.on_message = lambda c, u, message: got.append(bytes(message.payload))
    reader.subscribe(event_topic(board, game, seq), qos=1)
    deadline = time.monotonic() + 5
    while not got and time.monotonic() < deadline:
        time.sleep(0.02)
    reader.loop_stop()
    assert got, f"no retained turn {seq} from {board}"
    return got[0]


@pytest.mark.slow
@pytest.mark.parametrize("killed", ["board-b", "board-a"], ids=["guest", "host"])
def test_a_board_killed_while_copying_a_move_resumes_and_the_game_goes_on(boards, killed):
    """Either board, the host (whose journal is the game's record) or a guest, loses its power
    half-way through copying the other's move."""
    a, b = boards["board-a"], boards["board-b"]
    table = start_game(boards, {"players": ["red", "blue"]}, RED_AT_A, seed=3)
    for _ in range(4):
        table.play_turn()
    # Turns go on until the other board's colour has a move for the board to kill to copy.
    while True:
        state = a.state()
        turns = len(state["history"])
        player = table.seat_of(state)
        copier = b if player is a else a
        player.request("POST", "/api/sim/scan", {"card": table.deck.draw()})
        state = player.wait(lambda s, n=turns: s["phase"] == "move" or len(s["history"]) > n)
        if state["phase"] == "move":
            table.move(player, table.choose(state, state["card"]), turns)
            table.mirror_turn(player.state()["turns"][turns])
            if copier is boards[killed]:
                lit = copier.wait(lambda s: s["remote"]["copy"] is not None)
                break
            table.copy(copier, turns)
            continue
        table.mirror_turn(player.state()["turns"][turns])
        for daemon in boards.values():
            if daemon is not player:
                table.copy(daemon, turns)
    # The copier starts the move (one pawn lifted), then the power goes.
    copy = lit["remote"]["copy"]
    before = lit["pawns"]
    colour, place = next(
        (colour, place)
        for colour, places in before.items()
        for place in places
        if places.count(place) > copy["pawns"][colour].count(place)
    )
    copier.touch("lift", place if place.startswith("T") else f"{place}:{colour}")
    copier.kill()
    # The other board says so, and waits.
    player.wait(lambda s: not all_online(s))
    state = player.state()
    assert "board is offline (the game is paused)" in state["warning"]
    copier.start()
    resumed = copier.wait(lambda s: s["remote"] is not None and all_online(s))
    assert resumed["history"] == lit["history"] and resumed["card"] == lit["card"]
    # The board is put back as it was (the guidance asks for it), then the copy is lit again.
    copier.request("POST", "/api/sim/board", {"pawns": resumed["pawns"]})
    copier.wait(lambda s: s["remote"]["copy"] is not None)
    table.move(copier, copier.state()["remote"]["copy"], len(lit["history"]))
    player.wait(lambda s: all_online(s) and s["warning"] is None)
    settled_alike(a, b)
    for _ in range(3):
        table.play_turn()
    settled_alike(a, b)
    journals_agree(a, b)


@pytest.mark.slow
def test_the_broker_restarted_mid_game(boards, broker):
    a, b = boards["board-a"], boards["board-b"]
    table = start_game(boards, {"players": ["red", "blue"]}, RED_AT_A, seed=5)
    for _ in range(3):
        table.play_turn()
    broker.stop()
    for daemon in (a, b):
        # Each board comes to say its own link is down; on a busy machine it may first see the
        # other board fall silent ("Blue's board is offline"), which is true as well.
        state = daemon.wait(
            lambda s: (
                not all_online(s) and (s["warning"] or "").startswith("This board is not connected")
            )
        )
        assert not all_online(state)
    broker.start()
    for daemon in (a, b):
        daemon.wait(lambda s: all_online(s) and s["warning"] is None)
    for _ in range(4):
        table.play_turn()
    settled_alike(a, b)
    journals_agree(a, b)


@pytest.mark.slow
def test_duplicates_forgeries_and_a_differing_position_are_refused(boards, broker):
    a, b = boards["board-a"], boards["board-b"]
    table = start_game(boards, {"players": ["red", "blue"]}, RED_AT_A, seed=7)
    for _ in range(3):
        table.play_turn()
    settled_alike(a, b)
    game = a.state()["remote"]["game"]
    history = b.state()["history"]
    # A turn delivered again (the broker's at-least-once delivery): dropped without a word.
    first = retained_event(broker, "board-a", game, 0)
    as_a = connected(broker, "board-a")
    publish(as_a, event_topic("board-a", game, 0), first)
    # A forged turn: board-b's credentials writing board-a's topic. The broker's ACL drops it.
    as_b = connected(broker, "board-b")
    forged = json.loads(first)
    forged.update(seq=len(history), move="forfeit")
    publish(as_b, event_topic("board-a", game, len(history)), json.dumps(forged).encode())
    # A turn for red sent from board-b's own topic: red is seated at board-a, refused by A.
    forged.update(board="board-b")
    publish(as_b, event_topic("board-b", game, len(history)), json.dumps(forged).encode())
    state = a.wait(lambda s: s["warning"] is not None)
    assert "red is seated at board board-a" in state["warning"]
    assert b.state()["history"] == history
    # A board whose position differs: a turn whose position hash is not what this board's
    # rules make of it (the next turn is blue's, at board-b).
    mirror = table.mirror
    options = mirror.rules.options(mirror.position, mirror.turn, "4")
    legal = move_text(options.moves[0]) if options.moves else "forfeit"
    turn = a.state()["turn"]
    turn_board = RED_AT_A[turn]
    sender, receiver = (as_b, a) if turn_board == "board-b" else (as_a, b)
    differing = json.loads(first)
    differing.update(
        seq=len(history), board=turn_board, colour=turn, card="4", move=legal, hash="0" * 16
    )
    publish(sender, event_topic(turn_board, game, len(history)), json.dumps(differing).encode())
    refused = receiver.wait(lambda s: "out of step" in (s["warning"] or ""))
    assert refused["history"] == history and refused["remote"]["copy"] is None
    for client in (as_a, as_b):
        client.loop_stop()
    journals_agree(a, b)


def test_a_board_with_the_wrong_password_cannot_join(tmp_path, broker):
    assert password_of("board-c") != "guessed"
    daemon = BoardProcess(tmp_path / "board-c", broker, "board-c", password="guessed")
    daemon.data.mkdir()
    daemon.start()
    try:
        with pytest.raises(AssertionError, match=r"503.*not connected to the remote broker"):
            daemon.request("POST", "/api/remote/join", {"code": "ABCDEF"}, pin=True)
        assert "refused this board" in (daemon.data / "daemon.log").read_text()
    finally:
        daemon.stop()


@pytest.mark.slow
def test_turns_delivered_out_of_order_are_played_in_order(boards, broker):
    """Two turns of the colours at board-a (red, then blue) reach board-b in reverse order,
    through the broker: board-b waits for the first, then copies both in turn."""
    b = boards["board-b"]
    seats = {"red": "board-a", "blue": "board-a", "yellow": "board-b"}  # play goes clockwise
    start_game(boards, {"players": ["red", "blue", "yellow"]}, seats)
    game_id = b.state()["remote"]["game"]
    mirror = Game(GameConfig(players=("red", "blue", "yellow")))
    events = []
    for seq, card in enumerate(("1", "1")):
        mirror.draw(card)
        move = mirror.legal[0]
        mirror.play(move)
        turn = mirror.history[-1]
        events.append(
            TurnEvent(
                game_id, seq, "board-a", turn.colour, card, turn.text, position_hash(turn.after)
            )
        )
    # Sent with board-a's credentials and retained (as board-a's link does: a subscription
    # that lands late still gets them), the later turn first.
    as_a = connected(broker, "board-a")
    for event in reversed(events):
        publish(as_a, event_topic("board-a", game_id, event.seq), event.encode(), retain=True)
    as_a.loop_stop()
    for event in events:
        state = b.wait(lambda s, e=event: (s["remote"]["copy"] or {}).get("text") == e.move)
        assert len(state["history"]) == event.seq
        b.request("POST", "/api/sim/board", {"pawns": state["remote"]["copy"]["pawns"]})
        b.wait(lambda s, e=event: len(s["history"]) == e.seq + 1)
    assert b.state()["history"] == [event.move for event in events]
    assert b.state()["turn"] == "yellow" and b.state()["warning"] is None

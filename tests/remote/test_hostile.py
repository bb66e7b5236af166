"""Two real daemons on a real Mosquitto without a store, and everything a badly behaved user of
the broker can do to them (issue #44): a poisoned message, a turn forged with the host's own
credentials, a retained flood, the broker SIGKILLed and started again empty, the game joined
again with its own code, a second board under a board's id.  The game goes on, and the two
journals are equal turn by turn."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pawnlight.remote.protocol import TurnEvent, event_topic, position_hash
from pawnlight.rules.board import COLOURS
from pawnlight.rules.notation import move_text
from pawnlight.store.journal import Journal

from .boards import BoardProcess, all_online, running_boards
from .broker import Broker, missing
from .conftest import BOARDS
from .test_broker import client, connected, publish
from .test_faults import RED_AT_A, journals_agree, settled_alike
from .test_hostile_link import DEEP
from .test_two_boards import start_game

FLOOD = 20_000


@pytest.fixture
def bare_broker(tmp_path: Path) -> Iterator[Broker]:
    """Mosquitto as the issue's probe ran it: no persistence (a restart loses every message)."""
    reason = missing()
    if reason is not None:
        pytest.skip(reason)
    broker = Broker(tmp_path / "broker", BOARDS, persistence=False)
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()


def flood(broker: Broker, game: str) -> None:
    """20,000 retained messages from board-b's user under the game's topics."""
    as_b = client(broker, "board-b")
    as_b.max_inflight_messages_set(1000)
    as_b.connect(broker.host, broker.port)
    as_b.loop_start()
    try:
        infos = [
            as_b.publish(f"pawnlight/boards/board-b/games/{game}/events/{1000 + n}", b"x", 1, True)
            for n in range(FLOOD)
        ]
        infos[-1].wait_for_publish(timeout=120)
    finally:
        as_b.loop_stop()


@pytest.mark.slow
def test_the_game_goes_on_through_every_hostile_message(tmp_path, bare_broker):
    broker = bare_broker
    with running_boards(tmp_path, broker) as boards:
        a, b = boards["board-a"], boards["board-b"]
        table = start_game(boards, {"players": ["red", "blue"]}, RED_AT_A, seed=11)
        game, code = a.state()["remote"]["game"], a.state()["remote"]["code"]
        # 1. Poison on board-b's own topics, retained: read past, the link goes on.
        as_b = connected(broker, "board-b")
        for topic in (
            event_topic("board-b", game, 0),
            f"pawnlight/boards/board-b/games/{game}/events/\u00b2",
            f"pawnlight/boards/board-b/games/{game}/events/{'9' * 5000}",
        ):
            publish(as_b, topic, DEEP, retain=True)
        as_b.loop_stop()
        for _ in range(2):
            table.play_turn()
        while COLOURS[table.mirror.turn] != "blue":
            table.play_turn()
        # 2. A turn for blue (seated at board-b) forged with the host's own credentials.
        seq = len(table.mirror.history)
        options = table.mirror.rules.options(table.mirror.position, 1, "1")
        move = options.moves[0] if options.moves else None
        forged = TurnEvent(
            game,
            seq,
            "board-a",
            1,
            "1",
            move_text(move) if move else "forfeit",
            position_hash(move.after if move else table.mirror.position),
        )
        as_a = connected(broker, "board-a")
        publish(as_a, event_topic("board-a", game, seq), forged.encode(), retain=True)
        as_a.loop_stop()
        refused = a.wait(lambda s: "was refused" in (s["warning"] or ""))
        assert "for blue (a 1" in refused["warning"] and refused["remote"]["copy"] is None
        table.play_turn()  # blue's real turn, at board-b
        # 5. A retained flood from board-b's user.
        flood(broker, game)
        table.play_turn()
        # 4. The broker SIGKILLed, and started again without a store: the boards give it back
        # the game's turns, its setup (the join code) and the host's seating.
        assert broker.process is not None
        broker.process.kill()
        broker.process.wait()
        for daemon in (a, b):
            daemon.wait(lambda s: not all_online(s))
        broker.start()
        for daemon in (a, b):
            daemon.wait(lambda s: all_online(s))
        # 6. Rejoining the game with its own code keeps it (the code found again on the broker).
        reply = b.request("POST", "/api/remote/join", {"code": code}, pin=True)
        assert reply["kept"] is True and reply["game"] == game
        # 7. A second board under board-b's id: refused, and both told.
        twin = BoardProcess(tmp_path / "twin", broker, "board-b")
        twin.data.mkdir()
        twin.start()
        try:
            said = twin.wait(lambda s: "another board is connected" in (s["warning"] or ""))
            assert "board-b" in said["warning"]
            b.wait(lambda s: "another board connected" in (s["warning"] or ""))
        finally:
            twin.stop()
        assert all_online(a.state())  # the twin's going is not board-b's
        for _ in range(3):
            table.play_turn()
        settled_alike(a, b)
        journals_agree(a, b)
        for daemon in (a, b):
            assert daemon.state()["history"] == [t["text"] for t in table_turns(table)]
            with Journal.open(daemon.data / "journal.sqlite3", readonly=True) as journal:
                assert len(journal.games()) == 1  # the game once, never a second copy
        log = (b.data / "daemon.log").read_text()
        assert "ignored a message" in log and "Traceback" not in log


def table_turns(table) -> list[dict[str, str]]:
    return [{"text": turn.text} for turn in table.mirror.history]

"""Remote play on a local Mosquitto: a move on one board to the LEDs lit on the other, and a club
of boards publishing their live games with the club's page subscribed.

* Latency: two real daemons (``pawnlight run --sim --remote``, board-a and board-b) play a
  remote game, red seated at board-a and blue at board-b, through their simulators.  For every
  turn with a move, timed from the turn reaching the broker's subscribers (the benchmark
  subscribes as the dashboard, as any other board does) to, on the other board, (1) its state
  with the ``copy`` to make (its event stream), and (2) its LED frame showing the copy (its
  simulated board's LEDs, ``GET /api/sim/leds``, polled every 5 ms).  Also from the move put
  down on the first board, which adds that board's settle time (0.1 s here) and recognition.
  Goal: p99 under 100 ms from the broker to the LEDs.
* Club: N boards (lightweight publishers, one MQTT connection each with its board's own user,
  not N daemons) publish live games (summaries of games in play, a new turn each message) to
  one broker, with ``pawnlight club`` subscribed as the dashboard and one page open on it (its
  event stream, fetching every card that changed, as the page does).  Twice: at a realistic
  rate (a message every 3 s a board) and at the most a board sends (2 a second).  Reports the
  messages a second published and delivered to the club, and the broker's and the club's CPU
  (per cent of one core) and resident memory, read from /proc.

Run:  .venv/bin/python benchmarks/remote.py [--moves 60] [--boards 100] [--seconds 20]
      --smoke: a few moves and a small club, fast (tests/test_benchmarks.py).
Needs Debian's mosquitto (scripts/install-system-packages).  Prints the figures; not a test.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pawnlight.remote.link.local_broker import DASHBOARD, LocalBroker, free_port, missing  # noqa: E402
from pawnlight.remote.live import encode, live_topic, summary  # noqa: E402
from pawnlight.remote.protocol import presence_payload, presence_topic  # noqa: E402
from pawnlight.rules import Deck  # noqa: E402
from pawnlight.rules.board import COLOURS, TRACK_SQUARES, Place  # noqa: E402
from pawnlight.rules.game import Game, GameConfig, Phase  # noqa: E402
from pawnlight.rules.notation import parse_move  # noqa: E402
from pawnlight.rules.position import Position  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")
DARK = "#000000"  # an LED off, as GET /api/sim/leds says it


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def password(user: str) -> str:
    return f"bench-{user}"


def wait_until(check: Callable[[], Any], timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        time.sleep(0.01)


# -- /proc ------------------------------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime (fields 14 and 15)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


# -- latency: two daemons ------------------------------------------------------------------------


class StateStream:
    """A board's ``/api/events``: the time each turn's copy first appeared there."""

    def __init__(self, port: int) -> None:
        self.copy_at: dict[int, float] = {}
        self._connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self._connection.request("GET", "/api/events")
        self._response = self._connection.getresponse()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            for raw in self._response:
                line = raw.decode()
                if not line.startswith("data:"):
                    continue
                now = time.perf_counter()
                state = json.loads(line[5:])
                remote = state.get("remote") or {}
                if remote.get("copy") is not None:
                    self.copy_at.setdefault(int(state.get("history_length", 0)), now)
        except (OSError, ValueError, AttributeError, http.client.HTTPException):
            pass  # closed (AttributeError: http.client's, when closed under the reader)

    def close(self) -> None:
        self._connection.close()


class LedWatch:
    """Polls a simulated board's LEDs every 5 ms; the time each frame first appeared."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.frames: list[tuple[float, str]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        last = None
        while not self._stop.is_set():
            try:
                connection.request("GET", "/api/sim/leds")
                body = connection.getresponse().read().decode()
            except (OSError, http.client.HTTPException):  # the server closed it: again
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
                continue
            now = time.perf_counter()
            if body != last:
                self.frames.append((now, body))
                last = body
            self._stop.wait(0.005)
        connection.close()

    def lit(self, keys: set[str], since: float) -> float | None:
        """When every LED of ``keys`` was first seen lit after ``since`` (they may blink); with
        no keys (a move into the safety zone or home), the first frame changed after it."""
        before = next((body for at, body in reversed(self.frames) if at < since), None)
        for at, body in self.frames:
            if at < since:
                continue
            leds = json.loads(body)
            if keys and all(leds.get(key, DARK) != DARK for key in keys):
                return at
            if not keys and body != before:
                return at
        return None

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)


class TurnWatch:
    """Subscribed to every turn (as the dashboard): the time each turn reached subscribers."""

    def __init__(self, broker: LocalBroker) -> None:
        self.at: dict[int, float] = {}
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="bench-turns")
        client.username_pw_set(DASHBOARD, password(DASHBOARD))
        client.on_message = self._on_message
        client.connect(broker.host, broker.port)
        client.subscribe("pawnlight/boards/+/games/+/events/+", qos=1)
        client.loop_start()
        self.client = client

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        if message.payload:
            self.at.setdefault(int(message.topic.rsplit("/", 1)[1]), time.perf_counter())

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def latency(moves: int, folder: Path) -> dict[str, list[float]]:
    from tests.remote.boards import BoardProcess, Table, all_online

    class Board(BoardProcess):
        """A test daemon with the benchmark's passwords."""

        def __init__(self, data: Path, broker: LocalBroker, board: str) -> None:
            super().__init__(data, broker, board, password=password(board))  # type: ignore[arg-type]

    users = {name: password(name) for name in ("board-a", "board-b", DASHBOARD)}
    broker = LocalBroker(folder / "broker", users)
    broker.start()
    boards: dict[str, Board] = {}
    figures: dict[str, list[float]] = {"state": [], "leds": [], "move": []}
    try:
        for name in ("board-a", "board-b"):
            boards[name] = Board(folder / name, broker, name)
            boards[name].data.mkdir()
            boards[name].start()
        table = Table(dict(boards), {"edition": "hasbro-2002", "players": ["red", "blue"]}, seed=1)
        code = table.host("board-a", {"red": "board-a", "blue": "board-b"})
        boards["board-b"].request("POST", "/api/remote/join", {"code": code}, pin=True)
        turns = TurnWatch(broker)
        streams = {name: StateStream(d.port) for name, d in boards.items()}
        try:
            table.set_up()
            for daemon in boards.values():
                daemon.wait(all_online)
            while len(figures["leds"]) < moves:
                state = boards["board-a"].state()
                if state["phase"] == "over":
                    break
                timed = _timed_turn(table, boards, streams, turns)
                if timed is not None:
                    for key, value in timed.items():
                        figures[key].append(value)
        finally:
            turns.close()
            for stream in streams.values():
                stream.close()
    finally:
        for daemon in boards.values():
            daemon.stop()
        broker.stop()
    return figures


def _timed_turn(
    table: Any, boards: dict[str, Any], streams: dict[str, StateStream], turns: TurnWatch
) -> dict[str, float] | None:
    """One turn played at its board and copied at the other, timed when it has a move."""
    first = boards["board-a"].state()
    played = len(first["history"])
    player = table.seat_of(first)
    other = next(d for d in boards.values() if d is not player)
    state = player.wait(lambda s: s["phase"] == "draw" and len(s["history"]) == played)
    card = table.deck.draw()
    player.request("POST", "/api/sim/scan", {"card": card})
    state = player.wait(lambda s: s["phase"] == "move" or len(s["history"]) > played)
    timed: dict[str, float] | None = None
    if state["phase"] == "move":
        choice = table.choose(state, card)
        watch = LedWatch(other.port)
        wait_until(lambda: watch.frames, 5, "the LEDs read once")
        moved = time.perf_counter()
        table.move(player, choice, played)
        copy = other.wait(lambda s: (s["remote"] or {}).get("copy") is not None, timeout=15)
        move = parse_move(
            copy["remote"]["copy"]["text"], Position.from_json(copy["pawns"]), copy["teams"]
        )
        keys = {Place(s.final, s.colour).key for s in move.steps if s.final < TRACK_SQUARES}
        lit = wait_until(lambda: watch.lit(keys, moved), 5, "the copy's LEDs lit")
        watch.stop()
        published = wait_until(lambda: turns.at.get(played), 5, "the turn on the broker")
        shown = wait_until(lambda: streams[_name(boards, other)].copy_at.get(played), 5, "the copy")
        assert copy["remote"]["copy"] is not None
        timed = {"state": shown - published, "leds": lit - published, "move": lit - moved}
    table.mirror_turn(player.state()["turns"][played])
    table.copy(other, played)
    return timed


def _name(boards: dict[str, Any], daemon: Any) -> str:
    return next(name for name, d in boards.items() if d is daemon)


# -- the club ------------------------------------------------------------------------------------


def game_summaries(seed: int, count: int) -> list[dict[str, Any]]:
    """A game in play, one live summary after each of ``count`` turns (new games as they end)."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    while len(out) < count:
        players = ("red", "blue", "yellow", "green")[: rng.choice((2, 3, 4))]
        deck, game = Deck(rng), Game(GameConfig(edition="hasbro-2002", players=players))
        history: list[str] = []
        while game.phase != Phase.OVER and len(out) < count:
            card = deck.draw()
            game.draw(card)
            colour = COLOURS[game.turn]
            if game.phase == Phase.MOVE:
                if game.legal:
                    game.play(rng.choice(game.legal))
                else:
                    game.forfeit()
            history.append(card)
            state = {
                "phase": game.phase.value,
                "message": f"{colour.capitalize()} played a {card}",
                "edition": "hasbro-2002",
                "variant": "standard",
                "players": list(players),
                "turn": None if game.phase == Phase.OVER else COLOURS[game.turn],
                "card": None,
                "pawns": game.position.to_json(),
                "history": history,
            }
            found = summary(state)
            assert found is not None
            out.append(found)
    return out


class Club:
    """The club: ``pawnlight club`` as a process, and one page open on it."""

    def __init__(self, broker: LocalBroker) -> None:
        self.port = free_port()
        env = dict(
            os.environ,
            PAWNLIGHT_MQTT_USER=DASHBOARD,
            PAWNLIGHT_MQTT_PASSWORD=password(DASHBOARD),
        )
        command = [sys.executable, "-m", "pawnlight.cli", "club", "--remote", broker.url]
        command += ["--http-port", str(self.port)]
        self.process = subprocess.Popen(
            command,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_until(self._answers, 30, "the club's page")
        self.events = 0
        self.cards = 0
        self._stop = threading.Event()
        self._page = threading.Thread(target=self._watch, daemon=True)
        self._page.start()

    def _answers(self) -> bool:
        try:
            return self.get("/api/club")["broker"]["connected"] is True
        except OSError:
            return False

    def get(self, path: str) -> Any:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            connection.request("GET", path)
            return json.loads(connection.getresponse().read())
        finally:
            connection.close()

    def drained(self, before: int, sent: int) -> int:
        """The messages the club received since it had ``before``, once all ``sent`` are in
        (or none came for 2 s)."""
        got, still = -1, time.monotonic()
        while True:
            now = self.get("/api/club")["messages"] - before
            if now >= sent:
                return int(now)
            if now != got:
                got, still = now, time.monotonic()
            elif time.monotonic() - still > 2.0:
                return int(now)
            time.sleep(0.05)

    def _watch(self) -> None:
        """What the page does: the event stream, then each card whose rev changed."""
        shown: dict[str, int] = {}
        stream = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        cards = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            stream.request("GET", "/api/events")
            for raw in stream.getresponse():
                if self._stop.is_set():
                    break
                line = raw.decode()
                if not line.startswith("data:"):
                    continue
                self.events += 1
                for board in json.loads(line[5:])["boards"]:
                    if shown.get(board["board"]) != board["rev"]:
                        shown[board["board"]] = board["rev"]
                        cards.request("GET", f"/partial/club/{board['board']}")
                        cards.getresponse().read()
                        self.cards += 1
        except (OSError, http.client.HTTPException, ValueError):
            pass
        finally:
            stream.close()
            cards.close()

    def stop(self) -> None:
        self._stop.set()
        self.process.terminate()
        self.process.wait(timeout=15)


class Boards:
    """N boards' MQTT connections (one each, its own user), publishing their games in turn."""

    def __init__(self, broker: LocalBroker, names: list[str], seed: int) -> None:
        self.clients: dict[str, mqtt.Client] = {}
        for name in names:
            client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"bench-{name}")
            client.username_pw_set(name, password(name))
            client.will_set(presence_topic(name), presence_payload(False), qos=1, retain=True)
            client.connect(broker.host, broker.port, keepalive=60)
            client.loop_start()
            client.publish(presence_topic(name), presence_payload(True), qos=1, retain=True)
            self.clients[name] = client
        self.games = {name: game_summaries(seed + i, 400) for i, name in enumerate(names)}
        self.next = dict.fromkeys(names, 0)
        self.sent = 0

    def publish(self, name: str) -> None:
        games = self.games[name]
        game = games[self.next[name] % len(games)]
        self.next[name] += 1
        self.clients[name].publish(live_topic(name), encode(name, game, time.time()), 1, True)
        self.sent += 1

    def run(self, seconds: float, every: float) -> float:
        """Each board publishes every ``every`` seconds (spread evenly) for ``seconds``."""
        names = list(self.clients)
        step = every / len(names)
        start = time.perf_counter()
        index = 0
        while True:
            due = start + index * step
            if due - start >= seconds:
                break
            delay = due - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            self.publish(names[index % len(names)])
            index += 1
        return time.perf_counter() - start

    def close(self) -> None:
        for client in self.clients.values():
            client.disconnect()
            client.loop_stop()


def club(count: int, seconds: float, folder: Path) -> list[dict[str, float]]:
    names = [f"board-{n:03d}" for n in range(count)]
    users = {**{name: password(name) for name in names}, DASHBOARD: password(DASHBOARD)}
    broker = LocalBroker(folder / "club-broker", users)
    broker.start()
    assert broker.process is not None
    rows: list[dict[str, float]] = []
    page: Club | None = None
    boards: Boards | None = None
    try:
        page = Club(broker)
        boards = Boards(broker, names, seed=11)
        for name in names:  # every board once: the club lists them all
            boards.publish(name)
        wait_until(lambda: len(page.get("/api/club")["boards"]) == count, 30, "every board")
        for label, every in (
            ("realistic: a message every 3 s a board", 3.0),
            ("the most: 2 messages a second a board", 0.5),
        ):
            before = page.get("/api/club")["messages"]
            sent_before = boards.sent
            pids = {"broker": broker.process.pid, "club": page.process.pid}
            cpu = {k: cpu_seconds(p) for k, p in pids.items()}
            events, cards = page.events, page.cards
            took = boards.run(seconds, every)
            sent = boards.sent - sent_before
            delivered = page.drained(before, sent)
            used = {k: cpu_seconds(p) - cpu[k] for k, p in pids.items()}
            rows.append(
                {
                    "label": label,  # type: ignore[dict-item]
                    "sent": sent / took,
                    "delivered": delivered / took,
                    "lost": sent - delivered,
                    "broker_cpu": 100 * used["broker"] / took,
                    "club_cpu": 100 * used["club"] / took,
                    "broker_rss": rss_mb(pids["broker"]),
                    "club_rss": rss_mb(pids["club"]),
                    "events": (page.events - events) / took,
                    "cards": (page.cards - cards) / took,
                }
            )
    finally:
        if boards is not None:
            boards.close()
        if page is not None:
            page.stop()
        broker.stop()
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=60, help="timed moves (default 60)")
    parser.add_argument("--boards", type=int, default=100, help="boards in the club (100)")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds of each club run")
    parser.add_argument("--smoke", action="store_true", help="a few moves, a small club, fast")
    args = parser.parse_args()
    if args.smoke:
        args.moves, args.boards, args.seconds = 3, 5, 2.0
    reason = missing()
    if reason is not None:
        print(f"error: {reason}", file=sys.stderr)
        return 2
    if args.moves < 1 or args.boards < 1 or args.seconds <= 0:
        print("error: --moves and --boards must be at least 1, --seconds above 0", file=sys.stderr)
        return 2
    print(f"remote play on a local Mosquitto ({os.cpu_count()} cores)")
    with tempfile.TemporaryDirectory(prefix="pawnlight-remote-") as folder:
        figures = latency(args.moves, Path(folder))
        print(f"\na move on board A to board B ({len(figures['leds'])} moves):")
        names = {
            "state": "turn on the broker -> B's state with the copy",
            "leds": "turn on the broker -> B's LEDs lit",
            "move": "move put down on A -> B's LEDs lit (A's 0.1 s settle, recognition)",
        }
        for key, name in names.items():
            values = [v * 1000 for v in figures[key]]
            print(
                f"  {name:66s} median {statistics.median(values):6.1f} ms"
                f"  p99 {percentile(values, 0.99):6.1f} ms  max {max(values):6.1f} ms"
            )
        rows = club(args.boards, args.seconds, Path(folder))
        print(f"\na club of {args.boards} boards, {args.seconds:g} s each, the club's page open:")
        for row in rows:
            print(f"  {row['label']}")
            print(
                f"    published {row['sent']:7.1f} msg/s  delivered to the club "
                f"{row['delivered']:7.1f} msg/s  lost {row['lost']:.0f}"
            )
            print(
                f"    broker  CPU {row['broker_cpu']:5.1f} % of a core  "
                f"RSS {row['broker_rss']:6.1f} MB"
            )
            print(
                f"    club    CPU {row['club_cpu']:5.1f} % of a core  RSS {row['club_rss']:6.1f} MB"
                f"  (page: {row['events']:.1f} events/s, {row['cards']:.1f} cards/s fetched)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())

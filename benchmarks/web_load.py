"""Twenty phones on the page late in a long game, with slow clients trying to starve the server.

Runs the daemon on the simulated board (the real firmware under MicroPython over a pty, the
owner thread, the journal) with its web server on 127.0.0.1, plays a long 4-player game as the
players (cards scanned, pawns set on the board), and meanwhile:

* page-like clients, in separate processes: each holds the event stream and, on every event,
  fetches what the status page fetches (the live fragment with its ETag, the history lines it
  lacks), as a browser would, gzip accepted (the stream too);
* slow-header connections that trickle a request's headers a byte at a time (reopened when the
  server closes them);
* a prober that times ``GET /api/state``.

Prints, per number of page-like clients: change -> page updated (from the companion publishing
a new state to the client having the event and the fragments it then fetches) median, p99 and
max; bytes per update on the wire; the API's latency; and the server process's memory.  Then
``GET /api/state`` alone with 60 slow connections open.  Then the slow-header floods (issue
#33): 300 connections from 30 loopback addresses and 1,000 from 100 (127.0.0.2 on), each
half a request line and nothing more, against the server's real caps, while a phone polls
``GET /api/state``: its latency and failures (a 503 counts as one).  Each flood twice: held,
and with every connection the server closes opened again at once, as fast as one process can.

    .venv/bin/python benchmarks/web_load.py [--turns 400] [--clients 1,10,20] [--slow 20]
    .venv/bin/python benchmarks/web_load.py --flood-only [--flood 300/30,1000/100]

Every client connects from 127.0.0.1, so the per-address caps (4 streams, 16 connections) are
raised for the run; everything is bounded in count and time, and only ever 127.0.0.1.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import http.client
import json
import multiprocessing
import random
import re
import resource
import socket
import statistics
import sys
import tempfile
import threading
import time
import zlib
from pathlib import Path
from typing import Any

HOST = "127.0.0.1"


# -- the clients (in their own processes, so they do not share the server's interpreter) ------


class PageClient:
    """One phone on the status page: the event stream, then the fragments it fetches."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.fetch = http.client.HTTPConnection(HOST, port, timeout=30)
        self.etag: str | None = None
        self.history = -1
        self.epoch: Any = None
        # (version, page updated at, bytes, event arrived at)
        self.log: list[tuple[int, float, int, float]] = []

    def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes, int]:
        """GET on the kept-alive connection: status, body (unzipped), bytes on the wire."""
        headers = {"Accept-Encoding": "gzip", **(headers or {})}
        try:
            self.fetch.request("GET", path, headers=headers)
            response = self.fetch.getresponse()
        except (OSError, http.client.HTTPException):
            self.fetch.close()
            self.fetch = http.client.HTTPConnection(HOST, self.port, timeout=30)
            self.fetch.request("GET", path, headers=headers)
            response = self.fetch.getresponse()
        raw = response.read()
        wire = len(raw) + len(str(response.msg)) + 17
        body = gzip.decompress(raw) if response.getheader("Content-Encoding") == "gzip" else raw
        if path.startswith("/partial/live") and response.status == 200:
            self.etag = response.getheader("ETag")
        return response.status, body, wire

    def run(self, stop: threading.Event) -> None:
        _, page, _ = self.get("/")  # the first load: the whole page, not counted
        match = re.search(rb'id="history"[^>]*data-length="(\d+)" data-epoch="(\d+)"', page)
        if match:
            self.history, self.epoch = int(match.group(1)), int(match.group(2))
        stream = http.client.HTTPConnection(HOST, self.port, timeout=30)
        headers = {"Accept": "text/event-stream", "Accept-Encoding": "gzip"}
        stream.request("GET", "/api/events", headers=headers)
        response = stream.getresponse()
        if response.status != 200:
            raise RuntimeError(f"stream refused: {response.status}")
        gzipped = response.getheader("Content-Encoding") == "gzip"
        unpack = zlib.decompressobj(31) if gzipped else None
        text = b""
        wire = 0
        while not stop.is_set():
            chunk = response.read1(65536)
            if not chunk:
                break
            wire += len(chunk) + 7  # and the chunked encoding's framing, about
            text += unpack.decompress(chunk) if unpack is not None else chunk
            while b"\n\n" in text:
                block, text = text.split(b"\n\n", 1)
                data = [line[6:] for line in block.split(b"\n") if line.startswith(b"data: ")]
                if not data:
                    continue
                arrived = time.perf_counter()
                state = json.loads(b"".join(data))
                wire += self.update(state)
                self.log.append((int(state["version"]), time.perf_counter(), wire, arrived))
                wire = 0
        stream.close()

    def update(self, state: dict[str, Any]) -> int:
        """What the page's script does with one event: the bytes it costs."""
        headers = {"If-None-Match": self.etag} if self.etag else {}
        _, _, wire = self.get("/partial/live", headers)
        length, epoch = state["history_length"], state["history_epoch"]
        if epoch != self.epoch or length < self.history or self.history <= 0:
            wire += self.get("/partial/history?after=0")[2]
        elif length > self.history:
            wire += self.get(f"/partial/history?after={self.history}")[2]
        self.history, self.epoch = length, epoch
        return wire


def clients_process(port: int, count: int, stop: Any, results: Any) -> None:
    clients = [PageClient(port) for _ in range(count)]
    halt = threading.Event()
    threads = [threading.Thread(target=c.run, args=(halt,), daemon=True) for c in clients]
    for thread in threads:
        thread.start()
    stop.wait()
    halt.set()
    results.put([c.log for c in clients])


class SlowHeaders:
    """Connections that send a request's headers a byte every ``gap`` seconds, reopened when
    the server gives up on them."""

    def __init__(self, port: int, count: int, gap: float = 2.0) -> None:
        self.port, self.count, self.gap = port, count, gap
        self.socks: list[socket.socket] = []
        self.reopened = 0
        self.refused = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _open(self) -> socket.socket | None:
        try:
            sock = socket.create_connection((HOST, self.port), timeout=5)
            sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
            return sock
        except OSError:
            self.refused += 1
            return None

    def _run(self) -> None:
        self.socks = [s for s in (self._open() for _ in range(self.count)) if s]
        while not self.stop.wait(self.gap):
            alive = []
            for sock in self.socks:
                try:
                    sock.sendall(b"a")
                    alive.append(sock)
                except OSError:
                    sock.close()
                    self.reopened += 1
                    fresh = self._open()
                    if fresh:
                        alive.append(fresh)
            while len(alive) < self.count and (fresh := self._open()):
                alive.append(fresh)
            self.socks = alive
        for sock in self.socks:
            sock.close()

    def __enter__(self) -> SlowHeaders:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(10)


class Flood:
    """``total`` slow-header connections from ``addresses`` loopback addresses (127.0.0.2,
    .3, ...; the same number from each), each having sent half a request line and nothing more.
    ``reopen``: every one the server closes is opened again at once (a storm of connections as
    fast as one process makes them), for as long as the flood lasts; else they are only held."""

    def __init__(self, port: int, total: int, addresses: int, reopen: bool) -> None:
        self.port, self.total, self.addresses, self.reopen = port, total, addresses, reopen
        self.socks: dict[socket.socket, int] = {}  # each connection's address (its last byte)
        self.closed = 0
        self.refused = 0
        self.stop = threading.Event()
        self.opened = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _open(self, host: int) -> None:
        try:
            sock = socket.create_connection(
                (HOST, self.port), timeout=5, source_address=(f"127.0.0.{host}", 0)
            )
        except OSError:
            self.refused += 1
            return
        with contextlib.suppress(OSError):  # closed already to make room: seen below
            sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: loc")
        sock.setblocking(False)
        self.socks[sock] = host

    def _run(self) -> None:
        import selectors

        each = self.total // self.addresses
        for host in range(2, 2 + self.addresses):
            for _ in range(each):
                self._open(host)
        self.opened.set()
        with selectors.DefaultSelector() as selector:
            for sock in self.socks:
                selector.register(sock, selectors.EVENT_READ)
            while not self.stop.is_set():
                for key, _ in selector.select(0.1):
                    sock = key.fileobj
                    assert isinstance(sock, socket.socket)
                    try:
                        gone = sock.recv(4096) == b""
                    except BlockingIOError:
                        continue
                    except OSError:
                        gone = True
                    if gone:  # closed by the server: the flood opens another
                        selector.unregister(sock)
                        host = self.socks.pop(sock)
                        sock.close()
                        self.closed += 1
                        if not self.reopen:
                            continue
                        before = set(self.socks)
                        self._open(host)
                        for fresh in set(self.socks) - before:
                            selector.register(fresh, selectors.EVENT_READ)
        for sock in self.socks:
            sock.close()

    def __enter__(self) -> Flood:
        self.thread.start()
        self.opened.wait(60)
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(15)


def flood_process(
    port: int, total: int, addresses: int, reopen: bool, opened: Any, stop: Any, results: Any
) -> None:
    """A flood in a process of its own, so that it does not share the server's interpreter;
    puts (closed, refused, why not run) on ``results`` when ``stop`` is set."""
    why = room_for_sockets(total + 1024)
    if why:
        opened.set()
        results.put((0, 0, why))
        return
    with Flood(port, total, addresses, reopen) as flood:
        opened.set()
        stop.wait()
    results.put((flood.closed, flood.refused, None))


def room_for_sockets(needed: int) -> str | None:
    """Raise the soft limit of open files to ``needed``; why it cannot be, or None."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= needed:
        return None
    if hard != resource.RLIM_INFINITY and hard < needed:
        return f"{needed} open files needed, the hard limit is {hard}"
    resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))
    return None


def parse_floods(text: str) -> list[tuple[int, int]]:
    """``"300/30,1000/100"`` -> [(300, 30), (1000, 100)]: connections / addresses."""
    floods = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        total, _, addresses = item.partition("/")
        if not (total.isdigit() and addresses.isdigit()):
            raise ValueError(f"a flood is CONNECTIONS/ADDRESSES, like 300/30, not {item!r}")
        floods.append((int(total), int(addresses)))
    return floods


class Prober:
    """Times GET /api/state (the whole state, 170 KB late in the game) every
    ``every`` seconds on a fresh connection, as a script would."""

    def __init__(self, port: int, every: float = 0.1) -> None:
        self.port, self.every = port, every
        self.times: list[float] = []
        self.failures = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self.stop.wait(self.every):
            began = time.perf_counter()
            try:
                connection = http.client.HTTPConnection(HOST, self.port, timeout=10)
                connection.request("GET", "/api/state")  # the whole state, not gzipped
                response = connection.getresponse()
                response.read()
                connection.close()
                if response.status != 200:  # a 503 from a server out of room is no answer
                    self.failures += 1
                    continue
                self.times.append(time.perf_counter() - began)
            except (OSError, http.client.HTTPException):
                self.failures += 1

    def __enter__(self) -> Prober:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(15)


# -- the game ---------------------------------------------------------------------------------


def wait_state(owner, predicate, timeout: float = 20.0) -> dict[str, Any]:
    subscription = owner.subscribe()
    try:
        state = owner.state()
        deadline = time.monotonic() + timeout
        while not predicate(state):
            state = subscription.get(max(0.0, deadline - time.monotonic())) or state
            if time.monotonic() > deadline:
                raise TimeoutError(state["message"])
        return state
    finally:
        subscription.close()


def progress(pawns: dict[str, list[str]]) -> int:
    """How far the pawns have got: the long-game player picks the move that advances least."""
    return sum(2 if p == "home" else 1 for ps in pawns.values() for p in ps if p[0] in "hS")


def same(pawns: dict[str, list[str]]) -> dict[str, list[str]]:
    return {colour: sorted(places) for colour, places in pawns.items()}


class Players:
    """Plays the game on the simulated board: scan a card, make the slowest legal move."""

    def __init__(self, daemon, seed: int = 7) -> None:
        from pawnlight.rules import Deck

        #: Seconds the players take between a card and its move, and after a move (0 while
        #: fast-forwarding to the late game).
        self.pace = 0.0
        self.owner, self.board = daemon.owner, daemon.sim_board
        self.rng = random.Random(seed)
        self.deck = Deck(self.rng)

    def new_game(self) -> None:
        self.owner.command("new_game", {"players": ["red", "blue", "yellow", "green"]})
        self.board.set_board(self.owner.state()["pawns"])
        wait_state(self.owner, lambda s: s["phase"] == "draw")

    def turn(self) -> dict[str, Any]:
        owner = self.owner
        before = len(owner.state()["history"])
        self.board.scan(self.deck.draw())
        state = wait_state(
            owner, lambda s: s["phase"] in ("move", "over") or len(s["history"]) > before
        )
        if state["phase"] != "move":
            time.sleep(self.pace)
            return state
        time.sleep(self.pace)
        # A move that ends where it began (a 4 back onto a slide that brings the pawn back) is
        # made by lifting the pawn and putting it back; prefer others, or decline the card.
        changing = [m for m in state["legal"] if same(m["pawns"]) != same(state["pawns"])]
        if not changing:
            if state["forfeit_allowed"] or not state["legal"]:
                owner.command("forfeit", {})
            else:
                square = state["legal"][0]["text"].split(":")[-1].split("-")[0]
                self.board.lift(square)
                time.sleep(0.5)  # long enough for the board to see the pawn in the hand
                self.board.place(square, state["turn"])
            state = wait_state(
                owner, lambda s: len(s["history"]) > before or s["phase"] == "choose"
            )
            if state["phase"] == "choose":
                owner.command("resolve", {"move": state["choices"][0]["text"]})
                state = wait_state(owner, lambda s: len(s["history"]) > before)
            return state
        moves = sorted(changing, key=lambda m: (progress(m["pawns"]), self.rng.random()))
        choice = moves[0]
        self.board.set_board(choice["pawns"])
        state = wait_state(owner, lambda s: len(s["history"]) > before or s["phase"] == "choose")
        if state["phase"] == "choose":
            owner.command("resolve", {"move": choice["text"]})
            state = wait_state(owner, lambda s: len(s["history"]) > before)
        time.sleep(self.pace)
        return state


# -- measuring --------------------------------------------------------------------------------


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def latencies(
    published: dict[int, float], logs: list[list[tuple]], event: bool = False
) -> list[float]:
    """For every version published while measuring and every client: how long until that
    client's page showed it or a newer one (``event``: until the event arrived)."""
    out = []
    for log in logs:
        for version, at in published.items():
            done = [e[3] if event else e[1] for e in log if e[0] >= version and e[1] >= at]
            if done:
                out.append(min(done) - at)
    return out


def rss_mb() -> tuple[float, float]:
    now = 0.0
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            now = int(line.split()[1]) / 1024
    return now, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def ms(values: list[float]) -> str:
    if not values:
        return "no samples"
    v = [x * 1000 for x in values]
    return (
        f"median {statistics.median(v):6.1f} ms  p99 {percentile(v, 99):6.1f} ms  "
        f"max {max(v):6.1f} ms  (n={len(v)})"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=400, help="turns played before measuring")
    parser.add_argument("--clients", default="1,10,20", help="page-like client counts to measure")
    parser.add_argument("--slow", type=int, default=20, help="slow-header connections meanwhile")
    parser.add_argument("--measure-turns", type=int, default=12, help="turns per client count")
    parser.add_argument("--settle", type=float, default=0.1)
    parser.add_argument(
        "--pace",
        type=float,
        default=0.4,
        help="seconds the players take between a card and its move, and after a move, while "
        "measuring (people take longer; the game up to --turns is played without pause)",
    )
    parser.add_argument(
        "--flood",
        default="300/30,1000/100",
        help="slow-header floods, CONNECTIONS/ADDRESSES each, measured with a phone polling "
        "GET /api/state against the server's real caps (empty: none)",
    )
    parser.add_argument(
        "--flood-seconds", type=float, default=10.0, help="how long each flood is held"
    )
    parser.add_argument(
        "--flood-only",
        action="store_true",
        help="only the floods (after the game is played to --turns), no page-like clients",
    )
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a short run that checks the benchmark still produces its figures (./test)",
    )
    args = parser.parse_args()
    if args.smoke:
        args.turns, args.clients, args.slow, args.measure_turns, args.pace = 6, "2", 2, 3, 0.05
        args.flood, args.flood_seconds = "30/3", 1.0
    counts = [] if args.flood_only else [int(c) for c in args.clients.split(",") if c.strip()]
    if not (1 <= args.turns <= 2000 and all(1 <= c <= 64 for c in counts) and args.slow <= 200):
        parser.error("turns 1..2000, clients 1..64 each, slow at most 200: a bounded load")
    try:
        floods = parse_floods(args.flood)
    except ValueError as error:
        parser.error(str(error))
    if not all(1 <= a <= 200 and a <= t <= 16 * a and t <= 2000 for t, a in floods) or not (
        0.5 <= args.flood_seconds <= 120
    ):
        parser.error(
            "a flood is at most 2000 connections from 1..200 addresses, at most 16 from each "
            "(the per-address cap), held 0.5..120 s"
        )

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "pi"))
    from pawnlight.runtime.config import Config
    from pawnlight.runtime.daemon import Daemon
    from pawnlight.web import create_app
    from pawnlight.web.guard import ConnectionLimits
    from pawnlight.web.server import WebServer

    started = time.monotonic()
    unmeasured: list[str] = []
    with tempfile.TemporaryDirectory() as data:
        # The colour-sensing board: setting the whole board at once shows a switch (an 11) too.
        daemon = Daemon(Config(data=Path(data), sim=True, layout="colour", settle=args.settle))
        daemon.start(web=False)
        owner = daemon.owner
        # Every client here comes from 127.0.0.1: raise the per-address caps for the run.
        app = create_app(owner, pin="2468", sim=True, max_streams=128, streams_per_address=128)
        limits = ConnectionLimits(total=512, per_address=400)
        server = WebServer(app, HOST, 0, limits=limits)
        server.start()
        published: dict[int, float] = {}
        publish = owner._publish

        def publishing() -> None:
            before = owner.publisher._version  # runtime/publisher.py numbers each state
            publish()
            if owner.publisher._version != before:
                published[owner.publisher._version] = time.perf_counter()

        owner._publish = publishing  # type: ignore[method-assign]
        try:
            wait_state(owner, lambda s: s["link"]["up"])
            players = Players(daemon)
            players.new_game()
            state = owner.state()
            while len(state["history"]) < args.turns and state["phase"] != "over":
                state = players.turn()
            turns = len(state["history"])
            full_state = len(json.dumps(owner.state()))
            print(
                f"web load on the simulated board: a 4-player game played to turn {turns} in "
                f"{time.monotonic() - started:.0f} s; the whole state is {full_state / 1024:.0f} KB"
            )
            players.pace = args.pace
            context = multiprocessing.get_context("spawn")
            for count in counts:
                stop, results = context.Event(), context.Queue()
                groups = [count // 4 + (1 if i < count % 4 else 0) for i in range(min(4, count))]
                processes = [
                    context.Process(target=clients_process, args=(server.port, n, stop, results))
                    for n in groups
                ]
                with SlowHeaders(server.port, args.slow) as slow, Prober(server.port) as prober:
                    for process in processes:
                        process.start()
                    time.sleep(3.0)  # every client has loaded the page and opened its stream
                    first = owner.publisher._version + 1
                    began = time.monotonic()
                    for _ in range(args.measure_turns):
                        if players.turn()["phase"] == "over":
                            break
                    last = owner.publisher._version
                    took = time.monotonic() - began
                    time.sleep(1.0)  # the last update reaches everyone
                    stop.set()
                    logs = [log for _ in processes for log in results.get(timeout=30)]
                    for process in processes:
                        process.join(10)
                window = {v: t for v, t in published.items() if first <= v <= last}
                late = latencies(window, logs)
                updates = [entry for log in logs for entry in log if entry[0] >= first]
                per_update = statistics.mean(e[2] for e in updates) if updates else 0
                now, peak = rss_mb()
                print(
                    f"{count:3d} page-like clients + {args.slow} slow-header connections, turns "
                    f"{turns}..{len(owner.state()['history'])}, {len(window)} changes "
                    f"in {took:.0f} s:"
                )
                if not (late and prober.times):
                    unmeasured.append(f"{count} clients")
                print(f"    change -> page updated   {ms(late)}")
                print(f"    change -> event arrived  {ms(latencies(window, logs, event=True))}")
                print(f"    bytes per update         {per_update / 1024:.2f} KB (event + fetches)")
                print(
                    f"    GET /api/state           {ms(prober.times)}  failures {prober.failures}"
                )
                print(
                    f"    slow connections         closed by the server and reopened "
                    f"{slow.reopened} times, refused {slow.refused}"
                )
                print(f"    server process memory    {now:.0f} MB now, {peak:.0f} MB peak")
                turns = len(owner.state()["history"])
            if not args.flood_only:
                many = 5 if args.smoke else 60
                with (
                    SlowHeaders(server.port, many) as slow,
                    Prober(server.port, every=0.05) as prober,
                ):
                    time.sleep(2.0)
                    prober.times.clear()
                    for _ in range(5):
                        players.turn()
                    time.sleep(2.0)
                print(f"{many} slow-header connections, no page clients:")
                print(
                    f"    GET /api/state           {ms(prober.times)}  failures {prober.failures}"
                )
            # The floods meet the server's real caps (16 per address, 256 in all, 64 still
            # sending their headers), on a server of their own over the same app.
            guarded = WebServer(app, HOST, 0)
            guarded.start()
            try:
                if floods:  # the phone alone first, on the same machine as loaded now
                    with Prober(guarded.port, every=0.05) as prober:
                        time.sleep(args.flood_seconds)
                    print(f"no flood, the same phone polling for {args.flood_seconds:.0f} s:")
                    print(
                        f"    GET /api/state           {ms(prober.times)}  "
                        f"failures {prober.failures}"
                    )
                for (total, addresses), reopen in (
                    (flood, reopen) for flood in floods for reopen in (False, True)
                ):
                    evicted = guarded.limits.evicted
                    opened, stop, results = context.Event(), context.Event(), context.Queue()
                    flooder = context.Process(
                        target=flood_process,
                        args=(guarded.port, total, addresses, reopen, opened, stop, results),
                    )
                    with Prober(guarded.port, every=0.05) as prober:
                        flooder.start()  # the phone polls while the flood opens, and on
                        opened.wait(60)
                        time.sleep(args.flood_seconds)
                        stop.set()
                        closed, refused, why = results.get(timeout=60)
                        flooder.join(15)
                    if why:
                        print(f"slow-header flood of {total} from {addresses}: not run ({why})")
                        unmeasured.append(f"the flood of {total}")
                        continue
                    how = "each reopened as soon as closed" if reopen else "held"
                    print(
                        f"slow-header flood of {total} connections from {addresses} addresses "
                        f"({how}) for {args.flood_seconds:.0f} s, a phone polling every 0.05 s:"
                    )
                    print(
                        f"    GET /api/state           {ms(prober.times)}  "
                        f"failures {prober.failures}"
                    )
                    print(
                        f"    the flood                closed by the server "
                        f"{guarded.limits.evicted - evicted} times to make room ({closed} "
                        f"seen by the flood), refused {refused}"
                    )
                    if not prober.times:
                        unmeasured.append(f"the flood of {total}")
            finally:
                guarded.stop()
        finally:
            server.stop()
            daemon.stop()
    print(f"  ({time.monotonic() - started:.0f} s in all)")
    if unmeasured:
        print(f"web_load: nothing measured with {', '.join(unmeasured)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

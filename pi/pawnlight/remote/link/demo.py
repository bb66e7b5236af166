"""``pawnlight remote-demo``: remote play on one machine: a local Mosquitto and two simulated
boards ("kitchen" and "grandma") connected to it, with a game hosted on one and joined on the
other, until Ctrl-C (docs/remote.md, 'Trying it on one machine')."""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from pawnlight.errors import PawnlightError

from .local_broker import DASHBOARD, BrokerError, LocalBroker

#: The two boards of the demo, and the colours each plays.
BOARDS = ("kitchen", "grandma")
SEATS = {"red": "kitchen", "blue": "grandma"}
#: Seconds between two looks at the boards: one that stopped is started again.
WATCH = 1.0
#: Restarts of one board, at most: a board that keeps failing is left stopped, and said so.
RESTARTS = 5


class DemoError(PawnlightError, RuntimeError):
    """The demo could not start (no broker, a board that did not come up): said in words."""


def _request(url: str, body: Any = None, pin: str | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    if pin is not None:
        headers["X-Pawnlight-Pin"] = pin
    request = urllib.request.Request(url, data, headers, method="GET" if data is None else "POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def _wait(url: str, ready: Any, process: subprocess.Popen[bytes], timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise DemoError(f"a board exited (code {process.returncode}): see its daemon.log")
        try:
            state = _request(url + "/api/state")
            if ready(state):
                return state
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.1)
    raise DemoError(f"{url} did not get ready in {timeout:.0f} s")


def _online(state: dict[str, Any]) -> bool:
    remote = state.get("remote")
    return remote is not None and all(b["online"] for b in remote["boards"].values())


def run_demo(folder: Path | None, http_port: int, game: bool, seconds: float | None = None) -> int:
    """Run the demo until SIGINT/SIGTERM (or for ``seconds``); 0 when it ran, 1 when not."""
    folder = Path(tempfile.mkdtemp(prefix="pawnlight-demo-")) if folder is None else folder
    folder.mkdir(parents=True, exist_ok=True)
    pin = os.environ.get("PAWNLIGHT_PIN") or "1234"
    passwords = {user: secrets.token_urlsafe(12) for user in [*BOARDS, DASHBOARD]}
    stopping = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stopping.set())
    try:
        broker = LocalBroker(folder / "broker", passwords)
        broker.start()
    except BrokerError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    boards: dict[str, tuple[subprocess.Popen[bytes], str]] = {}
    commands: dict[str, list[str]] = {}
    envs: dict[str, dict[str, str]] = {}
    try:
        for number, board in enumerate(BOARDS):
            data = folder / board
            data.mkdir(exist_ok=True)
            port = http_port + number
            envs[board] = dict(
                os.environ,
                PAWNLIGHT_PIN=pin,
                PAWNLIGHT_MQTT_USER=board,
                PAWNLIGHT_MQTT_PASSWORD=passwords[board],
            )
            command = ["run", "--sim", "--http-port", str(port), "--data", str(data)]
            commands[board] = [*command, "--remote", broker.url, "--board-id", board]
            process = _launch(commands[board], envs[board], data)
            boards[board] = (process, f"http://127.0.0.1:{port}")
        for process, url in boards.values():
            _wait(url, lambda s: s["link"]["up"], process)
        said = ""
        if game:
            said = _start_game(boards, pin)
        print(f"pawnlight remote demo in {folder} (the broker at {broker.url})")
        for board, (_, url) in boards.items():
            seats = ", ".join(c for c, b in SEATS.items() if b == board)
            print(f"  {board}: {url}/ (plays {seats}; simulator {url}/sim)")
        print(f"  owner PIN {pin}; dashboard user {DASHBOARD}, password {passwords[DASHBOARD]}")
        if said:
            print(f"  {said}")
        print(
            f"A board that stops is started again ({RESTARTS} times at most); to start one by hand:"
        )
        for board in BOARDS:
            print(
                f"  PAWNLIGHT_PIN={pin} PAWNLIGHT_MQTT_USER={board} "
                f"PAWNLIGHT_MQTT_PASSWORD={passwords[board]} pawnlight {' '.join(commands[board])}"
            )
        print("Ctrl-C stops the boards and the broker.", flush=True)
        _watch(boards, commands, envs, folder, stopping, seconds)
        return 0
    except DemoError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    finally:
        for process, _ in boards.values():
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process, _ in boards.values():
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        broker.stop()


def _launch(command: list[str], env: dict[str, str], data: Path) -> subprocess.Popen[bytes]:
    """One board's daemon, its output appended to its daemon.log."""
    with open(data / "daemon.log", "ab") as log:
        return subprocess.Popen(
            [sys.executable, "-m", "pawnlight.cli", *command],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )


def _watch(
    boards: dict[str, tuple[subprocess.Popen[bytes], str]],
    commands: dict[str, list[str]],
    envs: dict[str, dict[str, str]],
    folder: Path,
    stopping: threading.Event,
    seconds: float | None,
) -> None:
    """Until stopped (or for ``seconds``): a board whose daemon stopped is reaped and started
    again, up to RESTARTS times; its game goes on from its journal, as after a power cut."""
    deadline = None if seconds is None else time.monotonic() + seconds
    restarts = dict.fromkeys(boards, 0)
    while not stopping.wait(
        WATCH if deadline is None else max(0.0, min(WATCH, deadline - time.monotonic()))
    ):
        if deadline is not None and time.monotonic() >= deadline:
            return
        for board, (process, url) in list(boards.items()):
            code = process.poll()
            if code is None or restarts[board] > RESTARTS:
                continue
            log = folder / board / "daemon.log"
            restarts[board] += 1
            if restarts[board] > RESTARTS:
                print(
                    f"{board} stopped again (exit code {code}): left stopped; see {log}", flush=True
                )
                continue
            print(f"{board} stopped (exit code {code}): starting it again; see {log}", flush=True)
            boards[board] = (_launch(commands[board], envs[board], folder / board), url)


def _start_game(boards: dict[str, tuple[subprocess.Popen[bytes], str]], pin: str) -> str:
    """Host a two-player game on the kitchen board, join it from grandma's, set both boards."""
    (host, host_url), (guest, guest_url) = ((b, u) for b, (_, u) in boards.items())
    for process, url in boards.values():
        _wait(url, lambda s: s.get("deck_enrolled"), process)
    body = {"edition": "hasbro-2002", "players": list(SEATS), "seats": SEATS}
    try:
        hosted = _request(host_url + "/api/remote/host", body, pin)
        _request(guest_url + "/api/remote/join", {"code": hosted["code"]}, pin)
        for process, url in boards.values():
            state = _wait(url, _online, process)
            _request(url + "/api/sim/board", {"pawns": state["pawns"]})
    except urllib.error.HTTPError as error:
        raise DemoError(f"the demo game could not start: {error.read().decode()[:300]}") from None
    return (
        f"a game is hosted on {host} (join code {hosted['code']}) and joined on {guest}: "
        f"scan red's card on {host}'s simulator"
    )

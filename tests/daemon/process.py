"""`pawnlight run --sim` as a separate process, driven over HTTP like a browser would."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from pawnlight.board.layout import Layout
from pawnlight.board.snapshot import Occupancy, pawn_count, read_occupancy

from ..helpers import PIN
from .hands import HAND


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class DaemonProcess:
    def __init__(
        self,
        data: Path,
        layout: str = "presence",
        settle: float = 0.1,
        sim_pico: bool = False,
        http_host: str = "127.0.0.1",
        prelude: str = "",
    ) -> None:
        self.data = data
        #: Python run in the daemon's process before `pawnlight run` (a test's hook).
        self.prelude = prelude
        # "0.0.0.0" serves the network as ./run does (the share address then names the
        # machine's network address); the tests still only ever connect to 127.0.0.1.
        self.http_host = http_host
        self.sim_pico = sim_pico  # the firmware on the emulated RP2040 instead of the unix port
        self.layout = layout
        self._layout = Layout.named(layout)  # read once: sensed() is polled every 10 ms
        self.settle = settle
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

    # What a kind of daemon changes (tests/remote/boards.py: a board of a remote game).

    def config_lines(self) -> list[str]:
        """The lines of its config file."""
        return [f"settle = {self.settle}"]

    def environment(self) -> dict[str, str]:
        return dict(os.environ, PAWNLIGHT_PIN=PIN)

    def more_arguments(self) -> list[str]:
        """Arguments of `pawnlight run` after the common ones."""
        return []

    def start(self, timeout: float = 30.0) -> None:
        config = self.data / "test.toml"
        config.write_text("\n".join([*self.config_lines(), ""]))
        env = self.environment()
        self.log: BinaryIO | None = open(self.data / "daemon.log", "ab")  # noqa: SIM115 - closed in stop()
        if self.prelude:
            code = f"{self.prelude}\nfrom pawnlight.cli import main\nraise SystemExit(main())"
            command = [sys.executable, "-c", code]
        else:
            command = [sys.executable, "-m", "pawnlight.cli"]
        self.process = subprocess.Popen(
            [
                *command,
                "run",
                "--sim-pico" if self.sim_pico else "--sim",
                "--http-host",
                self.http_host,
                "--http-port",
                str(self.port),
                "--data",
                str(self.data),
                "--layout",
                self.layout,
                "--config",
                str(config),
                *self.more_arguments(),
            ],
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        self.wait(lambda s: s["link"]["up"], timeout)

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)
        self._close_log()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._close_log()

    def _close_log(self) -> None:
        log = getattr(self, "log", None)
        if log is not None:
            log.close()
            self.log = None

    # -- HTTP ---------------------------------------------------------------------------------

    def request(self, method: str, path: str, body: Any = None, pin: bool = False) -> Any:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"}
        if pin:
            headers["X-Pawnlight-Pin"] = PIN
        request = urllib.request.Request(self.url + path, data, headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as error:
            raise AssertionError(f"{method} {path}: {error.code} {error.read()!r}") from None

    def state(self) -> dict[str, Any]:
        return self.request("GET", "/api/state")

    # -- hands --------------------------------------------------------------------------------

    def touch(self, action: str, square: str, colour: str | None = None) -> Any:
        """Lift or place one pawn (``action`` "lift" or "place"), by hand (see :meth:`by_hand`)."""
        body = {"square": square} if colour is None else {"square": square, "colour": colour}
        return self.by_hand(lambda: self.request("POST", f"/api/sim/{action}", body))

    def by_hand(self, touch: Callable[[], Any]) -> Any:
        """Make one touch (``touch()`` posts it), then a hand's pace counted from when the daemon
        has read it.  On a loaded machine the firmware's scans fall behind; two touches read as
        one are rightly taken for sensor flicker, and a presence board then never sees an 11's
        switch (two pawns changing places)."""
        before = self.sensed()
        reply = touch()
        self.read_after(before)
        time.sleep(HAND)
        return reply

    def sensed(self) -> Occupancy:
        """The board as the daemon's latest sensor reading shows it."""
        sensors = self.request("GET", "/api/diagnostics", pin=True)["sensors"]
        return read_occupancy(self._layout, sensors)

    def read_after(self, before: Occupancy, timeout: float = 15.0) -> None:
        """Return once the daemon has read the board changed from ``before`` (every touch changes
        it) and holding as many pawns as the simulator has: it has read the last touch."""
        pawns = self.request("GET", "/api/sim/board")["pawns"]
        count = sum(len(places) for places in pawns.values())
        deadline = time.monotonic() + timeout
        while True:
            now = self.sensed()
            if now != before and pawn_count(now) == count:
                return
            assert time.monotonic() < deadline, "the daemon never read the board's last change"
            time.sleep(0.01)

    def wait_for(self, condition, timeout: float = 10.0) -> None:
        """Poll until ``condition()`` is true."""
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError("timed out waiting for the board")
            time.sleep(0.01)

    def wait(self, predicate, timeout: float = 30.0) -> dict[str, Any]:
        """Poll the state until predicate holds (the page's polling fallback does the same).
        The timeout only guards against a hang: a board restarted in a remote game has taken
        over 15 s to catch up in CI's busiest minute."""
        deadline = time.monotonic() + timeout
        last: dict[str, Any] | None = None
        while time.monotonic() < deadline:
            try:
                last = self.state()
                if predicate(last):
                    return last
            except (urllib.error.URLError, ConnectionError, AssertionError):
                assert self.process is not None
                if self.process.poll() is not None:
                    log = (self.data / "daemon.log").read_text(errors="replace")
                    raise AssertionError(f"the daemon exited:\n{log[-3000:]}") from None
            time.sleep(0.02)
        message = last and f"{last['phase']}: {last['message']}"
        raise AssertionError(f"timed out waiting; last state {message}")

"""A real Mosquitto broker for the remote-play tests, on a free loopback port.

Its configuration is generated: one user a board (``mosquitto_passwd``), an ACL that lets each
board write only under ``pawnlight/boards/<its id>/`` and read everything of pawnlight, a
read-only ``dashboard`` user, retained messages kept on disk (``persistence``) so a broker
restarted keeps them.  docs/remote.md describes the same configuration for a club's broker.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import time
from collections.abc import Iterable
from pathlib import Path

#: Where Debian puts the broker (a plain user's PATH may lack /usr/sbin).
MOSQUITTO = shutil.which("mosquitto") or (
    "/usr/sbin/mosquitto" if os.access("/usr/sbin/mosquitto", os.X_OK) else None
)
MOSQUITTO_PASSWD = shutil.which("mosquitto_passwd")

#: The read-only user (a club page, a spectator's dashboard).
DASHBOARD = "dashboard"


def missing() -> str | None:
    """Why no broker can be started here (None: it can)."""
    if MOSQUITTO is None or MOSQUITTO_PASSWD is None:
        return "mosquitto is not installed (scripts/install-system-packages installs it)"
    return None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def password_of(user: str) -> str:
    """Each user's password in the tests (never a real one)."""
    return f"secret-{user}"


def acl_text(boards: Iterable[str]) -> str:
    """Each board writes only its own topics; every user reads pawnlight's; the dashboard
    writes nothing."""
    lines: list[str] = []
    for board in boards:
        lines += [f"user {board}", f"topic write pawnlight/boards/{board}/#"]
        lines += ["topic read pawnlight/#", ""]
    lines += [f"user {DASHBOARD}", "topic read pawnlight/#", ""]
    return "\n".join(lines)


class Broker:
    """``mosquitto -c <generated config>``; ``start()``, ``stop()``, ``kill()``, ``restart()``."""

    def __init__(self, folder: Path, boards: Iterable[str]) -> None:
        reason = missing()
        if reason is not None:
            raise RuntimeError(reason)
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)
        self.boards = list(boards)
        self.port = free_port()
        self.host = "127.0.0.1"
        self.url = f"mqtt://{self.host}:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.config = self._write_config()

    def _write_config(self) -> Path:
        passwords = self.folder / "passwd"
        passwords.unlink(missing_ok=True)
        for user in [*self.boards, DASHBOARD]:
            create = [] if passwords.exists() else ["-c"]
            assert MOSQUITTO_PASSWD is not None
            subprocess.run(
                [MOSQUITTO_PASSWD, *create, "-b", str(passwords), user, password_of(user)],
                check=True,
                capture_output=True,
            )
        acl = self.folder / "acl"
        acl.write_text(acl_text(self.boards))
        store = self.folder / "store"
        store.mkdir(exist_ok=True)
        config = self.folder / "mosquitto.conf"
        # Run as root, mosquitto switches to its own user unless told to stay.
        user = pwd.getpwuid(os.getuid()).pw_name
        config.write_text(
            "\n".join(
                [
                    f"user {user}",
                    f"listener {self.port} {self.host}",
                    "allow_anonymous false",
                    f"password_file {passwords}",
                    f"acl_file {acl}",
                    "persistence true",
                    f"persistence_location {store}/",
                    "log_type error",
                    "log_type warning",
                    "log_type notice",
                    "",
                ]
            )
        )
        return config

    def start(self, timeout: float = 10.0) -> None:
        assert MOSQUITTO is not None
        log = open(self.folder / "mosquitto.log", "ab")  # noqa: SIM115 - the process holds it
        self.process = subprocess.Popen(
            [MOSQUITTO, "-c", str(self.config)], stdout=log, stderr=subprocess.STDOUT
        )
        log.close()
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"mosquitto exited: {self.log()[-2000:]}")
            try:
                with socket.create_connection((self.host, self.port), timeout=0.5):
                    return
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("mosquitto did not start listening") from None
                time.sleep(0.05)

    def log(self) -> str:
        return (self.folder / "mosquitto.log").read_text(errors="replace")

    def stop(self) -> None:
        """Stop it as a service is stopped (it writes its retained messages to disk)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()

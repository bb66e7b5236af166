"""A Mosquitto broker on this machine, for the remote-play demo and the tests (docs/remote.md).

Its configuration is generated in a folder: one user a board (``mosquitto_passwd``), an ACL
that lets each board write only under ``pawnlight/boards/<its id>/`` and read everything of
pawnlight, a read-only ``dashboard`` user, retained messages kept on disk (``persistence``) so a
broker restarted keeps them; optionally a TLS listener with a certificate made by
:func:`make_ca` (openssl).  A club's own broker is set up the same way by hand (docs/remote.md).
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from pawnlight.errors import PawnlightError

#: The read-only user (a club page, a spectator's dashboard).
DASHBOARD = "dashboard"


class BrokerError(PawnlightError, RuntimeError):
    """The broker could not be set up or started (in words)."""


def mosquitto() -> str | None:
    """The broker's program (Debian puts it in /usr/sbin, which a user's PATH may lack)."""
    found = shutil.which("mosquitto")
    if found is None and os.access("/usr/sbin/mosquitto", os.X_OK):
        found = "/usr/sbin/mosquitto"
    return found


def missing() -> str | None:
    """Why no broker can be started here (None: it can)."""
    if mosquitto() is None or shutil.which("mosquitto_passwd") is None:
        return "mosquitto is not installed (scripts/install-system-packages installs it)"
    return None


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


#: What the read-only dashboard may read: each board's presence, live game and games' turns,
#: never a join code (``codes/``: whoever reads one can join the game as its board).
DASHBOARD_READS = (
    "pawnlight/boards/+/presence",
    "pawnlight/boards/+/live",
    "pawnlight/boards/+/games/#",
)

#: The broker's limits for remote play (docs/remote.md, "Setting up the broker"): a board
#: catching up is handed every retained message of its game at once, so its queue must hold a
#: flood's worth; a message is never larger than a board reads (protocol.MAX_MESSAGE).
BROKER_LIMITS = (
    "max_queued_messages 100000",
    "max_inflight_messages 100",
    "max_packet_size 131072",
)


def acl_text(boards: list[str]) -> str:
    """Each board writes only its own topics; every board reads pawnlight's; the dashboard
    writes nothing and reads no join code."""
    lines: list[str] = []
    for board in boards:
        lines += [f"user {board}", f"topic write pawnlight/boards/{board}/#"]
        lines += ["topic read pawnlight/#", ""]
    lines += [f"user {DASHBOARD}", *(f"topic read {topic}" for topic in DASHBOARD_READS), ""]
    return "\n".join(lines)


@dataclass(frozen=True)
class Certificates:
    """A certificate authority and a server certificate it signed (PEM files)."""

    ca: Path
    cert: Path
    key: Path


def make_ca(folder: Path, host: str = "127.0.0.1") -> Certificates:
    """A new CA and a certificate for ``host`` (an IP address or a name) signed by it."""
    if shutil.which("openssl") is None:
        raise BrokerError("openssl is not installed: it makes the TLS certificates")
    folder.mkdir(parents=True, exist_ok=True)
    ca, ca_key = folder / "ca.pem", folder / "ca.key"
    cert, key, request = folder / "server.crt", folder / "server.key", folder / "server.csr"
    kind = "IP" if host.replace(".", "").isdigit() or ":" in host else "DNS"
    extensions = folder / "server.ext"
    # Python 3.13's default TLS context is strict (X509_STRICT): it refuses a server certificate
    # without an authority key identifier, and a CA without its key usage.
    extensions.write_text(
        f"subjectAltName={kind}:{host}\n"
        "authorityKeyIdentifier=keyid,issuer\nbasicConstraints=CA:FALSE\n"
        "keyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n"
    )
    new_ca = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "30"]
    new_ca += ["-addext", "keyUsage=critical,keyCertSign,cRLSign", "-subj"]
    new_key = ["req", "-newkey", "rsa:2048", "-nodes", "-subj"]
    steps = [
        [*new_ca, "/CN=pawnlight test CA", "-keyout", str(ca_key), "-out", str(ca)],
        [*new_key, f"/CN={host}", "-keyout", str(key), "-out", str(request)],
        [
            "x509",
            "-req",
            "-in",
            str(request),
            "-CA",
            str(ca),
            "-CAkey",
            str(ca_key),
            "-CAcreateserial",
            "-days",
            "30",
            "-extfile",
            str(extensions),
            "-out",
            str(cert),
        ],
    ]
    for step in steps:
        done = subprocess.run(["openssl", *step], capture_output=True, text=True)
        if done.returncode != 0:
            raise BrokerError(f"openssl {step[0]} failed: {done.stderr.strip()[-300:]}")
    return Certificates(ca, cert, key)


class LocalBroker:
    """``mosquitto -c <generated config>`` on a free loopback port; ``passwords`` maps every
    user (each board, and the dashboard) to its password."""

    def __init__(
        self,
        folder: Path,
        passwords: Mapping[str, str],
        tls: Certificates | None = None,
        host: str = "127.0.0.1",
        port: int | None = None,
        persistence: bool = True,
    ) -> None:
        reason = missing()
        if reason is not None:
            raise BrokerError(reason)
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)
        self.passwords = dict(passwords)
        self.boards = [user for user in self.passwords if user != DASHBOARD]
        self.tls = tls
        self.persistence = persistence
        self.host = host
        self.port = free_port(host) if port is None else port
        self.url = f"{'mqtts' if tls else 'mqtt'}://{host}:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.config = self._write_config()

    def _write_config(self) -> Path:
        passwords = self.folder / "passwd"
        passwords.unlink(missing_ok=True)
        for user, password in self.passwords.items():
            create = [] if passwords.exists() else ["-c"]
            done = subprocess.run(
                ["mosquitto_passwd", *create, "-b", str(passwords), user, password],
                capture_output=True,
                text=True,
            )
            if done.returncode != 0:
                raise BrokerError(f"mosquitto_passwd failed for {user}: {done.stderr.strip()}")
        acl = self.folder / "acl"
        acl.write_text(acl_text(self.boards))
        store = self.folder / "store"
        store.mkdir(exist_ok=True)
        # Run as root, mosquitto switches to its own user unless told to stay.
        user = pwd.getpwuid(os.getuid()).pw_name
        lines = [
            f"user {user}",
            f"listener {self.port} {self.host}",
            "allow_anonymous false",
            f"password_file {passwords}",
            f"acl_file {acl}",
            "persistence true" if self.persistence else "persistence false",
            f"persistence_location {store}/",
            *BROKER_LIMITS,
            "log_type error",
            "log_type warning",
            "log_type notice",
        ]
        if self.tls is not None:
            lines += [f"certfile {self.tls.cert}", f"keyfile {self.tls.key}"]
        config = self.folder / "mosquitto.conf"
        config.write_text("\n".join([*lines, ""]))
        return config

    def start(self, timeout: float = 10.0) -> None:
        program = mosquitto()
        assert program is not None  # checked in the constructor
        with open(self.folder / "mosquitto.log", "ab") as log:
            self.process = subprocess.Popen(
                [program, "-c", str(self.config)], stdout=log, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise BrokerError(f"mosquitto exited: {self.log()[-2000:]}")
            try:
                with socket.create_connection((self.host, self.port), timeout=0.5):
                    return
            except OSError:
                if time.monotonic() > deadline:
                    raise BrokerError("mosquitto did not start listening") from None
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

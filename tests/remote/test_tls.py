"""Remote play over TLS (mqtts://) with a CA made by openssl: boards that trust the CA play;
a board that does not is never connected (issue #36, docs/remote.md 'TLS with your own CA')."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from pawnlight.remote.link.local_broker import make_ca

from .boards import BoardProcess, Table, all_online
from .broker import Broker, missing

pytestmark = pytest.mark.skipif(
    missing() is not None or shutil.which("openssl") is None,
    reason=f"{missing() or 'openssl is not installed'}",
)


@pytest.mark.slow
def test_two_boards_play_over_tls_and_an_untrusting_board_stays_out(tmp_path):
    certificates = make_ca(tmp_path / "ca", host="127.0.0.1")
    broker = Broker(tmp_path / "broker", ["board-a", "board-b", "board-c"], tls=certificates)
    assert broker.url.startswith("mqtts://127.0.0.1:")
    broker.start()
    boards = {
        name: BoardProcess(tmp_path / name, broker, name, ca=certificates.ca)
        for name in ("board-a", "board-b")
    }
    # A board with the right password that does not trust the CA (the system's CAs only).
    untrusting = BoardProcess(tmp_path / "board-c", broker, "board-c")
    try:
        for daemon in [*boards.values(), untrusting]:
            daemon.data.mkdir()
            daemon.start()
        table = Table(boards, {"players": ["red", "blue"]}, seed=2)
        code = table.host("board-a", {"red": "board-a", "blue": "board-b"})
        boards["board-b"].request("POST", "/api/remote/join", {"code": code}, pin=True)
        table.set_up()
        for _ in range(3):
            table.play_turn()
        a, b = boards["board-a"].state(), boards["board-b"].state()
        assert all_online(a) and a["history"] == b["history"] and len(a["history"]) == 3
        with pytest.raises(AssertionError, match=r"503.*not connected to the remote broker"):
            untrusting.request("POST", "/api/remote/join", {"code": code}, pin=True)
        log = (untrusting.data / "daemon.log").read_text()
        assert "cannot connect to the remote broker mqtts://127.0.0.1" in log
    finally:
        for daemon in [*boards.values(), untrusting]:
            daemon.stop()
        broker.stop()


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is not installed")
def test_the_certificates_pass_strict_checks(tmp_path):
    """Python 3.13's default TLS context verifies strictly (VERIFY_X509_STRICT): a CA without
    its key usage or a server certificate without an authority key identifier is refused."""
    certificates = make_ca(tmp_path / "ca", host="127.0.0.1")
    verify = ["openssl", "verify", "-x509_strict", "-CAfile", str(certificates.ca)]
    done = subprocess.run([*verify, str(certificates.cert)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr

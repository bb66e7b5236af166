"""The test broker: pawnlight's local Mosquitto (remote.link.local_broker) with known passwords,
one user a board, the ACL (a board writes only its own topics) and a read-only dashboard."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from pawnlight.remote.link.local_broker import (
    DASHBOARD,
    Certificates,
    LocalBroker,
    acl_text,
    free_port,
    missing,
)

__all__ = ["DASHBOARD", "Broker", "acl_text", "free_port", "missing", "password_of"]


def password_of(user: str) -> str:
    """Each user's password in the tests (never a real one)."""
    return f"secret-{user}"


class Broker(LocalBroker):
    """``Broker(folder, boards)``: the boards and the dashboard, each with its test password."""

    def __init__(
        self,
        folder: Path,
        boards: Iterable[str],
        tls: Certificates | None = None,
        persistence: bool = True,
    ) -> None:
        users = [*boards, DASHBOARD]
        passwords = {user: password_of(user) for user in users}
        super().__init__(folder, passwords, tls=tls, persistence=persistence)

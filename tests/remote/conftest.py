"""Fixtures of the remote-play tests: a real Mosquitto broker on a free loopback port."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .boards import BoardProcess, running_boards
from .broker import Broker, missing

#: The boards the broker's configuration knows (each its own user and topics).
BOARDS = ("board-a", "board-b", "board-c")


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    """Mosquitto with per-board users, ACLs and a read-only dashboard (skipped where absent)."""
    reason = missing()
    if reason is not None:
        pytest.skip(reason)
    broker = Broker(tmp_path / "broker", BOARDS)
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()


@pytest.fixture
def boards(tmp_path: Path, broker: Broker) -> Iterator[dict[str, BoardProcess]]:
    """Two real daemons on simulated boards, board-a and board-b, connected to the broker."""
    with running_boards(tmp_path, broker) as made:
        yield made

"""Fixtures of the daemon's tests: the real daemon in this process on a simulated board."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pawnlight.runtime.config import Config
from pawnlight.runtime.daemon import Daemon


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[Daemon]:
    """The daemon on a simulated presence board, no web server (a module may define its own)."""
    daemon = Daemon(Config(data=tmp_path, sim=True, layout="presence", http_port=0, settle=0.1))
    daemon.start(web=False)
    yield daemon
    daemon.stop()

"""One run of ``pawnlight hardware parts`` shared by the tests that check its files."""

from __future__ import annotations

from pathlib import Path

import pytest

from pawnlight.cli import main


@pytest.fixture(scope="session")
def build_files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``pawnlight hardware parts --out DIR`` once per session (OpenSCAD renders 3 parts)."""
    out = tmp_path_factory.mktemp("build") / "board"
    assert main(["hardware", "parts", "--out", str(out)]) == 0
    return out

"""`./run`: serves the pages to the network and says where other phones open them (issue #34).

The script runs in a copy of the repository's top level with stand-ins for what it calls (the
set-up, the venv's Python and the `pawnlight` command), so nothing is installed or started and
no network is touched: the stand-ins print what they were given.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = "http://203.0.113.20:8080/"  # what the stand-in for hosts.network_url answers


def stand_in(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" + text)
    path.chmod(0o755)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    shutil.copy(ROOT / "run", tmp_path / "run")
    stand_in(tmp_path / "scripts" / "setup-env", "exit 0\n")
    stand_in(tmp_path / ".venv" / "bin" / "python", f'echo "{SHARED}"\n')
    stand_in(tmp_path / ".venv" / "bin" / "pawnlight", 'echo "pawnlight $*"\n')
    return tmp_path


def run(tree: Path, *args: str) -> list[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PAWNLIGHT_", "PORT"))}
    done = subprocess.run(
        [str(tree / "run"), *args], capture_output=True, text=True, env=env, timeout=30
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_run_serves_every_interface_and_prints_the_address_other_phones_open(tree):
    lines = run(tree)
    assert "status page:    http://127.0.0.1:8080/" in lines
    assert any(line.startswith(f"other phones:   {SHARED}") for line in lines), lines
    assert any("only the owner PIN changes anything" in line for line in lines), lines
    command = lines[-1].split()
    assert command[:2] == ["pawnlight", "run"]
    assert command[command.index("--http-host") + 1] == "0.0.0.0"


@pytest.mark.parametrize("args", [("--http-host", "127.0.0.1"), ("--http-host=127.0.0.1",)])
def test_run_for_this_machine_only_prints_no_network_address(tree, args):
    lines = run(tree, *args)
    assert not any("other phones" in line for line in lines), lines
    # pawnlight run is given the choice last, so it wins.
    assert lines[-1].endswith(" ".join(args))

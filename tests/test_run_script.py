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


# -- scripts/setup-env: not silent while it sets up -----------------------------------------------

VENV_PYTHON = """\
case "$*" in
  *pawnlight.rules.compiled*) [ -f .venv/built ] ;;  # whether the compiled core is current
  *"-e "*)
    [ -f .venv/pip-fails ] && { echo "ERROR: no network"; exit 1; }
    echo "Collecting flask>=3.0"
    echo "  Building editable for pawnlight (pyproject.toml): started"
    echo "pawnlight build: mypyc is not installed; the rules core runs as pure Python"
    echo "Successfully installed pawnlight-0.1.0"
    touch .venv/built ;;
  *) echo "pip $*" ;;
esac
"""


@pytest.fixture
def setup_tree(tmp_path: Path) -> Path:
    (tmp_path / "scripts").mkdir()
    for name in ("scripts/setup-env", "scripts/build-requirements.txt", "pyproject.toml"):
        shutil.copy(ROOT / name, tmp_path / name)
    stand_in(tmp_path / "venv-python", VENV_PYTHON)
    # The system's Python: new enough, and its venv module makes .venv with the stand-in.
    stand_in(
        tmp_path / "python3",
        f'[ "$1" = -m ] && mkdir -p .venv/bin && cp "{tmp_path}/venv-python" .venv/bin/python\n'
        "exit 0\n",
    )
    return tmp_path


def setup(tree: Path, extra: str = "sim") -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHON=str(tree / "python3"))
    return subprocess.run(
        [str(tree / "scripts" / "setup-env"), extra],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def said(done: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in done.stderr.splitlines() if line.startswith("setting up: ")]


def test_setup_says_each_step_and_about_how_long_it_takes(setup_tree):
    done = setup(setup_tree)
    assert done.returncode == 0, done.stderr
    steps = said(done)
    assert [line.split(" (")[0] for line in steps] == [
        "setting up: creating .venv, the project's own Python environment",
        "setting up: updating pip and the build tools",
        "setting up: installing packages: Flask, the simulated board's MicroPython",
        "setting up: compiling the rules core to C",
        steps[-1],
    ]
    assert "(about a minute)" in steps[2] and "(about 30 s" in steps[3]
    assert steps[-1].startswith("setting up: done in ") and steps[-1].endswith(" s")
    # What the build could not do is said where the person looks; pip's words are in the log.
    assert "pawnlight build: mypyc is not installed" in done.stderr
    log = (setup_tree / ".venv" / "pip.log").read_text()
    assert "Building editable for pawnlight" in log and "pip -m pip install --upgrade pip" in log
    assert "Collecting" not in done.stderr
    # Set up already: silent.
    again = setup(setup_tree)
    assert again.returncode == 0 and again.stderr == ""
    # A changed rules core: compiled again, and said so.
    (setup_tree / ".venv" / "built").unlink()
    changed = setup(setup_tree)
    assert changed.returncode == 0, changed.stderr
    assert any("installing pawnlight again" in line for line in said(changed))


def test_setup_for_the_tests_says_it_takes_longer(setup_tree):
    steps = said(setup(setup_tree, "dev"))
    assert any("the test tools (about two minutes)" in line for line in steps), steps


def test_a_failed_install_shows_the_end_of_the_log(setup_tree):
    setup(setup_tree)
    (setup_tree / ".venv" / "built").unlink()
    (setup_tree / ".venv" / "pip-fails").touch()
    done = setup(setup_tree)
    assert done.returncode == 1
    assert (
        "ERROR: no network" in done.stderr
        and "pip install failed: see .venv/pip.log" in done.stderr
    )

"""A plain ``mypy`` is the type check: ./test runs exactly it, and it gives one answer whatever
its cache holds (docs/testing.md, "Types").

Before, web/ and firmware/ were mapped into the package by pyproject's package-dir, which mypy
cannot read: ./test ran a script that renamed files, and a plain ``mypy`` run left a cache
under which that script reported false errors.  Now pi/pawnlight holds web/ and firmware/ as
symlinks and there is one command; these tests fail when ./test checks types another way, or
when a run over a warm cache says anything but what a run over a cold one said.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MYPY = Path(sys.executable).with_name("mypy")


def test_dot_test_runs_plain_mypy():
    """./test's type step is ``.venv/bin/mypy`` with no arguments: pyproject's settings only,
    the very command a person types, so the two cannot disagree."""
    lines = (ROOT / "test").read_text(encoding="utf-8").splitlines()
    steps = [line.strip() for line in lines if re.search(r"\bmypy\b|typecheck", line)]
    steps = [step for step in steps if not step.startswith("#")]
    assert steps == [".venv/bin/mypy"], steps
    assert not (ROOT / "scripts" / "typecheck").exists()


def _mypy(cache: Path) -> tuple[int, str]:
    env = {**os.environ, "MYPY_CACHE_DIR": str(cache)}
    env.pop("MYPYPATH", None)
    done = subprocess.run(
        [str(MYPY)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=900
    )
    return done.returncode, done.stdout + done.stderr


@pytest.mark.slow
def test_plain_mypy_gives_one_answer_over_a_warm_cache(tmp_path):
    """Twice over one cache, starting from a copy of the one ./test's step left (whatever it
    holds; a cold start where there is none): both runs must find no error, in the same words
    (the number of files checked is in them).  Warm, each run takes seconds."""
    assert MYPY.exists(), f"no mypy beside {sys.executable}"
    cache = tmp_path / "mypy-cache"
    if (ROOT / ".mypy_cache").is_dir():
        shutil.copytree(ROOT / ".mypy_cache", cache)
    first = _mypy(cache)
    second = _mypy(cache)
    assert first[0] == 0, first[1]
    assert second == first
    assert re.fullmatch(r"Success: no issues found in \d+ source files\n", first[1]), first[1]

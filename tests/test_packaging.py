"""Every package folder ships: pyproject.toml lists packages explicitly (see the comment there)."""

import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_is_listed_in_pyproject():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    mapping = config["package-dir"]
    found = set()
    for package_dir in (ROOT / "pi").rglob("__init__.py"):
        found.add(".".join(package_dir.parent.relative_to(ROOT / "pi").parts))
    for name, folder in mapping.items():
        if name:
            for init in (ROOT / folder).rglob("__init__.py"):
                found.add(".".join((name, *init.parent.relative_to(ROOT / folder).parts)))
    assert found == listed


def test_the_wheel_builds_without_warnings_and_ships_its_data(tmp_path):
    """Folders of data (web/templates, web/static, firmware/configs) are declared as data: a
    build says nothing about packages absent from the configuration (issue #46)."""
    source = tmp_path / "source"
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.egg-info", "compiled-sources.json")
    for folder in ("pi", "web", "firmware", "hardware/layouts"):
        shutil.copytree(ROOT / folder, source / folder, ignore=ignore)
    for name in ("pyproject.toml", "setup.py", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source / name)
    pip = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-v"]
    built = subprocess.run(
        [*pip, "--disable-pip-version-check", "-w", str(tmp_path / "wheel"), str(source)],
        capture_output=True,
        text=True,
        env={**os.environ, "PAWNLIGHT_PURE_PYTHON": "1"},
        check=False,
    )
    assert built.returncode == 0, built.stderr[-2000:]
    said = built.stdout + built.stderr
    assert "absent from" not in said and "BuildBackendWarning" not in said
    (wheel,) = (tmp_path / "wheel").glob("pawnlight-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for data in (
        "pawnlight/web/templates/_board.html",
        "pawnlight/firmware/configs/presence.json",
        "pawnlight/layouts/presence.toml",
        "pawnlight/players/win_chance.json",
    ):
        assert data in names
    assert any(name.startswith("pawnlight/web/static/") for name in names)

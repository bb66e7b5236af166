"""Every package folder ships: pyproject.toml lists packages explicitly (see the comment there)."""

import tomllib
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

"""Every package folder ships: pyproject.toml lists packages explicitly (see the comment there)."""

import os
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_is_listed_in_pyproject():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    # One folder holds the whole package (web/, firmware/ and the layouts through symlinks):
    # what tools read is what is installed (docs/architecture.md, "The tooling layout").
    assert config["package-dir"] == {"": "pi"}
    found = set()
    for folder, _, files in os.walk(ROOT / "pi", followlinks=True):
        if "__init__.py" in files:
            found.add(".".join(Path(folder).relative_to(ROOT / "pi").parts))
    assert "pawnlight.web" in found and "pawnlight.firmware" in found
    assert found == set(config["packages"])


def test_the_linked_folders_are_the_top_level_ones():
    """web/, firmware/ and hardware/layouts/ stay where they are (the Pico runs firmware/ as bare
    modules); the package reaches them through relative symlinks, which git keeps as links."""
    package = ROOT / "pi" / "pawnlight"
    for name, target in [
        ("web", "web"),
        ("firmware", "firmware"),
        ("layouts", "hardware/layouts"),
    ]:
        link = package / name
        assert link.is_symlink(), f"{link} is not a symlink"
        assert not Path(os.readlink(link)).is_absolute()
        assert link.resolve() == (ROOT / target).resolve()

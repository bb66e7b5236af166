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
    # One folder holds the whole package (web/, firmware/ and the layouts through symlinks):
    # what tools read is what is installed (docs/architecture.md, "The tooling layout").
    assert config["package-dir"] == {"": "pi"}
    found = set()
    for folder, _, files in os.walk(ROOT / "pi", followlinks=True):
        if "__init__.py" in files:
            found.add(".".join(Path(folder).relative_to(ROOT / "pi").parts))
    assert "pawnlight.web" in found and "pawnlight.firmware" in found
    assert found == set(config["packages"])


def test_the_player_lab_is_a_distribution_of_its_own():
    """The player lab (lab/) ships apart from the Pi's package: its pyproject lists its own
    package folders, the Pi's lists none of them, and no lab module is left in pawnlight."""
    lab = tomllib.loads((ROOT / "lab" / "pyproject.toml").read_text())
    assert lab["project"]["name"] == "pawnlight-lab"
    assert "pawnlight" in lab["project"]["dependencies"]
    folders = {
        ".".join(init.parent.relative_to(ROOT / "lab").parts)
        for init in (ROOT / "lab").rglob("__init__.py")
    }
    assert set(lab["tool"]["setuptools"]["packages"]) == folders == {"pawnlight_lab"}
    pi = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert not [name for name in pi["tool"]["setuptools"]["packages"] if "lab" in name]
    lab_modules = {path.name for path in (ROOT / "lab" / "pawnlight_lab").glob("*.py")} - {
        "__init__.py"
    }
    assert {"train_value.py", "fit_win_chance.py", "headroom.py"} <= lab_modules
    left = sorted(
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "pi" / "pawnlight").rglob("*.py")
        if path.name in lab_modules
    )
    assert not left, f"modules of the player lab in the Pi's package: {left}"
    # What the Pi installs asks for nothing only the lab needs.
    wanted = " ".join(
        [*pi["project"]["dependencies"], *pi["project"]["optional-dependencies"]["pi"]]
    )
    assert "apologies" not in wanted and "numpy" not in wanted


def test_the_lab_yardstick_is_found_through_its_entry_point():
    """`pawnlight tournament --apologies` finds the lab's yardstick by the entry point the lab
    declares: the Pi's package names no module of the lab."""
    lab = tomllib.loads((ROOT / "lab" / "pyproject.toml").read_text())
    points = lab["project"]["entry-points"]["pawnlight.yardsticks"]
    assert points == {"apologies": "pawnlight_lab.apologies_match"}


#: Modules no wheel of the Pi's package may hold, by file name.  The hardware generators
#: (hardware/pawnlight_hardware, issue #43 part a):
HARDWARE_MODULES = {
    "route.py",  # the PCB router
    "build.py",  # the PCB generator ...
    "circuit.py",
    "netlist.py",
    "hub.py",
    "strips.py",
    "kicad_fab.py",
    "fab_files.py",
    "parts.py",  # the printed parts
    "build_files.py",
    "template.py",
    "underside.py",
    "stl.py",
    "draw_wiring.py",  # the wiring drawings
    "draw_board_maps.py",
    "wiring_tables.py",
    "bom_tables.py",
    "pictures.py",
}
#: ... and the player lab (lab/pawnlight_lab, issue #43 part b): checked by name so that this
#: test holds once both parts are merged.
LAB_MODULES = {
    "train_value.py",
    "fit_win_chance.py",
    "headroom.py",
    # not "plots.py": part b kept pawnlight/players/plots.py in the Pi's package, the pictures
    # of `pawnlight simulate --plots` (the stats extra), which the lab does not draw.
    "apologies_match.py",
    "story_calibration.py",
}


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


def test_the_wheel_builds_without_warnings_ships_its_data_and_no_generator(tmp_path):
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
    modules = [name for name in names if name.endswith(".py")]
    assert "pawnlight/cli.py" in modules and "pawnlight/board/layout.py" in modules
    # Issue #43: no module of the PCB generator, the router, the printed parts, the wiring
    # drawings nor the player training.
    found = sorted(
        name for name in modules if name.rpartition("/")[2] in HARDWARE_MODULES | LAB_MODULES
    )
    assert not found, f"the Pi's wheel holds generator or lab modules: {found}"
    assert not [name for name in names if "hardware" in name.split("/")[:2]]


def test_the_hardware_generators_are_a_distribution_of_their_own():
    """hardware/pyproject.toml ships the generators; the Pi's pyproject lists none of them and
    `pawnlight hardware` finds them through their entry point."""
    hardware = tomllib.loads((ROOT / "hardware" / "pyproject.toml").read_text())
    assert hardware["project"]["name"] == "pawnlight-hardware"
    assert "pawnlight" in hardware["project"]["dependencies"]
    folders = {
        ".".join(init.parent.relative_to(ROOT / "hardware").parts)
        for init in (ROOT / "hardware").rglob("__init__.py")
    } - {"layouts"}  # the layouts ship with the Pi's package, as pawnlight.layouts
    assert set(hardware["tool"]["setuptools"]["packages"]) == folders
    assert hardware["project"]["entry-points"]["pawnlight.commands"] == {
        "hardware": "pawnlight_hardware.cli:register"
    }
    pi = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert not [name for name in pi["tool"]["setuptools"]["packages"] if "hardware" in name]
    assert "pcb" not in pi["project"]["optional-dependencies"]


def test_pawnlight_hardware_without_the_generators_says_how_to_install_them(monkeypatch, capsys):
    import importlib.metadata

    from pawnlight import cli

    monkeypatch.setattr(importlib.metadata, "entry_points", lambda **kw: [])
    assert cli.main(["hardware", "parts", "--out", "x"]) == 1
    assert capsys.readouterr().err == cli.HARDWARE_MISSING + "\n"
    assert "pip install -e hardware" in cli.HARDWARE_MISSING

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


def test_the_pis_wheel_holds_no_generator_and_no_lab(tmp_path):
    """Build the Pi's wheel (pure Python) and list it: no module of the PCB generator, the
    router, the printed parts, the wiring drawings nor the player training."""
    import os
    import subprocess
    import sys
    import zipfile

    env = {**os.environ, "PAWNLIGHT_PURE_PYTHON": "1"}
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(tmp_path), str(ROOT)],
        check=True, env=env, capture_output=True,
    )  # fmt: skip
    (wheel,) = tmp_path.glob("pawnlight-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    modules = [name for name in names if name.endswith(".py")]
    assert "pawnlight/cli.py" in modules and "pawnlight/board/layout.py" in modules
    assert any(name.startswith("pawnlight/layouts/") and name.endswith(".toml") for name in names)
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

"""``pawnlight hardware pictures``: PNG pictures of the printed parts, drawn by OpenSCAD from
the STL files (under xvfb-run without a display)."""

from __future__ import annotations

import shutil
import struct
from pathlib import Path

import pytest

from pawnlight.cli import main
from pawnlight_hardware import pictures

DOCS_IMG = Path(__file__).parents[2] / "docs" / "img"


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path.name} is not a PNG"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("openscad") is None, reason="openscad not installed")
def test_the_command_draws_every_picture_at_its_size(
    build_files: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "img"
    assert main(["hardware", "pictures", "--out", str(out), "--parts", str(build_files)]) == 0
    names = sorted(path.name for path in out.iterdir())
    assert names == sorted(f"{p.name}.png" for p in pictures.PICTURES)
    for path in out.iterdir():
        assert _png_size(path) == pictures.SIZE
        # A blank frame compresses to a few hundred bytes; a drawn part to many kB.
        assert path.stat().st_size > 5000, f"{path.name} looks empty"
    assert capsys.readouterr().out.count("wrote ") == len(pictures.PICTURES)


def test_the_pictures_in_the_docs_are_the_commands_and_small() -> None:
    total = 0
    for picture in pictures.PICTURES:
        path = DOCS_IMG / f"{picture.name}.png"
        assert path.exists(), f"docs/img/{path.name}: pawnlight hardware pictures --out docs/img"
        assert _png_size(path) == pictures.SIZE
        total += path.stat().st_size
    assert total < 400_000


def test_a_parts_folder_without_parts_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["hardware", "pictures", "--out", str(tmp_path / "o"), "--parts", str(tmp_path)])
    assert code == 1
    assert "holds no parts" in capsys.readouterr().err


def test_without_a_display_or_xvfb_it_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.setattr(pictures, "openscad_command", lambda: "/usr/bin/openscad")
    monkeypatch.setattr(pictures.shutil, "which", lambda name: None)
    with pytest.raises(RuntimeError, match="xvfb"):
        pictures._command(tmp_path / "x.scad", tmp_path / "x.png", pictures.PICTURES[0])
    monkeypatch.setenv("DISPLAY", ":0")
    command = pictures._command(tmp_path / "x.scad", tmp_path / "x.png", pictures.PICTURES[0])
    assert command[0] == "/usr/bin/openscad" and "--imgsize=800,600" in command

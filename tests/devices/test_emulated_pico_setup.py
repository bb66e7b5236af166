"""What the emulated Pico needs, checked without running it (no UF2 needed)."""

from __future__ import annotations

import json
from pathlib import Path

import littlefs
import pytest

from pawnlight.cli import main
from pawnlight.devices.sim import emulated_pico as E


def test_without_the_folder_the_reason_names_the_variable(monkeypatch) -> None:
    monkeypatch.delenv(E.RP2040_DIR_VARIABLE, raising=False)
    assert E.RP2040_DIR_VARIABLE in (E.missing() or "")


def test_a_folder_without_micropython_or_the_boot_rom_is_named(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv(E.RP2040_DIR_VARIABLE, str(tmp_path))
    assert "no MicroPython .uf2" in (E.missing() or "")
    (tmp_path / "RPI_PICO-20250911-v1.26.1.uf2").write_bytes(b"")
    assert E.find_uf2(tmp_path) == tmp_path / "RPI_PICO-20250911-v1.26.1.uf2"
    assert E.BOOTROM_NAME in (E.missing() or "")
    (tmp_path / "other.uf2").write_bytes(b"")
    assert E.find_uf2(tmp_path) is None  # two builds: which one is meant is unclear


def test_run_sim_pico_without_the_binaries_is_a_clear_error(monkeypatch, capsys) -> None:
    monkeypatch.delenv(E.RP2040_DIR_VARIABLE, raising=False)
    assert main(["run", "--sim-pico"]) == 2
    err = capsys.readouterr().err
    assert "--sim-pico" in err and E.RP2040_DIR_VARIABLE in err and "Traceback" not in err


def test_the_filesystem_image_holds_the_pico_modules_and_the_config() -> None:
    config = json.loads((E.FIRMWARE_DIR / "configs" / "colour.json").read_text())
    image = E.filesystem_image(config)
    assert len(image) == E.FS_BLOCKS * E.FS_BLOCK_SIZE
    fs = littlefs.LittleFS(
        block_size=E.FS_BLOCK_SIZE, block_count=E.FS_BLOCKS, prog_size=E.FS_PROG_SIZE, mount=False
    )
    fs.context.buffer[:] = image
    fs.mount()
    files = set(fs.listdir("/"))
    assert {"main.py", "app.py", "hal.py", "hal_pico.py", "protocol.py", "config.json"} <= files
    assert not files & E.NOT_ON_THE_PICO  # the simulator's models stay on the host
    with fs.open("config.json") as f:
        assert json.load(f) == config
    with fs.open("main.py", "rb") as f:
        assert f.read() == (E.FIRMWARE_DIR / "main.py").read_bytes()


@pytest.mark.parametrize("slowdown", [1.0, 6.0])
def test_link_timers_stretch_with_the_slowdown(slowdown: float) -> None:
    settings = E.link_settings(slowdown)
    assert settings.heartbeat_timeout >= 2.0 * slowdown
    assert settings.handshake_timeout == pytest.approx(3.0 * slowdown)
    # The Pi's own heartbeat keeps its pace: it is the Pi, not the board, that is real-time.
    assert settings.heartbeat_interval == pytest.approx(0.5)


def test_the_emulator_script_is_where_the_module_looks() -> None:
    assert (E.EMULATOR_DIR / "pico.mjs").is_file()
    package = json.loads((E.EMULATOR_DIR / "package.json").read_text())
    assert package["dependencies"]["rp2040js"][0].isdigit()  # pinned, not a range
    assert Path(E.EMULATOR_DIR / "package-lock.json").is_file()

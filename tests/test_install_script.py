"""deploy/install.sh, run for real against a temporary root (PAWNLIGHT_ROOT): a dry run.

What would change the machine itself is a stand-in on PATH that records its arguments: apt-get,
dpkg-query, id, systemctl, useradd, groupadd, usermod, chown; and the Python it builds with
(PYTHON) makes a venv whose pip and pawnlight only record and answer.  Everything else (the
checks, the files it writes, what it prints) is the script's own.  The whole install on a real
arm64 root filesystem is the release check, scripts/check-pi-os (docs/testing.md).
"""

from __future__ import annotations

import http.server
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "deploy" / "install.sh"

# Each stand-in appends "name args..." to $CALLS.
RECORD = 'echo "$(basename "$0") $*" >>"$CALLS"\n'
STANDINS = {
    "apt-get": RECORD + '[ "$1" = update ] && [ -n "${FAKE_OFFLINE:-}" ] && exit 100\nexit 0\n',
    "dpkg-query": '[ -n "${FAKE_MISSING:-}" ] && exit 1\necho "install ok installed"\n',
    "id": 'if [ "$1" = -u ]; then echo "${FAKE_UID:-0}"; else exec /usr/bin/id "$@"; fi\n',
    "systemctl": RECORD,
    "chown": RECORD,
    # The shadow tools with --prefix ROOT: the line they would add, added.
    "useradd": RECORD
    + 'echo "${!#}:x:990:990::/var/lib/pawnlight:/usr/sbin/nologin" >>"$2/etc/passwd"\n'
    'echo "${!#}:x:990:" >>"$2/etc/group"\n',
    "groupadd": RECORD + 'echo "${!#}:x:991:" >>"$2/etc/group"\n',
    "usermod": RECORD,
}

# The Python to build with: real, except that `-m venv DIR` makes a venv of stand-ins.
FAKE_PYTHON = f"""#!/bin/sh
if [ "$1" = -m ] && [ "$2" = venv ]; then
    mkdir -p "$3/bin"
    cat >"$3/bin/python" <<'EOF'
#!/bin/sh
if [ "$1" = -m ] && [ "$2" = pip ]; then
    echo "pip $*${{PYPI:+ [PYPI=$PYPI]}}" >>"$CALLS"
    if [ -n "${{FAKE_PIP_RESET_ONCE:-}}" ] && [ ! -e "$FAKE_PIP_RESET_ONCE" ]; then
        : >"$FAKE_PIP_RESET_ONCE"
        echo "ConnectionResetError(104, 'Connection reset by peer')" >&2
        exit 2
    fi
    if [ -n "${{FAKE_PIP_OFFLINE:-}}" ]; then
        echo "WARNING: Retrying after connection broken by NewConnectionError" >&2
        exit 1
    fi
    echo "Successfully installed pawnlight-0.1.0"
    exit 0
fi
exec {sys.executable} "$@"
EOF
    printf '#!/bin/sh\\necho "rules core: compiled (mypyc)"\\n' >"$3/bin/pawnlight"
    chmod +x "$3/bin/python" "$3/bin/pawnlight"
    exit 0
fi
exec {sys.executable} "$@"
"""


@dataclass
class Installer:
    root: Path
    env: dict[str, str]
    calls: Path

    def run(self, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
        self.calls.write_text("")
        return subprocess.run(
            ["bash", str(SCRIPT), *args],
            env={**self.env, **env},
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )

    def called(self) -> list[str]:
        return self.calls.read_text().splitlines()

    def path(self, inside: str) -> Path:
        return self.root / inside.lstrip("/")


@pytest.fixture
def installer(tmp_path: Path) -> Installer:
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    (root / "etc/passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    # Plain Debian: dialout and input, but no gpio or spi group (Raspberry Pi OS has them).
    (root / "etc/group").write_text("root:x:0:\ndialout:x:20:\ninput:x:101:\n")
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    for name, body in STANDINS.items():
        (bin_ / name).write_text("#!/bin/bash\n" + body)
        (bin_ / name).chmod(0o755)
    python = bin_ / "python-for-install"
    python.write_text(FAKE_PYTHON)
    python.chmod(0o755)
    calls = tmp_path / "calls"
    env = {
        "PATH": f"{bin_}:{os.environ['PATH']}",
        "PAWNLIGHT_ROOT": str(root),
        "PYTHON": str(python),
        "CALLS": str(calls),
        "LANG": "C.UTF-8",
        "PAWNLIGHT_RETRY_SECONDS": "0",
    }
    return Installer(root, env, calls)


def test_an_install_where_systemd_is_not_running_enables_the_service_without_starting_it(
    installer: Installer,
):
    result = installer.run()
    assert result.returncode == 0, result.stderr
    assert "installed and enabled, not started" in result.stdout
    assert re.search(r"the page: http://\S+\.local:8080/", result.stdout.splitlines()[-1])
    calls = installer.called()
    assert f"systemctl --root={installer.root} enable pawnlight.service" in calls
    assert not [call for call in calls if re.search(r"systemctl .*(start|restart|--now)", call)]
    unit = installer.path("/etc/systemd/system/pawnlight.service")
    assert unit.read_text() == (ROOT / "deploy/pawnlight.service").read_text()
    settings = installer.path("/etc/pawnlight/pawnlight.toml").read_text()
    assert 'layout = "presence"' in settings and "port = 8080" in settings
    env = installer.path("/etc/pawnlight/pawnlight.env")
    assert re.fullmatch(r"PAWNLIGHT_PIN=\d{10}\n", env.read_text())
    assert env.stat().st_mode & 0o077 == 0
    assert installer.path("/var/lib/pawnlight").is_dir()


def test_a_connection_reset_during_pip_is_tried_again(installer: Installer, tmp_path: Path):
    result = installer.run(FAKE_PIP_RESET_ONCE=str(tmp_path / "reset-once"))
    assert result.returncode == 0, result.stderr
    assert "pip lost the network; trying again in 0 s (attempt 2 of 3)" in result.stdout
    pip = [call for call in installer.called() if call.startswith("pip")]
    assert pip[0] == pip[1]  # the same install, again
    # and pip itself retries each download
    assert all("--retries 10" in call for call in pip), pip


def test_the_service_user_gets_only_its_groups_and_plain_debian_gets_gpio_and_spi(
    installer: Installer,
):
    assert installer.run().returncode == 0
    calls = installer.called()
    added = [call for call in calls if call.startswith("usermod")]
    assert added == [
        f"usermod --prefix {installer.root} -aG {group} pawnlight"
        for group in ("dialout", "gpio", "spi", "input")
    ]
    assert f"groupadd --prefix {installer.root} --system gpio" in calls
    assert any(call.startswith("useradd") and "--system" in call for call in calls)
    rules = installer.path("/etc/udev/rules.d/60-pawnlight-gpio.rules").read_text()
    assert 'KERNEL=="gpiochip*", GROUP="gpio"' in rules and 'SUBSYSTEM=="spidev"' in rules


def test_on_raspberry_pi_os_its_own_gpio_groups_and_rules_are_used(installer: Installer):
    with installer.path("/etc/group").open("a") as group:
        group.write("gpio:x:993:\nspi:x:994:\n")
    assert installer.run().returncode == 0
    assert not [call for call in installer.called() if call.startswith("groupadd")]
    assert not installer.path("/etc/udev/rules.d/60-pawnlight-gpio.rules").exists()


def test_only_debian_packages_are_installed_and_only_when_missing(installer: Installer):
    assert installer.run().returncode == 0
    assert not [call for call in installer.called() if call.startswith("apt-get")]
    assert installer.run(FAKE_MISSING="1").returncode == 0
    install = [call for call in installer.called() if call.startswith("apt-get install")]
    # No liblgpio-dev (the Raspberry Pi archive's): lgpio is a wheel, or built with Debian's swig.
    assert install == ["apt-get install -y -qq python3-venv python3-dev gcc swig"]


def test_pawnlight_is_installed_with_the_pi_extra_from_this_checkout(installer: Installer):
    assert installer.run().returncode == 0
    pip = [call for call in installer.called() if call.startswith("pip")]
    last = "install --disable-pip-version-check --retries 10 --timeout 60 --upgrade"
    last += " --no-build-isolation"
    # PYPI=1: where no lgpio wheel fits, its source is built with its C library inside.
    assert pip[-1].endswith(f"{last} {ROOT}[pi] [PYPI=1]")
    assert not [call for call in pip[:-1] if "PYPI" in call]


def test_a_second_run_upgrades_and_keeps_settings_pin_and_games(installer: Installer):
    assert installer.run().returncode == 0
    settings = installer.path("/etc/pawnlight/pawnlight.toml")
    settings.write_text(settings.read_text().replace("port = 8080", "port = 8123"))
    pin = installer.path("/etc/pawnlight/pawnlight.env").read_text()
    game = installer.path("/var/lib/pawnlight/journal.sqlite3")
    game.write_bytes(b"a game")
    again = installer.run()
    assert again.returncode == 0, again.stderr
    assert "owner PIN" not in again.stdout
    assert installer.path("/etc/pawnlight/pawnlight.env").read_text() == pin
    assert "port = 8123" in settings.read_text() and game.read_bytes() == b"a game"
    assert any(f"--upgrade --no-build-isolation {ROOT}[pi]" in call for call in installer.called())
    assert ":8123/" in again.stdout.splitlines()[-1]


def test_a_venv_of_another_python_is_made_again(installer: Installer):
    venv = installer.path("/opt/pawnlight/venv/bin")
    venv.mkdir(parents=True)
    (venv / "python").write_text("#!/bin/sh\necho 3.9\n")
    (venv / "python").chmod(0o755)
    result = installer.run()
    assert result.returncode == 0, result.stderr
    assert "making the venv again" in result.stdout
    assert "exec" in (venv / "python").read_text()  # the stand-in venv of the current Python


@pytest.fixture
def page() -> Iterator[int]:
    """A page answering on loopback, standing in for the started service's."""
    server = http.server.HTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def test_where_systemd_runs_the_service_is_started_and_its_page_waited_for(
    installer: Installer, page: int
):
    installer.path("/run/systemd/system").mkdir(parents=True)
    installer.path("/etc/pawnlight").mkdir(parents=True)
    installer.path("/etc/pawnlight/pawnlight.toml").write_text(f"[http]\nport = {page}\n")
    result = installer.run()
    assert result.returncode == 0, result.stderr
    calls = [call for call in installer.called() if call.startswith("systemctl")]
    assert calls == [
        "systemctl daemon-reload",
        "systemctl enable pawnlight.service",
        "systemctl restart pawnlight.service",
    ]
    assert "pawnlight is running" in result.stdout
    assert f":{page}/" in result.stdout.splitlines()[-1]


def test_remove_takes_the_service_and_program_and_keeps_games_and_settings(installer: Installer):
    assert installer.run().returncode == 0
    installer.path("/var/lib/pawnlight/journal.sqlite3").write_bytes(b"a game")
    result = installer.run("--remove")
    assert result.returncode == 0, result.stderr
    assert f"systemctl --root={installer.root} disable pawnlight.service" in installer.called()
    assert not installer.path("/etc/systemd/system/pawnlight.service").exists()
    assert not installer.path("/opt/pawnlight").exists()
    assert installer.path("/var/lib/pawnlight/journal.sqlite3").read_bytes() == b"a game"
    assert installer.path("/etc/pawnlight/pawnlight.toml").exists()
    assert "games stay in /var/lib/pawnlight" in result.stdout


@pytest.mark.parametrize(
    ("args", "env", "error"),
    [
        ((), {"FAKE_UID": "1000"}, "run as root: sudo "),
        (("--remove",), {"FAKE_UID": "1000"}, "run as root: sudo "),
        (("--frobnicate",), {}, "unknown option '--frobnicate'"),
        ((), {"PYTHON": "/nonexistent/python3"}, "no /nonexistent/python3 here"),
        ((), {"PAWNLIGHT_NEED_MB": str(10**9)}, "not enough disk: "),
        ((), {"FAKE_MISSING": "1", "FAKE_OFFLINE": "1"}, "no network: apt-get update failed"),
        ((), {"FAKE_PIP_OFFLINE": "1"}, "no network: pip could not reach the package index"),
    ],
)
def test_the_usual_failures_are_one_line(
    installer: Installer, args: tuple[str, ...], env: dict[str, str], error: str
):
    result = installer.run(*args, **env)
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith(f"pawnlight install: {error}")


def test_an_old_python_is_a_one_line_error(installer: Installer, tmp_path: Path):
    old = tmp_path / "python3.9"
    old.write_text('#!/bin/sh\n[ "$1" = --version ] && { echo "Python 3.9.2"; exit 0; }\nexit 1\n')
    old.chmod(0o755)
    result = installer.run(PYTHON=str(old))
    assert result.returncode == 1
    assert result.stderr == (
        f"pawnlight install: pawnlight needs Python 3.11 or newer; {old} is Python 3.9.2 "
        "(Raspberry Pi OS Bookworm or newer has 3.11)\n"
    )


def test_the_unit_runs_hardened_as_its_own_user():
    unit = (ROOT / "deploy/pawnlight.service").read_text()
    for setting in (
        "User=pawnlight",
        "NoNewPrivileges=true",
        "ProtectSystem=strict",
        "ProtectHome=true",
        "PrivateTmp=true",
        "ReadWritePaths=/var/lib/pawnlight",
    ):
        assert f"\n{setting}\n" in unit
    # Its groups come from /etc/group: SupplementaryGroups= naming a group plain Debian lacks
    # would stop it from starting; PrivateDevices= would hide the serial port, SPI and GPIO.
    assert not re.search(r"^(SupplementaryGroups|PrivateDevices)=", unit, re.MULTILINE)

"""The web's settings: the names the page answers to, and the PIN the installer makes."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from pawnlight.runtime import config

ROOT = Path(__file__).resolve().parents[1]


def test_allowed_hosts_from_the_file_and_the_environment(tmp_path, monkeypatch):
    monkeypatch.delenv("PAWNLIGHT_ALLOWED_HOSTS", raising=False)
    path = tmp_path / "pawnlight.toml"
    path.write_text('[http]\nport = 8080\nallowed_hosts = ["board.lan", "sorry.home"]\n')
    assert config.load(path).http_allowed_hosts == ["board.lan", "sorry.home"]
    monkeypatch.setenv("PAWNLIGHT_ALLOWED_HOSTS", "a.lan, b.lan")
    assert config.load(path).http_allowed_hosts == ["a.lan", "b.lan"]


@pytest.mark.parametrize("value", ['"board.lan"', "[1]", '[""]'])
def test_allowed_hosts_must_be_a_list_of_names(tmp_path, value):
    path = tmp_path / "pawnlight.toml"
    path.write_text(f"[http]\nallowed_hosts = {value}\n")
    with pytest.raises(config.ConfigError, match="allowed_hosts must be a list of names"):
        config.load(path)


def test_the_installer_makes_a_ten_digit_pin():
    script = (ROOT / "deploy" / "install.sh").read_text()
    snippet = re.search(r"pin=\$\(python3 -c '([^']+)'\)", script)
    assert snippet is not None, "the installer no longer makes its PIN with python3 -c"
    pins = {
        subprocess.run(
            [sys.executable, "-c", snippet.group(1)], capture_output=True, text=True, check=True
        ).stdout.strip()
        for _ in range(3)
    }
    assert all(re.fullmatch(r"\d{10}", pin) for pin in pins) and len(pins) > 1

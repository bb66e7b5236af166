"""``pawnlight run --remote URL --board-id NAME``: checked in words before anything starts."""

from __future__ import annotations

import subprocess
import sys

import pytest

from pawnlight.remote.link.board_link import RemoteUrlError, parse_remote
from pawnlight.runtime import config as settings


def test_broker_addresses():
    assert parse_remote("mqtt://club.example.org:1884").port == 1884
    plain, tls = parse_remote("mqtt://127.0.0.1"), parse_remote("mqtts://club.example.org")
    assert (plain.host, plain.port, plain.tls) == ("127.0.0.1", 1883, False)
    assert (tls.host, tls.port, tls.tls) == ("club.example.org", 8883, True)
    for bad, words in [
        ("http://club:1883", "mqtt://HOST:PORT"),
        ("mqtt://club:port", "not a number"),
        ("mqtt://user:secret@club:1883", "PAWNLIGHT_MQTT_USER"),
        ("mqtt://club:1883/pawnlight", "mqtt://HOST:PORT"),
        ("mqtt://", "mqtt://HOST:PORT"),
    ]:
        with pytest.raises(RemoteUrlError, match=words):
            parse_remote(bad)


def test_remote_needs_a_board_id_and_the_other_way_round(monkeypatch):
    monkeypatch.delenv("PAWNLIGHT_MQTT_USER", raising=False)
    with pytest.raises(settings.ConfigError, match="both --remote URL and --board-id NAME"):
        settings.load(None, {"remote": "mqtt://127.0.0.1:1883"})
    with pytest.raises(settings.ConfigError, match="both"):
        settings.load(None, {"board_id": "kitchen"})
    with pytest.raises(settings.ConfigError, match="letters, digits and '-'"):
        settings.load(None, {"remote": "mqtt://127.0.0.1:1883", "board_id": "the kitchen"})
    with pytest.raises(settings.ConfigError, match="mqtt://HOST:PORT"):
        settings.load(None, {"remote": "ws://127.0.0.1", "board_id": "kitchen"})


def test_credentials_from_the_environment_or_the_file(tmp_path, monkeypatch):
    path = tmp_path / "pawnlight.toml"
    path.write_text(
        'remote = "mqtts://club.example.org"\nboard_id = "kitchen"\n'
        'mqtt_user = "kitchen"\nmqtt_password = "from-file"\nmqtt_ca = "/etc/ca.pem"\n'
    )
    monkeypatch.delenv("PAWNLIGHT_MQTT_USER", raising=False)
    monkeypatch.setenv("PAWNLIGHT_MQTT_PASSWORD", "from-env")
    config = settings.load(path)
    assert (config.remote, config.board_id) == ("mqtts://club.example.org", "kitchen")
    assert (config.mqtt_user, config.mqtt_password) == ("kitchen", "from-env")
    assert config.mqtt_ca == "/etc/ca.pem"
    path.write_text("board_id = 7\n")
    with pytest.raises(settings.ConfigError, match="board_id has the wrong type"):
        settings.load(path)


def test_the_command_line_says_what_is_wrong_without_a_traceback(tmp_path):
    run = [sys.executable, "-m", "pawnlight.cli", "run", "--sim", "--data", str(tmp_path)]
    done = subprocess.run(
        [*run, "--remote", "mqtt://127.0.0.1:1883", "--board-id", "a/b"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "board id is 1 to 64 letters" in done.stderr and "Traceback" not in done.stderr


def test_the_keepalive_is_a_number_of_seconds_within_reason(tmp_path):
    path = tmp_path / "pawnlight.toml"
    assert settings.load(None).mqtt_keepalive == 10
    path.write_text("mqtt_keepalive = 3\n")
    assert settings.load(path).mqtt_keepalive == 3
    for wrong, words in (("1", "2..600 seconds"), ('"10"', "mqtt_keepalive has the wrong type")):
        path.write_text(f"mqtt_keepalive = {wrong}\n")
        with pytest.raises(settings.ConfigError, match=words):
            settings.load(path)


def test_the_offline_grace_is_a_number_of_seconds_within_reason(tmp_path):
    path = tmp_path / "pawnlight.toml"
    assert settings.load(None).offline_grace == 120
    path.write_text("offline_grace = 30\n")
    assert settings.load(path).offline_grace == 30
    path.write_text("offline_grace = 0\n")
    with pytest.raises(settings.ConfigError, match=r"offline_grace must be 1\.\.86400 seconds"):
        settings.load(path)

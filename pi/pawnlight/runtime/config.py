"""The daemon's settings: a TOML file, the environment, then the command line, in that order.

See docs/daemon.md for every key. Example ``/etc/pawnlight/pawnlight.toml``::

    pin = "4711"
    public_url = "http://pawnlight.local:8080/"
    layout = "presence"          # or "colour", or a path to a layout file
    board = "serial:auto"        # or serial:/dev/ttyACM0, sim:presence, sim-pico:colour, ...
    card_reader = "board"        # board, spi or keyboard
    keyboard_device = "/dev/input/by-id/usb-reader-event-kbd"
    brightness = 0.6
    settle = 0.3

    [http]
    host = "0.0.0.0"
    port = 8080
    allowed_hosts = ["board.example.lan"]   # names besides the Pi's own (see docs/web.md)

    [pins]                       # BCM numbers
    confirm = 5
    undo = 6
    new_game = 13
    hint = 12
    buzzer = 19
    status_led = 26
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from pawnlight.companion import config as checks
from pawnlight.companion.config import ConfigError
from pawnlight.devices.controls import ControlPins
from pawnlight.devices.open_board import BoardSpecError, parse_board_spec
from pawnlight.store.location import data_dir


@dataclass
class Config:
    data: Path = field(default_factory=data_dir)
    sim: bool = False
    #: With sim: the simulated board's firmware runs on an emulated RP2040 (the real
    #: MicroPython UF2 in rp2040js) instead of the MicroPython unix port.
    sim_pico: bool = False
    http_host: str = "127.0.0.1"
    http_port: int = 8080
    #: Host names the page answers to besides localhost, the machine's names and addresses.
    http_allowed_hosts: list[str] = field(default_factory=list)
    #: The address phones should open (shown as the QR code), e.g. http://pawnlight.local:8080/
    public_url: str | None = None
    pin: str | None = None
    #: presence, colour or a layout file; None: a simulated board's own kind, else presence.
    layout: str | None = None
    #: The board to open, as devices.open_board spells it ("serial:auto", "sim:colour", ...);
    #: None: what sim, sim_pico and serial say.
    board: str | None = None
    serial: str | None = None
    card_reader: str = "board"
    keyboard_device: str | None = None
    keyboard_decimal: bool = False
    brightness: float = checks.BRIGHTNESS_DEFAULT
    settle: float = checks.SETTLE_DEFAULT
    pins: ControlPins = field(default_factory=ControlPins)
    #: Remote play (docs/remote.md): the broker (mqtt://HOST:PORT or mqtts://...), this board's
    #: id on it, the user and password (PAWNLIGHT_MQTT_USER, PAWNLIGHT_MQTT_PASSWORD), and for
    #: mqtts a CA certificate file to trust (else the system's).
    remote: str | None = None
    board_id: str | None = None
    mqtt_user: str | None = None
    mqtt_password: str | None = None
    mqtt_ca: str | None = None
    #: Seconds between the link's pings to the broker: a board silent for 1.5 times this is
    #: taken offline by the broker (its last will), and a broker silent as long is left.
    mqtt_keepalive: int = 10
    #: Seconds a board of a remote game is offline before its host may let the computer play
    #: its colours or adjourn the game.
    offline_grace: int = 120


_TOP_KEYS = {
    "pin": str,
    "layout": str,
    "board": str,
    "serial": str,
    "card_reader": str,
    "keyboard_device": str,
    "keyboard_decimal": bool,
    "data": str,
    "public_url": str,
    "remote": str,
    "board_id": str,
    "mqtt_user": str,
    "mqtt_password": str,
    "mqtt_ca": str,
    "mqtt_keepalive": int,
    "offline_grace": int,
}


def load(path: Path | None, overrides: dict[str, Any] | None = None) -> Config:
    """Read the file (if any), then ``PAWNLIGHT_PIN``, then the command line's overrides."""
    config = Config()
    if path is not None:
        _apply_file(config, path)
    pin = os.environ.get("PAWNLIGHT_PIN")
    if pin:
        config.pin = pin
    for name in ("user", "password"):
        value = os.environ.get(f"PAWNLIGHT_MQTT_{name.upper()}")
        if value:
            setattr(config, f"mqtt_{name}", value)
    hosts = os.environ.get("PAWNLIGHT_ALLOWED_HOSTS")
    if hosts:
        config.http_allowed_hosts = [name for name in hosts.replace(",", " ").split() if name]
    for key, value in (overrides or {}).items():
        if value is not None:
            setattr(config, key, value)
    config.data = Path(config.data).expanduser()
    _check(config, str(path or "the command line"))
    return config


def _apply_file(config: Config, path: Path) -> None:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ConfigError(f"cannot read the config file {path}: {error.strerror}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: {error}") from None
    for key, value in data.items():
        if key == "http":
            if not isinstance(value, dict):
                raise ConfigError(f"{path}: [http] must be a table")
            for sub, item in value.items():
                if sub == "allowed_hosts":
                    if not isinstance(item, list) or not all(
                        isinstance(name, str) and 0 < len(name) <= 253 for name in item
                    ):
                        raise ConfigError(f"{path}: http.allowed_hosts must be a list of names")
                    config.http_allowed_hosts = list(item)
                    continue
                if sub not in ("host", "port"):
                    raise ConfigError(f"{path}: unknown key http.{sub}")
                expected = str if sub == "host" else int
                if not isinstance(item, expected) or isinstance(item, bool):
                    raise ConfigError(f"{path}: http.{sub} must be a {expected.__name__}")
                setattr(config, f"http_{sub}", item)
        elif key == "pins":
            if not isinstance(value, dict):
                raise ConfigError(f"{path}: [pins] must be a table")
            names = {f.name for f in fields(ControlPins)}
            for sub, item in value.items():
                if sub not in names:
                    raise ConfigError(
                        f"{path}: unknown pin {sub!r} (expected {', '.join(sorted(names))})"
                    )
                if not isinstance(item, int) or isinstance(item, bool) or not 0 <= item <= 27:
                    raise ConfigError(f"{path}: pins.{sub} must be a BCM pin number 0..27")
            config.pins = ControlPins(**{**config.pins.__dict__, **value})
        elif key in checks.SETTING_NAMES and key not in ("speech", "language"):
            setattr(config, key, _setting(key, value, str(path)))
        elif key in _TOP_KEYS:
            if not isinstance(value, _TOP_KEYS[key]) or (
                isinstance(value, bool) and _TOP_KEYS[key] is not bool
            ):
                raise ConfigError(f"{path}: {key} has the wrong type ({type(value).__name__})")
            setattr(config, key, Path(str(value)) if key == "data" else value)
        else:
            raise ConfigError(f"{path}: unknown key {key!r}")


def _check(config: Config, source: str) -> None:
    if config.board is not None:
        try:
            parse_board_spec(config.board)
        except BoardSpecError as error:
            raise ConfigError(f"{source}: board: {error}") from None
    if config.card_reader not in ("board", "spi", "keyboard"):
        raise ConfigError(f"{source}: card_reader must be board, spi or keyboard")
    if config.card_reader == "keyboard" and not config.keyboard_device:
        raise ConfigError(f"{source}: card_reader = keyboard needs keyboard_device")
    config.brightness = _setting("brightness", config.brightness, source)
    config.settle = _setting("settle", config.settle, source)
    if not 0 <= config.http_port <= 65535:
        raise ConfigError(f"{source}: the HTTP port must be 0..65535")
    _check_remote(config, source)


def _check_remote(config: Config, source: str) -> None:
    """--remote needs --board-id (and the other way round), both well formed."""
    from pawnlight.remote.link.board_link import RemoteUrlError, parse_remote
    from pawnlight.remote.protocol import ProtocolError, check_board_id

    if not 2 <= config.mqtt_keepalive <= 600:
        raise ConfigError(f"{source}: mqtt_keepalive must be 2..600 seconds")
    if not 1 <= config.offline_grace <= 86400:
        raise ConfigError(f"{source}: offline_grace must be 1..86400 seconds")
    if config.remote is None and config.board_id is None:
        return
    if config.remote is None or config.board_id is None:
        raise ConfigError(f"{source}: remote play needs both --remote URL and --board-id NAME")
    try:
        parse_remote(config.remote)
        check_board_id(config.board_id)
    except (RemoteUrlError, ProtocolError) as error:
        raise ConfigError(f"{source}: {error}") from None


def _setting(name: str, value: object, source: str) -> float:
    """A setting the page can change too, checked as the page's are (companion.config)."""
    try:
        return float(checks.setting(name, value))
    except ConfigError as error:
        raise ConfigError(f"{source}: {error}") from None

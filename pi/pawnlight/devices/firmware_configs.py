"""The Pico's board configs shipped with the Pi's package (pawnlight.firmware's configs/*.json):
the diagnostics read their tolerances, the hardware generators check the wiring against them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pawnlight.firmware
from pawnlight.firmware import config as firmware_config


def firmware_config_path(name: str) -> Path:
    return Path(pawnlight.firmware.__file__).parent / "configs" / name


def load_firmware_config(name: str) -> dict[str, Any]:
    return firmware_config.load(str(firmware_config_path(name)))

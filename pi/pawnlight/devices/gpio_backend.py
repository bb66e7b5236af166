"""Which pins the buttons, buzzer and status LED use, and one line saying which and why.

On a Raspberry Pi (a ``/dev/gpiochip*`` exists) that is lgpio, which the ``pi`` extra's
rpi-lgpio brings as a wheel (deploy/install.sh installs it; nothing from the Raspberry Pi
archive is needed).  Without the extra, or on a machine with no GPIO at all (a laptop with the
board's Pico on USB), the daemon still runs, on gpiozero's mock pins, and says what to install.
``GPIOZERO_PIN_FACTORY`` in the environment overrides the choice, as gpiozero documents.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["GpioChoice", "choose_gpio", "open_pin_factory"]


@dataclass(frozen=True)
class GpioChoice:
    """``backend``: "lgpio", "mock", or the name GPIOZERO_PIN_FACTORY gives; ``why``: one line."""

    backend: str
    why: str


def choose_gpio(
    dev: Path = Path("/dev"),
    environ: Mapping[str, str] = os.environ,
    installed: Callable[[str], bool] = lambda name: importlib.util.find_spec(name) is not None,
) -> GpioChoice:
    asked = environ.get("GPIOZERO_PIN_FACTORY")
    if asked:
        return GpioChoice(asked, f"gpio: gpiozero's {asked} pins, as GPIOZERO_PIN_FACTORY asks")
    chips = sorted(dev.glob("gpiochip*"))
    if not chips:
        return GpioChoice(
            "mock",
            "gpio: no /dev/gpiochip* on this machine, so no buttons, buzzer or status LED "
            "(mock pins)",
        )
    if not installed("lgpio"):
        return GpioChoice(
            "mock",
            f"gpio: {chips[0]} exists but lgpio is missing, so the buttons, buzzer and status "
            "LED are off: install the pi extra (pip install 'pawnlight[pi]', as "
            "deploy/install.sh does)",
        )
    return GpioChoice("lgpio", f"gpio: lgpio (the pi extra's rpi-lgpio), since {chips[0]} exists")


def open_pin_factory(choice: GpioChoice) -> Any:
    """gpiozero's pin factory for ``choice``; None lets gpiozero open the one it was asked for."""
    if choice.backend == "mock":
        from gpiozero.pins.mock import MockFactory

        return MockFactory()
    if choice.backend == "lgpio":
        from gpiozero.pins.lgpio import LGPIOFactory

        return LGPIOFactory()
    return None

"""The daemon's choice of GPIO pins and the line that says it (pawnlight.devices.gpio_backend)."""

from __future__ import annotations

from pathlib import Path

from gpiozero.pins.mock import MockFactory

from pawnlight.devices.gpio_backend import GpioChoice, choose_gpio, open_pin_factory


def _dev(tmp_path: Path, *names: str) -> Path:
    for name in names:
        (tmp_path / name).touch()
    return tmp_path


def test_a_pi_with_the_pi_extra_uses_lgpio(tmp_path: Path):
    choice = choose_gpio(_dev(tmp_path, "gpiochip0", "gpiochip4"), {}, lambda name: True)
    assert choice.backend == "lgpio"
    chip = tmp_path / "gpiochip0"
    assert choice.why == f"gpio: lgpio (the pi extra's rpi-lgpio), since {chip} exists"


def test_a_pi_without_the_pi_extra_says_what_to_install_and_runs_on_mock_pins(tmp_path: Path):
    asked: list[str] = []

    def installed(name: str) -> bool:
        asked.append(name)
        return False

    choice = choose_gpio(_dev(tmp_path, "gpiochip0"), {}, installed)
    assert asked == ["lgpio"]
    assert choice.backend == "mock"
    assert "lgpio is missing" in choice.why and "pip install 'pawnlight[pi]'" in choice.why
    assert "\n" not in choice.why
    assert isinstance(open_pin_factory(choice), MockFactory)


def test_a_machine_without_gpio_runs_on_mock_pins(tmp_path: Path):
    choice = choose_gpio(_dev(tmp_path, "ttyACM0"), {}, lambda name: True)
    assert choice == GpioChoice(
        "mock",
        "gpio: no /dev/gpiochip* on this machine, so no buttons, buzzer or status LED (mock pins)",
    )


def test_gpiozero_pin_factory_in_the_environment_wins(tmp_path: Path):
    choice = choose_gpio(_dev(tmp_path, "gpiochip0"), {"GPIOZERO_PIN_FACTORY": "native"})
    assert choice.backend == "native" and "GPIOZERO_PIN_FACTORY" in choice.why
    assert open_pin_factory(choice) is None  # gpiozero opens the one it is asked for

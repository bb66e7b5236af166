"""Buttons, buzzer and status LED through gpiozero's own MockFactory."""

import pytest
from gpiozero.pins.mock import MockFactory

from pawnlight.devices.controls import (
    BOUNCE,
    PATTERNS,
    ButtonPressed,
    ButtonsHeld,
    ControlPins,
    Controls,
)


@pytest.fixture
def factory():
    return MockFactory()


class RecordedControls(Controls):
    """Controls that keep what they emitted."""

    pressed: list[ButtonPressed]


@pytest.fixture
def controls(factory):
    pressed: list[ButtonPressed] = []
    controls = RecordedControls(
        pressed.append, ControlPins(), pin_factory=factory, clock=lambda: 42.0
    )
    controls.pressed = pressed
    yield controls
    controls.close()


def test_pressing_a_button_emits_its_name(controls, factory):
    pin = factory.pin(ControlPins().undo)
    pin.drive_low()  # the button pulls the pin to ground
    pin.drive_high()
    assert controls.pressed == [ButtonPressed("undo", 42.0)]


def test_pins_come_from_the_config(factory):
    pressed: list[ButtonPressed] = []
    controls = Controls(pressed.append, ControlPins(confirm=21), pin_factory=factory)
    factory.pin(21).drive_low()
    assert [p.name for p in pressed] == ["confirm"]
    controls.close()


def test_status_led_steady_when_ok_off_when_off(controls, factory):
    led = factory.pin(ControlPins().status_led)
    controls.status("ok")
    assert led.state
    controls.status("off")
    assert not led.state
    with pytest.raises(ValueError, match="unknown status"):
        controls.status("sparkly")


def test_buzzer_patterns_switch_the_buzzer_pin(controls, factory):
    buzzer = factory.pin(ControlPins().buzzer)
    controls.buzz("turn")
    controls.buzzer._blink_thread.join(2)  # the beep runs in gpiozero's background thread
    states = [change.state for change in buzzer.states]
    assert True in states and states[-1] is False


def test_a_bouncing_button_is_one_press_and_two_presses_are_two(factory):
    # Issue #16: bounce_time=None let one bouncy press of undo take back two moves.
    now = [100.0]
    pressed: list[ButtonPressed] = []
    controls = Controls(pressed.append, ControlPins(), pin_factory=factory, clock=lambda: now[0])
    try:
        pin = factory.pin(ControlPins().undo)
        assert controls.buttons["undo"].pin.bounce == BOUNCE  # the driver debounces on the Pi
        for chatter in (0.0, 0.004, 0.009, 0.02):  # contacts chattering for 20 ms
            now[0] = 100.0 + chatter
            pin.drive_low()
            pin.drive_high()
        assert pressed == [ButtonPressed("undo", 100.0)]
        now[0] = 100.0 + 0.4  # a person's second press
        pin.drive_low()
        pin.drive_high()
        assert pressed == [ButtonPressed("undo", 100.0), ButtonPressed("undo", 100.4)]
    finally:
        controls.close()


def test_buttons_held_are_told_on_every_press_and_release(factory):
    # The owner's unlock times Hint and Undo held together: the companion needs every edge.
    now = [10.0]
    pressed: list[ButtonPressed] = []
    held: list[ButtonsHeld] = []
    controls = Controls(
        pressed.append, ControlPins(), pin_factory=factory, clock=lambda: now[0], held=held.append
    )
    try:
        hint, undo = factory.pin(ControlPins().hint), factory.pin(ControlPins().undo)
        hint.drive_low()
        now[0] = 10.5
        undo.drive_low()
        now[0] = 14.0
        undo.drive_high()
        hint.drive_high()
        assert held == [
            ButtonsHeld(frozenset({"hint"}), 10.0),
            ButtonsHeld(frozenset({"hint", "undo"}), 10.5),
            ButtonsHeld(frozenset({"hint"}), 14.0),
            ButtonsHeld(frozenset(), 14.0),
        ]
        # The press made while Hint was down says so: the companion knows it is the chord.
        assert pressed == [
            ButtonPressed("hint", 10.0),
            ButtonPressed("undo", 10.5, frozenset({"hint"})),
        ]
    finally:
        controls.close()


def test_a_bouncing_press_keeps_the_button_held(factory):
    now = [20.0]
    held: list[ButtonsHeld] = []
    pressed: list[ButtonPressed] = []
    controls = Controls(
        pressed.append, ControlPins(), pin_factory=factory, clock=lambda: now[0], held=held.append
    )
    try:
        pin = factory.pin(ControlPins().confirm)
        for chatter in (0.0, 0.004, 0.009):  # down, up, down, up, down within 10 ms
            now[0] = 20.0 + chatter
            pin.drive_low()
            if chatter < 0.009:
                pin.drive_high()
        assert [p.name for p in pressed] == ["confirm"]  # one press
        assert held[-1] == ButtonsHeld(frozenset({"confirm"}), 20.009)  # and it is down
    finally:
        controls.close()


def test_the_unlock_tune_is_a_pattern_of_its_own(controls, factory):
    assert PATTERNS["unlock"] not in [p for name, p in PATTERNS.items() if name != "unlock"]
    buzzer = factory.pin(ControlPins().buzzer)
    controls.buzz("unlock")
    controls.buzzer._blink_thread.join(2)
    assert [change.state for change in buzzer.states].count(True) == PATTERNS["unlock"][2]

"""Buttons, the buzzer and the status LED on the Pi's GPIO header, through gpiozero.

The same class drives the real header (gpiozero picks rpi-lgpio on current Raspberry Pi OS) and
the simulated one: pass ``pin_factory=MockFactory()`` and press buttons with
``factory.pin(n).drive_low()``, as the tests and the simulator do.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from gpiozero import LED, Button, Buzzer
from gpiozero.pins import Factory

from .events import BUTTONS


@dataclass(frozen=True)
class ButtonPressed:
    """A player pressed one of the board's buttons; ``held``: the other buttons that were
    already held down at that moment (a press made while holding another one)."""

    name: str
    at: float
    held: frozenset[str] = frozenset()


@dataclass(frozen=True)
class ButtonsHeld:
    """The buttons held down now, sent on every press and release (contacts included: a
    chattering edge is a change too), so the companion can time how long some are held
    together (the owner's unlock, docs/daemon.md)."""

    names: frozenset[str]
    at: float


@dataclass(frozen=True)
class ControlPins:
    """BCM pin numbers (the defaults follow hardware/wiring.md); set them in the config file."""

    confirm: int = 5
    undo: int = 6
    new_game: int = 13
    hint: int = 12
    buzzer: int = 19
    status_led: int = 26


#: Seconds a button's contacts may chatter after a press: edges within it are the same press.
#: gpiozero's bounce_time does this in the pin driver on the Pi (lgpio's debounce); the same
#: guard is kept here on the press time, so every pin factory (MockFactory's pins ignore
#: bounce_time) and every driver behave alike: one press, one event.
BOUNCE = 0.05

# Buzzer patterns: (on seconds, off seconds, repeats).
PATTERNS: dict[str, tuple[float, float, int]] = {
    "illegal": (0.08, 0.06, 3),  # three short beeps: the board disagrees
    "turn": (0.04, 0.0, 1),  # one blip: your turn
    "confirm": (0.12, 0.0, 1),  # a move was recognised and recorded
    "win": (0.2, 0.1, 4),
    "ask": (0.3, 0.15, 2),  # two long beeps: press again to confirm (New game)
    "unlock": (0.05, 0.05, 6),  # six quick blips: the board's buttons lifted the PIN lock
}

# Status LED: steady when all is well, slow blink while the board is not connected, fast on error.
STATUS = {"ok": None, "link-down": (0.5, 0.5), "error": (0.1, 0.1), "off": None}


class Controls:
    def __init__(
        self,
        emit: Callable[[ButtonPressed], None],
        pins: ControlPins | None = None,
        pin_factory: Factory | None = None,
        clock: Callable[[], float] = time.monotonic,
        held: Callable[[ButtonsHeld], None] | None = None,
    ) -> None:
        """``emit`` gets each press; ``held`` (optional) every change of the buttons held."""
        self.pins = pins or ControlPins()
        self._emit = emit
        self._held = held
        self._clock = clock
        self.buttons: dict[str, Button] = {}
        self._last_press: dict[str, float] = {}
        self._down: set[str] = set()
        self._lock = threading.Lock()
        for name in BUTTONS:
            button = Button(getattr(self.pins, name), bounce_time=BOUNCE, pin_factory=pin_factory)
            button.when_pressed = self._pressed_handler(name)
            button.when_released = self._released_handler(name)
            self.buttons[name] = button
        self.buzzer = Buzzer(self.pins.buzzer, pin_factory=pin_factory)
        self.status_led = LED(self.pins.status_led, pin_factory=pin_factory)
        self.status_state = "off"

    def _pressed_handler(self, name: str) -> Callable[[], None]:
        def pressed() -> None:
            with self._lock:  # each button's callbacks may come on a thread of its own
                at = self._clock()
                others = frozenset(self._down - {name})
                self._changed(name, True, at)  # told first: the press comes while it is held
                last = self._last_press.get(name)
                if last is not None and 0 <= at - last < BOUNCE:
                    return  # the contacts bouncing, not a second press
                self._last_press[name] = at
                self._emit(ButtonPressed(name, at, others))

        return pressed

    def _released_handler(self, name: str) -> Callable[[], None]:
        def released() -> None:
            with self._lock:
                self._changed(name, False, self._clock())

        return released

    def _changed(self, name: str, down: bool, at: float) -> None:
        if down == (name in self._down):
            return
        if down:
            self._down.add(name)
        else:
            self._down.discard(name)
        if self._held is not None:
            self._held(ButtonsHeld(frozenset(self._down), at))

    def buzz(self, pattern: str) -> None:
        """Play a named pattern in the background (it never blocks the caller)."""
        on, off, repeats = PATTERNS[pattern]
        self.buzzer.beep(on_time=on, off_time=max(off, 0.01), n=repeats, background=True)

    def status(self, state: str) -> None:
        if state not in STATUS:
            raise ValueError(f"unknown status {state!r}")
        if state == self.status_state:
            return
        self.status_state = state
        blink = STATUS[state]
        if blink is not None:
            self.status_led.blink(on_time=blink[0], off_time=blink[1], background=True)
        elif state == "ok":
            self.status_led.on()
        else:
            self.status_led.off()

    def close(self) -> None:
        for button in self.buttons.values():
            button.close()
        self.buzzer.close()
        self.status_led.close()

"""The board's lights as the owner shows them, and held back while the storage fails.

A scene goes once to a board that runs scenes itself, else its frames go out.  While a write
is failing nothing that would confirm an unsaved move may light up: the newest LED frame and
status the companion asked for are held (:meth:`HeldLights.hold`) and shown once the writes
succeed (:meth:`HeldLights.release`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pawnlight.board.leds import Scene
from pawnlight.companion.lights import dimmed, dimmed_scene
from pawnlight.companion.machine import Companion
from pawnlight.companion.signals import ShowLeds


class HeldLights:
    """The LEDs and the status light, on the owner thread."""

    def __init__(
        self,
        companion: Companion,
        send_leds: Callable[[Sequence[tuple[int, int, int]]], None],
        send_scene: Callable[[Scene, int], bool] | None,
        status: Callable[[str], None],
    ) -> None:
        self._companion = companion
        self._send_leds = send_leds
        #: A board that runs scenes itself is sent each scene once (with its time in ms), not
        #: the 25 frames a second its animation would take; it answers False when the board
        #: cannot take scenes now (not connected, older firmware): frames go out instead.
        self._send_scene = send_scene
        self._shown_scene: Scene | None = None
        self.status = status
        self._held_leds: ShowLeds | None = None
        self._held_status: str | None = None

    def show(self, leds: ShowLeds) -> None:
        """Light the LEDs: a scene once to a board that runs it, else the frame."""
        brightness = self._companion.settings.level  # the night level at night
        if leds.scene is not None and self._send_scene is not None:
            scene = dimmed_scene(leds.scene, brightness)
            if scene == self._shown_scene:
                return
            if self._send_scene(scene, round(leds.at * 1000)):
                self._shown_scene = scene
                return
        self._shown_scene = None
        self._send_leds(dimmed(leds.frame, brightness))

    def hold_current(self) -> None:
        """A storage fault begins: what the LEDs showed comes back once it is over."""
        companion = self._companion
        if companion.last_frame is not None:
            self._held_leds = ShowLeds(companion.last_frame, companion.last_scene, companion.now)

    def hold(self, leds: ShowLeds | None = None, status: str | None = None) -> None:
        """Keep the newest frame or status asked for during a storage fault."""
        if leds is not None:
            self._held_leds = leds
        if status is not None:
            self._held_status = status

    def release(self) -> None:
        """The storage works again: the held status and LEDs go out."""
        self.status(self._held_status or ("ok" if self._companion.link_up else "link-down"))
        self._held_status = None
        if self._held_leds is not None:
            self.show(self._held_leds)
            self._held_leds = None

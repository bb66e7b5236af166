"""The simulated physical board: pawns that people (tests, the simulator page) lift and place.

It holds which pawn stands on every sensed cell, turns that into sensor values through the
layout, and feeds them to the simulated firmware, exactly as magnets over hall sensors would.
Its pawns are kept in the data folder, so they stay put across a restart of the daemon, as a
real board's do across a restart of the Pi.
"""

from __future__ import annotations

import json
import logging
import os
import random
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...board import magnets
from ...board.cells import (
    AREA_STARTS,
    CELLS,
    EMPTY,
    PAWN,
    SPOTS_PER_AREA,
    area_cells,
    cell_of,
    cells_of,
    place_of_cell,
)
from ...board.layout import Layout
from ...board.leds import RGB, led_colours
from ...board.snapshot import Occupancy, canonical, reading_for, sense
from ...rules.board import COLOURS, HOME, START, TRACK_SQUARES, Place, parse_colour, parse_place
from ...rules.cards import CARDS
from ...rules.position import Position

#: What can go wrong on the simulated board's USB line (``POST /api/sim/line``): the cable
#: pulled and put back, the board's power cut for a moment (its firmware process killed), line
#: noise, frames that decode but make no sense (an ERROR text that is not UTF-8, a SNAPSHOT
#: of the wrong size), and an old frame sent again (the oldest SENSOR_CHANGES since start).
#: SimulatedFirmware.line_fault makes them.
LINE_FAULTS = ("unplug", "plug", "power-cut", "garbage", "bad-error", "bad-snapshot", "replay")

#: Seconds a hand takes between two touches when the simulator sets the board up: longer than
#: the sensor flicker the board ignores (0.05 s), so each touch is a change of its own.  The
#: readings carry the board's time, so a busy Pi reading them late still sees them this far apart.
HAND_PACE = 0.07


def hand_steps(now: Sequence[int], wanted: Sequence[int]) -> list[tuple[int, int]]:
    """The touches that turn the pawns ``now`` into ``wanted`` as hands do it, one pawn at a
    time: ``(cell, EMPTY)`` lifts first, then ``(cell, colour)`` placements.  A pawn of another
    colour is lifted before one is put in its place (a presence board sees nothing of a swap
    made in one go), and a START or HOME keeps the pawns it should have on the spots they stand
    on (whichever spot ``wanted`` happened to pick)."""
    target = list(wanted)
    for first in AREA_STARTS:
        cells = range(first, first + SPOTS_PER_AREA)
        needed = Counter(wanted[c] for c in cells if wanted[c] != EMPTY)
        kept: list[int] = [EMPTY] * SPOTS_PER_AREA
        for index, cell in enumerate(cells):  # the pawns already there stay on their spots
            if now[cell] != EMPTY and needed[now[cell]] > 0:
                needed[now[cell]] -= 1
                kept[index] = now[cell]
        missing = list(needed.elements())
        for index in range(SPOTS_PER_AREA):  # the others go on the free spots, in order
            if kept[index] == EMPTY and missing:
                kept[index] = missing.pop(0)
        target[first : first + SPOTS_PER_AREA] = kept
    lifts = [(c, EMPTY) for c in range(CELLS) if now[c] != EMPTY and now[c] != target[c]]
    places = [(c, target[c]) for c in range(CELLS) if target[c] != EMPTY and now[c] != target[c]]
    return lifts + places


class PhysicalBoard:
    """The physical board: which pawn stands on each of the 112 sensed cells (a colour index,
    ``PAWN`` for a pawn of no known colour, ``EMPTY``), and what ideal sensors read because of
    them.  The one model of pawns on a board: the daemon's simulated board, the builder's tools'
    tests (``NoisyBoard``, below) and the recognition tests all stand their pawns on it."""

    def __init__(self, cells: Sequence[int] | None = None) -> None:
        self.cells: list[int] = list(cells) if cells is not None else [EMPTY] * CELLS

    @classmethod
    def from_position(cls, position: Position, rng: random.Random | None = None) -> PhysicalBoard:
        """The pawns where ``position`` has them; START and HOME pawns on the first free spots
        (or, with ``rng``, on spots chosen at random, as people drop them)."""
        board = cls()
        for colour, place in position.items():
            if place in (START, HOME):
                free = [c for c in area_cells(place, colour) if board.cells[c] == EMPTY]
                if not free:
                    raise ValueError(f"more than four {COLOURS[colour]} pawns in one area")
                board.cells[rng.choice(free) if rng else free[0]] = colour
            else:
                board.cells[cell_of(colour, place)] = colour
        return board

    def occupancy(self, sensing: str) -> Occupancy:
        """What a board of this sensing ("presence" or "colour") can tell of the pawns."""
        return sense(canonical(self.cells), sensing)

    def reading(self, layout: Layout) -> tuple[int, ...]:
        """Every channel's value through ideal sensors wired as ``layout`` says."""
        return reading_for(layout, tuple(self.cells))


@dataclass(frozen=True)
class SensorFaults:
    dead: frozenset[int] = frozenset()  # cells whose sensor never responds
    stuck: frozenset[int] = frozenset()  # cells whose sensor always reads a pawn
    swapped: tuple[tuple[int, int], ...] = ()  # cell pairs whose output wires are crossed
    #: Cells whose sensor's output wire is broken: the input's pull-up takes it to the top of
    #: the scale on a colour board, to "no pawn" on a presence board.
    broken: frozenset[int] = frozenset()


class NoisyBoard(PhysicalBoard):
    """The same pawns read through real sensors: every colour sensor has its own offset with
    no magnet, a pawn moves it by its colour's typical amount (from the layout's bands) give or
    take a little for where exactly it stands, with noise, all from a seeded generator; and
    the faults a builder's tools must find (dead, stuck, crossed sensors)."""

    def __init__(
        self,
        layout: Layout,
        faults: SensorFaults = SensorFaults(),
        *,
        seed: int = 0,
        offset: int = 1200,
        variation: float = 0.12,
        noise: int = 300,
    ) -> None:
        super().__init__()
        self.layout = layout
        self.faults = faults
        self._random = random.Random(seed)
        self._variation = variation
        self._noise = noise
        self._offsets = [self._random.randint(-offset, offset) for _ in range(CELLS)]
        self._placed: dict[int, float] = {}  # cell -> this placement's strength factor
        # Which channel each cell's sensor is wired to, wires crossed as the faults say.
        wired = list(layout.channel_of)
        for a, b in faults.swapped:
            wired[a], wired[b] = wired[b], wired[a]
        self.wired = tuple(wired)

    def put(self, cells: Sequence[int], colour: int = PAWN, off_centre: bool = False) -> None:
        """Pawns on cells; ``off_centre``: pushed to the side of their centring cups, where
        the magnet's field is what the field model gives at the placement tolerance."""
        weaker, variation = 1.0, self._variation
        if off_centre:
            # Against the cup's wall the position is known; what still varies is the depth.
            variation /= 2
            magnet = magnets.PAWN_MAGNETS[0 if colour == PAWN else colour].magnet
            distance = magnets.NOMINAL_DISTANCE_MM
            aside = magnet.field_z_mT(distance, magnets.PLACEMENT_TOLERANCE_MM)
            weaker = aside / magnet.field_z_mT(distance)
        for cell in cells:
            self.cells[cell] = colour
            spread = self._random.uniform(-variation, variation)
            self._placed[cell] = (1 + spread) * weaker

    def take(self, cells: Sequence[int]) -> None:
        for cell in cells:
            self.cells[cell] = EMPTY

    def clear(self) -> None:
        self.cells = [EMPTY] * CELLS

    def sensor(self, cell: int) -> int:
        """What the sensor under ``cell`` outputs now."""
        layout = self.layout
        present = self.cells[cell] != EMPTY
        if not layout.colour_sensing:
            inactive = 1 - layout.active
            if cell in self.faults.stuck:
                return layout.active
            if cell in self.faults.dead or cell in self.faults.broken:
                return inactive
            return layout.active if present else inactive
        bands = layout.bands[cell]
        top = (1 << layout.bits) - 1
        rest = bands.empty.middle + self._offsets[cell]
        if cell in self.faults.broken:
            return top  # the mux input's pull-up, nothing driving it
        if cell in self.faults.stuck:
            return bands.typical(0)  # a stray magnet under the place: a red pawn for good
        if cell in self.faults.dead or not present:
            return rest
        colour = self.cells[cell]
        if colour == PAWN:
            colour = 0
        delta = (bands.typical(colour) - bands.empty.middle) * self._placed[cell]
        jitter = self._random.randint(-self._noise, self._noise)
        return max(0, min(top, round(rest + delta + jitter)))

    def reading(self, layout: Layout | None = None) -> list[int]:  # type: ignore[override]
        """Every channel's value, as the firmware would scan it (the board's own layout)."""
        values = [0] * CELLS
        for cell in range(CELLS):
            values[self.wired[cell]] = self.sensor(cell)
        return values


class SimulatedBoard:
    """The virtual board's pawns. Thread-safe: the web server and tests call it."""

    def __init__(
        self,
        layout: Layout,
        write_sensors: Callable[[Sequence[int]], None],
        read_leds: Callable[[], Sequence[RGB]],
        present_card: Callable[[str], None],
        card_uids: dict[str, str],
        path: Path | None = None,
        press: Callable[[str, bool], None] | None = None,
        line: Callable[[str], None] | None = None,
        seen: Callable[[Occupancy], None] | None = None,
        hold: Callable[[Sequence[str], float], None] | None = None,
    ) -> None:
        self.layout = layout
        # Returns once the board's reader has taken in this occupancy (the daemon's owner):
        # setting the board up waits on it between touches, as a hand would watch the LEDs.
        self._seen = seen
        self._write_sensors = write_sensors
        self._read_leds = read_leds
        self._present_card = present_card
        self._press = press
        self._hold = hold
        self._line = line
        self._uids: dict[str, list[str]] = {}
        for uid, card in sorted(card_uids.items()):
            self._uids.setdefault(card, []).append(uid)
        self._next_copy: dict[str, int] = {}
        self.path = path
        self._unsaved = False  # the last save failed (said once)
        self._lock = threading.Lock()
        self.pawns = PhysicalBoard(self._load(path) if path is not None and path.exists() else None)

    # -- the pawns ----------------------------------------------------------------------------

    @property
    def cells(self) -> list[int]:
        """Which pawn stands on each cell (the physical board's own list)."""
        return self.pawns.cells

    @staticmethod
    def _cells_of(square: str, colour: str | None = None) -> range:
        """The cells a place names (``T4``, ``S2:red``, ``start:red``, ``red-S2``): one square, or
        an area's four spots; a bare ``start``, ``home`` or ``S2`` is the pawn's ``colour``'s."""
        text = square.strip()
        try:
            return cells_of(Place.parse(text))
        except ValueError:
            if ":" in text or "-" in text:
                raise
            number = parse_place(text)  # a name of no place at all is refused here
            if colour is None:
                whose = text if number in (START, HOME) else "safety square"
                raise ValueError(f"say whose {whose}: {text}:red") from None
        return cells_of(Place(number, parse_colour(colour)))

    def lift(self, square: str) -> dict[str, Any]:
        with self._lock:
            cells = self._cells_of(square)
            taken = next((c for c in reversed(cells) if self.cells[c] != EMPTY), None)
            if taken is None:
                raise ValueError(f"there is no pawn on {square}")
            colour = self.cells[taken]
            self.cells[taken] = EMPTY
            self._changed()
        return {"lifted": COLOURS[colour], "from": square}

    def place(self, square: str, colour: str) -> dict[str, Any]:
        if not isinstance(colour, str):
            raise ValueError("color must be a colour name")
        with self._lock:
            which = parse_colour(colour)
            cells = self._cells_of(square, colour)
            free = next((c for c in cells if self.cells[c] == EMPTY), None)
            if free is None:
                raise ValueError(f"{square} is full: lift the pawn there first")
            self.cells[free] = which
            self._changed()
        return {"placed": COLOURS[which], "on": square}

    def board(self) -> dict[str, Any]:
        """The pawns on the board as pawn lists (docs/coordinates.md, 'Places'); pawns of absent
        colours omitted."""
        with self._lock:
            cells = list(self.cells)
        pawns: dict[str, list[str]] = {}
        for cell, colour in enumerate(cells):
            if colour == EMPTY:
                continue
            spot = place_of_cell(cell)
            name = "start" if spot.number == START else "home" if spot.number == HOME else None
            if name is None:
                name = f"T{cell}" if cell < TRACK_SQUARES else f"S{spot.number - 59}"
            pawns.setdefault(COLOURS[colour], []).append(name)
        return {"pawns": pawns}

    def set_board(self, pawns: dict[str, Any]) -> dict[str, int]:
        """Put every pawn where ``pawns`` has them as players' hands do: one pawn lifted or put
        down at a time, every pawn of the wrong colour lifted before another takes its place, at
        a hand's pace after the board has read each touch.  (Set all at once, a presence board
        could not see a green pawn swapped for a red one, and the game would keep asking for
        it: issue #34.)  Returns how many pawns were lifted and put down."""
        wanted = PhysicalBoard.from_position(Position.from_json(pawns)).cells
        with self._lock:
            steps = hand_steps(self.cells, wanted)
            for cell, colour in steps:
                self.cells[cell] = colour
                self._changed()
                if self._seen is not None:
                    self._seen(self.pawns.occupancy(self.layout.sensing))
                    time.sleep(HAND_PACE)
        lifted = sum(1 for _, colour in steps if colour == EMPTY)
        return {"lifted": lifted, "placed": len(steps) - lifted}

    def position_reading(self) -> tuple[int, ...]:
        with self._lock:
            return self.pawns.reading(self.layout)

    def _changed(self) -> None:
        self._write_sensors(self.pawns.reading(self.layout))
        self._save()

    # -- cards, buttons, LEDs -----------------------------------------------------------------

    def scan(self, card: str) -> None:
        name = str(card).strip().lower().rstrip("!")
        if name not in CARDS:
            raise ValueError(f"unknown card {card!r} (expected one of {', '.join(CARDS)})")
        copies = self._uids.get(name)
        if not copies:
            raise ValueError(f"no {name} card is enrolled")
        index = self._next_copy.get(name, 0)
        self._next_copy[name] = (index + 1) % len(copies)
        self._present_card(copies[index])

    def press(self, button: str, bounce: bool = False) -> None:
        if self._press is None:
            raise ValueError("this board has no buttons")
        self._press(button, bounce)

    def hold(self, buttons: Sequence[str], seconds: float) -> None:
        """Hold ``buttons`` down together, pressed in that order, for ``seconds``, then let go
        (the board's two-button gestures: docs/daemon.md, "Buttons")."""
        if len(set(buttons)) != len(buttons):
            raise ValueError("name each button once")
        if self._hold is None:
            raise ValueError("this board's buttons cannot be held")
        self._hold(buttons, seconds)

    def line(self, fault: str) -> None:
        if fault not in LINE_FAULTS:
            raise ValueError(f"unknown line fault {fault!r} (one of {', '.join(LINE_FAULTS)})")
        if self._line is None:
            raise ValueError("this board's line cannot be disturbed")
        self._line(fault)

    def leds(self) -> dict[str, str]:
        return led_colours(self.layout, list(self._read_leds()))

    # -- keeping the pawns --------------------------------------------------------------------

    def _save(self) -> None:
        if self.path is None:
            return
        temporary = self.path.with_suffix(".tmp")
        try:
            with open(temporary, "w") as out:
                json.dump({"format": "pawnlight-sim-board", "cells": self.cells}, out)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, self.path)
        except OSError as error:  # a read-only or full storage: the pawns stand on in memory
            if not self._unsaved:
                logging.getLogger(__name__).error(
                    "the simulated board's pawns cannot be kept in %s: %s", self.path, error
                )
            self._unsaved = True
        else:
            self._unsaved = False

    @staticmethod
    def _load(path: Path) -> list[int]:
        try:
            cells = json.loads(path.read_text())["cells"]
            if len(cells) != CELLS or not all(c in (EMPTY, 0, 1, 2, 3) for c in cells):
                raise ValueError("wrong cells")
            return list(cells)
        except (OSError, ValueError, KeyError, TypeError):
            # A damaged file is set aside, not trusted: the board starts empty.
            path.replace(path.with_suffix(".damaged"))
            return [EMPTY] * CELLS

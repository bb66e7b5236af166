"""The simulated physical board: pawns that people (tests, the simulator page) lift and place.

It holds which pawn stands on every sensed cell, turns that into sensor values through the
layout, and feeds them to the simulated firmware, exactly as magnets over hall sensors would.
Its pawns are kept in the data folder, so they stay put across a restart of the daemon, as a
real board's do across a restart of the Pi.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..board.cells import (
    CELLS,
    EMPTY,
    area_cells,
    place_of_cell,
    safety_cell,
)
from ..board.layout import Layout
from ..board.leds import led_colours
from ..board.snapshot import reading_for
from ..rules.board import COLOURS, HOME, START, TRACK_SQUARES, parse_colour, parse_place
from ..rules.cards import CARDS
from ..rules.position import Position

Colour = tuple[int, int, int]

#: What can go wrong on the simulated board's USB line (``POST /api/sim/line``): the cable
#: pulled and put back, the board's power cut for a moment (its firmware process killed), line
#: noise, and frames that decode but make no sense (an ERROR text that is not UTF-8, a SNAPSHOT
#: of the wrong size).
LINE_FAULTS = ("unplug", "plug", "power-cut", "garbage", "bad-error", "bad-snapshot")


class SimulatedBoard:
    """The virtual board's pawns. Thread-safe: the web server and tests call it."""

    def __init__(
        self,
        layout: Layout,
        write_sensors: Callable[[Sequence[int]], None],
        read_leds: Callable[[], Sequence[Colour]],
        present_card: Callable[[str], None],
        card_uids: dict[str, str],
        path: Path | None = None,
        press: Callable[[str, bool], None] | None = None,
        line: Callable[[str], None] | None = None,
    ) -> None:
        self.layout = layout
        self._write_sensors = write_sensors
        self._read_leds = read_leds
        self._present_card = present_card
        self._press = press
        self._line = line
        self._uids: dict[str, list[str]] = {}
        for uid, card in sorted(card_uids.items()):
            self._uids.setdefault(card, []).append(uid)
        self._next_copy: dict[str, int] = {}
        self.path = path
        self._lock = threading.Lock()
        self.cells: list[int] = [EMPTY] * CELLS
        if path is not None and path.exists():
            self.cells = self._load(path)

    # -- the pawns ----------------------------------------------------------------------------

    def _cells_of(self, square: str, colour: str | None = None) -> range:
        """The cells a square name stands for: one square, or an area's four spots."""
        parts = square.strip().split(":")
        name = parts[0]
        if len(parts) > 1:
            colour = parts[1]
        if name.lower() in ("start", "home"):
            if colour is None:
                raise ValueError(f"say whose {name}: {name}:red")
            return area_cells(START if name.lower() == "start" else HOME, parse_colour(colour))
        place = parse_place(name)
        if place < TRACK_SQUARES:
            return range(place, place + 1)
        if colour is None:
            raise ValueError(f"say whose safety square: {name}:red")
        cell = safety_cell(parse_colour(colour), place)
        return range(cell, cell + 1)

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
        """The pawns on the board in the contract's form (pawns of absent colours omitted)."""
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

    def set_board(self, pawns: dict[str, Any]) -> None:
        """Set every pawn at once, as players setting up a board."""
        position = Position.from_json(pawns)
        cells = [EMPTY] * CELLS
        for colour, place in position.items():
            if place < TRACK_SQUARES:
                cells[place] = colour
            elif place in (START, HOME):
                spots = area_cells(place, colour)
                free = next((c for c in spots if cells[c] == EMPTY), None)
                if free is None:
                    raise ValueError(f"more than four {COLOURS[colour]} pawns in one area")
                cells[free] = colour
            else:
                cells[safety_cell(colour, place)] = colour
        with self._lock:
            self.cells = cells
            self._changed()

    def position_reading(self) -> tuple[int, ...]:
        with self._lock:
            return reading_for(self.layout, tuple(self.cells))

    def _changed(self) -> None:
        self._write_sensors(reading_for(self.layout, tuple(self.cells)))
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
        with open(temporary, "w") as out:
            json.dump({"format": "pawnlight-sim-board", "cells": self.cells}, out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, self.path)

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

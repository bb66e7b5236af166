"""The players' hands: carrying out a move on the simulated board as people do."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from pawnlight.board.snapshot import canonical, read_occupancy, sense
from pawnlight.rules.board import COLOURS, START, Place
from pawnlight.rules.moves import Move

#: ("lift", square, None) or ("place", square, colour).
Action = tuple[str, str, str | None]


def square_name(colour: int, place: int) -> str:
    """The simulator's name for where a pawn of ``colour`` stands."""
    return Place(place, colour).key


def actions_for(move: Move, rng: random.Random) -> list[Action]:
    """("lift", square, None) and ("place", square, colour) actions, in a realistic order:
    each part's pawn is picked up and put down, then the bumped pawns go home to START, before
    or after the mover as people happen to do it."""
    actions: list[Action] = []
    for step in move.steps:
        mover: list[Action] = [("lift", square_name(step.colour, step.origin), None)]
        if step.swapped >= 0:
            mover.append(("lift", square_name(step.swapped, step.target), None))
            mover.append(("place", square_name(step.swapped, step.origin), COLOURS[step.swapped]))
        bumps: list[Action] = []
        for colour, square in step.bumped:
            bumps.append(("lift", square_name(colour, square), None))
            bumps.append(("place", square_name(colour, START), COLOURS[colour]))
        land: list[Action] = [("place", square_name(step.colour, step.final), COLOURS[step.colour])]
        if rng.random() < 0.5:
            actions += bumps + mover + land  # the bumped pawns are taken off first
        else:
            actions += mover + bumps + land  # the mover is picked up first
    return actions


#: Seconds between a hand's touches: longer than the sensor flicker the board ignores (0.05 s).
HAND = 0.07


def make_move(
    board,
    move: Move,
    rng: random.Random,
    pause: float = HAND,
    seen: Callable[[], None] | None = None,
) -> None:
    """Carry out ``move`` on a simulated board (SimulatedBoard, or the HTTP simulator), a
    hand's pace between touches.  ``seen``: returns once the daemon has read the board as it
    now stands, so that on a loaded machine each touch still reaches it as its own reading, a
    hand's pace before the next (not two at once, which it rightly takes for sensor flicker)."""
    for action, square, colour in actions_for(move, rng):
        if action == "lift":
            board.lift(square)
        else:
            board.place(square, colour)
        if seen is not None:
            seen()
        time.sleep(pause)


def read_by(daemon, timeout: float = 10.0) -> None:
    """Return once the daemon's latest sensor reading shows the simulated board's pawns."""
    board, layout = daemon.sim_board, daemon.layout
    wanted = sense(canonical(tuple(board.cells)), layout.sensing)
    deadline = time.monotonic() + timeout
    while read_occupancy(layout, daemon.owner.diagnostics()["sensors"]) != wanted:
        assert time.monotonic() < deadline, "the daemon never read the board's last change"
        time.sleep(0.005)

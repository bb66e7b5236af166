"""The companion's phases, by name: the machine runs them, the LED picture (lights.py) and the
published state (state.py) follow them.  See machine.py for what each one means; ``move`` and
``double`` are the game's own (rules.game).
"""

from __future__ import annotations

IDLE, ENROL, LEADER, SETUP, DRAW, CHOOSE, OVER_PHASE = (
    "idle",
    "enrol",
    "leader",
    "setup",
    "draw",
    "choose",
    "over",
)

"""Players by name, as the command line and the companion's settings write them.

A spec is a name with optional settings: ``random``, ``heuristic``, ``strong``,
``strong:budget=400``, ``strong:budget=3000,width=5``, ``strong:margin=0.5``,
``strong:leaf=score``.
"""

from __future__ import annotations

from typing import TypedDict, cast

from .base import Player
from .heuristic import HeuristicPlayer
from .random_player import RandomPlayer
from .strong import LEAVES, StrongPlayer

PLAYER_NAMES = ("random", "heuristic", "strong")
_STRONG_SETTINGS = ("budget", "width", "depth", "margin", "leaf")


class StrongSettings(TypedDict, total=False):
    """The strong player's settings a spec may give (``_STRONG_SETTINGS``)."""

    budget: int
    width: int
    depth: int
    margin: float
    leaf: str


def parse_spec(spec: str) -> tuple[str, StrongSettings]:
    """``"strong:budget=400"`` -> ``("strong", {"budget": 400})``; ValueError naming the problem."""
    name, _, rest = spec.strip().partition(":")
    name = name.strip().lower()
    if name not in PLAYER_NAMES:
        raise ValueError(f"unknown player {name!r} (expected {', '.join(PLAYER_NAMES)})")
    settings: dict[str, float | str] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, equals, value = item.partition("=")
        if name != "strong" or key not in _STRONG_SETTINGS or not equals:
            raise ValueError(f"unknown setting {item!r} for the {name} player")
        if key == "leaf":
            if value not in LEAVES:
                raise ValueError(f"setting leaf is one of {', '.join(LEAVES)}, not {value!r}")
            settings[key] = value
            continue
        try:
            number = float(value) if key == "margin" else int(value)
        except ValueError:
            kind = "a number" if key == "margin" else "a whole number"
            raise ValueError(f"setting {key} needs {kind}, not {value!r}") from None
        if number < (0 if key == "margin" else 1):
            raise ValueError(f"setting {key} must be at least {0 if key == 'margin' else 1}")
        settings[key] = number
    # Each key is one of StrongSettings', its value of that key's type (checked above).
    return name, cast(StrongSettings, settings)


def split_specs(text: str) -> tuple[str, ...]:
    """One spec per seat from a comma-separated list, where a spec's own settings are
    comma-separated too: ``"strong:budget=3000,width=5,heuristic"`` ->
    ``("strong:budget=3000,width=5", "heuristic")``.  A part that is a setting (``key=value``)
    belongs to the player before it."""
    specs: list[str] = []
    for part in (piece.strip() for piece in text.split(",")):
        if specs and "=" in part and ":" not in part:
            specs[-1] += "," + part
        else:
            specs.append(part)
    return tuple(specs)


def make_player(spec: str, seed: int | str = 0) -> Player:
    """A fresh player from its spec; ``seed`` feeds the players that use randomness."""
    name, settings = parse_spec(spec)
    if name == "random":
        return RandomPlayer(seed)
    if name == "heuristic":
        return HeuristicPlayer()
    return StrongPlayer(seed, **settings)

"""Players by name, as the command line and the companion's settings write them.

A spec is a name with optional settings: ``random``, ``casual``, ``heuristic``, ``strong``,
``learned``, ``strong:budget=400``, ``strong:budget=3000,width=5``, ``strong:margin=0.5``,
``strong:leaf=score``; or a level, ``easy``, ``normal`` or ``hard`` (``LEVELS``).
"""

from __future__ import annotations

from typing import TypedDict, cast

from .base import Player
from .heuristic import HeuristicPlayer
from .learned import LearnedPlayer
from .random_player import CasualPlayer, RandomPlayer
from .strong import LEAVES, StrongPlayer

PLAYER_NAMES = ("random", "casual", "heuristic", "strong", "learned")
#: The levels a family chooses from, each a player measurably stronger than the one before
#: head-to-head (docs/players.md "How strong, measured").  ``learned`` is not measurably
#: stronger than the heuristic head-to-head, so it is no level.
LEVELS: dict[str, str] = {"easy": "casual", "normal": "heuristic", "hard": "strong"}
_STRONG_SETTINGS = ("budget", "width", "depth", "margin", "leaf")

#: Each numeric setting's least and largest value (docs/players.md, "Settings and their bounds").
#: The largest budget is some 17 times the default: about 2 s here and far more on a Pi, which
#: the decision's time limit cuts short.
BOUNDS: dict[str, tuple[float, float]] = {
    "budget": (1, 20_000),
    "width": (1, 16),
    "depth": (1, 40),
    "margin": (0.0, 10.0),
}

#: Seconds a computer player may think about one decision: at the limit it plays the best move
#: of the futures sampled so far (at least two; the heuristic's choice unless clearly beaten).
#: The board, its page and a SIGTERM wait no longer than this for a decision.
DECISION_TIME_LIMIT = 3.0
#: The learned player's own limit: a Pi's second (it needs a few tens of milliseconds there).
LEARNED_TIME_LIMIT = 1.0


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
    if name in LEVELS:
        if rest.strip():
            raise ValueError(f"a level takes no settings: {name}")
        return parse_spec(LEVELS[name])
    if name not in PLAYER_NAMES:
        known = ", ".join((*PLAYER_NAMES, *LEVELS))
        raise ValueError(f"unknown player {name!r} (expected {known})")
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
        kind = "a number" if key == "margin" else "a whole number"
        least, most = BOUNDS[key]
        try:
            if len(value) > 12:  # int() of a long string costs time of its own
                raise ValueError(value)
            number = float(value) if key == "margin" else int(value)
        except ValueError:
            raise ValueError(
                f"setting {key} needs {kind} from {least:g} to {most:g}, not {value[:20]!r}"
            ) from None
        if not least <= number <= most:  # NaN too
            raise ValueError(f"setting {key} must be from {least:g} to {most:g}, not {number:g}")
        settings[key] = number
    # Each key is one of StrongSettings', its value of that key's type (checked above).
    return name, cast(StrongSettings, settings)


def level_of(spec: str) -> str:
    """A player's one name, as every page and record says it: its level (easy, normal, hard)
    when it is one (``heuristic`` and ``normal`` are the same player), else its spec written
    the same way each time (``strong:budget=400``). ValueError as parse_spec."""
    name, settings = parse_spec(spec)
    if not settings:
        return next((level for level, player in LEVELS.items() if player == name), name)
    written = (
        f"{key}={value:g}" if key == "margin" else f"{key}={value}"
        for key, value in settings.items()
    )
    return f"{name}:{','.join(written)}"


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


def make_player(
    spec: str, seed: int | str = 0, time_limit: float | None = DECISION_TIME_LIMIT
) -> Player:
    """A fresh player from its spec; ``seed`` feeds the players that use randomness.  The strong
    player stops thinking about a decision after ``time_limit`` seconds (None: only its
    budget stops it, as reproducible runs want)."""
    name, settings = parse_spec(spec)
    if name == "random":
        return RandomPlayer(seed)
    if name == "casual":
        return CasualPlayer(seed)
    if name == "heuristic":
        return HeuristicPlayer()
    if name == "learned":
        limit = None if time_limit is None else min(time_limit, LEARNED_TIME_LIMIT)
        return LearnedPlayer(time_limit=limit)
    return StrongPlayer(seed, time_limit=time_limit, **settings)

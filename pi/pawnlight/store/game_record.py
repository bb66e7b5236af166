"""A game as recorded, the value itself: how it was set up, every event, how it ended.

Apart from :mod:`.record` (which writes and reads it as a file) so that the store's errors,
which carry the part of a game still sound, can name it without importing the file format.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from ..rules.board import COLOURS, parse_colour
from ..rules.game import Event, Game, GameConfig, Result
from ..rules.house_rules import parse_house_rules


@dataclass(frozen=True)
class GameRecord:
    """One game as recorded: how it was set up, every event in order, and how it ended."""

    config: GameConfig
    started: datetime
    events: tuple[Event, ...] = ()
    #: The seed of the simulated deck, when the cards came from one.
    seed: int | None = None
    #: Players' names by colour name ("red": "Ann"); colours without a name are left out.
    names: Mapping[str, str] = field(default_factory=dict)
    #: Free-form JSON object: where it was played, the board, anything the players want kept.
    meta: Mapping[str, Any] = field(default_factory=dict)
    #: How the game ended; ``None`` while it is on.  A result with no winners, scores or patience
    #: outcome on a game that is not over marks a game abandoned before its end.
    result: Result | None = None
    finished: datetime | None = None
    #: Only on a salvaged record: what was wrong, and that the lines from there on were dropped.
    damage: str | None = None

    @classmethod
    def from_game(
        cls,
        game: Game,
        *,
        started: datetime | None = None,
        seed: int | None = None,
        names: Mapping[str, str] | None = None,
        meta: Mapping[str, Any] | None = None,
    ) -> GameRecord:
        """The record of a game played in memory (the journal builds records from its rows)."""
        return cls(
            config=normal_config(game.config),
            started=started or now(),
            events=tuple(game.events),
            seed=seed,
            names=dict(names or {}),
            meta=dict(meta or {}),
            result=game.result,
            finished=now() if game.over else None,
        )


def now() -> datetime:
    """The local time with its UTC offset, to the second (the Pi's clock: see docs/records.md)."""
    return datetime.now().astimezone().replace(microsecond=0)


def normal_config(config: GameConfig) -> GameConfig:
    """The config with colours spelled out in full ("R" -> "red"), as records store them."""
    config.check()
    players = tuple(COLOURS[parse_colour(p)] for p in config.players)
    house_rules = tuple(sorted(parse_house_rules(config.house_rules)))
    return replace(config, players=players, house_rules=house_rules)

"""The yardstick: the ``apologies`` package's RewardV1 player against three random players.

Its author reports about 70% wins for RewardV1 against three random players in 4-player standard
games.  To put that beside our own figures, the same number of games is played in apologies' own
engine (its rules, its deck, its random source), with the same seat rotation.  apologies draws
from Python's global random generator, so each game seeds it from the tournament seed (and puts
the caller's generator state back afterwards).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from pawnlight.players.confidence import wilson_interval
from pawnlight.players.parallel import run_all


@dataclass(frozen=True)
class YardstickResult:
    games: int
    wins: int

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)


def available() -> bool:
    try:
        import apologies  # noqa: F401
    except ImportError:
        return False
    return True


def _play(job: tuple[int, str]) -> bool:
    """One apologies game; True when RewardV1 won.  ``job`` is (game number, seed text)."""
    from apologies.engine import Character, Engine
    from apologies.game import GameMode, PlayerColor
    from apologies.source import RandomInputSource, RewardV1InputSource

    number, seed = job
    saved = random.getstate()
    try:
        random.seed(f"{seed}:apologies:{number // 4}")  # the same deal for a whole rotation
        seat = number % 4
        characters = [
            Character(f"seat{i}", RewardV1InputSource() if i == seat else RandomInputSource())
            for i in range(4)
        ]
        # Play passes from RED in PlayerColor order, so character i sits at seat i.
        engine = Engine(mode=GameMode.STANDARD, characters=characters, first=PlayerColor.RED)
        engine.start_game()
        while not engine.completed:
            engine.play_next()
        character, _ = engine.winner()
        return character.name == f"seat{seat}"
    finally:
        random.setstate(saved)


def reward_v1_against_random(games: int, seed: int, jobs: int = 1) -> YardstickResult:
    """RewardV1 at one seat (rotating), three random players, ``games`` 4-player games."""
    wins = sum(run_all(_play, [(g, str(seed)) for g in range(games)], jobs))
    return YardstickResult(games, wins)

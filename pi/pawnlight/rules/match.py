"""Match play: games in a row, the winner of one leading the next, points carried across."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .board import COLOURS
from .game import Game, GameConfig, GameError


class Match:
    """A series of games under one configuration.

    "The Winner of the first game is the Leader in the SECOND GAME."  In point play the scores
    add up from game to game; with ``target`` the first player to reach it wins the match (the
    encyclopedia's point play: "The winner is decided when one player achieves a set number of
    points ... agreed upon by all players").
    """

    def __init__(
        self,
        config: GameConfig,
        target: int | None = None,
        first: Game | None = None,
        earlier: Sequence[Game] = (),
    ) -> None:
        """``first``: a game already under way (resumed from a record) to continue the match;
        ``earlier``: the match's games before it, oldest first (their points carry over)."""
        self.config = config
        self.target = target
        self.games: list[Game] = [*earlier, first if first is not None else Game(config)]

    @property
    def current(self) -> Game:
        return self.games[-1]

    @property
    def totals(self) -> dict[int, int]:
        """Points carried across the finished games."""
        totals = dict.fromkeys(self.games[0].order, 0)
        for game in self.games:
            if game.result is not None:
                for colour, points in (game.result.scores or {}).items():
                    totals[colour] += points
        return totals

    @property
    def wins(self) -> dict[int, int]:
        """Games won by each colour.  A partnership's double game counts twice: it "is the
        equivalent of winning two single games" (books 000, 002, 003)."""
        wins = dict.fromkeys(self.games[0].order, 0)
        for game in self.games:
            result = game.result
            if result is None:
                continue
            for colour in result.winners:
                wins[colour] += 2 if result.double_game else 1
        return wins

    @property
    def winner(self) -> int | None:
        """The match winner, when a target was set and reached (highest total wins ties)."""
        if self.target is None:
            return None
        totals = self.totals
        best = max(totals.values())
        if best < self.target:
            return None
        return next(c for c in self.games[0].order if totals[c] == best)

    def next_game(self) -> Game:
        game = self.current
        result = game.result
        if result is None:
            raise GameError("the current game is not over yet")
        if self.winner is not None:
            raise GameError(f"the match is over: {COLOURS[self.winner]} reached {self.target}")
        players = [COLOURS[c] for c in game.order]
        if result.winners:
            leader = COLOURS[result.winners[0]]
            players.remove(leader)
            players.insert(0, leader)
        self.games.append(Game(replace(self.config, players=tuple(players))))
        return self.current

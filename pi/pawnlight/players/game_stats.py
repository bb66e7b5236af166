"""What happened in one finished game, counted from its history: the status page shows these at
the end of a game, and the simulator adds them up over thousands of games.

Everything is read back from :attr:`Game.history`: each turn's notation is parsed in the position
it was played from, which gives the move's steps with their slides and bumps exactly as the rules
core worked them out.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..rules.board import COLOURS, HOME
from ..rules.cards import CARDS
from ..rules.game import Game
from ..rules.moves import StepKind
from ..rules.notation import parse_move

NO_MOVE = ("forfeit", "discard")


@dataclass
class ColourStatistics:
    """One colour's share of the game."""

    turns: int = 0
    forfeits: int = 0
    #: Opponents' (or, by a slide, own) pawns this colour sent back to START.
    bumps_made: int = 0
    #: This colour's pawns sent back to START, by anyone.
    bumped: int = 0
    slides: int = 0
    pawns_home: int = 0


@dataclass
class GameStatistics:
    turns: int
    #: Seats in playing order (seat 0 leads), as colour numbers.
    order: tuple[int, ...]
    winners: tuple[int, ...]
    #: Cards drawn (point play: played or discarded from the hand), and those that could not move.
    draws: dict[str, int]
    forfeits: dict[str, int]
    #: Pawns sent back to START: all of them, and those of them swept off slides.
    bumps: int
    swept: int
    slides: int
    #: 11s played as switches, and Sorry! cards played (with a move).
    switches: int
    sorries: int
    doubled: int = 0
    scores: dict[int, int] | None = None
    patience: str | None = None
    colours: dict[int, ColourStatistics] = field(default_factory=dict)

    @property
    def winner_seats(self) -> tuple[int, ...]:
        return tuple(self.order.index(c) for c in self.winners)

    @property
    def forfeit_total(self) -> int:
        return sum(self.forfeits.values())

    def totals(self) -> dict[str, int]:
        """The game's counts by the names the status page's JSON and the simulation's CSV
        columns give them, in their order there."""
        return {
            "turns": self.turns,
            "bumps": self.bumps,
            "swept": self.swept,
            "slides": self.slides,
            "switches": self.switches,
            "sorries": self.sorries,
            "forfeits": self.forfeit_total,
        }

    def summary(self) -> str:
        """A few lines for people, as the status page shows them at the end of a game."""
        winners = " and ".join(COLOURS[c] for c in self.winners) or "nobody"
        lines = [
            f"{winners} won after {self.turns} turns"
            if self.winners
            else f"Patience Sorry: {self.patience} after {self.turns} turns",
            f"{self.bumps} pawns sent back to start ({self.swept} swept off slides), "
            f"{self.slides} slides, {self.switches} switches, {self.sorries} Sorry! cards",
            f"{self.forfeit_total} turns without a move",
        ]
        for colour, stats in self.colours.items():
            lines.append(
                f"{COLOURS[colour]}: {stats.turns} turns, {stats.forfeits} without a move, "
                f"bumped {stats.bumps_made}, was bumped {stats.bumped}, slid {stats.slides}, "
                f"{stats.pawns_home} home"
            )
        return "\n".join(lines)


def game_statistics(game: Game) -> GameStatistics:
    """Count a game's turns, forfeits, bumps and slides from its history (finished or not)."""
    teams = game.config.teams
    draws = dict.fromkeys(CARDS, 0)
    forfeits = dict.fromkeys(CARDS, 0)
    colours = {c: ColourStatistics() for c in game.order}
    bumps = swept = slides = switches = sorries = 0
    for turn in game.history:
        mover = colours[turn.colour]
        mover.turns += 1
        draws[turn.card] += 1
        if turn.text in NO_MOVE:
            forfeits[turn.card] += 1
            mover.forfeits += 1
            continue
        move = parse_move(turn.text, turn.before, teams)
        sorries += turn.card == "sorry"
        for step in move.steps:
            switches += step.kind == StepKind.SWITCH
            if step.slide is not None:
                slides += 1
                colours[step.colour].slides += 1
                swept += len(step.bumped)
            bumps += len(step.bumped)
            colours[step.colour].bumps_made += len(step.bumped)
            for victim, _ in step.bumped:
                colours[victim].bumped += 1
    for colour, stats in colours.items():
        stats.pawns_home = game.position.count(colour, HOME)
    result = game.result
    return GameStatistics(
        turns=len(game.history),
        order=game.order,
        winners=result.winners if result else (),
        draws=draws,
        forfeits=forfeits,
        bumps=bumps,
        swept=swept,
        slides=slides,
        switches=switches,
        sorries=sorries,
        doubled=game.doubled,
        scores=result.scores if result else None,
        patience=result.patience if result else None,
        colours=colours,
    )

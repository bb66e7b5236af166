"""Shared helpers: positions by place names, decisions from a seeded game, and players that
check every answer they give."""

from __future__ import annotations

import random

from pawnlight.players.base import Player, card_options, distinct_moves
from pawnlight.players.registry import make_player
from pawnlight.players.strong import StrongPlayer
from pawnlight.players.view import GameView, view_of
from pawnlight.rules import EDITIONS, Deck, Game, GameConfig, Position
from pawnlight.rules.game import Phase
from pawnlight.rules.moves import Move, Options

#: Every edition, variant and partnership setting the rules core allows.
VARIANT_CASES = [
    (edition, variant, teams)
    for edition in EDITIONS
    for variant in sorted(EDITIONS[edition].variants)
    for teams in ((False, True) if variant == "standard" else (False,))
]


def pos(**pawns: str) -> Position:
    """``pos(red="T7 S2 start start")``: each colour's pawns by place name."""
    return Position.from_json({colour: places.split() for colour, places in pawns.items()})


def strong(spec: str) -> StrongPlayer:
    """``make_player(spec)`` for a ``strong`` spec, as the StrongPlayer it makes."""
    player = make_player(spec)
    assert isinstance(player, StrongPlayer), player
    return player


class Checked(Player):
    """Wraps a player and fails the test the moment it answers something the rules forbid."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.name = inner.name
        self.decisions = 0

    def choose(self, view: GameView, card: str, options: Options) -> Move | None:
        move = self.inner.choose(view, card, options)
        self.decisions += 1
        if move is None:
            assert options.forfeit, f"{self.name} declined a {card} that must be played"
        else:
            assert any(move is m or move == m for m in options.moves), (
                f"{self.name} chose an illegal move for the {card}"
            )
        return move

    def choose_card(self, view: GameView) -> str:
        card = self.inner.choose_card(view)
        assert card in view.hand, f"{self.name} played {card}, not in its hand {view.hand}"
        playable = [c for c in view.hand if card_options(view, c).moves]
        if playable:
            assert card in playable, f"{self.name} discarded {card} though {playable} could move"
        return card

    def wants_double(self, view: GameView) -> bool:
        return self.inner.wants_double(view)

    def accepts_double(self, view: GameView) -> bool:
        return self.inner.accepts_double(view)


def moments(count: int, seed: int = 4, **config):
    """(view, card, options) at decisions with a real choice, from a seeded random game."""
    rng = random.Random(seed)
    game = Game(GameConfig(**config))
    deck = Deck(rng)
    found: list[tuple[GameView, str, Options]] = []
    while not game.over and len(found) < count:
        card = deck.draw()
        options = game.draw(card)
        if game.phase == Phase.MOVE:
            if len(distinct_moves(options.moves)) >= 3:
                found.append((view_of(game), card, options))
            game.play(rng.choice(options.moves))
    return found

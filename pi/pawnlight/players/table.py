"""A whole game played by computer players at a virtual table: deck, hands, doubling, turns.

The tournament and the simulator use it; the companion drives a real board itself and calls the
players the same way, one decision at a time.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from ..errors import PawnlightError
from ..rules.cards import Deck
from ..rules.editions import Variant
from ..rules.game import Game, GameConfig, Phase
from ..rules.moves import Move
from .base import Player
from .view import HAND_SIZE, view_of

#: A game that has not ended after this many turns is stuck (it never happens in practice).
MAX_TURNS = 20_000
#: Doublings per game the table allows before it stops asking (re-doubling back and forth would
#: never end otherwise).
MAX_DOUBLINGS = 3

MoveHook = Callable[[Game, Move | None], None]


class StuckGameError(PawnlightError, RuntimeError):
    pass


def play_game(
    config: GameConfig,
    seats: Mapping[int, Player],
    seed: int | str,
    on_turn: MoveHook | None = None,
) -> Game:
    """Play ``config`` to the end with ``seats[colour]`` deciding for each colour.

    ``seed`` shuffles the pack (only the pack: players bring their own randomness), so the same
    seed deals the same cards.  ``on_turn(game, move)`` is called after every turn with the move
    played (None for a forfeit or discard).
    """
    game = Game(config)
    deck = Deck(random.Random(seed), extra_one=config.extra_one)
    points = config.variant == Variant.POINTS
    hands = (
        {c: [deck.draw(hold=True) for _ in range(HAND_SIZE)] for c in game.order} if points else {}
    )
    doubling = points and game.edition.scoring.drop_out_win is not None
    last_caller: int | None = None
    while not game.over:
        if len(game.history) > MAX_TURNS:
            raise StuckGameError(f"no end after {MAX_TURNS} turns")
        colour = game.turn
        player = seats[colour]
        may_double = doubling and last_caller != colour and game.doubled < MAX_DOUBLINGS
        if may_double and player.wants_double(view_of(game, colour, hands[colour])):
            last_caller = colour
            _double(game, colour, seats, hands)
            continue
        if points:
            hand = hands[colour]
            card = player.choose_card(view_of(game, colour, hand))
            hand.remove(card)
        else:
            card = deck.draw()
        options = game.draw(card)
        move = None
        if game.phase == Phase.MOVE:
            move = player.choose(view_of(game, colour, hands.get(colour, ())), card, options)
            if move is None:
                game.forfeit()
            else:
                game.play(move)
        if points:
            deck.discard(card)
            hands[colour].append(deck.draw(hold=True))
        if on_turn is not None:
            on_turn(game, move)
    return game


def _double(game: Game, caller: int, seats: Mapping[int, Player], hands: dict) -> None:
    game.double(caller)
    for other in sorted(game.waiting_for):
        view = view_of(game, other, hands[other])
        if seats[other].accepts_double(view):
            game.accept(other)
        else:
            game.drop(other)

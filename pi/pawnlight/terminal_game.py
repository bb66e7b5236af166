"""``pawnlight play``: a whole simulated game in the terminal, one line a turn."""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import TextIO

from .rules.board import COLOURS, place_name
from .rules.cards import Deck
from .rules.game import Game, GameConfig, GameError, Phase, Turn
from .rules.moves import Move


def describe(turn: Turn, move: Move | None) -> str:
    line = f"{COLOURS[turn.colour]:>6} draws {turn.card:>5}: {turn.text}"
    if move is not None:
        for colour, square in move.bumped:
            line += f"  (sends {COLOURS[colour]} on {place_name(square)} back to start)"
    return line


def play_in_terminal(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    config = GameConfig(
        edition=args.edition,
        players=tuple(p.strip() for p in args.players.split(",")),
        teams=args.teams,
        variant=args.variant,
    )
    try:
        game = Game(config)
    except (GameError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    rng = random.Random(seed)
    deck = Deck(rng, extra_one=config.extra_one)
    print(f"pawnlight: {config.edition} {config.variant} game, seed {seed}", file=out)
    while not game.over:
        options = game.draw(deck.draw())
        move = rng.choice(options.moves) if game.phase == Phase.MOVE else None
        if move is not None:
            game.play(move)
        print(describe(game.history[-1], move), file=out)
        if args.delay:
            time.sleep(args.delay)
    result = game.result
    assert result is not None
    if result.patience:
        print(f"Patience Sorry: {result.patience} ({result.reason})", file=out)
    else:
        winners = " and ".join(COLOURS[c] for c in result.winners)
        print(f"{winners} won after {len(game.history)} turns ({result.reason})", file=out)
    if result.scores:
        print(
            "scores: " + ", ".join(f"{COLOURS[c]} {p}" for c, p in result.scores.items()),
            file=out,
        )
    return 0

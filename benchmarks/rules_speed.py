"""How fast is the rules core? Legal-move generations and whole random games per second.

Measures pawnlight beside the PyPI package ``apologies`` (its low-level API: ``Rules``,
``Game.create_player_view``, ``construct_legal_moves``, ``execute_move``) in the same run, on the
same machine, and prints both figures and the ratios.  Each engine generates moves for positions
taken from its own random 4-player games (the same number of positions for both).

    .venv/bin/python benchmarks/rules_speed.py [--games N] [--positions N]
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable

from pawnlight.rules import EDITIONS, Deck, Game, GameConfig, compiled, legal_options


def rate(run: Callable[[], int]) -> float:
    """Items per CPU second of one run: the process's own CPU time, so that other programs on a
    shared machine (waiting for a core is not work) disturb the figure less than wall time."""
    start = time.process_time()
    items = run()
    return items / (time.process_time() - start)


def best_rates(runs: dict[str, Callable[[], int]], repeats: int) -> dict[str, float]:
    """Each run's best rate over ``repeats`` rounds (the least disturbed by the machine).

    The runs take turns within each round, so a busy spell on a shared machine slows both
    engines alike instead of making one of them look slow.
    """
    best = dict.fromkeys(runs, 0.0)
    for _ in range(repeats):
        for name, run in runs.items():
            best[name] = max(best[name], rate(run))
    return best


# -- pawnlight ------------------------------------------------------------------------------------


def pawnlight_game(rng: random.Random, samples: list | None = None) -> int:
    """One random 4-player game; returns the number of turns."""
    game = Game(GameConfig(edition="hasbro-2002"))
    deck = Deck(rng)
    while not game.over:
        card = deck.draw()
        if samples is not None:
            samples.append((game.position, game.turn, card))
        options = game.draw(card)
        if options.moves:
            game.play(rng.choice(options.moves))
    return len(game.history)


def pawnlight_low_level_game(rng: random.Random) -> int:
    """The same game through the bare move generator, as the apologies loop below is."""
    from pawnlight.rules import Position

    edition = EDITIONS["hasbro-2002"]
    position = Position.initial(range(4))
    deck = Deck(rng)
    player = turns = 0
    while True:
        card = deck.draw()
        options = legal_options(position, player, card, edition)
        turns += 1
        if options.moves:
            position = rng.choice(options.moves).after
            if position.all_home(player):
                return turns
        if not options.again:
            player = (player + 1) % 4


# -- apologies ------------------------------------------------------------------------------------


def apologies_game(rng: random.Random, samples: list | None = None) -> int:
    from apologies.game import Game as AGame
    from apologies.game import GameMode
    from apologies.rules import Rules as ARules

    random.seed(rng.random())  # apologies draws cards with the global random module
    game = AGame(playercount=4)
    rules = ARules(GameMode.STANDARD)
    rules.start_game(game)
    colours = list(game.players)
    turns = 0
    while not game.completed:
        for colour in colours:
            while True:
                card = game.deck.draw()
                view = game.create_player_view(colour)
                if samples is not None:
                    samples.append((view, card))
                moves = rules.construct_legal_moves(view, card=card)
                move = rng.choice(moves)
                if move.actions:
                    rules.execute_move(game, game.players[colour], move)
                game.deck.discard(card)
                turns += 1
                if game.completed or not rules.draw_again(card):
                    break
            if game.completed:
                break
    return turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="random games per engine per run")
    parser.add_argument("--positions", type=int, default=4000, help="positions per engine")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a few seconds' run that checks the benchmark still produces its figures (./test)",
    )
    args = parser.parse_args()
    if args.smoke:
        args.games, args.positions, args.repeats = 2, 200, 1

    print(
        f"machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}"
    )
    print(compiled.describe())

    # Positions from random play.
    ours: list = []
    theirs: list = []
    rng = random.Random(1)
    while len(ours) < args.positions:
        pawnlight_game(rng, ours)
    while len(theirs) < args.positions:
        apologies_game(rng, theirs)
    ours, theirs = ours[: args.positions], theirs[: args.positions]

    edition = EDITIONS["hasbro-2002"]

    def generate_ours() -> int:
        for position, player, card in ours:
            legal_options(position, player, card, edition)
        return len(ours)

    from apologies.game import GameMode
    from apologies.rules import Rules as ARules

    their_rules = ARules(GameMode.STANDARD)

    def generate_theirs() -> int:
        for view, card in theirs:
            their_rules.construct_legal_moves(view, card=card)
        return len(theirs)

    lengths: dict[str, list[int]] = {}

    def games(name: str, play: Callable[[random.Random], int], seed: int) -> Callable[[], int]:
        def run() -> int:
            generator = random.Random(seed)
            lengths[name] = [play(generator) for _ in range(args.games)]
            return args.games

        return run

    rates = best_rates(
        {
            "gen ours": generate_ours,
            "gen theirs": generate_theirs,
            "game ours": games("ours", pawnlight_game, 2),
            "bare ours": games("bare", pawnlight_low_level_game, 2),
            "game theirs": games("theirs", apologies_game, 2),
        },
        args.repeats,
    )
    gen_ours, gen_theirs = rates["gen ours"], rates["gen theirs"]
    game_ours, low_ours, game_theirs = rates["game ours"], rates["bare ours"], rates["game theirs"]
    turns_ours = statistics.mean(lengths["ours"])
    turns_theirs = statistics.mean(lengths["theirs"])

    print(f"legal-move generations per second ({args.positions} positions from random play)")
    print(f"  pawnlight  {gen_ours:12,.0f}")
    print(f"  apologies  {gen_theirs:12,.0f}")
    print(f"  ratio      {gen_ours / gen_theirs:12.1f}x")
    print(f"random 4-player games per second ({args.games} games, best of {args.repeats})")
    print(f"  pawnlight Game     {game_ours:8.1f}  ({turns_ours:.0f} turns a game)")
    print(f"  pawnlight bare     {low_ours:8.1f}")
    print(f"  apologies          {game_theirs:8.2f}  ({turns_theirs:.0f} turns a game)")
    print(f"  ratio (Game)       {game_ours / game_theirs:8.1f}x")
    print(f"  ratio (bare)       {low_ours / game_theirs:8.1f}x")


if __name__ == "__main__":
    main()

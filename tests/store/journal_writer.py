"""Plays seeded random games into a journal, as the companion would, until it is killed.

    python journal_writer.py JOURNAL SEED [LIMIT]

On start it resumes the journal's unfinished game, if any (as the companion does after a power
cut), else starts a new one; when a game ends it starts the next.  After each ``append`` returns
it prints ``GAME SEQ EVENT-JSON`` on a line of its own and flushes: such a line is an
acknowledged event, which must survive a SIGKILL at any later moment.  Before each ``append`` it
prints ``GAME SEQ appending``, so the test can tell a kill inside ``append`` from one elsewhere.
test_crash.py runs it.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository, for tests.store

from pawnlight.rules.game import Game
from pawnlight.store.journal import Journal
from pawnlight.store.record import event_json
from tests.store.randomplay import Player, every_config


def main() -> None:
    path, seed = sys.argv[1], int(sys.argv[2])
    limit = int(sys.argv[3]) if len(sys.argv) > 3 else 100_000  # a runaway guard
    rng = random.Random(seed)
    configs = list(every_config())
    journal = Journal.open(path)
    game_id = journal.unfinished()
    for _ in range(limit):
        if game_id is None:
            config = rng.choice(configs)
            game_id = journal.new_game(config, seed=seed)
            game = Game(config)
            print(f"{game_id} 0 new", flush=True)
        else:
            game = journal.resume(game_id)
        player = Player(game, rng.randrange(1 << 30), double=0.01)
        while not game.over:
            player.act()
            event = game.events[-1]
            # Not an acknowledgement: lets the test count kills that land inside append().
            print(f"{game_id} {len(game.events)} appending", flush=True)
            seq = journal.append(game_id, event)
            print(f"{game_id} {seq} {json.dumps(event_json(event))}", flush=True)
        game_id = None


if __name__ == "__main__":
    main()

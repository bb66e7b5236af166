"""The shared check of recognition tests: act a move out, feed it, expect the right decision."""

from __future__ import annotations

import random

from pawnlight.board.layout import Layout
from pawnlight.board.recognise import Ambiguous, InProgress, Recognised, Recogniser, Waiting
from pawnlight.board.snapshot import canonical, expected_occupancy, sense
from pawnlight.rules import Move, Options, Position, move_text

from .simulator import act_out, run, timeline

SETTLE = 0.3


def acted_out_is_recognised(
    layout: Layout,
    position: Position,
    options: Options,
    move: Move,
    rng: random.Random,
    *,
    walk: float = 0.5,
    long_pause: float = 0.25,
    flicker: float = 0.2,
) -> None:
    """People make ``move`` in a random physical order with random pauses and flicker: the
    recogniser only waits (or reports progress) on the way, accepts nothing before the final
    board has settled, and then names this move (or, where the board cannot tell, asks)."""
    states = act_out(position, move, rng, walk)
    recogniser = Recogniser(layout, position, options, settle=SETTLE)
    targets = recogniser.targets
    # A pause longer than the settle time only on boards that are not the position or the
    # result of a legal move: people who stop on a legal result have made that move.
    short_only = {
        i
        for i, cells in enumerate(states[:-1])
        if (board := sense(canonical(cells), layout.sensing)) == targets.base
        or targets.results(board)
    }
    events = timeline(
        states, rng, short_only=short_only, settle=SETTLE, long_pause=long_pause, flicker=flicker
    )
    story = f"{move_text(move)} from {position} on a {layout.sensing} board"
    for at, decision in run(recogniser, events, layout):
        assert isinstance(decision, Waiting | InProgress), (story, at, decision)
    end = events[-1].at
    early = recogniser.tick(end + SETTLE - 0.01)
    assert isinstance(early, Waiting | InProgress), (story, early)
    decision = recogniser.tick(end + SETTLE + 0.001)
    final = expected_occupancy(move.after, layout.sensing)
    if final == targets.base:
        # A move the board cannot see: an 11's switch on a presence board, or a 4 back onto a
        # triangle that slides the pawn to where it stood.  Ask, offering it.
        assert isinstance(decision, Ambiguous), (story, decision)
        assert decision.unchanged, story
        assert move.after in {m.after for m in decision.moves}, story
    elif len({m.after for m in targets.results(final)}) == 1:
        assert isinstance(decision, Recognised), (story, decision)
        assert decision.move.after == move.after, story
    else:
        # Only a presence board sees one result for moves with different outcomes.  It names
        # the move when the squares people lifted pawns from tell which; otherwise it asks.
        assert layout.sensing == "presence", (story, decision)
        if isinstance(decision, Recognised):
            assert decision.move.after == move.after, (story, decision)
        else:
            assert isinstance(decision, Ambiguous), (story, decision)
            assert not decision.unchanged, story
            assert move.after in {m.after for m in decision.moves}, story

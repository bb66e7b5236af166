"""Property tests: random legal moves, acted out in random physical orders with random timing
and sensor flicker, are always recognised, never taken for another move, never flagged as a
mismatch on the way, on both kinds of board."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pawnlight.board.layout import Layout
from pawnlight.board.recognise import Ambiguous, InProgress, Recognised, Recogniser, Waiting
from pawnlight.board.snapshot import canonical, expected_occupancy, sense
from pawnlight.rules import CARDS, EDITIONS, Position, legal_options, text

from .simulator import act_out, run, timeline

PRESENCE = Layout.named("presence")
COLOUR = Layout.named("colour")
LINEUPS = [(0, 2), (1, 3), (0, 1), (0, 1, 2), (0, 1, 2, 3)]
SETTLE = 0.3


@st.composite
def turns(draw):
    """A position reached by random play, a card, its legal options and one chosen move."""
    edition = EDITIONS[draw(st.sampled_from(sorted(EDITIONS)))]
    colours = draw(st.sampled_from(LINEUPS))
    teams = draw(st.booleans()) and len(colours) == 4
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    position = Position.initial(colours, on_circle=rng.random() < 0.3)
    player = colours[0]
    # An opening of 1s and 2s brings pawns out (boards with pawns to bump and slides to sweep
    # make harder moves), then ordinary play with any card.
    opening = rng.randint(0, 20)
    for ply in range(opening + rng.randint(0, 100)):
        card = rng.choice(("1", "2") if ply < opening else CARDS)
        options = legal_options(position, player, card, edition, teams)
        if options.moves:
            position = rng.choice(options.moves).after
        if any(position.all_home(c) for c in colours):
            break
        player = colours[(colours.index(player) + 1) % len(colours)]
    # Half the turns use the cards whose moves are hardest to see: splits, switches, Sorry!s.
    card = rng.choice(CARDS if rng.random() < 0.5 else ("7", "7", "11", "sorry", "4", "10"))
    options = legal_options(position, player, card, edition, teams)
    assume(options.moves)
    move = rng.choice(options.moves)
    return position, options, move


def acted_out_is_recognised(layout: Layout, turn, seed: int) -> None:
    position, options, move = turn
    rng = random.Random(seed)
    states = act_out(position, move, rng)
    recogniser = Recogniser(layout, position, options)
    targets = recogniser.targets
    # A pause longer than the settle time is only for boards that are not themselves the result
    # of a legal move (or the position): people who stop there have made that move.
    short_only = {
        i
        for i, cells in enumerate(states[:-1])
        if (board := sense(canonical(cells), layout.sensing)) == targets.base
        or targets.results(board)
    }
    events = timeline(states, rng, short_only=short_only, settle=SETTLE)
    story = f"{text(move)} from {position}"
    for at, decision in run(recogniser, events, layout):
        assert isinstance(decision, Waiting | InProgress), (story, at, decision)
    end = events[-1].at
    assert isinstance(recogniser.tick(end + SETTLE - 0.01), Waiting | InProgress), story
    decision = recogniser.tick(end + SETTLE + 0.001)
    final = expected_occupancy(move.after, layout.sensing)
    if final == targets.base:
        # A move the board cannot see: an 11's switch on a presence board, or a 4 back onto a
        # triangle that slides the pawn home to where it stood.  Ask, offering it.
        assert isinstance(decision, Ambiguous), (story, decision)
        assert decision.unchanged, story
        assert move.after in {m.after for m in decision.moves}, story
    elif len({m.after for m in targets.results(final)}) == 1:
        assert isinstance(decision, Recognised), (story, decision)
        assert decision.move.after == move.after, story
    else:
        # Only a presence board sees one result for moves with different outcomes: ask.
        assert layout.sensing == "presence", (story, decision)
        assert isinstance(decision, Ambiguous), (story, decision)
        assert not decision.unchanged, story
        assert move.after in {m.after for m in decision.moves}, story


SETTINGS = settings(
    max_examples=400,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@SETTINGS
@given(turn=turns(), seed=st.integers(0, 2**32 - 1))
def test_random_moves_acted_out_are_recognised_on_a_colour_board(turn, seed):
    acted_out_is_recognised(COLOUR, turn, seed)


@SETTINGS
@given(turn=turns(), seed=st.integers(0, 2**32 - 1))
def test_random_moves_acted_out_are_recognised_on_a_presence_board(turn, seed):
    acted_out_is_recognised(PRESENCE, turn, seed)

"""Property tests: random legal moves, from positions reached by random play, acted out in
random physical orders with random timing and sensor flicker, are always recognised, never
taken for another move and never flagged as a mismatch on the way, on both kinds of board."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pawnlight.board.layout import Layout
from pawnlight.rules import CARDS, EDITIONS, Position, legal_options

from .checks import acted_out_is_recognised

PRESENCE = Layout.named("presence")
COLOUR = Layout.named("colour")
LINEUPS = [(0, 2), (1, 3), (0, 1), (0, 1, 2), (0, 1, 2, 3)]


@st.composite
def turns(draw):
    """A position reached by random play, the legal options of a card and one chosen move.

    Hypothesis draws the edition, the players and a seed; the game itself is played by a seeded
    random player (hypothesis would keep games short, and short games have few pawns out).
    """
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
    return position, options, rng.choice(options.moves)


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
    position, options, move = turn
    acted_out_is_recognised(COLOUR, position, options, move, random.Random(seed))


@SETTINGS
@given(turn=turns(), seed=st.integers(0, 2**32 - 1))
def test_random_moves_acted_out_are_recognised_on_a_presence_board(turn, seed):
    position, options, move = turn
    acted_out_is_recognised(PRESENCE, position, options, move, random.Random(seed))


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(turn=turns(), seed=st.integers(0, 2**32 - 1), layout=st.sampled_from([PRESENCE, COLOUR]))
def test_slow_walkers_with_long_pauses_and_bad_sensors(turn, seed, layout):
    """Every pawn walked square by square, many pauses longer than the settle time, and
    flicker in most pauses."""
    position, options, move = turn
    acted_out_is_recognised(
        layout, position, options, move, random.Random(seed), walk=1.0, long_pause=0.7, flicker=0.8
    )

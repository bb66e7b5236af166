"""Properties over positions reached by random play (hypothesis)."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pawnlight.rules import CARDS, EDITIONS, Deck, Game, GameConfig, move_text, parse_move
from pawnlight.rules.board import HOME, START, TRACK_SQUARES
from pawnlight.rules.moves import StepKind, legal_options
from pawnlight.rules.position import Position

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def played_positions(draw):
    """A position some way into a random game, with the edition and team flag it was played in."""
    edition = draw(st.sampled_from(sorted(EDITIONS)))
    teams = draw(st.booleans())
    seed = draw(st.integers(0, 2**32 - 1))
    turns = draw(st.integers(0, 300))
    rng = random.Random(seed)
    game = Game(GameConfig(edition=edition, teams=teams))
    deck = Deck(rng)
    for _ in range(turns):
        if game.over:
            break
        options = game.draw(deck.draw())
        if game.phase == "move":
            game.play(rng.choice(options.moves))
    return game.position, EDITIONS[edition], teams


def all_moves(position, edition, teams):
    for player in position.colours:
        for card in CARDS:
            options = legal_options(position, player, card, edition, teams)
            for move in options.moves:
                yield player, card, move


@SETTINGS
@given(played_positions())
def test_results_are_valid_positions_with_every_pawn_kept(case):
    position, edition, teams = case
    counts = {c: len(position.pawns(c)) for c in position.colours}
    for _, _, move in all_moves(position, edition, teams):
        move.after.validate()
        assert {c: len(move.after.pawns(c)) for c in move.after.colours} == counts
        # Pawns home stay home.
        for colour in position.colours:
            assert move.after.count(colour, HOME) >= position.count(colour, HOME)


@SETTINGS
@given(played_positions())
def test_notation_round_trips(case):
    position, edition, teams = case
    for _, _, move in all_moves(position, edition, teams):
        assert parse_move(move_text(move), position, teams) == move


@SETTINGS
@given(played_positions())
def test_stated_bumps_slides_and_switches_produce_the_position(case):
    """Rebuild every move's result from its stated consequences alone."""
    position, edition, teams = case
    for _, _, move in all_moves(position, edition, teams):
        groups = {c: list(position.pawns(c)) for c in position.colours}
        for step in move.steps:
            groups[step.colour].remove(step.origin)
            groups[step.colour].append(step.final)
            if step.kind == StepKind.SWITCH:
                groups[step.swapped].remove(step.target)
                groups[step.swapped].append(step.origin)
            for colour, square in step.bumped:
                groups[colour].remove(square)
                groups[colour].append(START)
            if step.slide is not None:
                assert step.slide.colour != step.colour
                assert step.target == step.slide.triangle
        rebuilt = Position.from_places(groups.get(c) for c in range(4))
        assert rebuilt == move.after


@SETTINGS
@given(played_positions(), st.sampled_from(CARDS))
def test_forward_cards_move_exactly_their_count_and_never_onto_own_pawns(case, card):
    position, edition, teams = case
    counts = {"1": 1, "2": 2, "3": 3, "5": 5, "8": 8, "12": 12}
    for player in position.colours:
        for move in legal_options(position, player, card, edition, teams).moves:
            if card in counts and move.steps[0].origin != START:
                assert len(move.steps[0].path) == counts[card]
            if card == "7":
                assert sum(len(s.path) for s in move.steps) == 7
            for step in move.steps:
                if step.final < TRACK_SQUARES and step.slide is None and not teams:
                    assert (step.colour, step.final) not in step.bumped


@SETTINGS
@given(played_positions())
def test_the_flat_two_part_split_agrees_with_the_general_one(case):
    """_two_part_sevens is a faster copy of _split_sevens(max_parts=2): they must agree."""
    from pawnlight.rules.moves import _split_sevens, _two_part_sevens

    position, _, teams = case
    for player in position.colours:
        movers = (player,)
        flat = {
            (m.after, hit)
            for m, hit in _two_part_sevens(position, position.track_occupancy(), movers, teams)
        }
        general = {(m.after, hit) for m, hit in _split_sevens(position, movers, 2, teams)}
        assert flat == general

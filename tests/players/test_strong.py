"""The strong player: deterministic under its seed, held to its budget, consistent in point play."""

import random

from pawnlight.players import StrongPlayer, strong, view_of
from pawnlight.players.base import card_options
from pawnlight.players.rollout import Future, Rollouts, card_stream
from pawnlight.players.strong import _significant_best
from pawnlight.rules import Deck, Game, GameConfig, move_text
from pawnlight.rules.game import Phase

from .helpers import moments


def test_the_same_seed_gives_the_same_move_whatever_was_asked_before():
    points = moments(6)
    first = [StrongPlayer(seed=5, budget=200).choose(*p) for p in points]
    player = StrongPlayer(seed=5, budget=200)
    backwards = [player.choose(*p) for p in reversed(points)]
    assert first == list(reversed(backwards))


def test_the_budget_bounds_the_simulated_turns(monkeypatch):
    turns = []
    original = Rollouts.play_out

    def counting(self, position, colour, cards, depth, hands=None):
        turns.append(depth)
        return original(self, position, colour, cards, depth, hands)

    monkeypatch.setattr(Rollouts, "play_out", counting)
    view, card, options = moments(1)[0]
    StrongPlayer(budget=300, width=3).choose(view, card, options)
    assert 0 < sum(turns) <= 300 + 2 * 3 * max(turns)  # at least two futures per candidate


def test_card_streams_deal_the_unseen_cards_first():
    unseen = {"1": 2, "sorry": 1}
    stream = card_stream(unseen, random.Random(1), extra_one=False)
    first = sorted(next(stream) for _ in range(3))
    assert first == ["1", "1", "sorry"]
    assert len([next(stream) for _ in range(44)]) == 44  # then whole packs


def test_a_future_deals_every_candidate_the_same_cards_however_many_it_draws():
    future = Future(card_stream({"1": 2}, random.Random(1), extra_one=False), dealt=2)
    first = future.cards()
    seen_first = [next(first) for _ in range(30)]  # far past the two dealt
    first.close()  # one candidate done: the others must still have their whole future
    second = future.cards()
    assert [next(second) for _ in range(40)][:30] == seen_first


def test_candidates_in_long_futures_meet_the_same_cards(monkeypatch):
    # A future deals a few cards ahead and draws the rest when a candidate needs them (here
    # it deals only two): every candidate must still meet the same cards, or the comparison
    # is not a fair one.
    monkeypatch.setattr(strong, "_cards_needed", lambda view, depth: 2)
    drawn: list[list[str]] = []
    original = Rollouts.play_out

    def recording(self, position, colour, cards, depth, hands=None):
        mine: list[str] = []
        drawn.append(mine)

        def noted():
            for card in cards:
                mine.append(card)
                yield card

        return original(self, position, colour, noted(), depth, hands)

    monkeypatch.setattr(Rollouts, "play_out", recording)
    view, card, options = moments(3)[2]
    width = 3
    StrongPlayer(seed=4, budget=1000, width=width, depth=9).choose(view, card, options)
    candidates = min(width, len({m.after for m in options.moves}))
    assert candidates >= 2 and len(drawn) % candidates == 0
    longest = 0
    for world in range(0, len(drawn), candidates):
        lines = drawn[world : world + candidates]
        shortest = min(map(len, lines))
        longest = max(longest, max(map(len, lines)))
        assert all(line[:shortest] == lines[0][:shortest] for line in lines)
    assert longest > 2  # the futures did run past the cards dealt ahead


def test_point_play_plays_the_move_it_planned_with_the_card():
    rng = random.Random(2)
    game = Game(GameConfig(edition="parker-1950", variant="points"))
    deck = Deck(rng)
    player = StrongPlayer(seed=1, budget=100)
    for _ in range(30):  # some turns in, so that there is something to choose
        options = game.draw(deck.draw())
        if game.phase == Phase.MOVE:
            game.play(rng.choice(options.moves))
    hand = ("7", "11", "4", "sorry", "1")
    view = view_of(game, hand=hand)
    card = player.choose_card(view)
    assert player._planned is not None
    planned = player._planned[1]
    game.draw(card)
    rest = list(hand)
    rest.remove(card)
    assert game.options is not None
    move = player.choose(view_of(game, hand=rest), card, game.options)
    assert move is planned or move == planned
    assert move is None or move_text(move) in {move_text(m) for m in card_options(view, card).moves}


def test_another_move_replaces_the_heuristics_choice_only_on_clear_evidence():
    baseline = [0.0, 1.0, 0.5, 0.2, 0.8, 0.4]
    steps = [0.3, -0.2, 0.25, -0.1, 0.2, 0.0]
    slightly_better = [v + d for v, d in zip(baseline, steps, strict=True)]
    clearly_better = [v + 0.3 for v in baseline]
    assert _significant_best([baseline, slightly_better], margin=1.0) == 0
    assert _significant_best([baseline, slightly_better], margin=0.0) == 1
    assert _significant_best([baseline, slightly_better, clearly_better], margin=1.0) == 2
    worse = [v - 0.3 for v in baseline]
    assert _significant_best([baseline, worse], margin=0.0) == 0


def test_a_decision_ends_even_when_every_future_ends_at_once(monkeypatch):
    """Remembered moves cost nothing; futures that all end on their first turn still spend the
    budget (this once looped for ever in a tournament)."""
    calls = []

    def always_over(self, position, move):
        calls.append(1)
        assert len(calls) < 100_000, "the decision never stopped sampling"
        return 1.0

    monkeypatch.setattr(Rollouts, "outcome", always_over)
    view, card, options = moments(1)[0]
    move = StrongPlayer(budget=300, width=3).choose(view, card, options)
    assert move in options.moves
    assert len(calls) <= 300

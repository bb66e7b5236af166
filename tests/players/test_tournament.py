"""Seeded tournaments: reproducible, seats rotate, Wilson intervals, the heuristic is strong."""

import pytest

from pawnlight.players.confidence import wilson_interval
from pawnlight.players.registry import parse_spec, split_specs
from pawnlight.players.tournament import (
    TournamentSettings,
    format_result,
    plans,
    run_tournament,
    seating,
)
from pawnlight.rules.game import GameError

from .helpers import strong


def test_wilson_interval_matches_known_values():
    low, high = wilson_interval(70, 100)
    assert low == pytest.approx(0.6041, abs=1e-4) and high == pytest.approx(0.7810, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == pytest.approx(1.0)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(5, 4)


def test_seats_rotate_so_every_entrant_leads_equally_often():
    assert seating(4, 0) == (0, 1, 2, 3)
    assert seating(4, 1) == (3, 0, 1, 2)  # entrant 0 moved to seat 1
    leads = [seating(3, g)[0] for g in range(9)]
    assert sorted(leads) == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    settings = TournamentSettings(("heuristic", "random", "random", "random"), games=8, seed=3)
    game_plans = plans(settings)
    # One deal per rotation: the four games of a rotation get the same cards.
    assert len({p.deck_seed for p in game_plans}) == 2
    assert [p.seats.index(0) for p in game_plans] == [0, 1, 2, 3, 0, 1, 2, 3]


def test_the_same_seed_gives_the_same_results_on_any_number_of_processes():
    settings = TournamentSettings(("heuristic", "random", "strong:budget=30"), games=6, seed=9)
    one = run_tournament(settings, jobs=1)
    again = run_tournament(settings, jobs=2)
    assert one.outcomes == again.outcomes
    assert format_result(one) == format_result(again)
    other = run_tournament(TournamentSettings(settings.entrants, games=6, seed=10))
    assert other.outcomes != one.outcomes


def test_standings_add_up():
    settings = TournamentSettings(("heuristic", "random", "random", "random"), games=8, seed=2)
    result = run_tournament(settings)
    standings = {s.spec: s for s in result.standings}
    assert standings["heuristic"].games == 8 and standings["random"].games == 24
    assert standings["random"].seats == 3
    assert sum(s.wins for s in standings.values()) == 8 == sum(result.seat_wins)
    assert sum(standings["heuristic"].seat_games) == 8


def test_partnership_tournaments_count_both_partners():
    settings = TournamentSettings(
        ("heuristic", "random", "heuristic", "random"), games=4, seed=1, teams=True
    )
    result = run_tournament(settings)
    assert all(len(o.winners) == 2 for o in result.outcomes)
    # Entrants 0 and 2 are always partners, so their wins come together.
    assert all((0 in o.winners) == (2 in o.winners) for o in result.outcomes)


def test_point_play_tournaments_report_points():
    settings = TournamentSettings(
        ("heuristic", "random"), games=4, seed=1, edition="parker-1950", variant="points"
    )
    result = run_tournament(settings)
    assert all(len(o.points) == 2 for o in result.outcomes)
    assert "points/game" in format_result(result)


def test_the_heuristic_beats_three_random_players_by_a_wide_margin():
    """A fact about seed 1 and 200 games, not a measurement: docs/players.md has the figures."""
    settings = TournamentSettings(("heuristic", "random", "random", "random"), games=200, seed=1)
    heuristic = run_tournament(settings, jobs=2).standings[0]
    assert heuristic.spec == "heuristic"
    assert heuristic.interval[0] > 0.6


@pytest.mark.parametrize(
    "bad",
    [
        "wizard",
        "strong:budget=0",
        "strong:speed=3",
        "heuristic:budget=3",
        "strong:budget=lots",
        "strong:margin=-1",
        "strong:margin=x",
    ],
)
def test_bad_player_specs_are_refused_with_a_reason(bad):
    with pytest.raises(ValueError, match=r"player|setting"):
        parse_spec(bad)


def test_player_specs():
    assert parse_spec(" Strong:budget=400, width=3") == ("strong", {"budget": 400, "width": 3})
    assert strong("strong:budget=7").budget == 7
    assert strong("strong:margin=0.5").margin == 0.5


def test_a_list_of_players_keeps_each_players_settings_together():
    assert split_specs("strong:budget=3000,width=5, heuristic,heuristic") == (
        "strong:budget=3000,width=5",
        "heuristic",
        "heuristic",
    )
    assert split_specs("heuristic,strong:leaf=chance,depth=3") == (
        "heuristic",
        "strong:leaf=chance,depth=3",
    )
    # A setting after a player that takes none stays with it, and is refused by its name.
    (spec,) = split_specs("heuristic,budget=3")
    with pytest.raises(ValueError, match="budget=3"):
        parse_spec(spec)


def test_patience_has_no_tournament():
    with pytest.raises(ValueError, match="Patience"):
        TournamentSettings(
            ("heuristic", "random"), 2, edition="parker-1939", variant="patience"
        ).check()


@pytest.mark.parametrize("trials", [1, 7, 100, 2000, 12345])
def test_wilson_interval_contains_the_rate_even_at_the_ends(trials):
    # A card that never forfeits once crashed the plots: the rounded bound lay above the rate.
    for successes in (0, 1, trials // 2, trials - 1, trials):
        low, high = wilson_interval(successes, trials)
        assert 0.0 <= low <= successes / trials <= high <= 1.0
    assert wilson_interval(0, trials)[0] == 0.0
    assert wilson_interval(trials, trials)[1] == 1.0


def test_a_tournament_plays_under_house_rules():
    settings = TournamentSettings(
        entrants=("heuristic", "random"),
        games=2,
        edition="parker-1950",
        house_rules=("diamond-lock",),
    )
    assert settings.config(0).house_rules == ("diamond-lock",)
    result = run_tournament(settings)
    assert "house rules diamond-lock" in format_result(result).splitlines()[0]
    with pytest.raises(GameError, match="unknown house rule"):
        run_tournament(
            TournamentSettings(entrants=("heuristic", "random"), games=1, house_rules=("x",))
        )


def test_one_player_under_two_names_is_counted_once():
    """Issue #47, 7: "normal" is the heuristic player: one line for it, with both its seats."""
    settings = TournamentSettings(("heuristic", "normal", "random"), games=3, seed=2)
    standings = run_tournament(settings).standings
    assert [(s.spec, s.seats, s.games) for s in standings] == [
        ("heuristic", 2, 6),
        ("random", 1, 3),
    ]


def test_a_players_one_name_is_its_level():
    from pawnlight.players.registry import level_of

    assert [level_of(s) for s in ("heuristic", "normal", "casual", "strong", "hard")] == [
        "normal",
        "normal",
        "easy",
        "hard",
        "hard",
    ]
    assert level_of("strong:budget=400, margin=0.50") == "strong:budget=400,margin=0.5"
    assert level_of("random") == "random"

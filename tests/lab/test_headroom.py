"""The headroom measurement: candidates as the heuristic ranks them, choices judged on futures
they were not chosen on, and a command that refuses bad input in a sentence."""

import json
from pathlib import Path

import pytest

from pawnlight.players.heuristic import HeuristicPlayer
from pawnlight_lab import headroom
from pawnlight_lab.headroom import Decision, GameJob, gain_curve, held_out_gain


class SecondChoice(HeuristicPlayer):
    """Plays the heuristic's second-best candidate (declining, when that is it)."""

    name = "second"

    def choose(self, view, card, options):
        second = headroom.candidates(headroom.Rollouts(view), view, options, 2)[1][1]
        if second == view.position:
            return None
        return next(m for m in options.moves if m.after == second)


def measured(tmp_path, every: int) -> Path:
    """One game's decisions, four futures each, written by the command."""
    out = tmp_path / "decisions.jsonl"
    args = ["--games", "1", "--futures", "4", "--every", str(every), "--jobs", "1"]
    assert headroom.main([*args, "--out", str(out)]) == 0
    return out


def decision(*wins: str) -> Decision:
    return Decision(game=0, card="1", scores=tuple(float(-i) for i in range(len(wins))), wins=wins)


def test_a_better_move_found_on_one_half_is_worth_what_it_wins_on_the_other():
    always = decision("0" * 40, "1" * 40)  # the heuristic's move always loses, the other wins
    assert [gain.mean for _, gain in gain_curve([always], (5, 20), z=2.0)] == [1.0, 1.0]


def test_a_lucky_half_does_not_flatter_the_choice():
    # The alternative won every future of the first half and none of the second. Chosen on
    # the first half, it is judged on the second, where it lost all the heuristic's move won
    # (-1); on the second half the heuristic's own move is chosen (0).
    lucky = decision("0" * 10 + "1" * 10, "1" * 10 + "0" * 10)
    assert held_out_gain(lucky, size=10, z=0.0) == -0.5
    same = decision("0110100101", "0110100101")
    assert held_out_gain(same, size=5, z=0.0) == 0.0  # no gain where the futures agree


def test_the_margin_keeps_the_heuristics_move_on_thin_evidence():
    thin = decision("0000000000", "1000010000")  # the other won 2 of 10 on one half, 0 on the other
    assert held_out_gain(thin, size=5, z=3.0) == 0.0


def test_measured_decisions_rank_the_heuristics_own_move_first():
    job = GameJob(seed=3, game=1, futures=4, every=6, width=3)
    found = headroom.measure_game(job)
    assert found, "a game has decisions with a choice"
    sampled = headroom.sampled_decisions(3, 1, 6)
    assert len(found) <= len(sampled)
    for d in found:
        assert 2 <= len(d.scores) <= 3 and list(d.scores) == sorted(d.scores, reverse=True)
        assert all(len(line) == 4 and set(line) <= {"0", "1"} for line in d.wins)
    assert headroom.measure_game(job) == found  # seeded: the same figures every time
    view, card, options = sampled[0]
    chosen = HeuristicPlayer().choose(view, card, options)
    rollouts = headroom.Rollouts(view)
    first = headroom.candidates(rollouts, view, options, 3)[0][1]
    assert first == (view.position if chosen is None else chosen.after)


def test_the_command_reports_on_written_decisions(tmp_path, capsys):
    out = measured(tmp_path, every=5)
    first = capsys.readouterr().out
    assert "decisions from 1 games" in first and "per game" in first
    assert headroom.main(["--load", str(out)]) == 0
    assert capsys.readouterr().out.splitlines()[:-1] == first.splitlines()[:-1]  # all but the time


def test_a_judged_player_is_credited_with_what_its_choices_win(tmp_path, capsys):
    out = tmp_path / "decisions.jsonl"
    settings = ["--games", "2", "--futures", "8", "--every", "4", "--width", "4", "--jobs", "1"]
    assert headroom.main([*settings, "--out", str(out)]) == 0
    decisions = [headroom._decision(json.loads(line)) for line in out.read_text().splitlines()]
    moments = headroom.replayed(decisions, seed=1, every=4, width=4)
    assert [m.decision for m in moments] == decisions  # every decision found again, in order
    own = headroom.judge("heuristic", moments)
    assert (own.gain.mean, own.judged, own.outside) == (0.0, len(decisions), 0)
    # A player that always takes the heuristic's second choice is judged by exactly those
    # futures: its gain is the mean of (second's wins - first's wins).
    expected = sum(
        (d.wins[1].count("1") - d.wins[0].count("1")) / d.futures for d in decisions
    ) / len(decisions)
    second = headroom.judge(SecondChoice(), moments)
    assert second.judged == len(decisions) and second.gain.mean == pytest.approx(expected)
    capsys.readouterr()
    assert headroom.main(["--load", str(out), *settings[4:8], "--judge", "heuristic"]) == 0
    assert "heuristic | +0.0 ± 0.0 |" in capsys.readouterr().out


def test_decisions_measured_with_other_settings_are_not_judged(tmp_path, capsys):
    out = measured(tmp_path, every=4)
    capsys.readouterr()
    with pytest.raises(SystemExit) as stop:
        headroom.main(["--load", str(out), "--every", "3", "--judge", "heuristic"])
    assert stop.value.code == 2 and "measured with another" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        headroom.main(["--load", str(out), "--every", "4", "--judge", "strong:budget=-1"])
    assert stop.value.code == 2 and "--judge strong:budget=-1" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--futures", "2"], "--futures must be at least 4"),
        (["--games", "0"], "--games must be at least 1"),
    ],
)
def test_bad_settings_are_refused_in_a_sentence(args, message, capsys):
    with pytest.raises(SystemExit) as stop:
        headroom.main(args)
    assert stop.value.code == 2 and message in capsys.readouterr().err


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        json.dumps({"game": 0, "card": "1", "scores": [1.0], "wins": ["01"]}),
        json.dumps({"game": 0, "card": "1", "scores": [1.0, 0.0], "wins": ["01", "0x"]}),
        json.dumps({"game": 0, "card": "1"}),
    ],
)
def test_a_bad_decisions_file_is_refused_in_a_sentence(text, tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(text + "\n")
    with pytest.raises(SystemExit) as stop:
        headroom.main(["--load", str(bad)])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "not a file of measured decisions" in err
    assert "Traceback" not in err

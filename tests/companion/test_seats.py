"""Seats given to the computer, or back to a person, during a game (the ``seat`` command):
issue #34, a player leaving the table."""

import pytest

from pawnlight.companion.service import CommandRefused
from pawnlight.companion.signals import Remember, StartRecord

from .bench import Bench


def started(players=("red", "blue"), **args) -> Bench:
    bench = Bench()
    bench.command("new_game", players=list(players), **args)
    # A companion just started cannot know whether the journal keeps an earlier game's seats:
    # its first game forgets them.
    assert kept(bench) == [None]
    bench.show(bench.game.position)
    assert bench.companion.phase == "draw"
    bench.effects.clear()
    return bench


def kept(bench: Bench) -> list:
    """What the companion asked to keep as the seats, in order."""
    return [e.value for e in bench.effects if isinstance(e, Remember) and e.name == "seats"]


def test_the_computer_takes_a_seat_whose_card_is_drawn_and_chooses_at_once():
    bench = started()
    bench.scan("1")  # red's card: a person's, every move lit
    assert bench.companion.state().to_json()["guided"] is None
    reply = bench.command("seat", colour="red", player="heuristic")
    assert reply["computer"] == {"red": "normal"}
    state = bench.companion.state().to_json()
    assert state["computer"] == {"red": "normal"} and state["phase"] == "move"
    assert state["guided"]["text"] == "R:start-T4" and "computer" in state["guided"]["by"]
    assert state["message"].startswith("The computer plays Red from now on. Red (computer")
    assert kept(bench) == [{"computer": {"red": "normal"}}]
    # A person makes the computer's move on the board; play goes on to blue.
    bench.play(bench.game.legal[0])
    assert bench.game.history[-1].text == "R:start-T4"
    assert bench.companion.state().to_json()["turn"] == "blue"


def test_a_person_takes_back_a_computer_seat_and_every_move_is_lit_again():
    bench = started(computer={"blue": "heuristic"})
    bench.scan("5")  # red cannot move
    bench.scan("1")  # blue's card: the computer has chosen
    assert bench.companion.state().to_json()["guided"] is not None
    bench.command("seat", colour="blue", player=None)
    state = bench.companion.state().to_json()
    assert state["computer"] == {} and state["guided"] is None and state["phase"] == "move"
    assert state["message"] == (
        "Blue is played by a person again. Blue plays a 1: make the move lit on the board"
    )
    assert kept(bench) == [{"computer": {}}]


def test_a_seat_changed_before_its_card_plays_from_the_next_card():
    bench = started()
    bench.command("seat", colour="blue", player="strong:budget=40")
    state = bench.companion.state().to_json()
    assert state["phase"] == "draw" and state["turn"] == "red" and state["guided"] is None
    assert state["message"] == "The computer plays Blue from now on. Red: draw a card and scan it"
    bench.scan("5")  # red cannot move
    bench.scan("1")  # blue's card: the computer chooses
    state = bench.companion.state().to_json()
    assert state["guided"]["text"] == "B:start-T19"
    assert "strong:budget=40" in state["guided"]["by"]


@pytest.mark.parametrize(
    ("args", "status", "words"),
    [
        ({"colour": "green", "player": "heuristic"}, 409, "green is not playing"),
        ({"colour": "red", "player": "genius"}, 400, "unknown player"),
        ({"colour": "red", "player": "strong:budget=0"}, 400, "computer red"),
        ({"colour": "red", "player": 3}, 400, "say which player for red"),
        ({"colour": "purple", "player": None}, 400, "unknown colour"),
        ({"colour": "red"}, 400, "say which colour and who plays it"),
        ({"colour": "red", "player": None, "seat": 1}, 400, "unknown field"),
    ],
)
def test_a_seat_is_checked_as_a_new_games_computer_seats_are(args, status, words):
    bench = started()
    with pytest.raises(CommandRefused, match=words) as refused:
        bench.command("seat", **args)
    assert refused.value.status == status
    assert bench.companion.state().to_json()["computer"] == {} and kept(bench) == []


def test_no_seat_changes_hands_without_a_game_in_play():
    bench = Bench()
    with pytest.raises(CommandRefused, match="no game is in play") as refused:
        bench.command("seat", colour="red", player="heuristic")
    assert refused.value.status == 409


def test_a_new_game_has_its_own_seats_and_forgets_the_kept_ones():
    bench = started()
    bench.command("seat", colour="blue", player="heuristic")
    bench.effects.clear()
    bench.command("new_game", players=["red", "blue"])
    start = next(e for e in bench.effects if isinstance(e, StartRecord))
    assert start.computer == ()  # the new game's own seats, as the form asked
    assert kept(bench) == [None]
    bench.effects.clear()
    bench.command("new_game", players=["red", "blue"])
    assert kept(bench) == []  # forgotten once is enough


def test_a_restart_resumes_with_the_kept_seats():
    bench = started()
    bench.scan("1")
    bench.command("seat", colour="red", player="heuristic")
    # The owner resumes with the kept seats in place of the record's (runtime/owner.py).
    resumed = Bench()
    resumed.effects += resumed.companion.resume(bench.game, kept(bench)[-1]["computer"])
    resumed.show(bench.game.position)
    state = resumed.companion.state().to_json()
    assert state["computer"] == {"red": "normal"} and state["phase"] == "move"
    assert state["guided"]["text"] == "R:start-T4"

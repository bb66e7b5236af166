"""What the Pi says aloud: whose turn, the card, what happened, the winner; nothing else."""

from pawnlight.companion.announce import announcement


def test_whose_turn_and_the_card():
    draw = {"phase": "draw", "turn": "red", "news": ""}
    assert announcement(None, draw) == "Red's turn"
    move = {**draw, "phase": "move", "card": "8"}
    assert announcement(draw, move) == "Red drew an 8"
    assert announcement(move, move) is None  # nothing new, nothing said


def test_a_bump_then_the_next_turn():
    before = {"phase": "move", "turn": "red", "card": "3", "news": ""}
    news = "Red: the red pawn on red's start circle goes to ... (blue back to START)"
    after = {"phase": "draw", "turn": "blue", "card": None, "news": news}
    assert announcement(before, after) == f"{news}. Blue's turn"


def test_the_winner():
    before = {"phase": "move", "turn": "red", "card": "1", "news": ""}
    after = {"phase": "over", "news": "Red: ...", "result": {"winners": ["red"]}}
    assert announcement(before, after) == "Red: .... Red won!"


def test_set_up_and_corrections_are_not_spoken():
    setup = {"phase": "setup", "turn": "red", "news": "", "corrections": ["put ..."]}
    assert announcement(None, setup) is None

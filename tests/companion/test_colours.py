"""Guidance puts the right colour on every square, also on a presence board (issue #16: undo
after a bump).  The test keeps the physical board in true colours and carries out each
correction literally, one pawn at a time, as a person does."""

from __future__ import annotations

import pytest

from pawnlight.board.cells import EMPTY, cells_of
from pawnlight.board.guidance import Correction, Fix
from pawnlight.board.snapshot import canonical, reading_for, true_occupancy
from pawnlight.companion.signals import Reading
from pawnlight.rules import move_text
from pawnlight.rules.board import Place, parse_colour

from .bench import Bench

RED, BLUE = parse_colour("red"), parse_colour("blue")
START = 66
#: After the Sorry! is undone: the blue pawn on T4 goes back to blue START, a red one onto T4.
BLUE_BACK = Correction(Fix.MOVE, Place(4), Place(START, BLUE), BLUE)
RED_BACK = Correction(Fix.MOVE, Place(START, RED), Place(4), RED)


class Hands:
    """The physical board in true colours, changed one pawn at a time and shown to the bench."""

    def __init__(self, bench: Bench) -> None:
        self.bench = bench
        self.cells = list(true_occupancy(bench.game.position))
        self.held: list[int] = []

    def show(self, settle: bool = False) -> None:
        bench = self.bench
        bench.now += 0.01
        reading = reading_for(bench.layout, tuple(self.cells))
        bench.effects += bench.companion.handle(Reading(reading, bench.now))
        bench.advance(0.5 if settle else 0.15)

    def lift(self, spot: Place, colour: int = -1) -> int:
        cells = [c for c in cells_of(spot) if self.cells[c] != EMPTY]
        assert cells, f"no pawn to lift from {spot}"
        cell = next((c for c in cells if self.cells[c] == colour), cells[0])
        lifted, self.cells[cell] = self.cells[cell], EMPTY
        self.show()
        return lifted

    def place(self, spot: Place, colour: int) -> None:
        cell = next(c for c in cells_of(spot) if self.cells[c] == EMPTY)
        self.cells[cell] = colour
        self.show()

    def carry_out(self, correction: Correction) -> None:
        """Exactly what the correction says, no more."""
        if correction.action == Fix.MOVE:
            assert correction.source is not None and correction.target is not None
            self.place(correction.target, self.lift(correction.source, correction.colour))
        elif correction.action == Fix.LIFT:
            assert correction.source is not None
            self.held.append(self.lift(correction.source, correction.colour))
        elif correction.action == Fix.PUT:
            assert correction.target is not None
            wanted = correction.colour
            colour = wanted if wanted in self.held else self.held[0]
            self.held.remove(colour)
            self.place(correction.target, colour)
        self.show(settle=True)

    def follow_guidance(self, limit: int = 12) -> list[str]:
        """Carry out the first correction shown until the board is accepted; the texts shown."""
        shown: list[str] = []
        for _ in range(limit):
            decision = self.bench.companion.decision
            if self.bench.companion.phase != "setup":
                return shown
            first = decision.corrections[0]  # type: ignore[union-attr]
            shown.append(first.text)
            self.carry_out(first)
        raise AssertionError(f"guidance did not finish: {shown}")

    def board(self) -> tuple[int, ...]:
        return canonical(self.cells)


def red_on_t4_then_blue_sorry(layout: str) -> tuple[Bench, Hands]:
    """Red 1 start->T4, blue Sorry! onto T4 (red goes back to START), each pawn moved by hand."""
    bench = Bench(layout)
    bench.command("new_game", players=["red", "blue"])
    hands = Hands(bench)
    hands.show(settle=True)
    assert bench.companion.phase == "draw"
    bench.scan("1")
    hands.place(Place(4), hands.lift(Place(START, RED)))
    hands.show(settle=True)
    assert [t.text for t in bench.game.history] == ["R:start-T4"]
    bench.scan("sorry")
    sorry = next(m for m in bench.game.legal if move_text(m) == "B:start-T4")
    hands.place(Place(START, RED), hands.lift(Place(4)))  # the bumped pawn goes home to START
    hands.place(Place(4), hands.lift(Place(START, BLUE)))
    hands.show(settle=True)
    assert bench.game.history[-1].after == sorry.after
    return bench, hands


@pytest.mark.parametrize("layout", ["presence", "colour"])
def test_undo_after_a_bump_guides_each_colour_back(layout):
    """Issue #16: undo the Sorry!; guidance must bring the blue pawn back to blue START and a
    red pawn onto T4, and never accept a red pawn in blue's START."""
    bench, hands = red_on_t4_then_blue_sorry(layout)
    bench.command("undo")
    bench.advance(0.5)  # the board stays as it is past the settle time
    assert bench.companion.phase == "setup"
    first = bench.companion.state().to_json()["corrections"][0]
    assert first == BLUE_BACK.text, first
    # Done the old, misleading way: a red pawn from red START into blue START.  A presence board
    # now reads exactly as the game wants; it must not be accepted.
    hands.place(Place(START, BLUE), hands.lift(Place(START, RED)))
    hands.show(settle=True)
    hands.bench.advance(3.0)
    assert bench.companion.phase == "setup"
    shown = hands.follow_guidance()
    # A swap: the red pawn out of blue START, the blue one back in, the red one onto T4.
    assert shown == [
        Correction(Fix.LIFT, Place(START, BLUE), None, RED).text,
        BLUE_BACK.text,
        Correction(Fix.PUT, None, Place(4), RED).text,
    ]
    assert hands.board() == canonical(true_occupancy(bench.game.position))
    assert bench.companion.phase == "move" and bench.game.card == "sorry"


@pytest.mark.parametrize("layout", ["presence", "colour"])
def test_undo_after_a_bump_followed_as_guided(layout):
    bench, hands = red_on_t4_then_blue_sorry(layout)
    bench.command("undo")
    bench.advance(0.5)
    shown = hands.follow_guidance()
    assert shown == [BLUE_BACK.text, RED_BACK.text]
    assert hands.board() == canonical(true_occupancy(bench.game.position))
    assert bench.companion.phase == "move"


def test_a_restart_before_the_undo_is_put_back_still_guides_each_colour():
    """Undo the Sorry!, then the Pi restarts before the board is put back: the board still
    shows the Sorry!, and the guidance knows the pawn on T4 is blue."""
    from pawnlight.companion.machine import Companion
    from pawnlight.rules import Game

    bench, hands = red_on_t4_then_blue_sorry("presence")
    bench.command("undo")
    recorded = bench.recorded()
    old = bench.companion
    bench.companion = Companion(old.layout, old.deck, old.settings)
    assert old.game is not None
    bench.effects += bench.companion.resume(Game.replay(old.game.config, recorded))
    hands.show(settle=True)
    assert bench.companion.state().to_json()["corrections"][0] == BLUE_BACK.text
    shown = hands.follow_guidance()
    assert shown == [BLUE_BACK.text, RED_BACK.text]
    assert hands.board() == canonical(true_occupancy(bench.game.position))


def test_a_new_game_of_other_colours_is_set_up_from_the_box():
    """Found by the acceptance evenings: after a game of red, yellow and green, a point game of
    yellow, blue and red is set up; a blue pawn from the box goes onto blue's start circle while
    a yellow one is still in the hand. Nothing may be taken for a wrong colour."""
    from pawnlight.rules import Position

    bench = Bench("presence")
    bench.command("new_game", players=["red", "yellow", "green"], edition="parker-1950")
    hands = Hands(bench)
    hands.show(settle=True)
    assert bench.companion.phase == "draw"
    bench.command(
        "new_game", players=["yellow", "blue", "red"], edition="hasbro-2002", variant="points"
    )
    green, yellow = parse_colour("green"), parse_colour("yellow")
    for _ in range(4):
        hands.lift(Place(START, green))  # put away in the box
    red = hands.lift(Place(START, RED))
    kept = hands.lift(Place(START, yellow))
    hands.show(settle=True)  # a look at the guidance
    hands.place(Place(4), red)
    hands.place(Place(19), BLUE)  # from the box
    hands.place(Place(34), kept)
    for _ in range(3):
        hands.place(Place(START, BLUE), BLUE)  # from the box
    hands.show(settle=True)
    wanted = Position.from_json(
        {
            "yellow": ["T34", "start", "start", "start"],
            "blue": ["T19", "start", "start", "start"],
            "red": ["T4", "start", "start", "start"],
        }
    )
    assert hands.board() == canonical(true_occupancy(wanted))
    assert bench.companion.phase == "draw", bench.companion.state().to_json()["corrections"]


def test_a_new_game_never_moves_a_pawn_of_unknown_colour_on_a_guess():
    """Found by the acceptance evenings: a new game set up from the last game's board guided a
    pawn of unknown colour into another colour's START, and took a red pawn left on green's
    start circle for green. Set-up guidance lifts such pawns and asks for the right colour."""
    from pawnlight.rules import Position

    bench = Bench("presence")
    bench.command("new_game", players=["red", "blue"])
    hands = Hands(bench)
    hands.show(settle=True)
    green = parse_colour("green")
    hands.place(Place(49), hands.lift(Place(START, RED)))  # a red pawn left on T49
    hands.place(Place(51), hands.lift(Place(START, BLUE)))  # a blue one on T51
    hands.show(settle=True)
    bench.command("new_game", players=["red", "green"], edition="hasbro-2002", variant="points")
    wanted = Position.from_json(
        {"red": ["T4", "start", "start", "start"], "green": ["T49", "start", "start", "start"]}
    )
    shown = []
    for _ in range(20):
        if bench.companion.phase != "setup":
            break
        first = bench.companion.decision.corrections[0]  # type: ignore[union-attr]
        shown.append(first.text)
        # No pawn whose colour nobody knows is moved anywhere.
        assert first.action != Fix.MOVE or first.colour >= 0, shown
        if first.action in (Fix.LIFT, Fix.MOVE):
            assert first.source is not None
            lifted = hands.lift(first.source, first.colour)
        if first.action == Fix.MOVE:
            assert first.target is not None
            hands.place(first.target, lifted)
        if first.action == Fix.PUT:
            assert first.target is not None
            hands.place(first.target, first.colour)  # taken from the box, as asked
        hands.show(settle=True)
    assert bench.companion.phase == "draw", shown
    assert hands.board() == canonical(true_occupancy(wanted)), shown
    assert "put a green pawn on green's start circle" in shown
    assert hands.cells[49] == green


def test_a_different_sorry_than_the_computers_keeps_its_colours():
    """Issue #47, 3: blue is the computer's and its Sorry! is lit onto yellow; the family takes
    a blue pawn from START onto red's start circle instead, bumping red, one pawn at a time
    (blue lifted, red lifted, blue put down, red put in red START). The page must say where
    the blue pawn really is, and draw it blue, not call it red."""
    from pawnlight.rules import Game, GameConfig, Position

    bench = Bench("presence")
    position = Position.from_json(
        {
            "red": ["T4", "start", "start", "start"],
            "blue": ["start"] * 4,
            "yellow": ["T31", "start", "start", "start"],
        }
    )
    game = Game(GameConfig(players=("blue", "yellow", "red")), position)  # blue leads
    bench.companion.resume(game, {"blue": "normal"})
    hands = Hands(bench)
    hands.show(settle=True)
    assert bench.companion.phase == "draw" and bench.game.turn == BLUE
    bench.scan("sorry")
    guided = bench.companion.state().to_json()["guided"]["text"]
    assert guided != "B:start-T4", guided
    # Slowly, as a family does: the board settles (and guides) after each pawn.
    blue = hands.lift(Place(START, BLUE))
    hands.show(settle=True)
    red = hands.lift(Place(4))
    hands.show(settle=True)
    hands.place(Place(4), blue)
    hands.show(settle=True)
    hands.place(Place(START, RED), red)
    hands.show(settle=True)
    state = bench.companion.state().to_json()
    said = " ".join(state["corrections"])
    assert "blue pawn from red START" not in said, state["corrections"]
    assert "the blue pawn from red's start circle" in said.lower(), state["corrections"]
    sensed = {item["at"]: item.get("colour") for item in state["sensed"]}
    drawn = [g.get("colour") for g in state["guidance"] if g.get("from") == "T4"]
    assert drawn == ["blue"] and sensed.get("T4") in (None, "blue"), (drawn, sensed)

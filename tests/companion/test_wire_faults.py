"""Issue #32, 5: a broken colour-board sensor wire is said, with its place and pin, on every
place (START and HOME too), and is never taken for a pawn: the game waits until it is mended."""

from __future__ import annotations

from pawnlight.board.cells import parse_cell_name
from pawnlight.board.snapshot import reading_for, true_occupancy
from pawnlight.companion.signals import Reading
from pawnlight.rules import Position

from .test_machine import started

TOP = 65535


def show_broken(bench, position: Position, *broken: str, settle: bool = True) -> None:
    """The board shows ``position``, but the places ``broken`` read the pull-up's top."""
    reading = list(reading_for(bench.layout, true_occupancy(position)))
    for name in broken:
        reading[bench.layout.channel_of[parse_cell_name(name)]] = TOP
    bench.now += 0.01
    bench.effects += bench.companion.handle(Reading(tuple(reading), bench.now))
    bench.advance(0.5 if settle else 0.15)


def the_move(bench):
    bench.scan("1")
    state = bench.companion.state().to_json()
    assert [m["text"] for m in state["legal"]] == ["R:start-T4"]
    return bench.game.legal[0]


def test_a_broken_wire_on_a_track_square_is_said_and_holds_the_game():
    bench = started()
    move = the_move(bench)
    before = bench.game.position
    show_broken(bench, before, "T5")
    state = bench.companion.state().to_json()
    warning = state["warning"] or ""
    assert warning.startswith(
        "broken sensor wire: T5 (the 1st square after red's start circle; channel 5, U1 I5, pin 4, "
        "on ADC GP26) reads 65535, above anything a sensor can drive."
    ), warning
    assert "The game waits until it reads right" in warning
    assert [fault["cell"] for fault in bench.companion.wire_faults] == ["T5"]
    # No pawn appears there, and nobody is asked to lift one.
    assert all(pawn["at"] != "T5" for pawn in state["sensed"] or [])
    assert not any("T5" in text for text in state["corrections"])
    # The move made on the board with the wire still broken is not played on a guess.
    show_broken(bench, move.after, "T5")
    assert bench.game.position == before and bench.companion.phase == "move"
    assert (bench.companion.state().to_json()["warning"] or "").startswith("broken sensor wire")
    # Mended: the board reads the move, it is played, and the warning goes.
    bench.show(move.after)
    assert bench.game.position == move.after
    assert bench.companion.wire_faults == []
    assert bench.companion.state().to_json()["warning"] is None


def test_a_broken_wire_under_a_start_spot_is_found_too():
    """The stuck-sensor check leaves START and HOME alone (pawns rest there); this does not."""
    bench = started()
    position = bench.game.position
    show_broken(bench, position, "red-start-1")
    state = bench.companion.state().to_json()
    warning = state["warning"] or ""
    assert warning.startswith(
        "broken sensor wire: red-start-1 (red START, spot 1; channel 20, U2 I4, pin 5, on ADC "
        "GP26) reads 65535"
    ), warning
    # Three red pawns are read in red START, and no fourth pawn of any colour is made up.
    red_start = [p for p in state["sensed"] or [] if p["at"] == "start:red"]
    assert red_start == [{"at": "start:red", "colour": "red"}] * 3
    assert not any("red START" in text or "red-start" in text for text in state["corrections"])
    # The game waits for the board: a card is still wanted, nothing was played.
    assert state["phase"] == "draw" and bench.game.history == ()
    # The owner's diagnostics list it as well (the page's "Broken sensor wires").
    assert bench.companion.wire_faults[0]["kind"] == "broken"
    assert bench.companion.wire_faults[0]["channel"] == 20


def test_another_warning_does_not_hide_a_wire_for_good():
    bench = started()
    show_broken(bench, bench.game.position, "T40")
    bench.companion.warning = None  # something else cleared the page's warning
    bench.advance(0.1)
    assert (bench.companion.state().to_json()["warning"] or "").startswith(
        "broken sensor wire: T40"
    )


def test_a_presence_board_has_no_wire_readings_to_find():
    bench = started("presence")
    bench.show(bench.game.position)
    assert bench.companion.wire_faults == [] and bench.companion.warning is None

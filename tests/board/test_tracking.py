"""The colours on a presence board, followed from the pawns lifted and put down."""

from pawnlight.board.cells import EMPTY, PAWN, area_cells
from pawnlight.board.snapshot import canonical, sense, true_occupancy
from pawnlight.board.tracking import PawnTracker
from pawnlight.rules import Position
from pawnlight.rules.board import START, parse_colour

RED, BLUE = parse_colour("red"), parse_colour("blue")
AFTER_SORRY = Position.from_json({"red": ["start"] * 4, "blue": ["T4", "start", "start", "start"]})
BEFORE_SORRY = Position.from_json({"red": ["T4", "start", "start", "start"], "blue": ["start"] * 4})


def presence(cells) -> tuple[int, ...]:
    return sense(canonical(cells), "presence")


def move_pawn(tracker: PawnTracker, cells: list[int], source: int, target: int, wanted=None):
    """Lift from cell ``source`` (shown), then put on cell ``target`` (shown)."""
    colour, cells[source] = cells[source], EMPTY
    tracker.follow(presence(cells), wanted)
    cells[target] = colour
    tracker.follow(presence(cells), wanted)


def test_a_pawn_moved_keeps_its_colour_and_a_wrong_start_is_seen():
    tracker = PawnTracker()
    tracker.reset(AFTER_SORRY)
    cells = list(true_occupancy(AFTER_SORRY))
    red_start, blue_start = area_cells(START, RED), area_cells(START, BLUE)
    # A red pawn from red START into blue START: presence now reads as before the Sorry!.
    move_pawn(tracker, cells, red_start[3], blue_start[3])
    target = true_occupancy(BEFORE_SORRY)
    assert presence(cells) == sense(target, "presence")
    assert tracker.contradicts(target)
    assert tracker.colours()[4] == BLUE  # the pawn on T4 is still known to be blue


def test_pawns_put_back_as_guided_are_the_right_colours():
    tracker = PawnTracker()
    tracker.reset(AFTER_SORRY)
    cells = list(true_occupancy(AFTER_SORRY))
    target = true_occupancy(BEFORE_SORRY)
    move_pawn(tracker, cells, 4, area_cells(START, BLUE)[3], target)
    move_pawn(tracker, cells, area_cells(START, RED)[3], 4, target)
    assert not tracker.contradicts(target)
    assert tracker.colours() == canonical(target)


def test_after_a_restart_only_what_is_seen_is_assumed():
    """Resumed: a pawn where the game has one takes its colour; a stray one is unknown, and an
    unknown pawn is taken to be the right one."""
    tracker = PawnTracker()
    tracker.reset(BEFORE_SORRY, seen=False)
    cells = list(true_occupancy(BEFORE_SORRY))
    cells[9], cells[4] = cells[4], EMPTY  # the red pawn stands on T9, part-way through a move
    tracker.follow(presence(cells))
    assert tracker.colours()[9] == PAWN and tracker.colours()[4] == EMPTY
    assert not tracker.contradicts(
        true_occupancy(
            Position.from_json({"red": ["T9", "start", "start", "start"], "blue": ["start"] * 4})
        )
    )


def test_two_pawns_in_the_hand_are_resolved_when_the_board_is_full_again():
    tracker = PawnTracker()
    tracker.reset(AFTER_SORRY)
    cells = list(true_occupancy(AFTER_SORRY))
    blue, cells[4] = cells[4], EMPTY  # the blue pawn lifted from T4
    tracker.follow(presence(cells))
    red_spot = area_cells(START, RED)[3]
    red, cells[red_spot] = cells[red_spot], EMPTY  # and a red one from red START
    tracker.follow(presence(cells))
    cells[30] = red  # one of them onto T30: which one is not known yet
    tracker.follow(presence(cells))
    assert tracker.colours()[30] == PAWN
    cells[area_cells(START, BLUE)[3]] = blue  # the other into blue START: it takes blue
    tracker.follow(presence(cells))
    assert tracker.colours()[30] == RED  # what was left in the hand was red


def test_a_different_sorry_made_one_pawn_at_a_time_keeps_the_colours():
    """Issue #47, 3: blue's Sorry! was to go elsewhere, but the family takes a blue pawn from
    blue START onto red's start circle, bumping red, one pawn at a time: blue lifted, red lifted,
    a pawn put on T4 (where the guidance, seeing the board wrong, still wants red), then one put
    in red START. A pawn put in a START takes that colour when one of the lifted pawns has it
    (docs/daemon.md): the red one went home, so the one on T4 is blue."""
    tracker = PawnTracker()
    tracker.reset(BEFORE_SORRY)
    cells = list(true_occupancy(BEFORE_SORRY))
    wanted = true_occupancy(BEFORE_SORRY)  # the guidance: put the board back as it was
    blue_spot, red_spot = area_cells(START, BLUE)[3], area_cells(START, RED)[3]
    blue, cells[blue_spot] = cells[blue_spot], EMPTY
    tracker.follow(presence(cells), wanted)
    red, cells[4] = cells[4], EMPTY
    tracker.follow(presence(cells), wanted)
    cells[4] = blue
    tracker.follow(presence(cells), wanted)
    cells[red_spot] = red
    tracker.follow(presence(cells), wanted)
    assert tracker.colours() == canonical(true_occupancy(AFTER_SORRY))
    assert not tracker.contradicts(true_occupancy(AFTER_SORRY))

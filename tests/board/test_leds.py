"""LED frames: the right LEDs, through the layout, as a pure function of time."""

from __future__ import annotations

import dataclasses

import pytest

from pawnlight.board import leds
from pawnlight.board.cells import LEDS, SLIDE_CHANNEL_SQUARES, area_cells, cell_of
from pawnlight.board.guidance import Correction, Fix
from pawnlight.board.leds import (
    ERROR,
    OFF,
    PAWN_COLOURS,
    SLIDE_WARNING,
    WHITE,
    Role,
    blink,
    celebration_picture,
    error_picture,
    guidance_picture,
    position_picture,
    progress_picture,
    recognised_picture,
    turn_picture,
)
from pawnlight.board.recognise import Ambiguous, InProgress, Mismatch, Recognised, Waiting
from pawnlight.rules.board import HOME, START, Place

from .helpers import PRESENCE, named, options, pos

RED_RGB, BLUE_RGB = PAWN_COLOURS[0], PAWN_COLOURS[1]
#: The presence layout with its LED chain reversed: frames must follow the layout.
REVERSED = dataclasses.replace(
    PRESENCE,
    led_of=tuple(LEDS - 1 - led for led in PRESENCE.led_of),
    slide_led_of=tuple(LEDS - 1 - led for led in PRESENCE.slide_led_of),
)
POSITION = pos(red="T19 T40 start start", blue="T26 T33 start start", green="T45 T52 home start")
FIVE = options(POSITION, "red", "5")


def lit(layout, picture, cell):
    return picture[layout.led_of[cell]]


def well_formed(picture) -> bool:
    return len(picture) == LEDS and all(
        len(rgb) == 3 and all(isinstance(v, int) and 0 <= v <= 255 for v in rgb) for rgb in picture
    )


@pytest.mark.parametrize("layout", [PRESENCE, REVERSED], ids=["presence", "reversed-chain"])
def test_a_turn_shows_destinations_slides_and_bumps_through_the_layout(layout):
    picture = turn_picture(layout, 0, FIVE, at=0.1).frame  # bump blink on, chase not started
    assert well_formed(picture)
    assert lit(layout, picture, 28) == RED_RGB  # T19-T24>T28: the slide's end
    assert lit(layout, picture, 24) == SLIDE_WARNING  # the triangle that fires it
    assert lit(layout, picture, 26) == WHITE  # blue on T26 would be swept
    assert lit(layout, picture, 45) == WHITE  # T40-T45 bumps green
    assert lit(layout, picture, 19)[0] < RED_RGB[0]  # movable pawns are dim
    assert lit(layout, picture, 33) == OFF  # an opponent not involved
    # Red's START spots glow in red: red's turn.
    start = [lit(layout, picture, cell) for cell in area_cells(START, 0)]
    assert all(rgb[0] > 0 and rgb[1] == rgb[2] == 0 for rgb in start)


def test_blinking_and_chasing_are_functions_of_time():
    on, off = (
        turn_picture(PRESENCE, 0, FIVE, 0.1).frame,
        turn_picture(PRESENCE, 0, FIVE, 0.35).frame,
    )
    assert lit(PRESENCE, on, 26) == WHITE and lit(PRESENCE, off, 26) == OFF
    assert turn_picture(PRESENCE, 0, FIVE, 0.35).frame == off  # same time, same frame
    channel = [PRESENCE.slide_led(square) for square in (25, 26, 27)]
    chase = [
        tuple(turn_picture(PRESENCE, 0, FIVE, t).frame[i] for i in channel) for t in (0.0, 0.2, 0.5)
    ]
    assert chase == [(OFF, OFF, OFF), (SLIDE_WARNING, OFF, OFF), (SLIDE_WARNING,) * 3]
    assert blink(0.0, 2.0) and not blink(0.25, 2.0) and blink(0.5, 2.0)


def test_a_switch_shows_the_pawn_that_would_be_moved():
    position = pos(red="T6 start start start", blue="T33 start start start")
    picture = turn_picture(PRESENCE, 0, options(position, "red", "11"), at=0.0).frame
    assert lit(PRESENCE, picture, 33) == WHITE  # T6<>T33, at the on-phase of the blink
    assert lit(PRESENCE, picture, 17) == RED_RGB  # T6-T17


def test_after_a_split_sevens_first_part_only_its_second_part_is_shown():
    position = pos(red="T5 T20 start start", yellow="T50 start start start")
    choices = options(position, "red", "7")
    move = next(m for m in choices.moves if [s.final for s in m.steps] == [8, 24 + 4])
    progress = InProgress((move,), (move.steps[1:],), True)
    picture = progress_picture(PRESENCE, 0, progress, at=0.0).frame
    assert lit(PRESENCE, picture, 28) == RED_RGB
    assert lit(PRESENCE, picture, 12) == OFF  # T5-T12, a whole 7 for the first pawn: gone


def test_guidance_blinks_the_first_correction_and_dims_the_rest():
    corrections = (
        Correction(Fix.MOVE, Place(13), Place(12), 1),
        Correction(Fix.LIFT, Place(40), None, -1),
        Correction(Fix.PUT, None, Place(START, 2), 2),
    )
    on = guidance_picture(PRESENCE, corrections, at=0.0, player=0).frame
    off = guidance_picture(PRESENCE, corrections, at=0.2).frame
    assert lit(PRESENCE, on, 13) == WHITE and lit(PRESENCE, off, 13) == OFF  # clear: fast white
    assert lit(PRESENCE, on, 12) == BLUE_RGB  # fill: slow, in the pawn's colour
    assert lit(PRESENCE, guidance_picture(PRESENCE, corrections, at=0.5).frame, 12) == OFF
    dim = lit(PRESENCE, on, 40)
    assert dim != OFF and dim[0] < 255  # later corrections: dim
    yellow_start = [lit(PRESENCE, on, c) for c in area_cells(START, 2)]
    assert all(rgb != OFF for rgb in yellow_start)


def test_errors_and_the_celebration_move_with_time():
    assert lit(PRESENCE, error_picture(PRESENCE, 0.0, [Place(7)]).frame, 7) == ERROR
    assert lit(PRESENCE, error_picture(PRESENCE, 0.2, [Place(7)]).frame, 7) == OFF
    # With no spots, the whole track, here at its peak:
    assert lit(PRESENCE, error_picture(PRESENCE, 0.5).frame, 3) == ERROR
    first, later = (
        celebration_picture(PRESENCE, 3, 0.0).frame,
        celebration_picture(PRESENCE, 3, 0.5).frame,
    )
    assert well_formed(first) and first != later
    assert (
        celebration_picture(PRESENCE, 3, 1.234).frame
        == celebration_picture(PRESENCE, 3, 1.234).frame
    )
    home = [lit(PRESENCE, first, cell) for cell in area_cells(HOME, 3)]
    assert home == [WHITE] * 4
    assert any(first[PRESENCE.slide_led(s)] == WHITE for s in SLIDE_CHANNEL_SQUARES)


def test_the_frame_follows_the_recognisers_decision():
    move = named(FIVE, "T40-T45")
    assert (
        leds.picture(PRESENCE, 0, FIVE, Waiting(), 0.1).frame
        == turn_picture(PRESENCE, 0, FIVE, 0.1).frame
    )
    assert (
        leds.picture(PRESENCE, 0, FIVE, None, 0.1).frame
        == turn_picture(PRESENCE, 0, FIVE, 0.1).frame
    )
    recognised = leds.picture(PRESENCE, 0, FIVE, Recognised(move), 0.1).frame
    assert recognised == recognised_picture(PRESENCE, move).frame
    assert lit(PRESENCE, recognised, 45) == RED_RGB
    fix = Correction(Fix.PUT, None, Place(30), 1)
    mismatch = leds.picture(PRESENCE, 0, FIVE, Mismatch((fix,), POSITION), 0.0).frame
    assert lit(PRESENCE, mismatch, 30) == BLUE_RGB
    other = named(FIVE, "T19-T24>T28")
    ambiguous = Ambiguous((move, other))
    first, second = (leds.picture(PRESENCE, 0, FIVE, ambiguous, t).frame for t in (0.3, 1.3))
    assert lit(PRESENCE, first, 45) == RED_RGB and lit(PRESENCE, first, 28) != RED_RGB
    assert lit(PRESENCE, second, 28) == RED_RGB and lit(PRESENCE, second, 45) != RED_RGB
    progress = InProgress((move,), (move.steps,), False)
    assert (
        leds.picture(PRESENCE, 0, FIVE, progress, 0.3).frame
        == progress_picture(PRESENCE, 0, progress, 0.3).frame
    )


def test_a_position_frame_lights_every_pawn():
    picture = position_picture(PRESENCE, POSITION).frame
    assert lit(PRESENCE, picture, 19) == RED_RGB and lit(PRESENCE, picture, 26) == BLUE_RGB
    assert [lit(PRESENCE, picture, c) for c in area_cells(START, 1)] == [BLUE_RGB] * 2 + [OFF] * 2
    assert lit(PRESENCE, picture, cell_of(3, HOME)) == PAWN_COLOURS[3]


def test_the_roles_of_lit_places_keep_their_words():
    """The values of the state's ``lit`` (docs/api.md, 'GET /api/state', 'What is lit') and the
    page's role classes."""
    assert [role.value for role in Role] == [
        "turn", "pawn", "destination", "hint", "slide", "bump", "switch", "choice", "moved",
        "correction", "check", "position", "celebration", "error", "ask",
    ]  # fmt: skip

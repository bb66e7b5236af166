"""The board picture: a pure function of the position, drawn on the board model's geometry."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from pawnlight.board.geometry import square_centre
from pawnlight.board.leds import Role
from pawnlight.board.marks import marks_for, parse_moves, turn_marks
from pawnlight.board.places import describe
from pawnlight.board.render_svg import example_panels, render_panels
from pawnlight.board.svg import DARK, LIT_POINTS, SCALE, Centre, render_board
from pawnlight.rules import EDITIONS, Position, legal_options
from pawnlight.rules.board import Place

from .helpers import PRESENCE

NS = {"svg": "http://www.w3.org/2000/svg"}
COLOURS = ("red", "blue", "yellow", "green")


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)  # also proves the text is well-formed XML


def attrs(root: ET.Element, name: str) -> list[str]:
    return [e.attrib[name] for e in root.iter() if name in e.attrib]


def pawns_at(root: ET.Element) -> list[tuple[str, str]]:
    return sorted(
        (e.attrib["data-pawn"], e.attrib["data-at"]) for e in root.iter() if "data-pawn" in e.attrib
    )


EXAMPLE = Position.from_json(
    {
        "red": ["T19", "T40", "start", "start"],
        "blue": ["T26", "T33", "start", "start"],
        "green": ["T45", "T52", "home", "start"],
    }
)


def test_every_square_and_area_is_drawn_once_with_its_name():
    root = parse(render_board({}))
    places = attrs(root, "data-place")
    assert len(places) == len(set(places)) == 60 + 20 + 8
    assert {f"T{n}" for n in range(60)} <= set(places)
    assert {f"S{k}:{c}" for k in range(1, 6) for c in COLOURS} <= set(places)
    assert {f"{a}:{c}" for a in ("start", "home") for c in COLOURS} <= set(places)


def test_squares_sit_where_the_board_model_puts_them():
    root = parse(render_board({}))
    for square in (0, 15, 30, 44, 59):
        rect = next(e for e in root.iter() if e.attrib.get("data-place") == f"T{square}")
        x = float(rect.attrib["x"]) + float(rect.attrib["width"]) / 2
        y = float(rect.attrib["y"]) + float(rect.attrib["height"]) / 2
        assert (round(x / SCALE, 2), round(y / SCALE, 2)) == square_centre(square)


def test_pawns_are_drawn_where_the_position_has_them():
    pawns = {"red": ["start", "T7", "S2", "home"], "blue": ["T30", "start", "start", "start"]}
    root = parse(render_board(pawns))
    assert pawns_at(root) == sorted(
        [
            ("red", "T7"),
            ("red", "S2:red"),
            ("red", "home:red"),
            ("red", "start:red"),
            ("blue", "T30"),
            *[("blue", "start:blue")] * 3,
        ]
    )


def test_a_bad_report_still_draws_what_can_be_read():
    pawns = {"red": ["T7", "nowhere", 5], "purple": ["T3"], "blue": "T4", "green": ["start"] * 6}
    root = parse(render_board(pawns))
    assert pawns_at(root) == [("green", "start:green")] * 4 + [("red", "T7")]


def test_diamonds_only_on_the_classic_boards():
    assert attrs(parse(render_board({})), "data-diamond") == []
    diamonds = attrs(parse(render_board({}, diamonds=True)), "data-diamond")
    assert diamonds == ["T3", "T18", "T33", "T48"]


def test_a_five_shows_the_slide_it_fires_and_the_pawns_it_sends_home():
    options = legal_options(EXAMPLE, 0, "5", EDITIONS["hasbro-2002"])
    marks = marks_for(options.moves)
    # T19-T24 lands on blue's long slide: it fires to T28 and sweeps blue's pawn on T26.
    assert (24, 25, 26, 27, 28) in marks.slides
    assert marks.destinations["T28"] == "red"
    # T40-T45 bumps green's pawn.
    assert marks.destinations["T45"] == "red"
    assert {"T26", "T45"} <= marks.bumped
    assert {"T19", "T40"} <= marks.origins
    root = parse(render_board(EXAMPLE.to_json(), marks=marks))
    assert "T24" in attrs(root, "data-slide")
    assert {"T28", "T45"} <= set(attrs(root, "data-dest"))
    assert {"T26", "T45"} <= set(attrs(root, "data-bump"))


def test_an_eleven_switch_marks_the_pawn_switched():
    position = Position.from_json(
        {"red": ["T7", "start", "start", "start"], "blue": ["T30"] + ["start"] * 3}
    )
    moves = parse_moves(["T7<>T30"], position.to_json(), teams=False)
    marks = marks_for(moves)
    assert marks.bumped == {"T30"} and marks.destinations == {"T30": "red"}


def test_moves_into_safety_and_home_are_marked_on_the_colours_places():
    position = Position.from_json({"red": ["T1", "S3", "start", "start"], "blue": ["start"] * 4})
    moves = legal_options(position, 0, "3", EDITIONS["hasbro-2002"]).moves
    marks = marks_for(moves)
    assert marks.destinations == {"S2:red": "red", "home:red": "red"}
    root = parse(render_board(position.to_json(), marks=marks))
    assert set(attrs(root, "data-dest")) == {"S2:red", "home:red"}


def test_texts_that_do_not_fit_the_position_are_left_out():
    pawns = EXAMPLE.to_json()
    assert parse_moves(["forfeit", "T1-T2", "", 7, "T19-T24>T28"], pawns, False) != []
    assert len(parse_moves(["forfeit", "T1-T2", "", 7], pawns, False)) == 0
    assert parse_moves(["T19-T24>T28"], {"red": ["T1"]}, False) == []  # not a valid position


def test_lit_places_are_drawn_one_mark_per_led_with_their_role():
    lit = {"T28": "destination", "T24": "slide", "slide:T25": "slide", "T26": "bump",
           "start:red:1": "turn", "T19": "pawn"}  # fmt: skip
    svg = render_board(EXAMPLE.to_json(), lit=lit, lit_colours={"T28": "red"})
    root = ET.fromstring(svg)
    drawn = {e.get("data-lit"): e.get("data-role") for e in root.iter() if e.get("data-lit")}
    assert drawn == lit
    # The pawn that would be bumped is ringed over the pawn, not hidden under it.
    assert svg.index('data-pawn="blue" data-at="T26"') < svg.index('data-lit="T26"')


def test_a_turn_of_the_history_is_marked_with_its_move():
    turn = {"text": "T40-T45", "before": EXAMPLE.to_json()}
    assert turn_marks(turn, False).destinations == {"T45": "red"}
    assert not turn_marks({"text": "forfeit", "before": EXAMPLE.to_json()}, False)


def test_led_overlays_carry_the_simulators_keys_and_colours():
    leds = {"T4": "#ff0000", "S2:red": "#00FF00", "start:blue:1": "#0000ff", "slide:T2": "#ff5a00"}
    root = parse(render_board({}, leds=leds))
    keys = attrs(root, "data-led")
    assert len(keys) == len(set(keys)) == 112 + 20
    assert {"T4", "S5:green", "start:red:4", "home:yellow:1", "slide:T57"} <= set(keys)
    fill = {e.attrib["data-led"]: e.attrib["fill"] for e in root.iter() if "data-led" in e.attrib}
    assert fill["T4"] == "#ff0000" and fill["S2:red"] == "#00ff00"
    assert fill["start:blue:1"] == "#0000ff" and fill["slide:T2"] == "#ff5a00"
    assert fill["T5"] == "none"


def test_led_colours_that_are_not_colours_are_never_written():
    leds = {"T4": 'red" onload="alert(1)', "T5": "#12345", "T6": None, "T7": "#000000"}
    svg = render_board({}, leds=leds)
    assert "alert" not in svg
    fill = {
        e.attrib["data-led"]: e.attrib["fill"] for e in parse(svg).iter() if "data-led" in e.attrib
    }
    assert fill["T4"] == fill["T5"] == fill["T6"] == fill["T7"] == "none"


def test_interactive_boards_make_every_place_a_button():
    root = parse(render_board({"red": ["T4"]}, interactive=True))
    cells = [e for e in root.iter() if "data-place" in e.attrib]
    assert all(e.attrib.get("role") == "button" and e.attrib.get("tabindex") == "0" for e in cells)
    labels = {e.attrib["data-place"]: e.attrib["aria-label"] for e in cells}
    assert labels["T4"] == "red's start circle, red pawn"
    assert labels["T5"] == "the 1st square after red's start circle, empty"
    assert labels["start:red"] == "red START, 0 red pawns"
    assert labels["S2:blue"] == "blue's 2nd safety square, empty"
    plain = parse(render_board({"red": ["T4"]}))
    assert not [e for e in plain.iter() if e.attrib.get("role") == "button"]


def test_the_centre_card_and_texts_are_escaped():
    svg = render_board({}, centre=Centre("red", "sorry", "<b>red</b>'s turn"), label="a <tag>")
    root = parse(svg)
    assert "<b>" not in svg and "&lt;b&gt;" in svg
    assert attrs(root, "data-centre-card") == ["sorry"]
    assert root.attrib["aria-label"] == "a <tag>"


def test_the_picture_describes_the_position_in_words():
    assert describe({"red": ["T7", "start", "home", "S2"]}) == "red: T7, S2, 1 home, 1 in start"
    assert describe({}) == "no pawns on the board"
    root = parse(render_board({"blue": ["T30", "start"]}))
    assert root.attrib["role"] == "img"
    title = root.find("svg:title", NS)
    assert title is not None and title.text is not None
    assert "blue: T30, 1 in start" in title.text


@pytest.mark.parametrize(
    ("colour", "place", "key"),
    [(0, 7, "T7"), (1, 61, "S2:blue"), (2, 65, "home:yellow"), (3, 66, "start:green")],
)
def test_place_keys(colour, place, key):
    assert Place(place, colour).key == key


# Every attribute that paints: each must hold a colour, never a Python value's text.
PAINT_ATTRIBUTES = ("fill", "stroke", "stop-color", "flood-color", "lighting-color", "color")
NAMED_COLOURS = {"none", "currentColor", "transparent", "white", "black"}
A_COLOUR = re.compile(r"#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}|url\(#[\w-]+\)")


def painted(svg: str) -> list[tuple[str, str]]:
    """(attribute, value) of every paint attribute in ``svg``, ``style`` declarations included."""
    found = []
    for element in parse(svg).iter():
        for name, value in element.attrib.items():
            if name in PAINT_ATTRIBUTES:
                found.append((name, value))
        for declaration in element.attrib.get("style", "").split(";"):
            name, _, value = declaration.partition(":")
            if name.strip() in PAINT_ATTRIBUTES:
                found.append((name.strip(), value.strip()))
    return found


def every_kind_of_picture() -> dict[str, str]:
    options = legal_options(EXAMPLE, 0, "5", EDITIONS["hasbro-2002"])
    lit = {place: role.value for place, role in zip(LIT_POINTS, Role, strict=False)}
    guidance = [
        {"from": "T19", "to": "T20", "colour": "red"},
        {"from": "T26", "to": None, "colour": "blue"},
        {"from": None, "to": "start:green", "colour": "green"},
        {"from": "T33", "to": "T34"},
    ]
    sensed = [{"at": "T20", "colour": "red"}, {"at": "T26"}, {"at": "start:green", "colour": None}]
    leds = {"T4": "#ff0000", "S2:red": "#00ff00", "slide:T2": "#ff5a00", "T5": "#12345"}
    return {
        "marks": render_board(EXAMPLE.to_json(), marks=marks_for(options.moves), diamonds=True),
        "lit": render_board(EXAMPLE.to_json(), lit=lit, lit_colours=dict.fromkeys(lit, "red")),
        "lit, no colours": render_board(EXAMPLE.to_json(), lit=lit),
        "guidance": render_board(EXAMPLE.to_json(), guidance=guidance, sensed=sensed),
        "leds, light": render_board({}, leds=leds, interactive=True, centre=Centre("red", "7")),
        "leds, dark": render_board(EXAMPLE.to_json(), leds=leds, theme=DARK),
        "docs/leds.svg": render_panels(PRESENCE, example_panels(PRESENCE)),
    }


@pytest.mark.parametrize("name", list(every_kind_of_picture()))
def test_every_colour_written_is_a_colour(name):
    """A colour attribute holds #rgb, #rrggbb, a named colour, none, currentColor or url(#id):
    docs/leds.svg once had stroke="Theme(board='#15171a', ...)" on every outline."""
    svg = every_kind_of_picture()[name]
    paints = painted(svg)
    assert {attribute for attribute, _ in paints} >= {"fill", "stroke"}
    wrong = [
        (attribute, value)
        for attribute, value in paints
        if value not in NAMED_COLOURS and not A_COLOUR.fullmatch(value)
    ]
    assert wrong == []


def test_a_misplaced_pawn_is_drawn_in_the_colour_its_correction_names():
    """Issue #47, 4: a presence board senses pawns without colours, but the corrections name
    them ("Move the blue pawn from ..."): the picture draws that colour, not a grey "?". A pawn
    no correction names stays grey."""
    guidance = [{"from": "T26", "to": "T20", "colour": "blue"}]
    sensed = [{"at": "T26", "colour": None}, {"at": "T40"}]
    svg = render_board({}, guidance=guidance, sensed=sensed)
    assert '<g class="pawn" data-pawn="blue" data-at="T26">' in svg
    assert '<g class="pawn" data-pawn="unknown" data-at="T40">' in svg
    assert svg.count('data-pawn="unknown"') == 1

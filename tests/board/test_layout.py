"""Layout files: the shipped ones are complete, and every wiring mistake is named by line."""

from __future__ import annotations

import importlib.resources
import re
import shutil
from pathlib import Path

import pytest

from pawnlight.board import layout as layout_module
from pawnlight.board.cells import CELL_NAMES, CELLS, EMPTY, LEDS, PAWN, UNKNOWN
from pawnlight.board.layout import (
    Band,
    ColourBands,
    Layout,
    LayoutError,
    load_layout,
    parse_layout,
)

# The checkout's layouts, found from here: pawnlight may be installed elsewhere (the release
# check runs these tests against the installed package, docs/testing.md).
LAYOUTS = Path(__file__).resolve().parents[2] / "hardware" / "layouts"
PRESENCE_TEXT = (LAYOUTS / "presence.toml").read_text()
COLOUR_TEXT = (LAYOUTS / "colour.toml").read_text()


def line_of(text: str, needle: str) -> int:
    """The 1-based line of the first line starting with ``needle``."""
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith(needle):
            return number
    raise AssertionError(f"{needle!r} not in text")


def mistake(text: str, old: str, new: str) -> LayoutError:
    assert old in text, old
    with pytest.raises(LayoutError) as caught:
        parse_layout(text.replace(old, new, 1), "board.toml")
    return caught.value


@pytest.mark.parametrize("name", ["presence", "colour"])
def test_the_shipped_layouts_map_every_place_channel_and_led_once(name):
    layout = Layout.named(name)
    assert layout.name == name and layout.sensing == name
    assert sorted(layout.channel_of) == list(range(CELLS))
    assert sorted(layout.led_of + layout.slide_led_of) == list(range(LEDS))


def test_the_two_boards_are_wired_differently_but_share_the_led_chain():
    presence, colour = Layout.named("presence"), Layout.named("colour")
    assert presence.channel_of != colour.channel_of
    assert presence.led_of == colour.led_of
    # The documented runs: presence channels follow the cells; colour boards one side at a time.
    assert presence.channel_of == tuple(range(CELLS))
    assert [colour.channel_of[c] for c in (0, 14, 15, 60, 64, 80, 96)] == [
        0,
        14,
        28,
        15,
        19,
        20,
        24,
    ]
    # The LED chain runs round the track first, then lane by lane, then the slide channels.
    assert presence.led_of[:60] == tuple(range(60))
    assert presence.slide_led_of == tuple(range(112, 132))


def test_an_unknown_shipped_layout():
    with pytest.raises(ValueError, match="presence, colour"):
        Layout.named("wood")


def test_a_layout_loads_from_any_path(tmp_path):
    copy = tmp_path / "my-board.toml"
    shutil.copy(LAYOUTS / "colour.toml", copy)
    layout = load_layout(copy)
    assert layout.name == "my-board"
    assert layout.channel_of == Layout.named("colour").channel_of


def test_installed_layouts_are_read_from_package_data(tmp_path, monkeypatch):
    """Installed, the layouts are package data of pawnlight.layouts, not a repository path."""
    (tmp_path / "presence.toml").write_text(PRESENCE_TEXT.replace("active = 1", "active = 0"))
    real_files = importlib.resources.files

    def files(package):
        return tmp_path if package == "pawnlight.layouts" else real_files(package)

    monkeypatch.setattr(layout_module.importlib.resources, "files", files)
    assert Layout.named("presence").active == 0


def test_without_package_data_the_repository_layouts_are_used(monkeypatch):
    if not layout_module.repository_layouts().is_dir():
        pytest.skip("pawnlight installed, not run from a checkout: no hardware/layouts beside it")

    def files(package):
        raise ModuleNotFoundError(package)

    monkeypatch.setattr(layout_module.importlib.resources, "files", files)
    assert Layout.named("colour").source.endswith("hardware/layouts/colour.toml")


# -- mistakes, each named with its line ----------------------------------------------------------


def test_a_channel_used_twice_names_both_lines():
    error = mistake(PRESENCE_TEXT, "T5 = { channel = 5,", "T5 = { channel = 4,")
    assert error.line == line_of(PRESENCE_TEXT, "T5 =")
    assert f"already used by T4 (line {line_of(PRESENCE_TEXT, 'T4 =')})" in str(error)
    assert str(error).startswith(f"board.toml:{error.line}: T5: channel 4")


def test_an_led_used_twice():
    error = mistake(
        PRESENCE_TEXT, "red-S1 = { channel = 60, led = 60 }", "red-S1 = { channel = 60, led = 7 }"
    )
    assert error.line == line_of(PRESENCE_TEXT, "red-S1 =")
    assert "LED 7 is already used by T7" in error.message


def test_a_slide_led_that_is_also_a_place_led():
    error = mistake(PRESENCE_TEXT, "T2 = 112", "T2 = 3")
    assert error.line == line_of(PRESENCE_TEXT, "T2 = 112")
    assert "LED 3 is already used by T3" in error.message


def test_an_unknown_place_name():
    error = mistake(PRESENCE_TEXT, "T59 = {", "T60 = {")
    assert error.line == line_of(PRESENCE_TEXT, "T59 =")
    assert "unknown place 'T60'" in error.message


def test_a_place_mapped_twice_under_two_spellings():
    error = mistake(PRESENCE_TEXT, "T59 = {", "t58 = {")
    assert error.line == line_of(PRESENCE_TEXT, "T59 =")
    assert "T58 is mapped twice" in error.message


def test_a_missing_place_is_reported_at_the_table():
    text = "\n".join(
        line for line in PRESENCE_TEXT.splitlines() if not line.startswith("red-home-2")
    )
    with pytest.raises(LayoutError) as caught:
        parse_layout(text, "board.toml")
    assert caught.value.line == line_of(text, "[places]")
    assert "does not map red-home-2" in caught.value.message


def test_numbers_out_of_range():
    error = mistake(PRESENCE_TEXT, "T9 = { channel = 9,", "T9 = { channel = 112,")
    assert error.line == line_of(PRESENCE_TEXT, "T9 =")
    assert "channel 112 is out of range 0..111" in error.message
    error = mistake(PRESENCE_TEXT, "T57 = 131", "T57 = 132")
    assert "led 132 is out of range 0..131" in error.message


def test_a_place_that_is_not_channel_and_led():
    error = mistake(PRESENCE_TEXT, "T9 = { channel = 9, led = 9 }", "T9 = 9")
    assert error.line == line_of(PRESENCE_TEXT, "T9 =")
    assert "must be { channel" in error.message
    error = mistake(
        PRESENCE_TEXT, "T9 = { channel = 9, led = 9 }", 'T9 = { channel = "9", led = 9 }'
    )
    assert "channel must be a whole number" in error.message


def test_a_slide_led_on_a_square_without_a_slide_channel():
    error = mistake(PRESENCE_TEXT, "T2 = 112", "T5 = 112")
    assert "'T5' is not a slide-channel square" in error.message
    assert error.line == line_of(PRESENCE_TEXT, "T2 = 112")


def test_board_settings():
    error = mistake(PRESENCE_TEXT, 'sensing = "presence"', 'sensing = "magic"')
    assert error.line == line_of(PRESENCE_TEXT, "sensing =")
    error = mistake(PRESENCE_TEXT, "channels = 112", "channels = 96")
    assert "a pawnlight board has 112 channels" in error.message
    assert error.line == line_of(PRESENCE_TEXT, "channels =")
    error = mistake(PRESENCE_TEXT, "active = 1", "active = 2")
    assert "active 2 is out of range 0..1" in error.message
    error = mistake(PRESENCE_TEXT, "[presence]", "[colour]\nbits = 16\n[presense]")
    assert "unknown table [presense]" in error.message


def test_unknown_keys_are_typos():
    error = mistake(PRESENCE_TEXT, "active = 1", "activ = 1")
    assert error.line == line_of(PRESENCE_TEXT, "active =")
    assert "unknown key 'activ' in [presence]" in error.message


def test_toml_syntax_errors_keep_their_line():
    error = mistake(PRESENCE_TEXT, "T9 = { channel = 9, led = 9 }", "T9 = { channel = 9, led = ")
    assert error.line == line_of(PRESENCE_TEXT, "T9 =")


def test_colour_bands_must_be_sane():
    error = mistake(COLOUR_TEXT, "blue = [15000, 29750]", "blue = [12000, 29750]")
    assert error.line == line_of(COLOUR_TEXT, "blue =")
    assert "overlaps red = [2500, 14000]" in error.message
    error = mistake(COLOUR_TEXT, "green = [51600, 63399]", "green = [51600, 70000]")
    assert "0 <= low <= high <= 65535" in error.message
    error = mistake(COLOUR_TEXT, "yellow = [35600, 50600]", "yellow = [50600, 35600]")
    assert error.line == line_of(COLOUR_TEXT, "yellow =")
    error = mistake(COLOUR_TEXT, "yellow = [35600, 50600]\n", "")
    assert "must give the yellow band" in error.message
    error = mistake(COLOUR_TEXT, "empty = [29950, 35400]", "empty = 32768")
    assert "empty must be [low, high]" in error.message


def test_wire_fault_bands_must_reach_their_rail_and_leave_the_colours_alone():
    error = mistake(COLOUR_TEXT, "broken = [63400, 65535]", "broken = [63400, 65000]")
    assert error.line == line_of(COLOUR_TEXT, "broken =")
    assert "broken = [63400, 65000] must be [low, 65535]" in error.message
    assert "reads the top of the scale" in error.message
    error = mistake(COLOUR_TEXT, "shorted = [0, 2499]", "shorted = [100, 2499]")
    assert "must be [0, high]" in error.message
    error = mistake(COLOUR_TEXT, "broken = [63400, 65535]", "broken = [62000, 65535]")
    assert "broken = [62000, 65535] overlaps green = [51600, 63399]" in error.message
    error = mistake(COLOUR_TEXT, "shorted = [0, 2499]", "shorted = 0")
    assert "shorted must be [0, high], two whole numbers" in error.message
    # They are optional: a layout without them calls nothing a wire fault.
    bare = parse_layout(
        COLOUR_TEXT.replace("broken = [63400, 65535]\n", "").replace("shorted = [0, 2499]\n", "")
    )
    assert bare.fault(0, 65535) is None and bare.classify(0, 65535) == UNKNOWN


def test_presence_and_colour_tables_do_not_mix():
    error = mistake(COLOUR_TEXT, "[colour]", "[presence]\nactive = 1\n\n[colour]")
    assert "a colour layout has no [presence] table" in error.message


# -- reading a channel ----------------------------------------------------------------------------


def test_presence_readings():
    layout = Layout.named("presence")
    assert layout.classify(0, 1) == PAWN and layout.classify(0, 0) == EMPTY
    with pytest.raises(ValueError, match="T0"):
        layout.classify(0, 7)
    low = parse_layout(PRESENCE_TEXT.replace("active = 1", "active = 0"))
    assert low.classify(0, 0) == PAWN and low.classify(0, 1) == EMPTY


def test_colour_readings_and_their_bands():
    layout = Layout.named("colour")
    assert layout.classify(0, 32768) == EMPTY
    assert [layout.classify(0, v) for v in (2500, 14000, 15000, 35600, 63399)] == [0, 0, 1, 2, 3]
    assert layout.classify(0, 14500) == UNKNOWN  # between red and blue
    assert layout.classify(0, 29850) == UNKNOWN  # between blue and empty


def test_a_reading_no_sensor_can_give_is_a_wire_fault_never_a_pawn():
    layout = Layout.named("colour")
    for value in (63400, 65535):
        assert layout.fault(5, value) == "broken"
        assert layout.classify(5, value) == UNKNOWN
    for value in (0, 2499):
        assert layout.fault(5, value) == "shorted"
        assert layout.classify(5, value) == UNKNOWN
    assert layout.fault(5, 63399) is None and layout.fault(5, 2500) is None
    assert Layout.named("presence").fault(5, 1) is None


def test_calibrated_bands_keep_the_wire_faults():
    """Calibration opens green's band to the top of the scale; a broken wire still is one."""
    layout = Layout.named("colour")
    bands = ColourBands(
        Band(30000, 35000),
        (Band(0, 9999), Band(10000, 20000), Band(40000, 50000), Band(50001, 65535)),
    )
    calibrated = layout.with_bands(bands, [3])
    assert calibrated.fault(3, 65535) == "broken" and calibrated.classify(3, 65535) == UNKNOWN
    assert calibrated.classify(3, 60000) == 3
    assert calibrated.fault(3, 0) == "shorted"


def test_calibration_replaces_bands_per_channel():
    layout = Layout.named("colour")
    bands = ColourBands(
        Band(30000, 35000),
        (Band(0, 9999), Band(10000, 20000), Band(40000, 50000), Band(50001, 65535)),
    )
    tuned = layout.with_bands(bands, cells=[5])
    assert tuned.classify(5, 14500) == 1 and layout.classify(5, 14500) == UNKNOWN
    assert tuned.classify(6, 14500) == UNKNOWN
    overlapping = ColourBands(bands.empty, (Band(0, 31000), *bands.colours[1:]))
    with pytest.raises(ValueError, match="overlaps"):
        layout.with_bands(overlapping)
    with pytest.raises(ValueError, match="only colour layouts"):
        Layout.named("presence").with_bands(bands)


def test_cell_names_are_the_layout_keys():
    assert CELL_NAMES[:2] == ("T0", "T1")
    assert CELL_NAMES[60] == "red-S1" and CELL_NAMES[79] == "green-S5"
    assert CELL_NAMES[80] == "red-start-1" and CELL_NAMES[111] == "green-home-4"
    for name in CELL_NAMES:
        assert re.fullmatch(r"[A-Za-z0-9-]+", name)  # bare TOML keys

"""The daemon opens the board its config names, and plays it with the matching layout."""

import pytest

from pawnlight.devices.open_board import BoardSpec
from pawnlight.runtime.config import Config, ConfigError, load
from pawnlight.runtime.daemon import choose_board


@pytest.mark.parametrize(
    ("settings", "spec", "layout"),
    [
        ({}, BoardSpec("serial", "auto"), "presence"),
        (
            {"serial": "/dev/ttyACM1", "layout": "colour"},
            BoardSpec("serial", "/dev/ttyACM1"),
            "colour",
        ),
        ({"sim": True}, BoardSpec("sim", "presence"), "presence"),
        ({"sim": True, "layout": "colour"}, BoardSpec("sim", "colour"), "colour"),
        (
            {"sim": True, "sim_pico": True, "layout": "colour"},
            BoardSpec("sim-pico", "colour"),
            "colour",
        ),
        ({"board": "sim:colour"}, BoardSpec("sim", "colour"), "colour"),
        ({"board": "sim-pico:presence"}, BoardSpec("sim-pico", "presence"), "presence"),
        (
            {"board": "serial:/dev/ttyUSB0", "layout": "colour"},
            BoardSpec("serial", "/dev/ttyUSB0"),
            "colour",
        ),
    ],
)
def test_the_board_and_its_layout(tmp_path, settings, spec, layout):
    chosen, played = choose_board(Config(data=tmp_path, **settings))
    assert chosen == spec and played.name == layout


def test_a_simulated_board_and_a_layout_that_disagree_are_refused_in_words(tmp_path):
    with pytest.raises(ValueError, match="the board sim:colour senses colour, but the layout"):
        choose_board(Config(data=tmp_path, board="sim:colour", layout="presence"))


def test_a_bad_board_in_the_config_file_names_the_file(tmp_path):
    path = tmp_path / "pawnlight.toml"
    path.write_text('board = "sim:chess"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"pawnlight\.toml: board: 'sim:chess': a simulated"):
        load(path)
    path.write_text('board = "sim:colour"\n', encoding="utf-8")
    assert load(path).board == "sim:colour"

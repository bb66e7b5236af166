"""open_board: one string names the board, for the daemon and the diagnostics alike."""

from __future__ import annotations

import json
import queue
import sys

import pytest

from pawnlight.cli import main
from pawnlight.devices.events import LinkState, SensorSnapshot
from pawnlight.devices.open_board import (
    BoardSpec,
    BoardSpecError,
    open_board,
    parse_board_spec,
    spec_from_options,
)


@pytest.mark.parametrize(
    ("text", "source", "port", "sensing"),
    [
        ("serial:/dev/ttyACM0", "serial", "/dev/ttyACM0", None),
        ("serial:auto", "serial", None, None),
        ("sim:presence", "sim", None, "presence"),
        ("sim:colour", "sim", None, "colour"),
        ("sim-pico:presence", "sim-pico", None, "presence"),
        (" sim-pico:colour ", "sim-pico", None, "colour"),
    ],
)
def test_a_spec_names_one_board(text, source, port, sensing):
    spec = parse_board_spec(text)
    assert (spec.source, spec.port, spec.sensing) == (source, port, sensing)
    assert spec.simulated is (source != "serial")
    assert parse_board_spec(str(spec)) == spec


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "is not a board"),
        ("usb:/dev/ttyACM0", "is not a board"),
        ("serial", "say which board after the colon"),
        ("serial:", "say which board after the colon"),
        ("sim:", "say which board after the colon"),
        ("sim:chess", "senses presence or colour"),
        ("sim-pico:auto", "senses presence or colour"),
    ],
)
def test_a_bad_spec_says_what_would_do(text, words):
    with pytest.raises(BoardSpecError, match=words) as caught:
        parse_board_spec(text)
    assert "sim:colour" in str(caught.value) or "presence or colour" in str(caught.value)


def test_the_old_options_are_short_forms_of_a_spec():
    assert spec_from_options() == BoardSpec("serial", "auto")
    assert spec_from_options(serial="/dev/ttyUSB1") == BoardSpec("serial", "/dev/ttyUSB1")
    assert spec_from_options(sim=True) == BoardSpec("sim", "presence")
    assert spec_from_options(sim=True, sensing="colour") == BoardSpec("sim", "colour")
    assert spec_from_options(sim="colour", sensing="presence") == BoardSpec("sim", "colour")
    assert spec_from_options(sim=True, sim_pico=True) == BoardSpec("sim-pico", "presence")
    assert spec_from_options("sim:colour", serial="/dev/x") == BoardSpec("sim", "colour")


def test_a_simulated_board_opens_and_reports_through_its_link():
    events: queue.Queue[object] = queue.Queue()
    board = open_board("sim:colour", events.put, card_reader=False)
    try:
        info = board.link.wait_connected(10)
        assert info.kind == "colour" and board.firmware is not None
        seen: list[object] = []
        while not any(isinstance(e, SensorSnapshot) for e in seen):
            seen.append(events.get(timeout=10))
        assert any(isinstance(e, LinkState) and e.up for e in seen)
    finally:
        board.stop()


def test_the_commands_take_a_spec_and_refuse_a_bad_one_in_words(capsys):
    assert main(["doctor", "--board", "sim:colour", "--once", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["board"]["kind"] == "colour"
    assert main(["doctor", "--board", "sim:chess", "--once"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: 'sim:chess': a simulated board senses presence or colour")
    assert "Traceback" not in err
    assert main(["run", "--board", "pico:colour"]) == 2
    err = capsys.readouterr().err
    assert "board: 'pico:colour' is not a board: expected serial:/dev/ttyACM0" in err


def test_a_simulated_boards_words_say_where_its_firmware_runs(tmp_path, monkeypatch) -> None:
    """``pawnlight doctor`` names the interpreter: MicroPython where the unix port is, else
    this Python (a Raspberry Pi OS Bookworm without either wheel or package)."""
    spec = parse_board_spec("sim:presence")
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    (tmp_path / "micropython").touch()  # a venv's unix port, beside its Python
    assert spec.words() == "simulated presence board (the firmware under MicroPython)"
    (tmp_path / "micropython").unlink()
    assert spec.words() == (
        "simulated presence board (the firmware in this Python: no MicroPython unix port here)"
    )

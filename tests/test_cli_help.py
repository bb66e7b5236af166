"""Every command's --help works (argparse formats help texts lazily: a stray % breaks it)."""

import pytest

from pawnlight.cli import build_parser, main


def test_main_help(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--help"])
    assert stop.value.code == 0
    assert "run" in capsys.readouterr().out


def commands():
    parser = build_parser()
    action = next(a for a in parser._actions if a.dest == "command")
    assert action.choices is not None
    return sorted(action.choices)


@pytest.mark.parametrize("command", commands())
def test_every_command_has_help(command, capsys):
    with pytest.raises(SystemExit) as stop:
        main([command, "--help"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.startswith("usage: pawnlight")

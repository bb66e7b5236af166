"""The ``pawnlight`` command: one entry point, one small module per command family."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from . import __version__, strict_json
from .devices.open_board import EXAMPLES as BOARD_EXAMPLES
from .devices.open_board import SIM_PICO
from .diagnostics.cli import register as register_diagnostics
from .players.cli import register as register_players
from .runtime.story_cli import register_story
from .store.cli import register as register_games


def _json_command(handler: Callable[[object], dict[str, Any]]) -> int:
    """Read one JSON object on stdin, answer on stdout; bad input: exit 2, one line on stderr."""
    try:
        request = strict_json.loads(sys.stdin.buffer.read(strict_json.MAX_BYTES + 1))
        answer = handler(request)
    except ValueError as error:
        message = str(error).splitlines()[0] if str(error) else type(error).__name__
        print(f"error: {message}", file=sys.stderr)
        return 2
    json.dump(answer, sys.stdout)
    sys.stdout.write("\n")
    return 0


def _rules(args: argparse.Namespace) -> int:
    from .rules import json_api

    return _json_command(json_api.moves if args.question == "moves" else json_api.score)


def _play(args: argparse.Namespace) -> int:
    from .terminal_game import play_in_terminal

    return play_in_terminal(args)


def _run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from pawnlight.runtime.daemon import run

    from .runtime import config as settings

    overrides = {
        "sim": args.sim or args.sim_pico or None,
        "sim_pico": args.sim_pico or None,
        "serial": args.serial,
        "board": args.board,
        "http_port": args.http_port,
        "http_host": args.http_host,
        "data": args.data,
        "layout": args.layout,
        "remote": args.remote,
        "board_id": args.board_id,
    }
    try:
        config = settings.load(Path(args.config) if args.config else None, overrides)
    except settings.ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    asked = "--sim-pico" if config.sim_pico and not config.board else config.board
    if asked == "--sim-pico" or (asked or "").startswith(f"{SIM_PICO}:"):
        from .devices.sim.emulated_pico import missing

        reason = missing()
        if reason:
            print(f"error: {asked}: {reason} (see docs/firmware.md)", file=sys.stderr)
            return 2
    return run(config)


def _remote_demo(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .remote.link.demo import run_demo

    if not 1 <= args.http_port <= 65534:
        print(
            "error: --http-port must be 1..65534 (the boards take it and the next)", file=sys.stderr
        )
        return 2
    folder = Path(args.data) if args.data else None
    return run_demo(folder, args.http_port, game=not args.no_game, seconds=args.seconds)


def _club(args: argparse.Namespace) -> int:
    from .remote.link.club_client import run_club

    return run_club(args.remote, args.http_host, args.http_port, args.ca, tuple(args.allow_host))


class _Version(argparse.Action):
    """``--version``: the version and how the rules core runs (docs/rules-core.md), worked out
    only when asked (it imports the rules core)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        from .rules import compiled  # with the whole rules core, so it can say how it runs

        print(f"pawnlight {__version__}\n{compiled.describe()}")
        parser.exit()


HARDWARE_MISSING = (
    "error: pawnlight hardware needs the hardware generators (hardware/ in a checkout): "
    "pip install -e hardware"
)


def register_hardware(commands: Any) -> None:
    """``pawnlight hardware ...``: the hardware generators' own subcommands, found through their
    entry point (group ``pawnlight.commands``, hardware/pyproject.toml), so the Pi's package
    names no module of them; without them, the command says in one line how to install them."""
    from importlib.metadata import entry_points

    for entry in entry_points(group="pawnlight.commands", name="hardware"):
        try:
            register = entry.load()
        except ImportError:
            break
        register(commands)
        return
    missing = commands.add_parser("hardware", help="the files to build a board from")
    missing.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    missing.set_defaults(handler=_hardware_missing)


def _hardware_missing(args: argparse.Namespace) -> int:
    print(HARDWARE_MISSING, file=sys.stderr)
    return 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pawnlight", description="A smart companion for a physical Sorry! board."
    )
    parser.add_argument(
        "--version",
        action=_Version,
        nargs=0,
        help="show the version and whether the rules core runs compiled",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    rules = commands.add_parser("rules", help="ask the rules core (JSON on stdin, JSON on stdout)")
    rules.add_argument(
        "question",
        choices=("moves", "score"),
        help="moves: every legal move for one card; score: points at the end of a point game",
    )
    rules.set_defaults(handler=_rules)

    play = commands.add_parser("play", help="watch a simulated game played in the terminal")
    play.add_argument("--edition", default="hasbro-2002")
    play.add_argument("--variant", default="standard")
    play.add_argument("--players", default="red,blue,yellow,green")
    play.add_argument("--teams", action="store_true")
    play.add_argument("--seed", type=int, default=None)
    play.add_argument("--delay", type=float, default=0.0, help="seconds to pause between turns")
    play.set_defaults(handler=_play)

    run = commands.add_parser("run", help="run the companion: the board, the LEDs, the web page")
    run.add_argument("--sim", action="store_true", help="use the simulated board (no Pi needed)")
    run.add_argument(
        "--sim-pico",
        action="store_true",
        help="the simulated board with its firmware on an emulated Pico (docs/firmware.md)",
    )
    run.add_argument("--serial", help="the board's serial port (default: find the Pico by USB id)")
    run.add_argument(
        "--board",
        metavar="SPEC",
        help=f"the board to open: {BOARD_EXAMPLES} (--serial, --sim, --sim-pico are short forms)",
    )
    run.add_argument("--http-port", type=int, help="web server port (default 8080)")
    run.add_argument(
        "--http-host",
        help="web server address (default 127.0.0.1, this machine only; 0.0.0.0 lets other "
        "phones on the network in, the owner PIN guarding every change)",
    )
    run.add_argument("--data", help="where games and settings are kept")
    run.add_argument(
        "--layout", help="presence, colour, or a layout file (default: the simulated board's)"
    )
    run.add_argument("--config", help="a TOML config file (see docs/daemon.md)")
    run.add_argument(
        "--remote",
        metavar="URL",
        help="play remote games through this MQTT broker: mqtt://HOST:PORT, or mqtts://... for "
        "TLS (user and password: PAWNLIGHT_MQTT_USER, PAWNLIGHT_MQTT_PASSWORD; docs/remote.md)",
    )
    run.add_argument(
        "--board-id",
        metavar="NAME",
        help="this board's name on the broker (letters, digits and -, unique per broker)",
    )
    run.set_defaults(handler=_run)

    club = commands.add_parser(
        "club", help="a club's live games: a page of every board publishing to a broker"
    )
    club.add_argument(
        "--remote",
        metavar="URL",
        required=True,
        help="the broker: mqtt://HOST:PORT or mqtts://... (user and password: "
        "PAWNLIGHT_MQTT_USER, PAWNLIGHT_MQTT_PASSWORD, normally the read-only dashboard user)",
    )
    club.add_argument(
        "--http-host",
        default="127.0.0.1",
        help="the page's address (default 127.0.0.1; 0.0.0.0 lets other machines in)",
    )
    club.add_argument("--http-port", type=int, default=8090, help="the page's port (default 8090)")
    club.add_argument(
        "--ca", metavar="FILE", help="the CA that signed an mqtts broker's certificate"
    )
    club.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a name the page answers to besides this machine's own (repeatable)",
    )
    club.set_defaults(handler=_club)

    demo = commands.add_parser(
        "remote-demo",
        help="remote play on one machine: a local broker and two simulated boards (docs/remote.md)",
    )
    demo.add_argument(
        "--http-port", type=int, default=8081, help="the first board's port; the second's is next"
    )
    demo.add_argument("--data", help="where the broker and boards keep their files (default: new)")
    demo.add_argument(
        "--no-game", action="store_true", help="connect the boards, but host and join no game"
    )
    demo.add_argument("--seconds", type=float, help=argparse.SUPPRESS)  # tests: stop by itself
    demo.set_defaults(handler=_remote_demo)
    register_story(register_games(commands))
    register_players(commands)
    register_diagnostics(commands)
    register_hardware(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code = int(args.handler(args) or 0)
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        # The reader went away (``pawnlight games show 1 | head``): nothing more to say to it,
        # and Python's own flush at exit must not fail again with a traceback.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())

"""``pawnlight games``: list, show, export, import, replay and check the recorded games.

GAME arguments are a game id in the journal (``12``) or the path of a record file.  Problems go
to stderr as one line, with exit code 2; a damaged game still shows what comes before the damage.
"""

from __future__ import annotations

import argparse
import os
import stat
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from ..rules.board import COLOURS
from ..rules.game import Event, EventKind, Game, GameConfig, GameError, Phase
from ..terminal_text import wrap
from .errors import ReplayError, StoreError
from .location import journal_path
from .record import GameRecord, decode, dump, read_record
from .replay import apply_event, outcome, replay_record, same_result

if TYPE_CHECKING:
    from .journal import Journal

_DATA_HELP = "data directory (default: $PAWNLIGHT_DATA or ~/.local/share/pawnlight)"


def register(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> Callable[[str, Callable[..., int], str], argparse.ArgumentParser]:
    """Add the ``games`` command to the ``pawnlight`` command's subparsers; returns the function
    that adds an action to it (the runtime adds ``games story``, which needs the players)."""
    games = subparsers.add_parser(
        "games",
        help="recorded games: list, show, export, import, replay, check",
        description="The games in the journal (DIR/journal.sqlite3) and record files.",
    )
    # --data may come before or after the action; SUPPRESS keeps one from hiding the other.
    games.add_argument("--data", metavar="DIR", default=argparse.SUPPRESS, help=_DATA_HELP)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--data", metavar="DIR", default=argparse.SUPPRESS, help=_DATA_HELP)
    actions = games.add_subparsers(dest="games_action", required=True, metavar="ACTION")

    def action(name: str, handler: Callable[..., int], text: str) -> argparse.ArgumentParser:
        parser = actions.add_parser(name, parents=[common], help=text, description=text)
        parser.set_defaults(handler=lambda args: _run(handler, args))
        return parser

    action("list", _list, "list the games in the journal")
    show = action("show", _show, "one game's players, history and result")
    show.add_argument("game", help="a game id in the journal, or a record file")
    show.add_argument("--events", action="store_true", help="every event, undone ones too")
    export = action("export", _export, "write a journal game as a record file")
    export.add_argument("game", type=int, help="the game id")
    export.add_argument("-o", "--output", metavar="FILE", help="write to FILE, not stdout")
    export.add_argument(
        "--force", action="store_true", help="replace FILE if it exists (a regular file only)"
    )
    load = action("import", _import, "add a record file to the journal as a new game")
    load.add_argument("file", help="the record file ('-' for stdin)")
    replay = action(
        "replay",
        _replay_action,
        "replay a game: each turn (numbered as show does), its slides and bumps, the board after",
    )
    replay.add_argument("game", help="a game id in the journal, or a record file")
    replay.add_argument(
        "--check", action="store_true", help="only check that it replays (exit 0, or 2)"
    )
    action("check", _check, "check the journal file and that every game in it replays")
    return action


def _run(handler: Callable[[argparse.Namespace, TextIO], int], args: argparse.Namespace) -> int:
    try:
        return handler(args, sys.stdout)
    except BrokenPipeError:  # the reader went away (``| head``): nothing left to say
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - keeps Python's exit flush quiet
        return 0
    except OSError as error:
        return _fail(f"{error.filename}: {error.strerror}" if error.filename else str(error))
    except (StoreError, GameError) as error:
        return _fail(str(error))


def _fail(message: str) -> int:
    print(f"error: {message.splitlines()[0] if message else 'failed'}", file=sys.stderr)
    return 2


def _journal_file(args: argparse.Namespace) -> Path:
    return journal_path(getattr(args, "data", None))


def _read_journal(args: argparse.Namespace) -> Journal:
    from .journal import Journal  # sqlite3 only when a command needs it

    return Journal.open(_journal_file(args), readonly=True)


# -- the actions --------------------------------------------------------------------------------


def _list(args: argparse.Namespace, out: TextIO) -> int:
    path = _journal_file(args)
    if not path.exists():
        print(f"no games yet (no journal at {path})", file=out)
        return 0
    summaries = _read_journal(args).games()
    if not summaries:
        print("no games in the journal", file=out)
        return 0
    print(f"{'id':>4}  {'started':<16}  {'edition':<11}  {'variant':<8}  {'players':<7}  "
          f"{'turns':>5}  result", file=out)  # fmt: skip
    for game in summaries:
        # Colours by their initials (R B Y G), partners joined (R+Y B+G): the list fits 80 columns.
        initials = [p[:1].upper() for p in game.players]
        if game.teams and len(initials) == 4:
            players = f"{initials[0]}+{initials[2]} {initials[1]}+{initials[3]}"
        else:
            players = " ".join(initials)
        status = game.outcome + (f" [damaged: {game.damage}]" if game.damage else "")
        start = (
            f"{game.id:>4}  {game.started[:16].replace('T', ' '):<16}  {game.edition:<11}  "
            f"{game.variant:<8}  {players:<7}  {game.turns:>5}  "
        )
        print("\n".join(wrap(start + status, "", " " * len(start))), file=out)
    return 0


def _show(args: argparse.Namespace, out: TextIO) -> int:
    label, record, damage = _load(args)
    config = record.config
    game, error = _replay(label, record)
    names = [f"{c} ({record.names[c]})" if c in record.names else c for c in config.players]
    lines = [
        label,
        f"  edition   {config.edition}",
        f"  variant   {config.variant}" + (" with the extra 1" if config.extra_one else ""),
        f"  players   {', '.join(names)}" + ("  (partners)" if config.teams else ""),
        f"  started   {record.started.isoformat()}",
    ]
    if record.seed is not None:
        lines.append(f"  seed      {record.seed}")
    if record.meta:
        lines += wrap(f"  meta      {dump(dict(record.meta))}", "", " " * 12)
    replayed = record.events[: len(game.events)]  # each replayed event adds one to game.events
    undos = sum(1 for event in replayed if event.kind == EventKind.UNDO)
    lines.append(
        f"history ({len(game.history)} turns, {len(replayed)} events"
        + (f", {undos} of them undo)" if undos else ")")
    )
    if args.events:
        lines += [f"{n:>5}. {line}" for n, line in _event_lines(replayed, config, False)]
    else:
        lines += [
            f"{n:>5}. {COLOURS[turn.colour]:<6}  {turn.card:<5}  {turn.text}"
            for n, turn in enumerate(game.history, 1)
        ]
    end = record.result or game.result
    if end is None:
        lines.append(f"result    in progress: {_waiting(game)}")
    else:
        lines.append(f"result    {outcome(end)}" + (f" ({end.reason})" if end.reason else ""))
        if end.scores:
            lines.append(
                "scores    " + ", ".join(f"{COLOURS[c]} {p}" for c, p in end.scores.items())
            )
        if record.finished:
            lines.append(f"finished  {record.finished.isoformat()}")
    out.write("\n".join(lines) + "\n")
    problem = damage or error
    return _fail(problem) if problem else 0


def _export(args: argparse.Namespace, out: TextIO) -> int:
    text = _read_journal(args).export(args.game)
    if args.output in (None, "-"):
        out.write(text)
    else:
        _write_atomically(Path(args.output), text, replace=args.force)
    return 0


def _import(args: argparse.Namespace, out: TextIO) -> int:
    from .journal import Journal

    name = "stdin" if args.file == "-" else args.file
    data = _read_bounded(args.file)
    try:
        record = read_record(decode(data))
    except StoreError as error:
        raise StoreError(f"{name}: {error}") from None
    game, failure = _replay(name, record)  # names the line of the event (or result) that fails
    if failure:
        raise StoreError(failure)
    with Journal.open(_journal_file(args)) as journal:
        same = _already_imported(journal, record, game)
        if same is not None:
            # One line each, never wrapped: a long path is better whole than broken.
            print(f"{name} is already in the journal as game {same}: nothing imported", file=out)
            return 0
        try:
            game_id = journal.import_record(record)
        except StoreError as error:
            raise StoreError(f"{name}: {error}") from None
    print(f"imported {name} as game {game_id}", file=out)
    if record.result is None and not game.over:
        lines = len(record.events) + 1
        warning = (
            f"warning: {name} ends after line {lines} with no result line: the game was "
            "unfinished when it was saved, or the file was cut short. Imported as in progress "
            f"({_waiting(game)})."
        )
        print("\n".join(wrap(warning)), file=sys.stderr)
    return 0


def _already_imported(journal: Journal, record: GameRecord, game: Game) -> int | None:
    """The journal's game that is this record (same start, players, events and end), if any."""
    stored_result = record.result if record.result is not None else game.result
    started = record.started.isoformat()
    for summary in journal.games():
        if summary.started != started or summary.events != len(record.events):
            continue
        try:
            other = journal.load(summary.id)
        except StoreError:
            continue
        if (
            other.config == record.config
            and other.events == record.events
            and other.seed == record.seed
            and dict(other.names) == dict(record.names)
            and (
                other.result is None
                if stored_result is None
                else other.result is not None and same_result(other.result, stored_result)
            )
        ):
            return summary.id
    return None


def _replay_action(args: argparse.Namespace, out: TextIO) -> int:
    label, record, damage = _load(args)
    game, error = _replay(label, record)
    if not args.check:
        from .turns_text import replay_lines

        undos = sum(
            1 for event in record.events[: len(game.events)] if event.kind == EventKind.UNDO
        )
        taken = f"; {undos} undo(s) not shown: games show --events" if undos else ""
        print("\n".join(wrap(f"{label}: {len(game.history)} turns{taken}")), file=out)
        start = Game(record.config).position
        for line in replay_lines(start, game.history, record.config.teams):
            print(line, file=out)
        if game.over:
            print(f"result {outcome(game.result)}", file=out)
    problem = damage or error
    if problem:
        return _fail(problem)
    if args.check:
        state = outcome(game.result) if game.over else f"in progress, {_waiting(game)}"
        if not game.over and record.result is not None:
            state = outcome(record.result)
        print(f"ok: {label} replays: {len(game.events)} events, {len(game.history)} turns, "
              f"{state}", file=out)  # fmt: skip
    return 0


def _check(args: argparse.Namespace, out: TextIO) -> int:
    from .journal import check_file

    path = _journal_file(args)
    if not path.exists():
        raise StoreError(f"no journal at {path}")
    problems = [f"SQLite integrity check: {problem}" for problem in check_file(path)]
    count = 0
    if not problems:
        journal = _read_journal(args)
        summaries = journal.games()
        count = len(summaries)
        for summary in summaries:
            try:
                journal.resume(summary.id)
            except StoreError as error:
                problems.append(str(error))
    for problem in problems:
        print("\n".join(wrap(problem, "", "  ")), file=out)
    if problems:
        return _fail(f"{len(problems)} problem(s) in {path}")
    print(f"ok: {path}: {count} games, all replay", file=out)
    return 0


# -- helpers ------------------------------------------------------------------------------------


def _replay(label: str, record: GameRecord) -> tuple[Game, str | None]:
    """The game as far as it replays, and what stops it (None when all of it replays)."""
    try:
        return replay_record(record), None
    except ReplayError as error:
        where = f"{label}: {error}"
        if not label.startswith("game "):
            # Event n is on line n + 1 of a record; the result line follows the last event.
            line = error.number + 1 if error.number is not None else len(record.events) + 2
            where += f" (line {line})"
        return error.game, where


def _load(args: argparse.Namespace) -> tuple[str, GameRecord, str | None]:
    """The record a GAME argument names, its label ("game 3" or the file), and the damage
    that cut it short, if any (a message that says where)."""
    game: str = args.game
    if game.isdigit():
        journal = _read_journal(args)
        label = f"game {game}"
        try:
            return label, journal.load(int(game)), None
        except StoreError as error:
            intact = getattr(error, "intact", None)
            if intact is None:
                raise
            return label, intact, str(error)  # the journal's message names the game
    try:
        record = read_record(decode(_read_bounded(game)))
    except StoreError as error:
        intact = getattr(error, "intact", None)
        if intact is None:
            raise StoreError(f"{game}: {error}") from None
        return game, intact, f"{game}: {error}"
    return game, record, None


def _event_lines(
    events: tuple[Event, ...], config: GameConfig, positions: bool = True
) -> list[tuple[int, str]]:
    """Each event described (with the position after it); undos say what they took back."""
    game = Game(config)
    taken: list[str] = []  # mirrors the rules' undo stack: every event but an undo pushes
    lines = []
    for number, event in enumerate(events, 1):
        turns = len(game.history)
        apply_event(game, event)
        text = _describe(event)
        if event.kind == EventKind.UNDO:
            text += f" ({taken.pop()})" if taken else ""
        else:
            if event.kind == EventKind.DRAW and len(game.history) > turns:
                text += f": {game.history[-1].text}"  # no legal move: forfeited at once
            taken.append(text)
        lines.append((number, f"{text:<34}  {game.position}" if positions else text))
    return lines


def _describe(event: Event) -> str:
    colour = COLOURS[event.colour] if event.colour >= 0 else ""
    return {
        "draw": f"{colour} draws {event.card}",
        "move": f"{colour} plays {event.card}: {event.move}",
        "forfeit": f"{colour} forfeits the {event.card}",
        "double": f"{colour} doubles",
        "accept": f"{colour} accepts",
        "drop": f"{colour} drops out",
        "undo": "undo",
    }.get(event.kind, event.kind)


def _waiting(game: Game) -> str:
    if game.phase == Phase.DRAW:
        return f"{COLOURS[game.turn]} to draw"
    if game.phase == Phase.MOVE:
        return f"{COLOURS[game.turn]} to play the {game.card}"
    if game.phase == Phase.DOUBLE:
        return "answers to a double from " + ", ".join(COLOURS[c] for c in game.waiting_for)
    return game.phase


#: The largest record file read (import, show, replay): a game of 10,000 events is under 1 MB.
MAX_RECORD_BYTES = 8 * 1024 * 1024


def _read_bounded(name: str) -> bytes:
    """A record file's bytes ('-': stdin), reading at most MAX_RECORD_BYTES + 1 of them: a
    larger file (or an endless one, /dev/zero) is refused without filling the memory."""
    if name == "-":
        data = sys.stdin.buffer.read(MAX_RECORD_BYTES + 1)
    else:
        with open(name, "rb") as file:
            data = file.read(MAX_RECORD_BYTES + 1)
    if len(data) > MAX_RECORD_BYTES:
        label = "stdin" if name == "-" else name
        raise StoreError(
            f"{label}: larger than {MAX_RECORD_BYTES // (1024 * 1024)} MB, more than any game "
            "record: not read"
        )
    return data


def _write_atomically(path: Path, text: str, replace: bool = False) -> None:
    """Write a file so that a power cut leaves the old one or the new one, never half of one.

    Only a regular file is ever written or replaced (never a device, a pipe, a directory or a
    symbolic link: ``-o /dev/full`` would put a file in the device's place), and an existing
    one only with ``replace``.  What was written is read back before it takes the name."""
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        found = None
    if found is not None:
        if not stat.S_ISREG(found.st_mode):
            kind = "a symbolic link" if stat.S_ISLNK(found.st_mode) else "not a regular file"
            raise StoreError(f"{path} is {kind}: not written")
        if not replace:
            raise StoreError(f"{path} exists: add --force to replace it")
    directory = path.parent if str(path.parent) else Path(".")
    data = text.encode("utf-8")
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=directory)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        with open(temporary, "rb") as check:
            if check.read(len(data) + 1) != data:
                raise StoreError(f"{path}: what was written does not read back the same")
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    from .schema import sync_directory

    sync_directory(directory)

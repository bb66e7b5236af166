"""Game records: a game as a JSON Lines text file that people can read, share and replay.

Line 1 is the header (edition, variant, players, when it started, ...), then one line per event in
the rules core's own terms, and, once the game has ended, one result line.  docs/records.md
describes the format with an example.  Reading is strict — every line is checked, and the first
bad one is reported with its line number — because a record is evidence of what happened at the
board; :func:`salvage_record` keeps what comes before the damage.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any, TypeGuard

from .. import strict_json
from ..rules.board import COLOURS
from ..rules.cards import CARDS
from ..rules.game import Event, GameConfig, GameError, Result
from ..rules.house_rules import parse_house_rules
from .errors import RecordError
from .game_record import GameRecord, normal_config

FORMAT = "pawnlight-record"
VERSION = 1

#: The fields each kind of event carries besides its kind; the others stay at Event's defaults.
EVENT_FIELDS: dict[str, tuple[str, ...]] = {
    "draw": ("colour", "card"),
    "move": ("colour", "card", "move"),
    "forfeit": ("colour", "card"),
    "double": ("colour",),
    "accept": ("colour",),
    "drop": ("colour",),
    "undo": (),
}

_HEADER_KEYS = (
    "format",
    "version",
    "edition",
    "variant",
    "players",
    "teams",
    "extra_one",
    "house_rules",
    "seed",
    "started",
    "names",
    "meta",
)
_RESULT_KEYS = ("winners", "double_game", "scores", "patience", "reason")
_PATIENCE = (None, "success", "failure")


# -- writing ------------------------------------------------------------------------------------


def write_record(record: GameRecord) -> str:
    """The record as text: one JSON object a line, each line ending in a newline."""
    lines = [header_json(record)]
    lines += [dict(n=number, **event_json(event)) for number, event in enumerate(record.events, 1)]
    if record.result is not None:
        end: dict[str, Any] = {"result": result_json(record.result)}
        if record.finished is not None:
            end["finished"] = record.finished.isoformat()
        lines.append(end)
    return "".join(dump(line) + "\n" for line in lines)


def dump(value: Mapping[str, Any]) -> str:
    # ensure_ascii=False keeps players' names readable; allow_nan=False keeps the output JSON.
    return json.dumps(value, ensure_ascii=False, allow_nan=False)


def header_json(record: GameRecord) -> dict[str, Any]:
    config = normal_config(record.config)
    header: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "edition": config.edition,
        "variant": config.variant,
        "players": list(config.players),
        "teams": config.teams,
        "extra_one": config.extra_one,
    }
    if config.house_rules:  # absent when there are none, so older readers still read the record
        header["house_rules"] = list(config.house_rules)
    if record.seed is not None:
        header["seed"] = record.seed
    header["started"] = record.started.isoformat()
    if record.names:
        header["names"] = dict(record.names)
    if record.meta:
        header["meta"] = dict(record.meta)
    # Written only if it reads back the same: a bad name or meta fails here, not when read.
    check_names(header.get("names", {}), config.players)
    _check_json(header.get("meta", {}))
    return header


def event_json(event: Event) -> dict[str, Any]:
    """The event's fields by name (colour as its name); ValueError if the event is malformed."""
    if event.kind not in EVENT_FIELDS:
        raise ValueError(f"unknown event kind {event.kind!r}")
    wanted = EVENT_FIELDS[event.kind]
    line: dict[str, Any] = {"event": event.kind}
    if "colour" in wanted:
        if not (isinstance(event.colour, int) and 0 <= event.colour < len(COLOURS)):
            raise ValueError(f"a {event.kind} event needs a colour 0-3, got {event.colour!r}")
        line["colour"] = COLOURS[event.colour]
    elif event.colour != -1:
        raise ValueError(f"a {event.kind} event has no colour")
    for name in ("card", "move"):
        value = getattr(event, name)
        if name in wanted:
            line[name] = value
        elif value is not None:
            raise ValueError(f"a {event.kind} event has no {name}")
    # Validate through the reader, so that what is written always reads back equal.
    if make_event(line) != event:
        raise ValueError(f"event {event!r} does not read back the same")
    return line


def result_json(result: Result) -> dict[str, Any]:
    return {
        "winners": [COLOURS[c] for c in result.winners],
        "double_game": result.double_game,
        "scores": None
        if result.scores is None
        else {COLOURS[c]: points for c, points in result.scores.items()},
        "patience": result.patience,
        "reason": result.reason,
    }


# -- reading ------------------------------------------------------------------------------------


def decode(data: bytes) -> str:
    """A record file's bytes as text; RecordError names the line that is not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        message = f"line {line}: not UTF-8 text (byte {error.start})"
        if line == 1:
            raise RecordError(message, line=line) from None
        # The lines before the bad one may still make a record (or hold an earlier bad line,
        # which is then the one to report).
        before = read_record(data[: data.rfind(b"\n", 0, error.start) + 1].decode("utf-8"))
        intact = replace(before, damage=f"{message}; the lines from there on were not read")
        raise RecordError(message, line=line, intact=intact) from None


def read_record(text: str) -> GameRecord:
    """The record in ``text``; RecordError names the first bad line (its ``intact`` is the rest)."""
    return _read(text, salvage=False)


def salvage_record(text: str) -> GameRecord:
    """Like :func:`read_record`, but a bad line ends the record instead of failing: the lines
    before it are kept and ``damage`` says what was wrong.  A bad header still fails."""
    return _read(text, salvage=True)


def _read(text: str, salvage: bool) -> GameRecord:
    # Split on newlines only: str.splitlines() would also split inside a name holding U+2028.
    lines = text.removeprefix("\ufeff").split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise RecordError("line 1: the record is empty", line=1)
    try:
        head = read_header(json_object(lines[0]))
    except ValueError as error:
        raise RecordError(f"line 1: {error}", line=1) from None
    events: list[Event] = []
    result: tuple[Result, datetime | None] | None = None
    for number, line in enumerate(lines[1:], start=2):
        try:
            value = json_object(line, last=number == len(lines))
            if result is not None:
                raise ValueError("a line after the result line")
            if "event" in value:
                events.append(_event_line(value, len(events) + 1))
            elif "result" in value:
                result = _result_line(value)
            else:
                raise ValueError('neither an event ("event": ...) nor the result ("result": ...)')
        except ValueError as error:
            message = f"line {number}: {error}"
            rest = len(lines) - number + 1
            intact = replace(
                head,
                events=tuple(events),
                damage=f"{message}; the last {rest} line(s) from there on were not read",
            )
            if salvage:
                return intact
            raise RecordError(message, line=number, intact=intact) from None
    if result is None:
        return replace(head, events=tuple(events))
    return replace(head, events=tuple(events), result=result[0], finished=result[1])


def read_header(value: Mapping[str, Any]) -> GameRecord:
    """The header line's object as a record without events; ValueError says what is wrong."""
    if value.get("format") != FORMAT:
        raise ValueError(f"not a pawnlight record (the header's format is {value.get('format')!r})")
    version = value.get("version")
    if not _is_int(version) or version < 1:
        raise ValueError(f"bad record version {version!r}")
    if version > VERSION:
        raise ValueError(
            f"record format version {version} is newer than this pawnlight reads ({VERSION}); "
            "upgrade pawnlight"
        )
    _no_other_keys(value, _HEADER_KEYS, "the header")
    for key in ("edition", "variant", "players", "started"):
        if key not in value:
            raise ValueError(f"the header has no {key!r}")
    players = value["players"]
    if not isinstance(players, list) or not all(p in COLOURS for p in players):
        raise ValueError(f"players must be a list of colour names, got {players!r}")
    teams = value.get("teams", False)
    extra_one = value.get("extra_one", False)
    if not isinstance(teams, bool) or not isinstance(extra_one, bool):
        raise ValueError("teams and extra_one must be true or false")
    if not isinstance(value["edition"], str) or not isinstance(value["variant"], str):
        raise ValueError("edition and variant must be names")
    house_rules = value.get("house_rules", [])
    if not isinstance(house_rules, list):
        raise ValueError(f"house_rules must be a list of names, got {house_rules!r}")
    config = GameConfig(
        edition=value["edition"],
        players=tuple(players),
        teams=teams,
        variant=value["variant"],
        extra_one=extra_one,
        house_rules=tuple(sorted(parse_house_rules(house_rules))),
    )
    try:
        config.check()
    except GameError as error:
        raise ValueError(str(error)) from None
    seed = value.get("seed")
    if seed is not None and not _is_int(seed):
        raise ValueError(f"seed must be a whole number, got {seed!r}")
    names = value.get("names", {})
    check_names(names, config.players)
    meta = value.get("meta", {})
    if not isinstance(meta, dict):
        raise ValueError("meta must be a JSON object")
    return GameRecord(
        config=config,
        started=_time(value["started"], "started"),
        seed=seed,
        names=names,
        meta=meta,
    )


def check_names(names: object, players: Sequence[str]) -> None:
    if not isinstance(names, dict):
        raise ValueError("names must be an object of colour: name")
    for colour, name in names.items():
        if colour not in players:
            raise ValueError(f"names gives a name for {colour!r}, which is not playing")
        if not isinstance(name, str):
            raise ValueError(f"the name for {colour} must be text, got {name!r}")


def make_event(value: Mapping[str, Any]) -> Event:
    """An Event from its fields by name (a record line or a journal row); ValueError if wrong."""
    kind = value.get("event")
    if not isinstance(kind, str) or kind not in EVENT_FIELDS:
        raise ValueError(f"unknown event kind {kind!r} (expected {', '.join(EVENT_FIELDS)})")
    wanted = EVENT_FIELDS[kind]
    for name in ("colour", "card", "move"):
        present = value.get(name) is not None
        if name in wanted and not present:
            raise ValueError(f"a {kind} event needs {name!r}")
        if name not in wanted and present:
            raise ValueError(f"a {kind} event has no {name!r}")
    colour, card, move = value.get("colour"), value.get("card"), value.get("move")
    if colour is not None and colour not in COLOURS:
        raise ValueError(f"unknown colour {colour!r}")
    if card is not None and card not in CARDS:
        raise ValueError(f"unknown card {card!r} (expected one of {', '.join(CARDS)})")
    if move is not None and (not isinstance(move, str) or not move.strip()):
        raise ValueError(f"a move must be its notation text, got {move!r}")
    return Event(kind, -1 if colour is None else COLOURS.index(colour), card, move)


def make_result(value: object) -> Result:
    if not isinstance(value, dict):
        raise ValueError("the result must be a JSON object")
    _no_other_keys(value, _RESULT_KEYS, "the result")
    winners = value.get("winners")
    if not isinstance(winners, list) or not all(w in COLOURS for w in winners):
        raise ValueError(f"winners must be a list of colour names, got {winners!r}")
    double_game = value.get("double_game", False)
    if not isinstance(double_game, bool):
        raise ValueError("double_game must be true or false")
    scores = value.get("scores")
    if scores is not None:
        if not isinstance(scores, dict) or not all(
            c in COLOURS and _is_int(p) for c, p in scores.items()
        ):
            raise ValueError(f"scores must map colour names to whole numbers, got {scores!r}")
        scores = {COLOURS.index(c): p for c, p in scores.items()}
    patience = value.get("patience")
    if patience not in _PATIENCE:
        raise ValueError(f"patience must be null, 'success' or 'failure', got {patience!r}")
    reason = value.get("reason", "")
    if not isinstance(reason, str):
        raise ValueError("reason must be text")
    return Result(tuple(COLOURS.index(w) for w in winners), double_game, scores, patience, reason)


def _event_line(value: Mapping[str, Any], expected: int) -> Event:
    number = value.get("n")
    if not _is_int(number):
        raise ValueError(f"an event line needs its number 'n', got {number!r}")
    if number != expected:
        raise ValueError(
            f"expected event {expected} but found n={number} (a line is missing or repeated)"
        )
    _no_other_keys(value, ("n", "event", "colour", "card", "move"), "an event line")
    return make_event(value)


def _result_line(value: Mapping[str, Any]) -> tuple[Result, datetime | None]:
    _no_other_keys(value, ("result", "finished"), "the result line")
    finished = value.get("finished")
    return make_result(value["result"]), None if finished is None else _time(finished, "finished")


def json_object(line: str, last: bool = False) -> dict[str, Any]:
    """One line's JSON object, strictly: no duplicate keys, no NaN; ValueError otherwise."""
    if not line.strip():
        raise ValueError("blank line")
    if strict_json.depth(line) > strict_json.MAX_DEPTH:
        raise ValueError(f"nested too deeply (at most {strict_json.MAX_DEPTH} levels)")
    try:
        value = json.loads(
            line, object_pairs_hook=strict_json.unique_keys, parse_constant=strict_json.no_constant
        )
    except json.JSONDecodeError as error:
        hint = " — the file looks cut short" if last else ""
        raise ValueError(f"not valid JSON ({error.msg} at column {error.colno}){hint}") from None
    if not isinstance(value, dict):
        raise ValueError("each line must be one JSON object")
    return value


def _no_other_keys(value: Mapping[str, Any], allowed: Sequence[str], what: str) -> None:
    for key in value:
        if key not in allowed:
            raise ValueError(f"{what} has an unexpected field {key!r}")


def _check_json(value: object) -> None:
    try:
        text = dump({"meta": value})
    except (TypeError, ValueError) as error:
        raise ValueError(f"meta must be plain JSON: {error}") from None
    if json.loads(text)["meta"] != value:
        raise ValueError("meta does not survive JSON unchanged (use string keys and lists)")


def _time(value: object, name: str) -> datetime:
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value)
        except ValueError:
            pass
    raise ValueError(f"{name} must be an ISO 8601 date and time, got {value!r}")


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)

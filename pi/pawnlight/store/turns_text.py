"""``pawnlight games replay`` as text: each turn, what came of it, and the board after it.

Turns are numbered as ``games show`` numbers them (the history that stands: events taken back
with undo are not turns).  Each turn says what the notation leaves out - the slides and the
pawns bumped or swept back to START - and then where every colour's pawns stand, wrapped to
80 columns however many play:

       14. yellow 5: T19-T24>T28 - slides T24 to T28; bumps blue from T26
           red T4, 3 start · blue 4 start · yellow T28 T42, 2 start · green 4 start
"""

from __future__ import annotations

from collections.abc import Sequence

from pawnlight.rules.board import COLOURS, HOME, START, place_name
from pawnlight.rules.game import Turn
from pawnlight.rules.moves import Move
from pawnlight.rules.notation import NotationError, parse_move
from pawnlight.rules.position import Position
from pawnlight.terminal_text import WIDTH, wrap

NUMBER = 7  # "  123. " - the turn number column, as ``games show`` has it
INDENT = " " * NUMBER


def pawns_text(position: Position, colour: int) -> str:
    """``"red T4 S2, 1 home, 1 start"``: one colour's pawns, places first."""
    places = position.pawns(colour)
    out = [place_name(p) for p in places if p not in (HOME, START)]
    text = " ".join([COLOURS[colour], *out])
    counts = [f"{places.count(p)} {place_name(p)}" for p in (HOME, START) if p in places]
    if not counts:
        return text
    return text + (", " if out else " ") + ", ".join(counts)


def position_lines(position: Position, width: int = WIDTH) -> list[str]:
    """Every colour's pawns, the colours kept whole, as lines under a turn."""
    groups = [pawns_text(position, colour) for colour in position.colours]
    lines: list[str] = []
    line = ""
    for group in groups:
        joined = f"{line} · {group}" if line else group
        if line and len(INDENT) + len(joined) > width:
            lines.append(INDENT + line)
            line = group
        else:
            line = joined
    if line:
        lines.append(INDENT + line)
    return lines


def consequences(turn: Turn, teams: bool) -> list[str]:
    """The slides and bumps of a turn's move, in words ("slides T24 to T28")."""
    if turn.text in ("forfeit", "discard"):
        return []
    try:
        move: Move = parse_move(turn.text, turn.before, teams)
    except NotationError:  # the history's own text always parses; say nothing if not
        return []
    said = []
    for step in move.steps:
        if step.slide is not None:
            said.append(f"slides {place_name(step.target)} to {place_name(step.slide.end)}")
        if step.swapped >= 0:
            said.append(f"{COLOURS[step.swapped]} goes to {place_name(step.origin)}")
        bumped: dict[int, list[str]] = {}
        for colour, square in step.bumped:
            bumped.setdefault(colour, []).append(place_name(square))
        for colour, squares in bumped.items():
            verb = "sweeps" if len(squares) > 1 or step.slide is not None else "bumps"
            said.append(f"{verb} {COLOURS[colour]} from {' '.join(squares)} to start")
    return said


def turn_lines(number: int, turn: Turn, teams: bool) -> list[str]:
    head = f"{COLOURS[turn.colour]} {turn.card}: {turn.text}"
    said = consequences(turn, teams)
    if said:
        head += " - " + "; ".join(said)
    lines = wrap(head, f"{number:>{NUMBER - 2}}. ", INDENT + "  ")
    return lines + position_lines(turn.after)


def replay_lines(start: Position, history: Sequence[Turn], teams: bool) -> list[str]:
    lines = [f"{0:>{NUMBER - 2}}. start", *position_lines(start)]
    for number, turn in enumerate(history, 1):
        lines += turn_lines(number, turn, teams)
    return lines

"""The sensor test, as pure logic: which sensors are dead, stuck or swapped.

The test asks for each place in turn: put a pawn on it, lift it.  It records the whole board
before, with the pawn and after (``Placement``), plus the empty board at the start.  From that
alone ``analyse`` names what is wrong:

* **dead** - a channel that never saw a pawn, not even someone else's: no power, a broken OUT
  wire, a sensor upside down or too far from the magnet;
* **stuck** - a channel that reads a pawn on the empty board and never changes, or that went on
  and stayed on after the pawn was lifted: an OUT wire shorted, a latching sensor, a stray
  magnet or steel screw nearby;
* **swapped** - a pawn on X is read on Y's channel and not on X's own: two OUT wires crossed
  (reported for both places when they are a pair);
* **crosstalk** - a pawn on X is read on X's channel *and* on Y's: a magnet strong enough to
  reach the next sensor, or two OUT wires touching;
* **unseen** - a pawn on X was read on no channel at all, while X's own channel is not dead
  (it read another place's pawn, or it moved some other time): faults add up, for example
  X's sensor dead *and* its wire crossed with Y's, and every place they touch is named;
* **broken / shorted wire** (colour boards) - a channel read what no sensor can give at some
  point of the test (health.wires): named with its place and pin, before anything else.

Nothing else is reported, so a good board gives an empty list.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pawnlight.board.cells import CELL_NAMES, EMPTY, UNKNOWN
from pawnlight.board.chips import chip_input
from pawnlight.rules.board import COLOURS

from .board_words import named
from .sensing import Sensing
from .wires import WireFault

Values = Sequence[int]


@dataclass(frozen=True)
class Placement:
    """One step: the board before a pawn went on ``cell``, with it there, and after lifting it."""

    cell: int
    before: tuple[int, ...]
    placed: tuple[int, ...]
    lifted: tuple[int, ...]


@dataclass(frozen=True)
class Dead:
    cell: int  # the place whose sensor never saw a pawn


@dataclass(frozen=True)
class Stuck:
    cell: int
    value: int  # what it kept reading


@dataclass(frozen=True)
class Swapped:
    placed: int  # a pawn stood here ...
    read: int  # ... and this place's channel saw it (and the placed one's did not)


@dataclass(frozen=True)
class Crosstalk:
    placed: int
    also: int  # this place's channel saw it as well


@dataclass(frozen=True)
class Unseen:
    cell: int  # a pawn stood here and no channel saw it
    read_for: tuple[int, ...] = ()  # other places whose pawns this cell's channel read


Finding = WireFault | Dead | Stuck | Swapped | Crosstalk | Unseen


@dataclass(frozen=True)
class SensorReport:
    tested: tuple[int, ...]  # cells asked for, in order
    findings: tuple[Finding, ...]

    @property
    def ok(self) -> bool:
        return not self.findings


def responders(sensing: Sensing, before: Values, after: Values) -> set[int]:
    """Channels that really changed between two readings of the whole board."""
    return {ch for ch in range(len(before)) if sensing.moved(ch, before[ch], after[ch])}


def analyse(sensing: Sensing, baseline: Values, placements: Iterable[Placement]) -> SensorReport:
    """The findings of a sensor test; ``baseline`` is the empty board at the start."""
    placements = list(placements)
    layout = sensing.layout
    cell_of = sensing.cell_of_channel
    seen_by: dict[int, set[int]] = {ch: set() for ch in range(len(baseline))}
    ever_moved = [False] * len(baseline)
    stayed_on: dict[int, int] = {}
    findings: list[Finding] = []
    for step in placements:
        on = responders(sensing, step.before, step.placed)
        for channel in on | responders(sensing, step.placed, step.lifted):
            ever_moved[channel] = True
        for channel in on:
            seen_by[channel].add(step.cell)
            back = sensing.moved(channel, step.placed[channel], step.lifted[channel])
            if not back and sensing.reads_pawn(channel, step.lifted[channel]):
                stayed_on.setdefault(channel, step.lifted[channel])
        own = layout.channel_of[step.cell]
        for channel in sorted(on - {own}, key=lambda ch: cell_of[ch]):
            other = cell_of[channel]
            findings.append(Crosstalk(step.cell, other) if own in on else Swapped(step.cell, other))
    if placements:
        ever_moved = [
            moved or sensing.moved(ch, baseline[ch], placements[-1].lifted[ch])
            for ch, moved in enumerate(ever_moved)
        ]
    tested = {step.cell for step in placements}
    explained: set[int] = set()  # cells with a wire, dead or stuck finding of their own
    boards = [
        baseline,
        *(b for step in placements for b in (step.before, step.placed, step.lifted)),
    ]
    for channel in sorted(range(len(baseline)), key=lambda ch: cell_of[ch]):
        cell = cell_of[channel]
        fault = _first_fault(sensing, channel, boards)
        if fault is not None:
            findings.append(fault)
        elif channel in stayed_on:
            findings.append(Stuck(cell, stayed_on[channel]))
        elif not ever_moved[channel] and sensing.reads_pawn(channel, baseline[channel]):
            findings.append(Stuck(cell, baseline[channel]))
        elif cell in tested and not seen_by[channel] and not ever_moved[channel]:
            findings.append(Dead(cell))
        else:
            continue
        explained.add(cell)
    for step in placements:
        if step.cell in explained or responders(sensing, step.before, step.placed):
            continue
        own = layout.channel_of[step.cell]
        others = tuple(sorted(c for c in seen_by[own] if c != step.cell))
        findings.append(Unseen(step.cell, others))
    return SensorReport(tuple(step.cell for step in placements), tuple(_ordered(findings)))


def _first_fault(sensing: Sensing, channel: int, boards: Sequence[Values]) -> WireFault | None:
    """The first reading of a channel, over the whole test, that no sensor can give."""
    cell = sensing.cell_of_channel[channel]
    for board in boards:
        kind = sensing.layout.fault(cell, board[channel])
        if kind is not None:
            return WireFault(cell, channel, board[channel], kind)
    return None


def _ordered(findings: list[Finding]) -> list[Finding]:
    kinds = {WireFault: -1, Dead: 0, Unseen: 1, Stuck: 2, Swapped: 3, Crosstalk: 4}

    def key(finding: Finding) -> tuple[int, int, int]:
        if isinstance(finding, WireFault | Dead | Stuck | Unseen):
            return kinds[type(finding)], finding.cell, 0
        other = finding.read if isinstance(finding, Swapped) else finding.also
        return kinds[type(finding)], finding.placed, other

    return sorted(findings, key=key)


def describe(sensing: Sensing, finding: Finding) -> str:
    """One line a builder can act on, naming the chip pin to check."""
    layout = sensing.layout

    def where(cell: int) -> str:
        return sensing.name(layout.channel_of[cell])

    if isinstance(finding, WireFault):
        return finding.describe(layout)
    if isinstance(finding, Dead):
        return (
            f"dead: {where(finding.cell)} never saw a pawn. Check the sensor's power and "
            "ground, its output wire to that pin, and that its sensing face points up."
        )
    if isinstance(finding, Unseen):
        channel = layout.channel_of[finding.cell]
        own = f"channel {channel}, {chip_input(layout.sensing, channel)}"
        if finding.read_for:
            instead = ", ".join(CELL_NAMES[c] for c in finding.read_for)
            own = f"Its own channel ({own}) read {instead}'s pawn instead"
        else:
            own = f"Its own channel is {own}"
        return (
            f"unseen: a pawn on {named(finding.cell)} was read by no sensor. {own}. "
            f"Check {CELL_NAMES[finding.cell]}'s sensor: its power and ground, where its "
            "output wire goes, and that its sensing face points up."
        )
    if isinstance(finding, Stuck):
        if sensing.colour:
            return (
                f"stuck: {where(finding.cell)} reads {_colour_reading(sensing, finding)} "
                "with no pawn there, and never changed. Look for a magnet or steel screw "
                "nearby, or a sensor fixed upside down or crooked."
            )
        return (
            f"stuck: {where(finding.cell)} reads a pawn with none there. "
            "Look for a shorted output wire, a latching sensor, or a magnet or steel screw "
            "nearby."
        )
    if isinstance(finding, Swapped):
        return (
            f"swapped: a pawn on {named(finding.placed)} is read on "
            f"{where(finding.read)}, not on {CELL_NAMES[finding.placed]}'s channel. Two output "
            "wires are crossed (or the layout file says otherwise)."
        )
    return (
        f"crosstalk: a pawn on {named(finding.placed)} is also read on "
        f"{where(finding.also)}. The magnet reaches the next sensor (too strong, or the "
        "sensors too close), or two output wires touch."
    )


def _colour_reading(sensing: Sensing, finding: Stuck) -> str:
    """``"65535 (between the colour bands)"`` or ``"21500 (a blue pawn's reading)"``."""
    meaning = sensing.layout.classify(finding.cell, finding.value)
    if meaning in (EMPTY, UNKNOWN):
        return f"{finding.value} (between the colour bands)"
    return f"{finding.value} (a {COLOURS[meaning]} pawn's reading)"


def summary(sensing: Sensing, report: SensorReport) -> list[str]:
    """The findings as lines, a crossed pair as one line."""
    lines = []
    pairs = {(f.placed, f.read) for f in report.findings if isinstance(f, Swapped)}
    for finding in report.findings:
        if isinstance(finding, Swapped) and (finding.read, finding.placed) in pairs:
            if finding.placed > finding.read:
                continue  # said with its partner
            a, b = finding.placed, finding.read
            lines.append(
                f"swapped pair: {CELL_NAMES[a]} and {CELL_NAMES[b]} read each other's pawns: "
                f"the wires of {sensing.name(sensing.layout.channel_of[a])} and "
                f"{sensing.name(sensing.layout.channel_of[b])} are crossed."
            )
            continue
        lines.append(describe(sensing, finding))
    return lines

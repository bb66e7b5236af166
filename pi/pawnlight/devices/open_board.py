"""Open a board from one string, the way gpiozero names a pin: the daemon and the diagnostics
both open their board here.

    serial:/dev/ttyACM0   the board on that serial port
    serial:auto           the Pico, found by its USB id (and found again after a replug)
    sim:presence          the simulated board: the real firmware in MicroPython's unix port
    sim:colour
    sim-pico:presence     the same firmware on an emulated RP2040 (docs/firmware.md)
    sim-pico:colour

``pawnlight run --board SPEC`` and the diagnostic commands' ``--board SPEC`` take these; the
older options are its short forms (:func:`spec_from_options`): ``--serial PORT``,
``--sim [KIND]`` and ``--sim-pico``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pawnlight.errors import PawnlightError

if TYPE_CHECKING:  # imported when a board is opened: parsing a spec stays quick (--help)
    from .board_link import BoardLink
    from .events import EmitFn
    from .sim.firmware import SimulatedFirmware

SERIAL, SIM, SIM_PICO = "serial", "sim", "sim-pico"
SOURCES = (SERIAL, SIM, SIM_PICO)
SENSINGS = ("presence", "colour")
AUTO = "auto"
EXAMPLES = (
    "serial:/dev/ttyACM0, serial:auto, sim:presence, sim:colour, sim-pico:presence "
    "or sim-pico:colour"
)


class BoardSpecError(PawnlightError, ValueError):
    """A board spec that names no board; the message says what would."""


class BoardUnavailable(PawnlightError, RuntimeError):
    """The board could not be opened or reached; the message says what to try."""


@dataclass(frozen=True)
class BoardSpec:
    source: str  # serial, sim or sim-pico
    target: str  # serial: a port or "auto"; the simulated boards: presence or colour

    @property
    def simulated(self) -> bool:
        return self.source != SERIAL

    @property
    def sensing(self) -> str | None:
        """A simulated board's kind (presence or colour); None for a real one (it says)."""
        return self.target if self.simulated else None

    @property
    def port(self) -> str | None:
        """The serial port named, or None (found by USB id, or a simulated board's own)."""
        return self.target if not self.simulated and self.target != AUTO else None

    def __str__(self) -> str:
        return f"{self.source}:{self.target}"

    def words(self) -> str:
        """The board in words, for the commands' reports."""
        if self.source == SIM:
            from .sim.firmware import runs_under

            return f"simulated {self.target} board (the firmware {runs_under()})"
        if self.source == SIM_PICO:
            return f"simulated {self.target} board (the firmware on an emulated Pico)"
        return f"serial port {self.target}" if self.port else "the Pico found by its USB id"


def parse_board_spec(text: str) -> BoardSpec:
    """``"sim:colour"`` -> BoardSpec; BoardSpecError, in words, for anything else."""
    source, colon, target = str(text).strip().partition(":")
    if source not in SOURCES:
        raise BoardSpecError(f"{text!r} is not a board: expected {EXAMPLES}")
    if not colon or not target:
        raise BoardSpecError(f"{text!r}: say which board after the colon ({EXAMPLES})")
    if source != SERIAL and target not in SENSINGS:
        raise BoardSpecError(
            f"{text!r}: a simulated board senses presence or colour ({source}:presence, "
            f"{source}:colour)"
        )
    return BoardSpec(source, target)


def spec_from_options(
    board: str | None = None,
    *,
    serial: str | None = None,
    sim: bool | str | None = None,
    sim_pico: bool = False,
    sensing: str | None = None,
) -> BoardSpec:
    """The board the command-line options (or config keys) name: ``board`` is a spec;
    otherwise ``sim`` (True, or a kind) and ``sim_pico`` ask for a simulated board, of kind
    ``sensing`` when they do not say (the layout's), and else the serial port (None: auto)."""
    if board is not None:
        return parse_board_spec(board)
    if sim_pico or sim:
        kind = sim if isinstance(sim, str) else (sensing or SENSINGS[0])
        return parse_board_spec(f"{SIM_PICO if sim_pico else SIM}:{kind}")
    return BoardSpec(SERIAL, serial or AUTO)


@dataclass
class OpenBoard:
    """An opened board: its link (started), and for a simulated board its firmware."""

    spec: BoardSpec
    link: BoardLink
    firmware: SimulatedFirmware | None = None
    #: How much slower than a real board it answers (the emulated Pico is slow, not silent).
    slowdown: float = 1.0

    def stop(self) -> None:
        self.link.stop()
        if self.firmware is not None:
            self.firmware.stop()


def open_board(
    spec: str | BoardSpec,
    emit: EmitFn,
    *,
    card_reader: bool = True,
) -> OpenBoard:
    """Start the board ``spec`` names and a link to it that calls ``emit`` with every event
    (devices.events).  The link connects in the background and reconnects by itself; wait
    with ``link.wait_connected`` where a command needs the board at once.  A simulated
    board's firmware has the card reader unless ``card_reader`` is False."""
    from .serial_link import SerialBoardLink
    from .sim.firmware import SimulatedFirmware

    if isinstance(spec, str):
        spec = parse_board_spec(spec)
    firmware: SimulatedFirmware | None = None
    settings = None
    slowdown = 1.0
    if spec.source == SIM_PICO:
        from .sim.emulated_pico import SLOWDOWN, EmulatedPico, link_settings, missing

        reason = missing()
        if reason:
            raise BoardUnavailable(f"{spec}: {reason} (see docs/firmware.md)")
        firmware = EmulatedPico(spec.target, card_reader=card_reader)
        settings, slowdown = link_settings(), SLOWDOWN
    elif spec.source == SIM:
        firmware = SimulatedFirmware(spec.target, card_reader=card_reader)
    if firmware is not None:
        firmware.start()
    link = SerialBoardLink(emit, firmware.port if firmware else spec.port, settings=settings)
    try:
        link.start()
    except Exception:
        if firmware is not None:
            firmware.stop()
        raise
    return OpenBoard(spec, link, firmware, slowdown)

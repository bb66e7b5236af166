"""The driver for the board's Pico over USB serial (pyserial).

One reader thread owns the port: it opens it (configured path, or found by USB id), runs the
handshake, turns frames into events for ``emit``, keeps the timers, and when anything goes
wrong -- read or write errors, the port vanishing, heartbeat silence -- closes the port and
reopens it with backoff. After every (re)connect it asks for a full snapshot and shows the
last LED frame again, so nothing that happened while the cable was out is missed.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import serial

from pawnlight.firmware import protocol as P

from ..board.leds import RGB
from .board_link import BoardInfo, LinkStats, ProtocolVersionError, check_frame, scene_payloads
from .events import BoardEvent, EmitFn, LinkState
from .link_session import Counters, LinkDown, LinkSession, LinkSettings
from .port_discovery import find_pico_port

log = logging.getLogger(__name__)


class SerialBoardLink:
    """Board link over a serial port; see :class:`~pawnlight.devices.board_link.BoardLink`.

    ``emit`` is called from the reader thread, one event at a time, in the order the board
    sent them. It must not block for long. ``clock`` (seconds, monotonic) drives every timer
    and every event's ``at``; tests may pass their own.
    """

    def __init__(
        self,
        emit: EmitFn,
        port: str | None = None,
        *,
        settings: LinkSettings | None = None,
        clock: Callable[[], float] = time.monotonic,
        find_port: Callable[[], str | None] = find_pico_port,
    ) -> None:
        self._emit = emit
        self._port = port
        self._settings = settings or LinkSettings()
        self._clock = clock
        self._find_port = find_port
        self._lock = threading.Lock()  # guards the session, the port handle and writes
        self._session: LinkSession | None = None
        self._serial: serial.Serial | None = None
        self._write_error: Exception | None = None
        self._counters = Counters()
        self._latest_leds: tuple[int, bytes] | None = None  # (LED_FRAME or LED_SCENE, payload)
        self._board: BoardInfo | None = None
        self._up = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._last_down: str | None = None
        self._version_error: ProtocolVersionError | None = None

    # --- lifecycle ---------------------------------------------------------------------
    def start(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="board-link", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        with self._lock:
            port = self._serial
        if port is not None:
            with contextlib.suppress(Exception):  # the port may already be closed under us
                port.cancel_read()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=10)

    def __enter__(self) -> SerialBoardLink:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- requests ----------------------------------------------------------------------
    def send_leds(self, frame: Sequence[RGB]) -> None:
        """Show a frame (LED 0 first; LEDs past its end go dark). Never blocks on a dead
        link: the newest frame is kept and shown as soon as the board is back."""
        board = self._board
        check_frame(frame, board.leds if board is not None else None)
        self._send_led_message(P.LED_FRAME, P.encode_leds(frame))

    def send_scene(
        self, base: Sequence[RGB], effects: Sequence[tuple[Any, ...]], phase_ms: int = 0
    ) -> None:
        """Show a frame the board animates itself: ``base`` as in send_leds, ``effects`` as
        protocol.encode_scene takes them (blink, breathe, chase), ``phase_ms`` the scene's time
        now. A board whose firmware predates scenes (protocol 1.0) gets the scene's picture at
        ``phase_ms`` as a still frame. Raises ValueError for a scene that does not fit."""
        board = self._board
        check_frame(base, board.leds if board is not None else None)
        payload, still = scene_payloads(base, effects, phase_ms)
        if board is not None and board.protocol < (1, 1):
            self._send_led_message(P.LED_FRAME, still)
            return
        self._send_led_message(P.LED_SCENE, payload)

    def _send_led_message(self, mtype: int, payload: bytes) -> None:
        with self._lock:
            self._latest_leds = (mtype, payload)
            if self._session is not None:
                self._session.send_leds(payload, self._clock(), mtype)
                self._flush_locked()

    def request_snapshot(self) -> None:
        """Ask for every channel's value; answered with a SensorSnapshot event."""
        with self._lock:
            if self._session is not None:
                self._session.request_snapshot(self._clock())
                self._flush_locked()

    def reboot_board(self, maintenance: bool = False) -> None:
        """Reset the Pico; with maintenance=True it comes back without starting the firmware,
        leaving the REPL free for mpremote (docs/firmware.md)."""
        mode = P.RESET_MAINTENANCE if maintenance else P.RESET_REBOOT
        with self._lock:
            if self._session is not None:
                self._session.reset_board(mode, self._clock())
                self._flush_locked()

    # --- state -------------------------------------------------------------------------
    @property
    def board(self) -> BoardInfo | None:
        """What the connected board said in its HELLO; None while disconnected."""
        return self._board

    @property
    def last_received_seq(self) -> int | None:
        """The sequence number of the last reliable frame accepted; the board's next one must
        be newer (docs/protocol.md)."""
        with self._lock:
            session = self._session
            return None if session is None else session.inbound.last

    @property
    def connected(self) -> bool:
        return self._up.is_set()

    def wait_connected(self, timeout: float = 5.0) -> BoardInfo:
        """Block until the link is up. Raises ProtocolVersionError if the board speaks an
        incompatible protocol, TimeoutError if it does not come up in time."""
        deadline = time.monotonic() + timeout
        while not self._up.wait(0.05):
            if self._version_error is not None:
                raise self._version_error
            if time.monotonic() > deadline:
                raise TimeoutError(f"board link not up after {timeout} s ({self._last_down})")
        board = self._board
        assert board is not None
        return board

    def stats(self) -> LinkStats:
        c = self._counters
        with self._lock:
            return LinkStats(
                connected=self.connected,
                frames_in=c.frames_in,
                frames_out=c.frames_out,
                bytes_in=c.bytes_in,
                bytes_out=c.bytes_out,
                crc_failures=c.crc_failures,
                resyncs=c.resyncs,
                retransmits=c.retransmits,
                duplicates=c.duplicates,
                old_frames=c.old_frames,
                malformed=c.malformed,
                reconnects=c.reconnects,
                firmware_restarts=c.firmware_restarts,
                heartbeat_timeouts=c.heartbeat_timeouts,
                reader_failures=c.reader_failures,
                board_uptime_ms=c.board_uptime_ms,
                board_crc_failures=c.board_crc_failures,
                board_retransmits=c.board_retransmits,
                board_queued=c.board_queued,
                board_mem_free_min=c.board_mem_free_min,
            )

    # --- reader thread -----------------------------------------------------------------
    def _safe_emit(self, event: BoardEvent) -> None:
        try:
            self._emit(event)
        except Exception:  # a bug upstream must not kill the link
            log.exception("board event handler failed on %r", event)

    def _report_down(self, detail: str, firmware: str | None = None) -> None:
        """Emit a down state once per distinct reason, so a UI can show why."""
        if detail != self._last_down:
            self._last_down = detail
            log.info("board link down: %s", detail)
            self._safe_emit(LinkState(False, detail, firmware))

    def _flush_locked(self) -> None:
        session, port = self._session, self._serial
        if session is None or port is None:
            return
        data = session.take_output()
        if not data or self._write_error is not None:
            return
        try:
            port.write(data)
        except (serial.SerialException, OSError) as e:
            # Let the reader thread tear the connection down; wake it if it is reading.
            self._write_error = e
            with contextlib.suppress(Exception):
                port.cancel_read()

    def _run(self) -> None:
        s = self._settings
        delay = s.reconnect_min
        while not self._stop.is_set():
            path = self._port or self._find_port()
            if path is None:
                self._report_down("no board found (no USB device 2E8A:0005)")
            else:
                try:
                    port = serial.Serial(
                        path,
                        s.baudrate,
                        timeout=s.poll_interval,
                        write_timeout=s.write_timeout,
                        exclusive=True,
                    )
                except (serial.SerialException, OSError, ValueError) as e:
                    self._report_down(f"cannot open {path}: {e}")
                else:
                    try:
                        reached_hello = self._connection(port, path)
                    except Exception as e:
                        # A bug in handling what the board sent must not blind the board for
                        # good: the connection is closed (and shown down), then made again.
                        log.exception("board link reader failed")
                        self._counters.reader_failures += 1
                        failure = f"{type(e).__name__}: {e}"
                        self._report_down(f"the link failed ({failure}), reconnecting")
                        reached_hello = False
                    if reached_hello:
                        delay = s.reconnect_min
            if self._version_error is not None:
                delay = s.reconnect_max  # will not fix itself until someone flashes the Pico
            self._stop.wait(delay)
            delay = min(delay * 2, s.reconnect_max)

    def _connection(self, port: serial.Serial, path: str) -> bool:
        """Serve one open port until it fails; True if the board said HELLO."""
        session = LinkSession(
            self._settings,
            self._clock(),
            secrets.randbits(32),
            self._counters,
            first_seq=secrets.randbits(16),
        )
        reason = "stopped"
        try:
            port.reset_input_buffer()  # stale bytes from before we opened
            with self._lock:
                self._write_error = None
                self._session, self._serial = session, port
                if self._latest_leds is not None:
                    session.preload_leds(self._latest_leds[1], self._latest_leds[0])
                session.open(self._clock())
                self._flush_locked()
            self._serve(port, session)
        except ProtocolVersionError as e:
            self._version_error = e
            reason = str(e)
            log.error("%s", e)
        except LinkDown as e:
            reason = str(e)
        except (serial.SerialException, OSError) as e:
            reason = f"{path}: {e}"
        finally:
            with self._lock:
                self._session, self._serial = None, None
                was_up = self._up.is_set()
                self._up.clear()
                firmware = self._board.firmware if self._board is not None else None
                self._board = None
            with contextlib.suppress(Exception):
                port.close()
        if was_up:
            if not self._stop.is_set():
                self._counters.reconnects += 1
                log.warning("board link lost: %s", reason)
            self._last_down = reason
            self._safe_emit(LinkState(False, reason, firmware))
        elif not self._stop.is_set():
            self._report_down(reason, firmware)
        return session.board is not None

    def _serve(self, port: serial.Serial, session: LinkSession) -> None:
        while not self._stop.is_set():
            data = port.read(max(1, port.in_waiting))  # returns early when bytes arrive
            now = self._clock()
            events: list[BoardEvent] = []
            with self._lock:
                if self._write_error is not None:
                    raise LinkDown(f"write failed: {self._write_error}")
                try:
                    if data:
                        events = session.receive(data, now)
                finally:
                    self._flush_locked()
            for event in events:
                self._safe_emit(event)
            if session.board is not None:
                # Set after emitting, so LinkState(up) is out before wait_connected returns.
                with self._lock:
                    self._board = session.board  # changes when the board reboots
                    if not self._up.is_set():
                        self._version_error = None
                        self._last_down = None
                        self._up.set()
            with self._lock:
                session.tick(self._clock())
                self._flush_locked()

"""The Pi's side of the board protocol for one connection, without any I/O or clock.

The serial driver feeds it received bytes and the time; it answers with events for the
daemon and bytes to write back. Keeping the rules here (handshake, acknowledgements,
retransmission, heartbeat timeout, version check) means they are tested with explicit
timestamps instead of sleeps. docs/protocol.md describes the rules.
"""

from __future__ import annotations

import logging
import struct
from dataclasses import dataclass

from pawnlight.errors import PawnlightError
from pawnlight.firmware import protocol as P

from .board_link import BoardInfo, ProtocolVersionError
from .events import BoardEvent, CardRead, FirmwareError, LinkState, SensorChanged, SensorSnapshot

log = logging.getLogger(__name__)


#: The board cuts an ERROR's text at this many bytes (firmware/protocol.py, ``encode_error``).
ERROR_TEXT_LIMIT = 200


def error_text(code: int, text: bytes) -> str:
    """An ERROR frame's text.  Text that is not UTF-8 makes the frame malformed (MessageError:
    dropped and counted like any other); only the board's own cut at ``ERROR_TEXT_LIMIT``
    bytes, which may split the last character, is read as far as it goes."""
    try:
        return text.decode("utf-8")
    except UnicodeDecodeError as error:
        cut = len(text) == ERROR_TEXT_LIMIT and error.reason == "unexpected end of data"
        if not cut:
            raise P.MessageError(
                f"the text of ERROR {code} is not UTF-8 (byte {error.start}: {error.reason})"
            ) from None
        return text[: error.start].decode("utf-8")


@dataclass(frozen=True, slots=True)
class LinkSettings:
    """Timing of the link, in seconds. The defaults suit a Pico on USB."""

    heartbeat_interval: float = 0.5  # how often the Pi says it is alive
    heartbeat_timeout: float = 2.0  # silence from the board after which the link is dead
    retransmit_timeout: float = 0.1  # first wait for an ACK; doubles on each retry...
    max_retransmit_timeout: float = 1.0  # ...up to this
    hello_interval: float = 0.25  # HOST_HELLO repeats until the board answers
    handshake_timeout: float = 3.0  # no HELLO by then: close and reopen the port
    reconnect_min: float = 0.05  # first wait before reopening the port...
    reconnect_max: float = 2.0  # ...doubling up to this while the board stays away
    poll_interval: float = 0.02  # longest the reader blocks, i.e. the timers' resolution
    write_timeout: float = 1.0
    # Snapshot requests: a burst of this many, then one per snapshot_interval at most, so a
    # board whose answers keep failing (or a forged HELLO) cannot start a request storm.
    snapshot_burst: int = 3
    snapshot_interval: float = 1.0
    # An older frame than the last accepted one asks the board who it is (a HOST_HELLO, so a
    # reboot whose HELLO was lost is noticed), at most this often.
    probe_interval: float = 1.0
    baudrate: int = 115200  # ignored by USB CDC, kept for real UARTs


class LinkDown(PawnlightError):
    """The connection must be dropped and reopened; the message says why."""


class Counters:
    """Totals over all connections of one driver (LinkStats is the frozen copy)."""

    def __init__(self) -> None:
        self.frames_in = 0
        self.frames_out = 0
        self.bytes_in = 0
        self.bytes_out = 0
        self.crc_failures = 0
        self.resyncs = 0
        self.retransmits = 0
        self.duplicates = 0
        self.old_frames = 0  # reliable frames older than the last accepted: never delivered
        self.snapshot_requests_deferred = 0  # held back by the rate limit
        self.malformed = 0
        self.reconnects = 0
        self.firmware_restarts = 0
        self.heartbeat_timeouts = 0
        self.reader_failures = 0  # the reader thread met an unexpected error and reconnected
        self.board_uptime_ms = 0
        self.board_crc_failures = 0
        self.board_retransmits = 0
        self.board_queued = 0
        self.board_mem_free_min = 0  # the board's lowest free heap in bytes (firmware 1.1.1)


def _ms(seconds: float) -> int:
    return int(seconds * 1000)


class LinkSession:
    def __init__(
        self,
        settings: LinkSettings,
        now: float,
        session_id: int,
        counters: Counters,
        first_seq: int = 1,
    ) -> None:
        s = settings
        self.settings = s
        self.session_id = session_id
        self.counters = counters
        self.decoder = P.FrameDecoder()
        rto, max_rto = _ms(s.retransmit_timeout), _ms(s.max_retransmit_timeout)
        self.sender = P.ReliableSender(rto, max_rto, 64, first_seq)
        self.leds = P.LatestSender(P.LED_FRAME, rto, max_rto, first_seq)
        self.inbound = P.DuplicateFilter()
        self.board: BoardInfo | None = None
        self._opened = now
        self._last_rx = now
        self._next_hello = now
        self._next_heartbeat = now
        self._out = bytearray()
        # decoder/sender counters of this session already added to the totals
        self._seen = (0, 0, 0, 0, 0, 0)
        # Snapshot requests' token bucket (see LinkSettings) and one held back by it.
        self._snapshot_tokens = float(s.snapshot_burst)
        self._snapshot_refilled = now
        self._snapshot_wanted = False
        self._next_probe = now

    # --- output ------------------------------------------------------------------------
    def _write(self, mtype: int, seq: int, payload: bytes = b"") -> None:
        self._out += P.encode_frame(mtype, seq, payload)
        self.counters.frames_out += 1

    def _write_frame(self, frame: tuple[int, int, bytes] | None) -> None:
        if frame is not None:
            self._write(*frame)

    def take_output(self) -> bytes:
        """Bytes to write to the port now (and forget)."""
        out = bytes(self._out)
        self._out.clear()
        self.counters.bytes_out += len(out)
        self._sync_counters()
        return out

    def _sync_counters(self) -> None:
        now = (
            self.decoder.crc_errors,
            self.decoder.resyncs,
            self.sender.retransmits,
            self.leds.retransmits,
            self.inbound.duplicates,
            self.inbound.old,
        )
        seen = self._seen
        c = self.counters
        c.crc_failures += now[0] - seen[0]
        c.resyncs += now[1] - seen[1]
        c.retransmits += (now[2] - seen[2]) + (now[3] - seen[3])
        c.duplicates += now[4] - seen[4]
        c.old_frames += now[5] - seen[5]
        self._seen = now

    # --- requests from the daemon ------------------------------------------------------
    def preload_leds(self, payload: bytes, mtype: int = P.LED_FRAME) -> None:
        """The frame (or scene) to show as soon as the board says HELLO (kept across
        reconnects)."""
        self.leds.latest = (mtype, payload)

    def send_leds(self, payload: bytes, now: float, mtype: int = P.LED_FRAME) -> None:
        """Show a frame (or, mtype LED_SCENE, a scene): sent at once if the board has
        acknowledged the last one, else kept (replacing any older waiting one) until it has;
        an unchanged one is not sent."""
        if self.board is None:
            self.leds.latest = (mtype, payload)  # sent after the HELLO
            return
        self._write_frame(self.leds.set(payload, _ms(now), mtype))

    def request_snapshot(self, now: float) -> None:
        """Ask for a full snapshot: at once if none is on its way and the rate limit allows,
        else as soon as it does (one request stands for any number asked for meanwhile)."""
        if not self.sender.has(P.SNAPSHOT_REQUEST):
            self._new_snapshot_request(now)
        if self.board is not None:
            self._write_frame(self.sender.poll(_ms(now)))

    def _new_snapshot_request(self, now: float) -> None:
        s = self.settings
        self._snapshot_tokens = min(
            float(s.snapshot_burst),
            self._snapshot_tokens + (now - self._snapshot_refilled) / s.snapshot_interval,
        )
        self._snapshot_refilled = now
        if self._snapshot_tokens < 1.0:
            if not self._snapshot_wanted:
                self.counters.snapshot_requests_deferred += 1
            self._snapshot_wanted = True
            return
        self._snapshot_tokens -= 1.0
        self._snapshot_wanted = False
        self.sender.push(P.SNAPSHOT_REQUEST, b"")

    def reset_board(self, mode: int, now: float) -> None:
        self.sender.push(P.RESET, P.encode_reset(mode))
        if self.board is not None:
            self._write_frame(self.sender.poll(_ms(now)))

    # --- input -------------------------------------------------------------------------
    def receive(self, data: bytes, now: float) -> list[BoardEvent]:
        """Events from newly received bytes. Raises ProtocolVersionError on a bad HELLO."""
        self.counters.bytes_in += len(data)
        events: list[BoardEvent] = []
        for mtype, seq, payload in self.decoder.feed(data):
            self.counters.frames_in += 1
            self._last_rx = now
            try:
                self._dispatch(mtype, seq, payload, now, events)
            except ProtocolVersionError:
                raise
            except (ValueError, IndexError, struct.error) as e:
                # MessageError, a short payload, bad UTF-8, a reading of the wrong size: a
                # protocol error of this one frame. Count it, say so, and ask for a fresh
                # snapshot so whatever the frame should have told us is known again.
                self.counters.malformed += 1
                name = P.TYPE_NAMES.get(mtype, mtype)
                log.warning("malformed %s from the board: %s", name, e)
                events.append(FirmwareError(-1, f"malformed {name} frame from the board: {e}", now))
                if self.board is not None:
                    self.request_snapshot(now)
        self._sync_counters()
        return events

    def _dispatch(
        self, mtype: int, seq: int, payload: bytes, now: float, events: list[BoardEvent]
    ) -> None:
        if mtype == P.HELLO:
            self._on_hello(payload, now, events)
            return
        if self.board is None:
            return  # nothing counts before we know which board (and which boot) this is
        if mtype == P.ACK:
            acked_type, acked_seq = P.decode_ack(payload)
            if not self.sender.on_ack(acked_type, acked_seq) and self.leds.on_ack(
                acked_type, acked_seq
            ):
                # The board took the last frame in: the newest one that waited goes now.
                self._write_frame(self.leds.poll(_ms(now)))
        elif mtype == P.HEARTBEAT:
            uptime, crc, retransmits, queued = P.decode_heartbeat(payload)
            c = self.counters
            c.board_uptime_ms, c.board_crc_failures = uptime, crc
            c.board_retransmits, c.board_queued = retransmits, queued
            memory = P.heartbeat_mem_free_min(payload)
            if memory is not None:
                c.board_mem_free_min = memory
        elif mtype in P.RELIABLE_TYPES:
            verdict = self.inbound.check(seq)
            if verdict == P.SEQ_OLD:
                # Older than the last frame taken in: a recorded frame sent again, or the
                # board restarted and its HELLO got lost. Never delivered nor acknowledged;
                # ask the board who it is (a new boot id answers the second case).
                log.warning(
                    "%s seq %d older than %s: ignored", P.TYPE_NAMES[mtype], seq, self.inbound.last
                )
                self._probe(now)
                return
            # Acknowledge even a duplicate: our first ACK may be the thing that got lost.
            self._write(P.ACK, 0, P.encode_ack(mtype, seq))
            if verdict == P.SEQ_NEW:
                self._deliver(mtype, payload, now, events)
        # Unknown types come from newer firmware of the same major version: ignored.

    def _deliver(self, mtype: int, payload: bytes, now: float, events: list[BoardEvent]) -> None:
        channels = self.board.channels if self.board is not None else None
        if mtype == P.SENSOR_CHANGES_TIMED:
            timed = P.decode_changes_timed(payload)
            if channels is not None and any(not 0 <= ch < channels for ch, _, _ in timed):
                raise P.MessageError(f"a change names a channel past the board's {channels}")
            for channel, value, board_ms in timed:
                events.append(SensorChanged(channel, value, now, board_ms))
        elif mtype == P.SENSOR_CHANGES:
            changes = P.decode_changes(payload)
            if channels is not None and any(not 0 <= ch < channels for ch, _ in changes):
                raise P.MessageError(f"a change names a channel past the board's {channels}")
            for channel, value in changes:
                events.append(SensorChanged(channel, value, now))
        elif mtype == P.SNAPSHOT:
            values = tuple(P.decode_snapshot(payload))
            if channels is not None and len(values) != channels:
                raise P.MessageError(f"{len(values)} channels, the board has {channels}")
            events.append(SensorSnapshot(values, now))
        elif mtype == P.CARD:
            events.append(CardRead(P.decode_card(payload).hex().upper(), now))
        elif mtype == P.ERROR:
            if len(payload) < 2:
                raise P.MessageError("an ERROR frame without its code")
            code = struct.unpack_from("<H", payload, 0)[0]
            events.append(FirmwareError(code, error_text(code, bytes(payload[2:])), now))
            if code == P.E_QUEUE_OVERFLOW:
                self.request_snapshot(now)  # changes were dropped on the board

    def _probe(self, now: float) -> None:
        if now >= self._next_probe:
            self._write(
                P.HOST_HELLO, 0, P.encode_host_hello(self.session_id, features=P.HOST_TIMED_CHANGES)
            )
            self._next_probe = now + self.settings.probe_interval

    def _on_hello(self, payload: bytes, now: float, events: list[BoardEvent]) -> None:
        major, minor = P.hello_version(payload)
        if major != P.PROTOCOL_MAJOR:
            try:
                firmware = P.decode_hello(payload)[7]
            except (P.MessageError, UnicodeError):
                firmware = "unknown"
            raise ProtocolVersionError(
                f"board firmware {firmware} speaks protocol {major}.{minor}, this driver speaks "
                f"{P.PROTOCOL_MAJOR}.{P.PROTOCOL_MINOR}: flash the firmware that ships with "
                "this pawnlight (docs/firmware.md)"
            )
        _maj, _min, kind, features, channels, leds, boot_id, firmware = P.decode_hello(payload)
        info = BoardInfo(
            firmware=firmware,
            protocol=(major, minor),
            kind=P.KIND_NAMES.get(kind, f"kind {kind}"),
            channels=channels,
            leds=leds,
            card_reader=bool(features & P.FEATURE_CARD_READER),
            boot_id=boot_id,
        )
        previous = self.board
        if previous is not None and previous.boot_id == boot_id:
            return  # the answer to a repeated HOST_HELLO
        self.board = info
        if previous is None:
            detail = f"connected to {info.kind} board, firmware {firmware}"
        else:
            # The board rebooted under us: its numbering starts over, its LEDs are dark and
            # whatever changed meanwhile is unknown, so start from a fresh snapshot.
            self.counters.firmware_restarts += 1
            self.inbound.reset()
            if self.sender.inflight is not None and self.sender.inflight[0] == P.RESET:
                self.sender.abandon()  # that reset evidently happened
            detail = f"board firmware restarted ({firmware})"
            # The new boot has not heard from us: our session and what we read (timed
            # changes) are news to it. It answers with a HELLO of the same boot, ignored.
            self._write(
                P.HOST_HELLO, 0, P.encode_host_hello(self.session_id, features=P.HOST_TIMED_CHANGES)
            )
        events.append(LinkState(True, detail, firmware))
        self.sender.kick(_ms(now))
        self.request_snapshot(now)
        self._write_frame(self.leds.replay(_ms(now)))
        self._next_heartbeat = now

    # --- timers ------------------------------------------------------------------------
    def open(self, now: float) -> None:
        """Start the handshake."""
        self._opened = now
        self._last_rx = now
        self._next_hello = now
        self.tick(now)

    def tick(self, now: float) -> None:
        """Send what is due; raises LinkDown when the board has gone quiet."""
        s = self.settings
        if self.board is None:
            if now - self._opened > s.handshake_timeout:
                raise LinkDown(
                    f"no HELLO from the board within {s.handshake_timeout:.1f} s "
                    "(is the pawnlight firmware running?)"
                )
            if now >= self._next_hello:
                self._write(
                    P.HOST_HELLO,
                    0,
                    P.encode_host_hello(self.session_id, features=P.HOST_TIMED_CHANGES),
                )
                self._next_hello = now + s.hello_interval
            return
        if now - self._last_rx > s.heartbeat_timeout:
            self.counters.heartbeat_timeouts += 1
            raise LinkDown(
                f"heartbeat timeout: nothing from the board for {now - self._last_rx:.1f} s"
            )
        if self._snapshot_wanted and not self.sender.has(P.SNAPSHOT_REQUEST):
            self._new_snapshot_request(now)
        self._write_frame(self.sender.poll(_ms(now)))
        self._write_frame(self.leds.poll(_ms(now)))
        if now >= self._next_heartbeat:
            c = self.counters
            hb = P.encode_heartbeat(
                _ms(now - self._opened), c.crc_failures, c.retransmits, len(self.sender)
            )
            self._write(P.HEARTBEAT, 0, hb)
            self._next_heartbeat = now + s.heartbeat_interval

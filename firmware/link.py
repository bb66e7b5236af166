# The board's end of the serial link to the Pi: framing, acknowledgements, retransmission,
# heartbeats and the HELLO handshake. The firmware's main loop hands it sensor changes, card
# UIDs and snapshots, and gets back the Pi's requests (LED frames, snapshot and reset
# requests) already acknowledged and stripped of duplicates. Rules: docs/protocol.md.

import protocol as P

# CPython, or a port without native code (the arm64 unix port refuses viper with SyntaxError
# "invalid micropython decorator"), decodes the same in Python.
try:
    from cobs_fast import decode_into as _decode_into  # viper: the Pico and the unix port
except (ImportError, SyntaxError, NameError):
    _decode_into = None

try:
    from time import ticks_add, ticks_diff
except ImportError:  # pragma: no cover - only the Pico and the unix port run this module

    def ticks_diff(a, b):
        return a - b

    def ticks_add(a, b):
        return a + b


# HELLO answers go out at most this often: a flood of HOST_HELLOs (or a driver gone wrong) gets
# one answer per interval, the last one owed sent when the interval is over.
HELLO_MIN_MS = 50

# Bytes taken from the port per loop pass at most: a longest frame. (The Pico's reader takes
# fewer per call, hal_pico.READ_LIMIT: its bytes are slow to read.)
READ_SIZE = 1100


class HostLink:
    def __init__(self, port, hello, now, first_seq, retransmit_ms=100, heartbeat_ms=500):
        self.port = port  # .readinto(buf) -> bytes read (never waits), .write(bytes)
        self.hello = hello  # HELLO payload, sent at boot and in answer to every HOST_HELLO
        self.decoder = P.FrameDecoder(P.MAX_ENCODED, _decode_into)
        self._rx = bytearray(READ_SIZE)  # what port.readinto() fills, allocated once
        self.sender = P.ReliableSender(retransmit_ms, 1000, 32, first_seq)
        self.inbound = P.DuplicateFilter()
        self.led_frames = P.DuplicateFilter()
        self.host_session = None
        self.host_features = 0  # HOST_* bits of the last HOST_HELLO (1.2: timed changes)
        self.heartbeat_ms = heartbeat_ms
        self.boot = now
        self._next_heartbeat = now
        self.frames_out = 0
        self.dropped_changes = 0
        self.host_hellos = 0
        self.stale_frames = 0  # LED frames dropped unseen because a newer one had arrived
        self.led_unacked = None  # (type, seq) of the LED frame handed over, not shown yet
        self.mem_free_min = None  # lowest free heap measured (by the main loop), for heartbeats
        self._hello_owed = False  # a HOST_HELLO came within HELLO_MIN_MS of the last answer
        self._next_hello = now
        self.hellos_deferred = 0

    # --- output ----------------------------------------------------------------------------
    def _write(self, mtype, seq, payload):
        self.port.write(P.encode_frame(mtype, seq, payload))
        self.frames_out += 1

    def _wire(self, frame):
        """Write a frame of the reliable queue: changes as the connected Pi reads them (the
        same bytes every time the frame is resent, so a repeat is recognised)."""
        mtype, seq, payload = frame
        if mtype == P.SENSOR_CHANGES_TIMED and not self.host_features & P.HOST_TIMED_CHANGES:
            mtype, payload = P.SENSOR_CHANGES, P.untimed_changes(payload)
        self._write(mtype, seq, payload)

    def send_hello(self):
        self._write(P.HELLO, 0, self.hello)

    def _push(self, mtype, payload, merge=False):
        if self.sender.push(mtype, payload, merge):
            return
        # Queue full: the Pi has not acknowledged anything for a long while (cable out).
        # Drop the queued sensor changes, which a snapshot replaces, and say so; the Pi then
        # asks for a snapshot. Cards and errors are kept if at all possible.
        dropped = self.sender.drop_queued(P.SENSOR_CHANGES_TIMED)
        self.dropped_changes += dropped
        if dropped:
            self.sender.push(P.ERROR, P.encode_error(P.E_QUEUE_OVERFLOW, "sensor changes dropped"))
        if not self.sender.push(mtype, payload, merge) and mtype == P.SENSOR_CHANGES_TIMED:
            self.dropped_changes += 1

    def queue_changes(self, changes):
        """changes: (channel, value, board_ms) triples. They are queued with their times and
        go out timed to a Pi that asked for it in its HOST_HELLO, else without (_wire)."""
        # Split so one message never exceeds the payload limit (112 channels always fit).
        step = P.MAX_TIMED_CHANGES_PER_MESSAGE
        for i in range(0, len(changes), step):
            self._push(P.SENSOR_CHANGES_TIMED, P.encode_changes_timed(changes[i : i + step]), True)

    def queue_snapshot(self, values):
        self._push(P.SNAPSHOT, P.encode_snapshot(values))

    def queue_card(self, uid):
        self._push(P.CARD, P.encode_card(uid))

    def queue_raw(self, mtype, payload):
        """A reliable message of any type and payload (the simulator's made-up frames)."""
        self._push(mtype, payload)

    def queue_error(self, code, message):
        self._push(P.ERROR, P.encode_error(code, message))

    def send_error_now(self, code, message):
        """Best effort, just before a reset: jump the queue and write the ERROR at once."""
        self.sender.abandon()
        self.sender.queue.insert(0, [P.ERROR, P.encode_error(code, message)])
        frame = self.sender.poll(self.boot)
        self._wire(frame)

    # --- input -----------------------------------------------------------------------------
    def receive(self, now):
        """Read what arrived; returns [(type, payload)] the firmware must act on."""
        n = self.port.readinto(self._rx)
        if not n:
            return []
        requests = []
        for mtype, seq, payload in self.decoder.feed(self._rx, n):
            try:
                self._dispatch(mtype, seq, payload, now, requests)
            except P.MessageError as e:
                self.queue_error(P.E_BAD_MESSAGE, "%s: %s" % (P.TYPE_NAMES.get(mtype, mtype), e))
        return requests

    def _dispatch(self, mtype, seq, payload, now, requests):
        if mtype == P.ACK:
            acked_type, acked_seq = P.decode_ack(payload)
            if acked_type == P.SENSOR_CHANGES:  # what went out untimed (_wire) was queued timed
                self.sender.on_ack(P.SENSOR_CHANGES_TIMED, acked_seq)
            self.sender.on_ack(acked_type, acked_seq)
        elif mtype == P.HOST_HELLO:
            _major, _minor, session = P.decode_host_hello(payload)
            self.host_features = P.host_hello_features(payload)
            self.host_hellos += 1
            if session != self.host_session:
                # A new driver instance numbers its messages afresh.
                self.host_session = session
                self.inbound.reset()
                self.led_frames.reset()
            self._answer_hello(now)
        elif mtype == P.HEARTBEAT:
            pass
        elif mtype == P.LED_FRAME or mtype == P.LED_SCENE:  # one channel: the newest wins
            verdict = self.led_frames.check(seq)
            if verdict != P.SEQ_NEW:
                if verdict == P.SEQ_REPEAT:
                    self._write(P.ACK, 0, P.encode_ack(mtype, seq))  # our ACK got lost
                return  # an older frame is never shown again
            # Acknowledged once shown (led_shown), so a driver that waits for the ACK sends
            # no faster than the LEDs are written. A frame still waiting is now stale: it is
            # dropped, and acknowledged at once.
            self.led_shown()
            self.led_unacked = (mtype, seq)
            for i in range(len(requests)):
                if requests[i][0] == P.LED_FRAME or requests[i][0] == P.LED_SCENE:
                    requests.pop(i)
                    self.stale_frames += 1
                    break
            requests.append((mtype, payload))
        elif mtype in P.RELIABLE_TYPES:
            verdict = self.inbound.check(seq)
            if verdict == P.SEQ_OLD:
                return  # older than the last one taken in: not the Pi's next message
            self._write(P.ACK, 0, P.encode_ack(mtype, seq))
            if verdict == P.SEQ_NEW:
                requests.append((mtype, payload))
        # Anything else comes from a newer driver (same major, higher minor): ignored.

    def _answer_hello(self, now):
        if ticks_diff(now, self._next_hello) < 0:
            if not self._hello_owed:
                self.hellos_deferred += 1
            self._hello_owed = True  # answered by service() once the interval is over
            return
        self._hello_owed = False
        self._next_hello = ticks_add(now, HELLO_MIN_MS)
        self.send_hello()
        self.sender.kick(now)  # whatever is in flight goes out again right away

    def led_shown(self):
        """The LED frame handed over last is shown (or dropped): acknowledge it now."""
        if self.led_unacked is not None:
            self._write(P.ACK, 0, P.encode_ack(self.led_unacked[0], self.led_unacked[1]))
            self.led_unacked = None

    # --- timers ----------------------------------------------------------------------------
    def service(self, now):
        if self._hello_owed:
            self._answer_hello(now)
        frame = self.sender.poll(now)
        if frame is not None:
            self._wire(frame)
        if ticks_diff(now, self._next_heartbeat) >= 0:
            self._next_heartbeat = ticks_add(now, self.heartbeat_ms)
            uptime = ticks_diff(now, self.boot)
            hb = P.encode_heartbeat(
                uptime,
                self.decoder.crc_errors,
                self.sender.retransmits,
                len(self.sender),
                self.mem_free_min,
            )
            self._write(P.HEARTBEAT, 0, hb)

    def wait_ms(self, now):
        wait = max(0, ticks_diff(self._next_heartbeat, now))
        if self._hello_owed:
            wait = min(wait, max(0, ticks_diff(self._next_hello, now)))
        send = self.sender.wait_ms(now)
        if send is not None and send < wait:
            wait = send
        return wait

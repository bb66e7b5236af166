# Framed serial protocol between the board's Pico and the Raspberry Pi.
#
# This one file runs on both sides: on the Pico as `import protocol` under MicroPython, on the
# Pi as `from pawnlight.firmware import protocol` under CPython. So it may only use syntax and
# modules MicroPython has (struct, binascii, time), and it imports nothing from the other
# firmware files. docs/protocol.md describes the wire format this module implements.
#
# Wire format of one frame:
#     0x00  COBS( type:u8  seq:u16le  payload  crc32:u32le )  0x00
# COBS removes every zero byte from the body, so 0x00 only ever appears as a delimiter and a
# receiver can always find the next frame boundary after garbage. The leading 0x00 ends any
# garbage that came before, so a valid frame is never glued to junk.

import struct

try:
    from binascii import crc32 as _crc32_builtin
except ImportError:  # some small MicroPython builds leave binascii.crc32 out
    _crc32_builtin = None

try:
    # MicroPython tick counters wrap around, so differences must go through ticks_diff.
    from time import ticks_add as _ticks_add
    from time import ticks_diff as _ticks_diff
except ImportError:  # CPython: the Pi passes milliseconds from time.monotonic(), which never wrap

    def _ticks_diff(a, b):
        return a - b

    def _ticks_add(a, b):
        return a + b


PROTOCOL_MAJOR = 1  # bumped on any incompatible change; both sides must agree
PROTOCOL_MINOR = 2  # bumped on compatible additions; receivers ignore what they don't know
# 1.1: LED_SCENE (animations the board runs itself), FEATURE_LED_SCENES in HELLO
# 1.2: SENSOR_CHANGES_TIMED (the board's time of each change), to a Pi whose HOST_HELLO asks

# --- message types -------------------------------------------------------------------------
# board -> Pi
HELLO = 0x01
SENSOR_CHANGES = 0x02
SENSOR_CHANGES_TIMED = 0x08  # 1.2: each change with the board's time
SNAPSHOT = 0x03
CARD = 0x04
ERROR = 0x06
# both directions
HEARTBEAT = 0x05
ACK = 0x07
# Pi -> board
HOST_HELLO = 0x10
LED_FRAME = 0x11
SNAPSHOT_REQUEST = 0x12
RESET = 0x13
LED_SCENE = 0x14

TYPE_NAMES = {
    HELLO: "HELLO",
    SENSOR_CHANGES: "SENSOR_CHANGES",
    SENSOR_CHANGES_TIMED: "SENSOR_CHANGES_TIMED",
    SNAPSHOT: "SNAPSHOT",
    CARD: "CARD",
    HEARTBEAT: "HEARTBEAT",
    ERROR: "ERROR",
    ACK: "ACK",
    HOST_HELLO: "HOST_HELLO",
    LED_FRAME: "LED_FRAME",
    SNAPSHOT_REQUEST: "SNAPSHOT_REQUEST",
    RESET: "RESET",
    LED_SCENE: "LED_SCENE",
}

# Messages that must not be lost: sent one at a time in order, acknowledged, retransmitted.
RELIABLE_TYPES = (
    SENSOR_CHANGES,
    SENSOR_CHANGES_TIMED,
    SNAPSHOT,
    CARD,
    ERROR,
    SNAPSHOT_REQUEST,
    RESET,
)
CHANGES_TYPES = (SENSOR_CHANGES, SENSOR_CHANGES_TIMED)

# --- board kinds, feature bits, reset modes, error codes -----------------------------------
KIND_UNCONFIGURED = 0
KIND_PRESENCE = 1
KIND_COLOUR = 2
KIND_NAMES = {KIND_UNCONFIGURED: "unconfigured", KIND_PRESENCE: "presence", KIND_COLOUR: "colour"}

FEATURE_CARD_READER = 0x01
FEATURE_LED_SCENES = 0x02  # the firmware takes LED_SCENE (protocol 1.1)
# HOST_HELLO feature bits (1.2, a trailing byte older boards ignore)
HOST_TIMED_CHANGES = 0x01  # the Pi reads SENSOR_CHANGES_TIMED

RESET_REBOOT = 0
RESET_MAINTENANCE = 1  # reboot without starting the firmware, leaving the REPL to mpremote

E_BAD_MESSAGE = 1
E_LED_FRAME = 2
E_CARD_READER = 3
E_QUEUE_OVERFLOW = 4
E_CRASH = 5
E_CONFIG = 6
E_WATCHDOG = 7

# --- sizes ---------------------------------------------------------------------------------
HEADER_SIZE = 3
CRC_SIZE = 4
MAX_PAYLOAD = 1024
MIN_BODY = HEADER_SIZE + CRC_SIZE
MAX_BODY = MAX_PAYLOAD + MIN_BODY
# COBS adds one byte per 254 bytes (plus one); anything longer between delimiters is junk.
MAX_ENCODED = MAX_BODY + MAX_BODY // 254 + 2
MAX_CHANGES_PER_MESSAGE = MAX_PAYLOAD // 4
MAX_TIMED_CHANGES_PER_MESSAGE = MAX_PAYLOAD // 8


class FramingError(ValueError):
    """Bytes between two delimiters that are not a frame (bad COBS, wrong length)."""


class CrcError(FramingError):
    """A well-formed frame whose CRC does not match: corrupted in transit."""


class MessageError(ValueError):
    """A frame with a good CRC whose payload does not fit its message type."""


# --- CRC-32 (IEEE 802.3, the same as zlib/binascii) ----------------------------------------
def _make_crc_table():
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
        table.append(c)
    return table


_CRC_TABLE = None


def crc32_table(data, crc=0):
    """Table-driven CRC-32 in pure Python, for ports without binascii.crc32."""
    global _CRC_TABLE
    if _CRC_TABLE is None:
        _CRC_TABLE = _make_crc_table()
    table = _CRC_TABLE
    crc ^= 0xFFFFFFFF
    for b in data:
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def crc32(data):
    if _crc32_builtin is not None:
        return _crc32_builtin(data) & 0xFFFFFFFF
    return crc32_table(data)


# --- COBS ----------------------------------------------------------------------------------
def cobs_encode(data):
    """Consistent Overhead Byte Stuffing: the result contains no zero byte.

    Works block by block with find() and slices so it stays fast on the Pico.
    """
    data = bytes(data)
    out = bytearray()
    start = 0
    n = len(data)
    while True:
        zero = data.find(b"\x00", start)
        end = n if zero < 0 else zero
        while end - start >= 254:
            out.append(0xFF)
            out += data[start : start + 254]
            start += 254
        out.append(end - start + 1)
        out += data[start:end]
        if zero < 0:
            return bytes(out)
        start = zero + 1


def cobs_decode(data):
    """Inverse of cobs_encode for bytes that contain no zero; FramingError if malformed."""
    data = bytes(data)
    if data.find(b"\x00") >= 0:
        raise FramingError("zero byte inside COBS data")
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        end = i + code
        if end > n:
            raise FramingError("COBS block runs past the end")
        out += data[i + 1 : end]
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


# --- frames --------------------------------------------------------------------------------
def encode_frame(mtype, seq, payload=b""):
    if len(payload) > MAX_PAYLOAD:
        raise MessageError("payload of %d bytes is over the %d limit" % (len(payload), MAX_PAYLOAD))
    body = struct.pack("<BH", mtype, seq) + bytes(payload)
    body += struct.pack("<I", crc32(body))
    return b"\x00" + cobs_encode(body) + b"\x00"


def parse_frame(chunk):
    """Decode the bytes between two delimiters into (type, seq, payload).

    Raises FramingError for anything that is not a frame and CrcError for a corrupted one, so
    the caller can never act on a frame whose CRC did not match.
    """
    if len(chunk) > MAX_ENCODED:
        raise FramingError("too long")
    body = cobs_decode(chunk)
    if len(body) < MIN_BODY or len(body) > MAX_BODY:
        raise FramingError("body of %d bytes" % len(body))
    end = len(body) - CRC_SIZE
    if crc32(body[:end]) != struct.unpack_from("<I", body, end)[0]:
        raise CrcError("CRC mismatch")
    mtype, seq = struct.unpack_from("<BH", body, 0)
    return mtype, seq, body[HEADER_SIZE:end]


def cobs_decode_into(src, n, dst):
    """Decode COBS bytes src[:n] (no zero among them) into dst, a buffer at least n long;
    returns the decoded length, or -1 if a block runs past the end. Allocates nothing but
    the slices' views: src and dst are memoryviews."""
    i = 0
    o = 0
    while i < n:
        code = src[i]
        end = i + code
        if end > n:
            return -1
        k = code - 1
        dst[o : o + k] = src[i + 1 : end]
        o += k
        i = end
        if code != 0xFF and i < n:
            dst[o] = 0
            o += 1
    return o


class FrameDecoder:
    """Turns a byte stream into frames, skipping garbage and counting what it skipped.

    Its buffers are allocated once: the bytes since the last delimiter (at most max_chunk,
    longer runs are dropped up to the next delimiter) and the decoded body. Only the payload
    of each good frame is a new object, as long as that payload."""

    def __init__(self, max_chunk=MAX_ENCODED, decode_into=None):
        self.max_chunk = max_chunk
        # COBS decoding: cobs_decode_into, or a faster one with the same contract (the
        # firmware's viper cobs_fast.decode_into, whose cost does not depend on the bytes).
        self._decode_into = decode_into or cobs_decode_into
        self._buf = bytearray(max_chunk)
        self._view = memoryview(self._buf)
        self._len = 0
        self._overflow = False
        self._body = bytearray(max(MAX_BODY, max_chunk))
        self._body_view = memoryview(self._body)
        self.frames = 0  # good frames decoded
        self.crc_errors = 0  # frames thrown away because the CRC did not match
        self.resyncs = 0  # runs of bytes thrown away because they were not a frame at all

    def reset(self):
        self._len = 0
        self._overflow = False

    def feed(self, data, n=None):
        """Add received bytes (data[:n]: a bytes or bytearray, which may be the caller's own
        reused buffer); returns the list of complete good frames they finished."""
        frames = []
        if n is None:
            n = len(data)
        view = memoryview(data)
        start = 0
        while True:
            zero = data.find(b"\x00", start, n)
            if zero < 0:
                self._append(view, start, n)
                return frames
            self._append(view, start, zero)
            start = zero + 1
            size = self._len
            overflow = self._overflow
            self._len = 0
            self._overflow = False
            if overflow:
                self.resyncs += 1
                continue
            if not size:
                continue  # two delimiters in a row: the normal gap between frames
            frame = self._parse(size)
            if frame is not None:
                frames.append(frame)

    def _append(self, view, start, end):
        k = end - start
        if self._overflow or k <= 0:
            return
        if self._len + k > self.max_chunk:
            self._overflow = True  # keep dropping until the next delimiter
            self._len = 0
            return
        self._buf[self._len : self._len + k] = view[start:end]
        self._len += k

    def _parse(self, size):
        size = self._decode_into(self._view, size, self._body_view)
        if size < MIN_BODY or size > MAX_BODY:
            self.resyncs += 1
            return None
        body = self._body
        end = size - CRC_SIZE
        if crc32(self._body_view[:end]) != struct.unpack_from("<I", body, end)[0]:
            self.crc_errors += 1
            return None
        self.frames += 1
        mtype, seq = struct.unpack_from("<BH", body, 0)
        return mtype, seq, bytes(self._body_view[HEADER_SIZE:end])


# --- payloads ------------------------------------------------------------------------------
# HELLO starts with the protocol major and minor in every version, so a receiver can always
# read them even when it does not understand the rest.
_HELLO = "<BBBBHHIB"
_HELLO_SIZE = struct.calcsize(_HELLO)


def encode_hello(kind, features, channels, leds, boot_id, firmware_version, major=None, minor=None):
    version = firmware_version.encode()[:64]
    if major is None:
        major = PROTOCOL_MAJOR
    if minor is None:
        minor = PROTOCOL_MINOR
    head = struct.pack(_HELLO, major, minor, kind, features, channels, leds, boot_id, len(version))
    return head + version


def hello_version(payload):
    """(major, minor) from a HELLO payload, readable whatever else changed."""
    if len(payload) < 2:
        raise MessageError("HELLO too short")
    return payload[0], payload[1]


def decode_hello(payload):
    """(major, minor, kind, features, channels, leds, boot_id, firmware_version)."""
    if len(payload) < _HELLO_SIZE:
        raise MessageError("HELLO too short")
    fields = struct.unpack_from(_HELLO, payload, 0)
    size = fields[7]
    if len(payload) < _HELLO_SIZE + size:
        raise MessageError("HELLO version string truncated")
    version = bytes(payload[_HELLO_SIZE : _HELLO_SIZE + size]).decode()
    return fields[0], fields[1], fields[2], fields[3], fields[4], fields[5], fields[6], version


def encode_host_hello(session_id, major=None, minor=None, features=0):
    """features (1.2): HOST_* bits, a trailing byte sent only when not 0."""
    if major is None:
        major = PROTOCOL_MAJOR
    if minor is None:
        minor = PROTOCOL_MINOR
    head = struct.pack("<BBI", major, minor, session_id)
    return head + bytes((features,)) if features else head


def host_hello_features(payload):
    """The HOST_* feature bits of a HOST_HELLO (0 from a Pi before 1.2)."""
    return payload[6] if len(payload) > 6 else 0


def decode_host_hello(payload):
    """(major, minor, session_id)."""
    if len(payload) < 6:
        raise MessageError("HOST_HELLO too short")
    return struct.unpack_from("<BBI", payload, 0)


def encode_changes(changes):
    """SENSOR_CHANGES payload from (channel, value) pairs; 4 bytes each, count implied."""
    out = bytearray()
    for channel, value in changes:
        out += struct.pack("<HH", channel, value)
    return bytes(out)


def decode_changes(payload):
    if len(payload) % 4:
        raise MessageError("SENSOR_CHANGES length %d is not a multiple of 4" % len(payload))
    return [struct.unpack_from("<HH", payload, i) for i in range(0, len(payload), 4)]


def encode_changes_timed(changes):
    """SENSOR_CHANGES_TIMED payload (1.2) from (channel, value, board_ms) triples: board_ms is
    the board's uptime in ms (the heartbeat's clock) when the new reading first appeared."""
    out = bytearray()
    for channel, value, ms in changes:
        out += struct.pack("<HHI", channel, value, ms & 0xFFFFFFFF)
    return bytes(out)


def decode_changes_timed(payload):
    """[(channel, value, board_ms)]."""
    if len(payload) % 8:
        raise MessageError("SENSOR_CHANGES_TIMED length %d is not a multiple of 8" % len(payload))
    return [struct.unpack_from("<HHI", payload, i) for i in range(0, len(payload), 8)]


def untimed_changes(payload):
    """The SENSOR_CHANGES payload (1.1) of a SENSOR_CHANGES_TIMED one: the times left out."""
    out = bytearray()
    for i in range(0, len(payload), 8):
        out += payload[i : i + 4]
    return bytes(out)


def decode_any_changes(mtype, payload):
    """[(channel, value)] of either kind of changes message."""
    if mtype == SENSOR_CHANGES_TIMED:
        return [(c, v) for c, v, _ms in decode_changes_timed(payload)]
    return decode_changes(payload)


def encode_snapshot(values):
    return struct.pack("<%dH" % len(values), *values)


def decode_snapshot(payload):
    if len(payload) % 2:
        raise MessageError("SNAPSHOT length %d is odd" % len(payload))
    return struct.unpack("<%dH" % (len(payload) // 2), payload)


def encode_card(uid):
    return bytes(uid)


def decode_card(payload):
    if len(payload) not in (4, 7, 10):
        raise MessageError("card UID of %d bytes" % len(payload))
    return bytes(payload)


_HEARTBEAT = "<IHHH"
_HEARTBEAT_SIZE = struct.calcsize(_HEARTBEAT)


def encode_heartbeat(uptime_ms, crc_errors, retransmits, queued, mem_free_min=None):
    """mem_free_min (the board's, since firmware 1.1.1): trailing bytes, which older
    receivers ignore."""
    head = struct.pack(
        _HEARTBEAT,
        uptime_ms & 0xFFFFFFFF,
        min(crc_errors, 0xFFFF),
        min(retransmits, 0xFFFF),
        min(queued, 0xFFFF),
    )
    if mem_free_min is None:
        return head
    return head + struct.pack("<I", min(mem_free_min, 0xFFFFFFFF))


def decode_heartbeat(payload):
    """(uptime_ms, crc_errors, retransmits, queued)."""
    if len(payload) < _HEARTBEAT_SIZE:
        raise MessageError("HEARTBEAT too short")
    return struct.unpack_from(_HEARTBEAT, payload, 0)


def heartbeat_mem_free_min(payload):
    """The lowest free heap the board has measured since boot, in bytes; None from a board
    (firmware before 1.1.1) or a Pi that does not say."""
    if len(payload) < _HEARTBEAT_SIZE + 4:
        return None
    return struct.unpack_from("<I", payload, _HEARTBEAT_SIZE)[0]


def encode_error(code, message):
    return struct.pack("<H", code) + message.encode()[:200]


def decode_error(payload):
    """(code, message)."""
    if len(payload) < 2:
        raise MessageError("ERROR too short")
    return struct.unpack_from("<H", payload, 0)[0], bytes(payload[2:]).decode()


def encode_ack(mtype, seq):
    return struct.pack("<BH", mtype, seq)


def decode_ack(payload):
    """(acknowledged type, acknowledged seq)."""
    if len(payload) < 3:
        raise MessageError("ACK too short")
    return struct.unpack_from("<BH", payload, 0)


def encode_leds(colours):
    """LED_FRAME payload from (r, g, b) tuples: 3 bytes per LED, LED 0 first."""
    out = bytearray(3 * len(colours))
    i = 0
    for r, g, b in colours:
        out[i] = r
        out[i + 1] = g
        out[i + 2] = b
        i += 3
    return bytes(out)


def decode_leds(payload):
    if len(payload) % 3:
        raise MessageError("LED_FRAME length %d is not a multiple of 3" % len(payload))
    return [(payload[i], payload[i + 1], payload[i + 2]) for i in range(0, len(payload), 3)]


# --- LED scenes ----------------------------------------------------------------------------
# A scene is a still frame (the base) plus effects the board animates itself, so blinking,
# breathing and chasing LEDs cost one message instead of 25 frames a second. The rendering
# below is integer arithmetic, shared by both sides: the Pi's picture of a scene at time t is
# byte for byte what the board shows.
BLINK = 1  # period_ms; on for the first a/256 of each period; else off (or untouched)
BREATHE = 2  # period_ms; level rises from a/255 to b/255 and back, lowest at t = 0
CHASE = 3  # period_ms per step; LED i of the list lit once (t // period) % (n + 1) > i
EFFECT_KINDS = (BLINK, BREATHE, CHASE)
_EFFECT = "<BHBBB3s3sH"
_EFFECT_SIZE = struct.calcsize(_EFFECT)


def encode_scene(base, effects, phase_ms=0):
    """LED_SCENE payload. base: flat r, g, b bytes; effects: (kind, period_ms, a, b, on,
    off, leds) with on an (r, g, b), off an (r, g, b) or None (leave what is under it), leds
    a list of LED numbers; phase_ms: the scene's time when it is sent."""
    base = bytes(base)
    if len(base) % 3:
        raise MessageError("scene base of %d bytes is not 3 per LED" % len(base))
    out = bytearray(struct.pack("<IHB", phase_ms & 0xFFFFFFFF, len(base), len(effects)))
    out += base
    for kind, period, a, b, on, off, leds in effects:
        if kind not in EFFECT_KINDS or not 0 < period <= 0xFFFF:
            raise MessageError("bad effect %r/%r" % (kind, period))
        flags = 0 if off is None else 1
        out += struct.pack(
            _EFFECT, kind, period, a, b, flags, bytes(on), bytes(off or (0, 0, 0)), len(leds)
        )
        out += struct.pack("<%dH" % len(leds), *leds)
    if len(out) > MAX_PAYLOAD:
        raise MessageError("scene of %d bytes is over the %d limit" % (len(out), MAX_PAYLOAD))
    return bytes(out)


def decode_scene(payload):
    """(phase_ms, base bytes, [(kind, period_ms, a, b, on, off or None, leds)])."""
    if len(payload) < 7:
        raise MessageError("LED_SCENE too short")
    phase, size, count = struct.unpack_from("<IHB", payload, 0)
    i = 7
    if size % 3 or len(payload) < i + size:
        raise MessageError("LED_SCENE base of %d bytes" % size)
    base = bytes(payload[i : i + size])
    i += size
    effects = []
    for _ in range(count):
        if len(payload) < i + _EFFECT_SIZE:
            raise MessageError("LED_SCENE effect truncated")
        kind, period, a, b, flags, on, off, n = struct.unpack_from(_EFFECT, payload, i)
        i += _EFFECT_SIZE
        if kind not in EFFECT_KINDS or period == 0:
            raise MessageError("LED_SCENE effect kind %d period %d" % (kind, period))
        if len(payload) < i + 2 * n:
            raise MessageError("LED_SCENE effect LEDs truncated")
        leds = struct.unpack_from("<%dH" % n, payload, i)
        i += 2 * n
        effects.append((kind, period, a, b, bytes(on), bytes(off) if flags & 1 else None, leds))
    return phase, base, effects


def _wave(t, period):
    """(1 - cos(2 pi t / period)) / 2 out of 1024, by a smoothstep of a triangle (integers)."""
    x = (t % period) * 1024 // period
    tri = 1024 - abs(2 * x - 1024)
    return tri * tri * (3072 - 2 * tri) >> 20


def render_scene(base, effects, t, out):
    """Write the scene at time t (ms) into out (a bytearray as long as base)."""
    out[:] = base
    size = len(out)
    for kind, period, a, b, on, off, leds in effects:
        if kind == BLINK:
            if (t % period) * 256 < a * period:
                colour = on
            elif off is not None:
                colour = off
            else:
                continue
            for led in leds:
                j = 3 * led
                if j < size:
                    out[j : j + 3] = colour
        elif kind == BREATHE:
            level = a + ((b - a) * _wave(t, period) >> 10)
            colour = bytes([c * level // 255 for c in on])
            for led in leds:
                j = 3 * led
                if j < size:
                    out[j : j + 3] = colour
        else:
            lit = (t // period) % (len(leds) + 1)
            dark = off if off is not None else b"\x00\x00\x00"
            for i in range(len(leds)):
                j = 3 * leds[i]
                if j < size:
                    out[j : j + 3] = on if i < lit else dark
    return out


def encode_reset(mode):
    return struct.pack("<B", mode)


def decode_reset(payload):
    if len(payload) < 1:
        raise MessageError("RESET too short")
    return payload[0]


# --- reliability ---------------------------------------------------------------------------
# Times are integer milliseconds: time.ticks_ms() on the Pico, monotonic milliseconds on the Pi.
# Nothing here reads a clock, so the retransmit rules are tested with explicit timestamps.


def next_seq(seq):
    """Sequence numbers run 1..65535 and wrap; 0 marks a frame that is not acknowledged."""
    seq = (seq + 1) & 0xFFFF
    return seq or 1


class ReliableSender:
    """Stop-and-wait delivery of messages that must not be lost.

    One message is in flight at a time; the rest wait in order. The in-flight message is sent
    again, byte for byte, until the matching ACK arrives, with the wait doubling up to max_rto
    so a missing peer is not flooded. A serial line never reorders, so together with the
    receiver's DuplicateFilter this delivers every message exactly once and in order.
    Sensor changes queued while a message is in flight are merged into one message.
    """

    def __init__(self, rto_ms=100, max_rto_ms=1000, max_queue=32, first_seq=1):
        self.rto_ms = rto_ms
        self.max_rto_ms = max_rto_ms
        self.max_queue = max_queue
        self.queue = []  # [type, payload] lists waiting their turn
        self.inflight = None  # (type, seq, payload)
        self._seq = (first_seq - 1) & 0xFFFF
        self._rto = rto_ms
        self._due = 0
        self.retransmits = 0

    def __len__(self):
        return len(self.queue) + (1 if self.inflight is not None else 0)

    def push(self, mtype, payload, merge=False):
        """Queue a message; False if the queue is full (the caller decides what to drop)."""
        if merge and self.queue:
            last = self.queue[-1]
            if last[0] == mtype and len(last[1]) + len(payload) <= MAX_PAYLOAD:
                last[1] = last[1] + payload
                return True
        if len(self.queue) >= self.max_queue:
            return False
        self.queue.append([mtype, payload])
        return True

    def has(self, mtype):
        if self.inflight is not None and self.inflight[0] == mtype:
            return True
        for item in self.queue:
            if item[0] == mtype:
                return True
        return False

    def drop_queued(self, mtype):
        """Forget queued (not in-flight) messages of one type; returns how many."""
        kept = [item for item in self.queue if item[0] != mtype]
        dropped = len(self.queue) - len(kept)
        self.queue = kept
        return dropped

    def on_ack(self, mtype, seq):
        flight = self.inflight
        if flight is not None and flight[0] == mtype and flight[1] == seq:
            self.inflight = None
            self._rto = self.rto_ms
            return True
        return False

    def abandon(self):
        """Drop the in-flight message without an ACK (its peer is known to be gone)."""
        self.inflight = None
        self._rto = self.rto_ms

    def kick(self, now):
        """Send the in-flight message again at once (the peer just (re)appeared)."""
        self._rto = self.rto_ms
        self._due = now

    def poll(self, now):
        """The frame to transmit now as (type, seq, payload), or None."""
        if self.inflight is None:
            if not self.queue:
                return None
            mtype, payload = self.queue.pop(0)
            self._seq = next_seq(self._seq)
            self.inflight = (mtype, self._seq, payload)
            self._rto = self.rto_ms
            self._due = _ticks_add(now, self._rto)
            return self.inflight
        if _ticks_diff(now, self._due) >= 0:
            self.retransmits += 1
            self._rto = min(self._rto * 2, self.max_rto_ms)
            self._due = _ticks_add(now, self._rto)
            return self.inflight
        return None

    def wait_ms(self, now):
        """Milliseconds until poll() has something to send, or None if nothing is pending."""
        if self.inflight is None:
            return 0 if self.queue else None
        return max(0, _ticks_diff(self._due, now))


class LatestSender:
    """Delivery of a message where only the newest copy matters (LED frames).

    At most one message is in flight: a new one waits until the board has acknowledged the
    one before, and a newer one still replaces it while it waits. So the Pi never sends
    faster than the board takes frames in, and a burst of frames collapses into the newest.
    A message equal to the newest one already sent or waiting is not sent again. The newest
    is retransmitted until acknowledged, so the board always ends up showing the last frame
    the Pi asked for.
    """

    def __init__(self, mtype, rto_ms=100, max_rto_ms=1000, first_seq=1):
        self.mtype = mtype
        self.rto_ms = rto_ms
        self.max_rto_ms = max_rto_ms
        self.pending = None  # (type, seq, payload) sent, not yet acknowledged
        self.waiting = None  # (type, payload) to send once pending is acknowledged
        self.latest = None  # (type, payload) of the newest message, to replay after a reboot
        self._seq = (first_seq - 1) & 0xFFFF
        self._rto = rto_ms
        self._due = 0
        self.retransmits = 0
        self.superseded = 0  # messages replaced before they were ever sent
        self.unchanged = 0  # messages not sent because they equalled the newest

    def _send(self, message, now):
        self._seq = next_seq(self._seq)
        self.pending = (message[0], self._seq, message[1])
        self.waiting = None
        self._rto = self.rto_ms
        self._due = _ticks_add(now, self._rto)
        return self.pending

    def set(self, payload, now, mtype=None):
        """Ask for a new message (of type mtype, by default the sender's); returns the frame
        to send at once, or None if it must wait for the one in flight (or equals what the
        board has or is getting)."""
        message = (mtype or self.mtype, payload)
        if message == self.latest:  # the board shows it, or it is on its way
            self.unchanged += 1
            return None
        self.latest = message
        if self.pending is None:
            return self._send(message, now)
        if message == (self.pending[0], self.pending[2]):  # back to the one in flight
            self.waiting = None
            return None
        if self.waiting is not None:
            self.superseded += 1
        self.waiting = message
        return None

    def on_ack(self, mtype, seq):
        if self.pending is not None and mtype == self.pending[0] and self.pending[1] == seq:
            self.pending = None
            return True
        return False

    def replay(self, now):
        """Send the newest message again under a new number (the peer restarted)."""
        if self.latest is None:
            return None
        return self._send(self.latest, now)

    def poll(self, now):
        """The frame to transmit now: the waiting one once the last is acknowledged, or a
        retransmission of the one in flight when its time is up."""
        if self.pending is None:
            if self.waiting is None:
                return None
            return self._send(self.waiting, now)
        if _ticks_diff(now, self._due) < 0:
            return None
        self.retransmits += 1
        self._rto = min(self._rto * 2, self.max_rto_ms)
        self._due = _ticks_add(now, self._rto)
        return self.pending

    def wait_ms(self, now):
        if self.pending is None:
            return 0 if self.waiting is not None else None
        return max(0, _ticks_diff(self._due, now))


# How far ahead of the last accepted number a frame may be and still count as newer. The
# sender is stop-and-wait, so its next new frame is the next number; a gap of one comes from a
# message abandoned when its peer was known to be gone. Anything behind the last accepted one
# (up to 65,535 - SEQ_WINDOW numbers back) is an old frame: recorded and re-sent, or from
# before a restart the receiver did not notice.
SEQ_WINDOW = 256
SEQ_NEW = 0  # newer than the last accepted: deliver
SEQ_REPEAT = 1  # the last accepted one again (its ACK got lost): acknowledge, do not deliver
SEQ_OLD = 2  # older than the last accepted: neither acknowledge nor deliver


def seq_distance(seq, last):
    """How many numbers seq is ahead of last, counting through the wrap and skipping 0."""
    d = (seq - last) & 0xFFFF
    if seq < last and d:
        d -= 1  # 65535 -> 1 is one step: 0 is never used
    return d


class DuplicateFilter:
    """Receiver side of stop-and-wait: only frames newer than the last accepted one count.

    A repeat of the last accepted number is a duplicate (acknowledged again, not delivered);
    a number behind it, or too far ahead, is an old frame (counted, never delivered). The
    window survives the wrap from 65535 to 1; only reset() (a new session or boot handshake)
    lets the next frame start anywhere."""

    def __init__(self, window=SEQ_WINDOW):
        self.window = window
        self.last = None
        self.duplicates = 0  # repeats of the last accepted frame
        self.old = 0  # frames older than the last accepted one (or far ahead of it)

    def check(self, seq):
        """SEQ_NEW (and seq becomes the last accepted), SEQ_REPEAT or SEQ_OLD."""
        last = self.last
        if last is not None:
            if seq == last:
                self.duplicates += 1
                return SEQ_REPEAT
            if not seq or not 0 < seq_distance(seq, last) <= self.window:
                self.old += 1
                return SEQ_OLD
        self.last = seq
        return SEQ_NEW

    def accept(self, seq):
        """True (and seq becomes the last accepted) if the frame is new."""
        return self.check(seq) == SEQ_NEW

    def reset(self):
        self.last = None

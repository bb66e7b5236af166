# Unit checks of firmware/protocol.py that run under MicroPython (the unix port), the way the
# module runs on the Pico. Started by test_fw_micropython.py as
#     micropython mp_protocol_checks.py FIRMWARE_DIR
# Prints "GOLDEN name hex" lines (compared with CPython's output by the test), then
# "PASSED n" and exits 0, or prints each failure and exits 1.

import sys

sys.path.insert(0, sys.argv[1])

import protocol as P
from mp_check import check, finish


def raises(exc, fn, *args):
    try:
        fn(*args)
    except exc:
        return True
    return False


# CRC: built-in (binascii) and the table fallback agree with the standard check value.
check(P.crc32(b"123456789") == 0xCBF43926, "crc32 check value")
check(P.crc32_table(b"123456789") == 0xCBF43926, "crc32 table check value")
data = bytes(range(256)) * 2
check(P.crc32(data) == P.crc32_table(data), "crc32 builtin == table")
print("GOLDEN crc", f"{P.crc32(data):08x}")
print("HAS_BINASCII_CRC32", P._crc32_builtin is not None)

# COBS
for size in (0, 1, 253, 254, 255, 508, 600):
    for blob in (bytes(size), bytes((i * 7 + 1) % 256 for i in range(size))):
        enc = P.cobs_encode(blob)
        check(enc.find(b"\x00") < 0, f"cobs no zero {size}")
        check(P.cobs_decode(enc) == blob, f"cobs round trip {size}")
check(P.cobs_encode(b"\x11\x22\x00\x33") == b"\x03\x11\x22\x02\x33", "cobs vector")
check(raises(P.FramingError, P.cobs_decode, b"\x05\x01"), "cobs truncated")

# Frames, and byte-for-byte the same encoding as CPython's
frame = P.encode_frame(P.SENSOR_CHANGES, 0x0102, P.encode_changes([(5, 1)]))
print("GOLDEN changes", frame.hex())
hello = P.encode_hello(P.KIND_PRESENCE, 1, 112, 132, 0xDEADBEEF, "1.0.0")
print("GOLDEN hello", P.encode_frame(P.HELLO, 0, hello).hex())
leds = P.encode_leds([(i, 255 - i, 0) for i in range(132)])
print("GOLDEN leds", P.encode_frame(P.LED_FRAME, 65535, leds).hex())
check(P.parse_frame(frame[1:-1]) == (P.SENSOR_CHANGES, 0x0102, b"\x05\x00\x01\x00"), "parse")
bad = bytearray(P.cobs_decode(frame[1:-1]))
bad[3] ^= 1
check(raises(P.CrcError, P.parse_frame, P.cobs_encode(bytes(bad))), "crc error")
check(raises(P.FramingError, P.parse_frame, b"\x02\x01"), "short frame")

# Stream decoding across garbage and arbitrary splits
frames = [P.encode_frame(P.HEARTBEAT, 0, P.encode_heartbeat(i, 0, 0, 0)) for i in range(3)]
stream = b"junk\x00\x07" + frames[0] + b"\xff" * 20 + frames[1] + frames[2]
for step in (1, 3, 7, 1000):
    dec = P.FrameDecoder()
    got = []
    for i in range(0, len(stream), step):
        got += dec.feed(stream[i : i + step])
    check([P.decode_heartbeat(p)[0] for t, s, p in got] == [0, 1, 2], f"decoder step {step}")
    check(dec.resyncs == 3 and dec.crc_errors == 0, f"decoder counters step {step}")
dec = P.FrameDecoder()
check(dec.feed(b"\x01" * (P.MAX_ENCODED + 5)) == [], "oversized")
check(len(dec.feed(frames[0])) == 1 and dec.resyncs == 1, "after oversized")

# Payloads
check(P.decode_hello(hello) == (1, P.PROTOCOL_MINOR, 1, 1, 112, 132, 0xDEADBEEF, "1.0.0"), "hello")
check(P.decode_changes(P.encode_changes([(0, 1), (111, 65535)])) == [(0, 1), (111, 65535)], "chg")
check(tuple(P.decode_snapshot(P.encode_snapshot([1] * 112))) == (1,) * 112, "snapshot")
check(P.decode_error(P.encode_error(6, "bad pin")) == (6, "bad pin"), "error")
check(P.decode_ack(P.encode_ack(P.LED_FRAME, 7)) == (P.LED_FRAME, 7), "ack")
check(raises(P.MessageError, P.decode_changes, b"\x01\x02\x03"), "bad changes")
check(raises(P.MessageError, P.decode_card, b"\x01"), "bad card")

# Reliability, with explicit milliseconds and with the tick counter about to wrap
try:
    from time import ticks_add
except ImportError:

    def ticks_add(a, b):
        return a + b


for start in (0, ticks_add(0, -50)):
    s = P.ReliableSender(100, 400, 4, 1)
    s.push(P.SENSOR_CHANGES, b"aaaa")
    s.push(P.SENSOR_CHANGES, b"bbbb", True)
    check(s.poll(start) == (P.SENSOR_CHANGES, 1, b"aaaabbbb"), f"first send {start}")
    check(s.poll(ticks_add(start, 99)) is None, f"not yet {start}")
    check(s.poll(ticks_add(start, 100)) is not None, f"retransmit {start}")
    check(s.poll(ticks_add(start, 299)) is None, f"backoff {start}")
    check(s.poll(ticks_add(start, 300)) is not None, f"second retransmit {start}")
    check(s.on_ack(P.SENSOR_CHANGES, 1), f"ack {start}")
    check(s.poll(ticks_add(start, 301)) is None and len(s) == 0, f"idle {start}")

latest = P.LatestSender(P.LED_FRAME, 100, 1000, 1)
latest.set(b"x", 0)
check(latest.set(b"y", 5) is None and latest.set(b"z", 6) is None, "led waits for its ack")
check(latest.on_ack(P.LED_FRAME, 1), "led ack")
check(latest.poll(7) == (P.LED_FRAME, 2, b"z"), "newest led frame next")
check(latest.poll(107) == (P.LED_FRAME, 2, b"z"), "led resend")
check(latest.on_ack(P.LED_FRAME, 2) and latest.poll(10000) is None, "led acked")
check(latest.set(b"z", 10001) is None, "unchanged led frame not sent")

scene = P.encode_scene(
    bytes([9] * 12),
    [
        (P.BLINK, 500, 128, 0, (255, 0, 0), None, [0, 1]),
        (P.BREATHE, 2000, 20, 115, (0, 60, 255), None, [2]),
        (P.CHASE, 150, 0, 0, (255, 90, 0), (0, 0, 0), [3, 1]),
    ],
    77,
)
phase, base, effects = P.decode_scene(scene)
out = bytearray(12)
pictures = b"".join(bytes(P.render_scene(base, effects, t, out)) for t in range(0, 2100, 70))
print("GOLDEN scene", phase, scene.hex(), pictures.hex())

dup = P.DuplicateFilter()
check(dup.accept(3) and not dup.accept(3) and dup.accept(4), "duplicates")
check(not dup.accept(3) and dup.old == 1, "an older number is refused")
dup.reset()
seqs = []
s = 65530
for _ in range(20):
    check(dup.accept(s), f"accept {s} across the wrap")
    seqs.append(s)
    s = P.next_seq(s)
check(all(dup.check(e) == P.SEQ_OLD for e in seqs[:-1]), "every earlier number refused")

finish()

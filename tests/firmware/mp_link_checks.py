# Checks of firmware/link.py (the board's end of the link) under MicroPython, the way it runs on
# the Pico. Started by test_fw_micropython.py as
#     micropython mp_link_checks.py FIRMWARE_DIR
# Prints each failure and exits 1, or prints "PASSED n" and exits 0.

import sys

sys.path.insert(0, sys.argv[1])

import protocol as P
from link import HostLink
from mp_check import check, finish


class Port:
    def __init__(self):
        self.inbox = b""
        self.out = bytearray()

    def readinto(self, buf):
        n = min(len(buf), len(self.inbox))
        buf[:n] = self.inbox[:n]
        self.inbox = self.inbox[n:]
        return n

    def write(self, data):
        self.out += data

    def sent(self):
        frames = P.FrameDecoder().feed(bytes(self.out))
        self.out = bytearray()
        return frames


def new_link():
    port = Port()
    hello = P.encode_hello(P.KIND_PRESENCE, 0, 112, 132, 1, "1.1.0")
    link = HostLink(port, hello, 0, 1)
    return port, link


def receive(port, link, frame, now):
    port.inbox = frame
    got = []
    while port.inbox:
        got += link.receive(now)
    return got


# --- a recorded session from the Pi, every earlier frame replayed -------------------------
port, link = new_link()
receive(port, link, P.encode_frame(P.HOST_HELLO, 0, P.encode_host_hello(0x1234)), 0)
port.sent()
recorded = []
seqs = {P.SNAPSHOT_REQUEST: 65525, P.LED_FRAME: 65530}  # the Pi's two counters
for i in range(60):  # both counters wrap from 65535 to 1
    mtype = P.SNAPSHOT_REQUEST if i % 3 == 0 else P.LED_FRAME
    payload = b"" if mtype == P.SNAPSHOT_REQUEST else bytes([i, 0, 0])
    frame = P.encode_frame(mtype, seqs[mtype], payload)
    got = receive(port, link, frame, i)
    check(len(got) == 1, f"frame {i} of the session taken in")
    link.led_shown()
    recorded.append(frame)
    seqs[mtype] = P.next_seq(seqs[mtype])
port.sent()
last = {P.SNAPSHOT_REQUEST: recorded[57], P.LED_FRAME: recorded[59]}
earlier = [f for f in recorded if f not in (recorded[57], recorded[59])]
taken = 0
for frame in earlier:
    taken += len(receive(port, link, frame, 100))
check(taken == 0, f"no earlier frame taken in again ({taken} were)")
acks = [f for f in port.sent() if f[0] == P.ACK]
check(not acks, f"no earlier frame acknowledged ({len(acks)} were)")
check(link.inbound.old + link.led_frames.old == 58, "every earlier frame counted as old")
# The last one of each again: a duplicate, acknowledged at once, not taken in again.
for mtype in (P.SNAPSHOT_REQUEST, P.LED_FRAME):
    got = receive(port, link, last[mtype], 101)
    check(got == [] and [f[0] for f in port.sent()] == [P.ACK], "the last frame again: an ACK")
# The Pi's next frames are taken in as ever.
for mtype in (P.SNAPSHOT_REQUEST, P.LED_FRAME):
    got = receive(port, link, P.encode_frame(mtype, seqs[mtype], b""), 102)
    check([m for m, _p in got] == [mtype], "the next frame is taken in")
# A new driver session starts the numbering anywhere.
receive(port, link, P.encode_frame(P.HOST_HELLO, 0, P.encode_host_hello(0x5678)), 103)
got = receive(port, link, recorded[0], 104)
check(len(got) == 1, "a new session's first frame is taken in, whatever its number")

# --- HELLO answers cannot storm -----------------------------------------------------------
port, link = new_link()
flood = P.encode_frame(P.HOST_HELLO, 0, P.encode_host_hello(0x42)) * 100
receive(port, link, flood, 1000)
hellos = [f for f in port.sent() if f[0] == P.HELLO]
check(len(hellos) == 1, f"100 HOST_HELLOs at once: one HELLO now ({len(hellos)})")
link.service(1010)
check(not [f for f in port.sent() if f[0] == P.HELLO], "none more within the interval")
check(link.wait_ms(1010) <= 40, "the loop wakes up for the owed answer")
link.service(1000 + 50)
hellos = [f for f in port.sent() if f[0] == P.HELLO]
check(len(hellos) == 1, "the owed answer goes out when the interval is over")
link.service(1200)
check(not [f for f in port.sent() if f[0] == P.HELLO], "and no more")
receive(port, link, P.encode_frame(P.HOST_HELLO, 0, P.encode_host_hello(0x42)), 1300)
check([f[0] for f in port.sent()].count(P.HELLO) == 1, "a later HOST_HELLO: answered at once")

# --- sensor changes: timed to a Pi that asks (1.2), untimed to an older one ----------------
for features, wire in ((0, P.SENSOR_CHANGES), (P.HOST_TIMED_CHANGES, P.SENSOR_CHANGES_TIMED)):
    port, link = new_link()
    hello = P.encode_host_hello(0x77, minor=1 if not features else 2, features=features)
    receive(port, link, P.encode_frame(P.HOST_HELLO, 0, hello), 0)
    port.sent()
    link.queue_changes([(5, 1, 1234), (6, 0, 1240)])
    link.service(10)
    (frame,) = [f for f in port.sent() if f[0] in P.CHANGES_TYPES]
    check(frame[0] == wire, f"features {features}: changes go out as type {wire}")
    if wire == P.SENSOR_CHANGES_TIMED:
        check(P.decode_changes_timed(frame[2]) == [(5, 1, 1234), (6, 0, 1240)], "with times")
    else:
        check(P.decode_changes(frame[2]) == [(5, 1), (6, 0)], "without times")
    link.service(10 + 150)  # no ACK yet: resent, byte for byte
    (again,) = [f for f in port.sent() if f[0] in P.CHANGES_TYPES]
    check(again == frame, "a resend is the same frame")
    receive(port, link, P.encode_frame(P.ACK, 0, P.encode_ack(wire, frame[1])), 200)
    check(link.sender.inflight is None, f"the ACK of a type {wire} frame ends its resends")

# --- the viper COBS decoder agrees with the Python one, dark or bright --------------------
from cobs_fast import decode_into  # noqa: E402

cases = [b"", bytes(396), bytes(range(256)) * 3, bytes([7] * 600), b"\x00\x01" * 200]
for body in cases:
    enc = P.cobs_encode(body)
    a = bytearray(len(enc) + 1)
    b = bytearray(len(enc) + 1)
    na = P.cobs_decode_into(memoryview(enc), len(enc), memoryview(a))
    nb = decode_into(enc, len(enc), b)
    check(na == nb == len(body) and a[:na] == b[:nb] == body, f"viper COBS, {len(body)} bytes")
check(decode_into(b"\x05\x01", 2, bytearray(2)) == -1, "viper COBS: a block past the end")
check(link.decoder._decode_into is decode_into, "the link decodes with the viper one")

finish()

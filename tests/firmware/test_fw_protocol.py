"""firmware/protocol.py under CPython: CRC, COBS, frames, payloads, reliability rules."""

from __future__ import annotations

import zlib

import pytest

from pawnlight.firmware import protocol as P


def test_crc32_matches_zlib_with_and_without_binascii() -> None:
    for data in (b"", b"123456789", bytes(range(256)) * 3):
        assert P.crc32(data) == zlib.crc32(data)
        assert P.crc32_table(data) == zlib.crc32(data)
    assert P.crc32(b"123456789") == 0xCBF43926


@pytest.mark.parametrize(
    ("data", "encoded"),
    [
        (b"", b"\x01"),
        (b"\x00", b"\x01\x01"),
        (b"\x00\x00", b"\x01\x01\x01"),
        (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
        (b"\x11\x22\x33\x44", b"\x05\x11\x22\x33\x44"),
        (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
        (bytes(range(1, 255)), b"\xff" + bytes(range(1, 255)) + b"\x01"),
        (bytes(range(1, 256)), b"\xff" + bytes(range(1, 255)) + b"\x02\xff"),
    ],
)
def test_cobs_known_vectors(data: bytes, encoded: bytes) -> None:
    # The examples from the COBS paper / Wikipedia.
    assert P.cobs_encode(data) == encoded
    assert P.cobs_decode(encoded) == data


@pytest.mark.parametrize("size", [0, 1, 253, 254, 255, 508, 509, 1100])
def test_cobs_round_trip_has_no_zero(size: int) -> None:
    for data in (bytes(size), bytes((i * 7 + 1) % 256 for i in range(size))):
        encoded = P.cobs_encode(data)
        assert b"\x00" not in encoded
        assert P.cobs_decode(encoded) == data


def test_cobs_rejects_malformed_input() -> None:
    with pytest.raises(P.FramingError):
        P.cobs_decode(b"\x05\x01\x02")  # block runs past the end
    with pytest.raises(P.FramingError):
        P.cobs_decode(b"\x02\x00\x01")


def test_frame_round_trip_and_known_bytes() -> None:
    frame = P.encode_frame(P.SENSOR_CHANGES, 0x0102, P.encode_changes([(5, 1)]))
    # The example in docs/protocol.md.
    assert frame.hex(" ") == "00 05 02 02 01 05 02 01 05 9f 87 9e 54 00"
    assert zlib.crc32(bytes.fromhex("02 02 01 05 00 01 00")) == 0x549E879F
    assert frame[0] == 0 and frame[-1] == 0 and b"\x00" not in frame[1:-1]
    assert P.parse_frame(frame[1:-1]) == (P.SENSOR_CHANGES, 0x0102, b"\x05\x00\x01\x00")


def test_parse_frame_checks_crc_and_length() -> None:
    body = bytearray(P.cobs_decode(P.encode_frame(P.CARD, 1, b"\x01\x02\x03\x04")[1:-1]))
    body[4] ^= 0x10
    with pytest.raises(P.CrcError):
        P.parse_frame(P.cobs_encode(bytes(body)))
    with pytest.raises(P.FramingError):
        P.parse_frame(P.cobs_encode(b"\x01\x02\x03"))
    with pytest.raises(P.MessageError):
        P.encode_frame(P.LED_FRAME, 1, bytes(P.MAX_PAYLOAD + 1))


def test_decoder_handles_split_input_and_garbage() -> None:
    frames = [P.encode_frame(P.HEARTBEAT, 0, P.encode_heartbeat(i, 0, 0, 0)) for i in range(3)]
    stream = b"junk" + frames[0] + b"\x13\x37" + frames[1] + frames[2]
    decoder = P.FrameDecoder()
    got = []
    for i in range(len(stream)):  # one byte at a time
        got += decoder.feed(stream[i : i + 1])
    assert [P.decode_heartbeat(p)[0] for _t, _s, p in got] == [0, 1, 2]
    assert decoder.frames == 3 and decoder.resyncs == 2 and decoder.crc_errors == 0


def test_decoder_drops_oversized_runs() -> None:
    decoder = P.FrameDecoder()
    good = P.encode_frame(P.ACK, 0, P.encode_ack(P.CARD, 9))
    assert decoder.feed(b"\x01" * (P.MAX_ENCODED + 10)) == []
    assert decoder.feed(good) == [(P.ACK, 0, P.encode_ack(P.CARD, 9))]
    assert decoder.resyncs == 1


def test_payload_codecs_round_trip() -> None:
    hello = P.encode_hello(P.KIND_COLOUR, 1, 112, 132, 0xDEADBEEF, "1.0.0")
    version = (P.PROTOCOL_MAJOR, P.PROTOCOL_MINOR)
    assert P.decode_hello(hello) == (*version, P.KIND_COLOUR, 1, 112, 132, 0xDEADBEEF, "1.0.0")
    assert P.hello_version(P.encode_hello(0, 0, 0, 0, 0, "x", major=7, minor=9)) == (7, 9)
    assert P.decode_host_hello(P.encode_host_hello(0x12345678)) == (*version, 0x12345678)
    assert P.decode_changes(P.encode_changes([(0, 1), (111, 65535)])) == [(0, 1), (111, 65535)]
    assert P.decode_snapshot(P.encode_snapshot([0, 65535, 7])) == (0, 65535, 7)
    assert P.decode_card(P.encode_card(b"\x04\xa1\xb2\xc3\xd4\xe5\xf6")).hex() == "04a1b2c3d4e5f6"
    assert P.decode_heartbeat(P.encode_heartbeat(2**33 + 5, 70000, 3, 4)) == (5, 65535, 3, 4)
    assert P.decode_error(P.encode_error(P.E_CRASH, "boom ✗")) == (P.E_CRASH, "boom ✗")
    assert P.decode_ack(P.encode_ack(P.LED_FRAME, 65535)) == (P.LED_FRAME, 65535)
    assert P.decode_leds(P.encode_leds([(1, 2, 3), (4, 5, 6)])) == [(1, 2, 3), (4, 5, 6)]
    assert P.decode_reset(P.encode_reset(P.RESET_MAINTENANCE)) == P.RESET_MAINTENANCE


@pytest.mark.parametrize(
    ("decode", "payload"),
    [
        (P.decode_changes, b"\x01\x02\x03"),
        (P.decode_snapshot, b"\x01"),
        (P.decode_card, b"\x01\x02"),
        (P.decode_hello, b"\x01\x00"),
        (P.decode_ack, b"\x01"),
        (P.decode_leds, b"\x01\x02"),
        (P.decode_error, b""),
        (P.decode_heartbeat, b"\x00"),
        (P.decode_host_hello, b"\x01"),
        (P.decode_reset, b""),
    ],
)
def test_payload_decoders_reject_bad_lengths(decode, payload: bytes) -> None:
    with pytest.raises(P.MessageError):
        decode(payload)


def test_sequence_numbers_skip_zero() -> None:
    assert P.next_seq(1) == 2
    assert P.next_seq(0xFFFF) == 1


def test_reliable_sender_is_stop_and_wait_with_backoff() -> None:
    sender = P.ReliableSender(rto_ms=100, max_rto_ms=400, max_queue=3, first_seq=10)
    assert sender.poll(0) is None and sender.wait_ms(0) is None
    assert sender.push(P.SENSOR_CHANGES, b"a")
    assert sender.push(P.CARD, b"card")
    assert sender.poll(0) == (P.SENSOR_CHANGES, 10, b"a")
    assert sender.poll(50) is None  # one in flight at a time
    assert sender.wait_ms(50) == 50
    assert sender.poll(100) == (P.SENSOR_CHANGES, 10, b"a")  # resent after 100 ms...
    assert sender.poll(250) is None
    assert sender.poll(300) == (P.SENSOR_CHANGES, 10, b"a")  # ...then 200, then 400 at most
    assert sender.poll(700) == (P.SENSOR_CHANGES, 10, b"a")
    assert sender.poll(1100) == (P.SENSOR_CHANGES, 10, b"a")
    assert sender.retransmits == 4
    assert not sender.on_ack(P.SENSOR_CHANGES, 11) and not sender.on_ack(P.CARD, 10)
    assert sender.on_ack(P.SENSOR_CHANGES, 10)
    assert sender.poll(1100) == (P.CARD, 11, b"card")
    sender.kick(1150)
    assert sender.poll(1150) == (P.CARD, 11, b"card")


def test_reliable_sender_merges_queued_changes_and_bounds_its_queue() -> None:
    sender = P.ReliableSender(max_queue=2)
    sender.push(P.SENSOR_CHANGES, b"1111")
    sender.poll(0)  # in flight: not merged into any more
    assert sender.push(P.SENSOR_CHANGES, b"2222", merge=True)
    assert sender.push(P.SENSOR_CHANGES, b"3333", merge=True)
    assert sender.queue == [[P.SENSOR_CHANGES, b"22223333"]]
    assert sender.push(P.CARD, b"c")
    assert not sender.push(P.ERROR, b"e")  # full
    assert sender.has(P.CARD) and sender.has(P.SENSOR_CHANGES) and not sender.has(P.ERROR)
    assert sender.drop_queued(P.SENSOR_CHANGES) == 1
    assert len(sender) == 2


def test_reliable_sender_survives_tick_wraparound() -> None:
    # On the Pico ticks_ms wraps; under CPython the plain arithmetic fallback is used, so
    # only check that large values behave.
    sender = P.ReliableSender(rto_ms=100)
    sender.push(P.CARD, b"x")
    start = 2**30 - 10
    assert sender.poll(start) is not None
    assert sender.poll(start + 99) is None
    assert sender.poll(start + 100) is not None


def test_latest_sender_keeps_one_in_flight_and_only_the_newest_waiting() -> None:
    leds = P.LatestSender(P.LED_FRAME, rto_ms=100, first_seq=1)
    assert leds.poll(0) is None and leds.replay(0) is None
    assert leds.set(b"a", 0) == (P.LED_FRAME, 1, b"a")
    # Not acknowledged yet: newer frames wait, each replacing the one before.
    assert leds.set(b"b", 10) is None
    assert leds.set(b"c", 20) is None
    assert leds.superseded == 1
    assert leds.poll(50) is None  # "a" is not due for a resend and "c" must wait
    assert not leds.on_ack(P.LED_FRAME, 9)  # an ACK of something else does not count
    assert leds.on_ack(P.LED_FRAME, 1)
    assert leds.wait_ms(60) == 0
    assert leds.poll(60) == (P.LED_FRAME, 2, b"c")  # the newest, never the stale "b"
    assert leds.poll(159) is None
    assert leds.poll(160) == (P.LED_FRAME, 2, b"c")  # resent until acknowledged
    assert leds.on_ack(P.LED_FRAME, 2)
    assert leds.poll(1000) is None and leds.wait_ms(1000) is None
    assert leds.replay(1000) == (P.LED_FRAME, 3, b"c")


def test_latest_sender_sends_nothing_for_an_unchanged_frame() -> None:
    leds = P.LatestSender(P.LED_FRAME, rto_ms=100, first_seq=1)
    assert leds.set(b"a", 0) is not None
    assert leds.set(b"a", 1) is None  # in flight already
    leds.on_ack(P.LED_FRAME, 1)
    assert leds.set(b"a", 2) is None and leds.poll(2) is None  # shown already
    assert leds.unchanged == 2
    assert leds.set(b"b", 3) is not None
    assert leds.set(b"c", 4) is None
    assert leds.set(b"b", 5) is None  # back to the frame in flight: "c" is dropped
    leds.on_ack(P.LED_FRAME, 2)
    assert leds.poll(6) is None


def test_duplicate_filter() -> None:
    seen = P.DuplicateFilter()
    assert seen.accept(5) and not seen.accept(5) and seen.accept(6)
    assert not seen.accept(5)  # older than the last accepted: never again
    assert (seen.duplicates, seen.old) == (1, 1)
    assert seen.check(6) == P.SEQ_REPEAT and seen.check(4) == P.SEQ_OLD
    assert not seen.accept(6 + P.SEQ_WINDOW + 1)  # too far ahead: not the sender's next
    assert seen.accept(6 + P.SEQ_WINDOW)
    seen.reset()
    assert seen.accept(5)  # a new session starts anywhere


def test_the_window_survives_the_wrap_and_refuses_every_earlier_number() -> None:
    seen = P.DuplicateFilter()
    numbers = []
    seq = 65500
    for _ in range(100):  # 65500 .. 65535, then 1 .. 64 (0 is skipped)
        assert seen.accept(seq)
        numbers.append(seq)
        seq = P.next_seq(seq)
    assert numbers[35:37] == [65535, 1]
    for earlier in numbers[:-1]:
        assert seen.check(earlier) == P.SEQ_OLD
    assert seen.check(numbers[-1]) == P.SEQ_REPEAT
    assert seen.old == 99 and seen.accept(seq)


SCENE_EFFECTS = [
    (P.BLINK, 500, 128, 0, (255, 0, 0), None, [0, 1]),
    (P.BREATHE, 2000, 20, 115, (0, 60, 255), None, [2]),
    (P.CHASE, 150, 0, 0, (255, 90, 0), (0, 0, 0), [3, 1]),
]


def test_scene_round_trips_and_bad_scenes_are_refused() -> None:
    payload = P.encode_scene(bytes(range(12)), SCENE_EFFECTS, 1234)
    phase, base, effects = P.decode_scene(payload)
    assert (phase, base) == (1234, bytes(range(12)))
    assert [e[:4] for e in effects] == [e[:4] for e in SCENE_EFFECTS]
    assert effects[0][5] is None and effects[2][5] == b"\x00\x00\x00"
    assert [list(e[6]) for e in effects] == [e[6] for e in SCENE_EFFECTS]
    for bad in (payload[:5], payload[:-1], payload[:7] + b"\x00"):
        with pytest.raises(P.MessageError):
            P.decode_scene(bad)
    with pytest.raises(P.MessageError):
        P.encode_scene(bytes(4), [])
    with pytest.raises(P.MessageError):
        P.encode_scene(bytes(3), [(9, 100, 0, 0, (1, 1, 1), None, [0])])


def test_scene_rendering_blinks_breathes_and_chases_as_a_function_of_time() -> None:
    _phase, base, effects = P.decode_scene(P.encode_scene(bytes([9] * 12), SCENE_EFFECTS))
    out = bytearray(12)

    def led(t: int, i: int) -> tuple[int, ...]:
        return tuple(P.render_scene(base, effects, t, out)[3 * i : 3 * i + 3])

    assert led(0, 0) == (255, 0, 0) and led(249, 0) == (255, 0, 0)  # first half of 500 ms
    assert led(250, 0) == (9, 9, 9)  # off: what is under it shows
    assert led(0, 2) == (0, 60 * 20 // 255, 255 * 20 // 255)  # breathing, lowest at t = 0
    assert led(1000, 2) == (0, 60 * 115 // 255, 115)  # highest half a period later
    assert led(500, 2)[2] == led(1500, 2)[2] and 20 < led(500, 2)[2] < 115
    # The chase lights LED 3, then LEDs 3 and 1, then none, 150 ms a step; LED 1 is also
    # the blink's, and the chase comes later, so it covers the blink.
    assert (led(0, 3), led(0, 1)) == ((0, 0, 0), (0, 0, 0))
    assert (led(150, 3), led(150, 1)) == ((255, 90, 0), (0, 0, 0))
    assert (led(300, 3), led(300, 1)) == ((255, 90, 0), (255, 90, 0))
    assert led(450, 3) == (0, 0, 0)


def test_latest_sender_keeps_frames_and_scenes_on_one_channel() -> None:
    leds = P.LatestSender(P.LED_FRAME, rto_ms=100, first_seq=1)
    assert leds.set(b"a", 0) == (P.LED_FRAME, 1, b"a")
    assert leds.set(b"s", 1, P.LED_SCENE) is None
    assert not leds.on_ack(P.LED_SCENE, 1)  # the ACK must name what was sent
    assert leds.on_ack(P.LED_FRAME, 1)
    assert leds.poll(2) == (P.LED_SCENE, 2, b"s")
    assert leds.set(b"s", 3, P.LED_SCENE) is None  # unchanged
    assert leds.on_ack(P.LED_SCENE, 2) and leds.replay(4) == (P.LED_SCENE, 3, b"s")


def test_the_firmware_version_names_the_protocol_it_speaks():
    """A builder reads the version in `doctor`: 1.1.x must mean protocol 1.1 (LED scenes)."""
    import re
    from pathlib import Path

    app = Path(__file__).parents[2] / "firmware" / "app.py"
    version = re.search(r'^FIRMWARE_VERSION = "(\d+)\.(\d+)\.(\d+)"$', app.read_text(), re.M)
    assert version is not None, "firmware/app.py must set FIRMWARE_VERSION as major.minor.patch"
    assert (int(version[1]), int(version[2])) == (P.PROTOCOL_MAJOR, P.PROTOCOL_MINOR)


def test_the_boards_lowest_free_heap_rides_in_the_heartbeat_compatibly() -> None:
    old = P.encode_heartbeat(1000, 1, 2, 3)
    new = P.encode_heartbeat(1000, 1, 2, 3, 45678)
    # An older receiver reads the same four counters from both; a newer one reads the heap.
    assert P.decode_heartbeat(old) == P.decode_heartbeat(new) == (1000, 1, 2, 3)
    assert P.heartbeat_mem_free_min(old) is None
    assert P.heartbeat_mem_free_min(new) == 45678


def test_timed_changes_and_the_host_hellos_feature_byte() -> None:
    timed = P.encode_changes_timed([(5, 1, 70000), (111, 0, 0xFFFFFFFF + 3)])
    assert P.decode_changes_timed(timed) == [(5, 1, 70000), (111, 0, 2)]
    assert P.untimed_changes(timed) == P.encode_changes([(5, 1), (111, 0)])
    assert P.decode_any_changes(P.SENSOR_CHANGES_TIMED, timed) == [(5, 1), (111, 0)]
    with pytest.raises(P.MessageError):
        P.decode_changes_timed(timed[:-1])
    # A 1.1 board reads a 1.2 HOST_HELLO's first six bytes as ever; a 1.1 Pi's asks nothing.
    new = P.encode_host_hello(0x42, features=P.HOST_TIMED_CHANGES)
    assert P.decode_host_hello(new)[2] == 0x42 and P.host_hello_features(new) == 1
    assert P.host_hello_features(P.encode_host_hello(0x42, minor=1)) == 0
    assert len(P.encode_host_hello(0x42)) == 6

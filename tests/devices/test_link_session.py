"""The Pi-side protocol rules with explicit timestamps: no port, no threads, no sleeping."""

from __future__ import annotations

import pytest

from pawnlight.devices.board_link import ProtocolVersionError
from pawnlight.devices.events import (
    CardRead,
    FirmwareError,
    LinkState,
    SensorChanged,
    SensorSnapshot,
)
from pawnlight.devices.link_session import (
    ERROR_TEXT_LIMIT,
    Counters,
    LinkDown,
    LinkSession,
    LinkSettings,
)
from pawnlight.firmware import protocol as P

SETTINGS = LinkSettings()


def hello(boot_id: int = 7, major: int = P.PROTOCOL_MAJOR) -> bytes:
    payload = P.encode_hello(
        P.KIND_PRESENCE, P.FEATURE_CARD_READER, 112, 132, boot_id, "1.2.3", major
    )
    return P.encode_frame(P.HELLO, 0, payload)


def sent(session: LinkSession) -> list[tuple[int, int, bytes]]:
    return P.FrameDecoder().feed(session.take_output())


def sent_types(session: LinkSession) -> list[int]:
    return [mtype for mtype, _seq, _payload in sent(session)]


def connected(now: float = 0.0) -> LinkSession:
    session = LinkSession(SETTINGS, now, 0xABCD, Counters(), first_seq=1)
    session.open(now)
    session.receive(hello(), now)
    session.take_output()
    return session


def test_handshake_sends_host_hello_until_the_board_answers() -> None:
    session = LinkSession(SETTINGS, 0.0, 0xABCD, Counters())
    session.open(0.0)
    (frame,) = sent(session)
    assert frame[0] == P.HOST_HELLO
    assert P.decode_host_hello(frame[2]) == (P.PROTOCOL_MAJOR, P.PROTOCOL_MINOR, 0xABCD)
    session.tick(0.1)
    assert sent_types(session) == []
    session.tick(SETTINGS.hello_interval)
    assert sent_types(session) == [P.HOST_HELLO]
    with pytest.raises(LinkDown, match="no HELLO"):
        session.tick(SETTINGS.handshake_timeout + 0.01)


def test_hello_brings_the_link_up_and_asks_for_a_snapshot() -> None:
    session = LinkSession(SETTINGS, 0.0, 1, Counters())
    session.open(0.0)
    session.take_output()
    events = session.receive(hello(), 0.5)
    assert events == [LinkState(True, "connected to presence board, firmware 1.2.3", "1.2.3")]
    assert session.board is not None and session.board.card_reader
    assert sent_types(session) == [P.SNAPSHOT_REQUEST]


def test_frames_before_hello_are_ignored() -> None:
    session = LinkSession(SETTINGS, 0.0, 1, Counters())
    session.open(0.0)
    session.take_output()
    change = P.encode_frame(P.SENSOR_CHANGES, 5, P.encode_changes([(1, 1)]))
    assert session.receive(change, 0.1) == []
    assert sent_types(session) == []  # not even acknowledged: the board will resend


def test_major_version_mismatch_raises_a_clear_error() -> None:
    session = LinkSession(SETTINGS, 0.0, 1, Counters())
    session.open(0.0)
    with pytest.raises(ProtocolVersionError, match=r"firmware 1\.2\.3 speaks protocol 2\.\d"):
        session.receive(hello(major=2), 0.1)


def test_reliable_messages_are_acked_and_turned_into_events() -> None:
    session = connected()
    data = (
        P.encode_frame(P.SENSOR_CHANGES, 10, P.encode_changes([(3, 1), (4, 0)]))
        + P.encode_frame(P.CARD, 11, P.encode_card(bytes.fromhex("04a1b2c3")))
        + P.encode_frame(P.SNAPSHOT, 12, P.encode_snapshot([0, 1, 0] + [0] * 109))
        + P.encode_frame(P.ERROR, 13, P.encode_error(P.E_CARD_READER, "reader gone"))
    )
    events = session.receive(data, 2.0)
    assert events == [
        SensorChanged(3, 1, 2.0),
        SensorChanged(4, 0, 2.0),
        CardRead("04A1B2C3", 2.0),
        SensorSnapshot((0, 1, 0) + (0,) * 109, 2.0),
        FirmwareError(P.E_CARD_READER, "reader gone", 2.0),
    ]
    acks = [P.decode_ack(p) for t, _s, p in sent(session) if t == P.ACK]
    assert acks == [(P.SENSOR_CHANGES, 10), (P.CARD, 11), (P.SNAPSHOT, 12), (P.ERROR, 13)]


def test_a_repeated_message_is_acked_again_but_reported_once() -> None:
    session = connected()
    frame = P.encode_frame(P.SENSOR_CHANGES, 10, P.encode_changes([(3, 1)]))
    assert len(session.receive(frame, 1.0)) == 1
    assert session.receive(frame, 1.1) == []
    assert sent_types(session) == [P.ACK, P.ACK]
    assert session.counters.duplicates == 1


def test_malformed_payload_is_counted_reported_and_resynced() -> None:
    session = connected()
    (event,) = session.receive(P.encode_frame(P.SENSOR_CHANGES, 10, b"\x01\x02\x03"), 1.0)
    assert isinstance(event, FirmwareError) and "malformed" in event.message
    assert session.counters.malformed == 1
    # Acknowledged (or the board would resend forever), then a fresh snapshot is asked for.
    assert sent_types(session) == [P.ACK, P.SNAPSHOT_REQUEST]


def test_an_error_text_cut_inside_a_character_is_shown_not_fatal() -> None:
    # Issue #16: the board cuts ERROR texts at 200 bytes, which can split a character; the
    # UnicodeDecodeError killed the reader thread.
    session = connected()
    payload = P.encode_error(3, "x" * 199 + "é")  # the cut falls inside the é
    (event,) = session.receive(P.encode_frame(P.ERROR, 10, payload), 1.0)
    assert len(payload) == 2 + ERROR_TEXT_LIMIT  # the firmware's own cut
    assert isinstance(event, FirmwareError) and event.code == 3
    assert event.message == "x" * 199 and session.counters.malformed == 0


@pytest.mark.parametrize(
    "text",
    [
        "carte illisible é".encode()[:-1],  # short of the cut, yet ends inside a character
        b"bad \xff byte",
        ("x" * 198 + "é").encode()[:-2] + b"\xff\xfe",  # 200 bytes, but not a cut character
    ],
)
def test_an_error_text_that_is_not_utf8_is_dropped_and_counted(text: bytes) -> None:
    # Issue #33: documented as dropped and counted (docs/protocol.md), it was delivered with
    # replacement characters.  It is malformed like any other frame that makes no sense.
    session = connected()
    (event,) = session.receive(P.encode_frame(P.ERROR, 10, b"\x03\x00" + text), 1.0)
    assert isinstance(event, FirmwareError) and event.code == -1
    assert event.message.startswith("malformed ERROR frame") and "not UTF-8" in event.message
    assert "\ufffd" not in event.message and "carte" not in event.message
    assert session.counters.malformed == 1
    assert sent_types(session) == [P.ACK, P.SNAPSHOT_REQUEST]


@pytest.mark.parametrize(
    "frame",
    [
        P.encode_frame(P.SNAPSHOT, 10, P.encode_snapshot([0] * 40)),  # the board has 112
        P.encode_frame(P.SENSOR_CHANGES, 10, P.encode_changes([(500, 1)])),
        P.encode_frame(P.ERROR, 10, b"\x01"),
        P.encode_frame(P.CARD, 10, b""),
    ],
)
def test_a_frame_that_does_not_fit_the_board_is_one_protocol_error(frame: bytes) -> None:
    # Issue #16: a SNAPSHOT of the wrong size replaced the reading and broke every later change.
    session = connected()
    events = session.receive(frame, 1.0)
    assert [type(e) for e in events] == [FirmwareError]
    assert session.counters.malformed == 1
    assert P.SNAPSHOT_REQUEST in sent_types(session)
    # The next good frame is handled as ever.
    (change,) = session.receive(P.encode_frame(P.SENSOR_CHANGES, 11, P.encode_changes([(3, 1)])), 2)
    assert change == SensorChanged(3, 1, 2)


def test_snapshot_request_is_retransmitted_until_acked() -> None:
    session = connected(0.0)
    session.request_snapshot(0.05)  # one is already in flight from the handshake: not doubled
    assert sent_types(session) == []
    rto = SETTINGS.retransmit_timeout
    session.tick(0.0 + rto + 0.001)
    assert P.SNAPSHOT_REQUEST in sent_types(session)
    assert session.counters.retransmits == 1
    assert session.sender.inflight is not None
    seq = session.sender.inflight[1]
    session.receive(P.encode_frame(P.ACK, 0, P.encode_ack(P.SNAPSHOT_REQUEST, seq)), 0.2)
    session.tick(5.0 * rto)
    assert P.SNAPSHOT_REQUEST not in sent_types(session)


def test_led_frames_wait_for_the_boards_ack_and_coalesce_to_the_newest() -> None:
    session = connected(0.0)
    session.send_leds(b"\x01\x01\x01", 1.0)
    for level in range(2, 30):  # a burst while the first frame is unacknowledged
        session.send_leds(bytes([level] * 3), 1.0 + level / 1000)
    frames = [f for f in sent(session) if f[0] == P.LED_FRAME]
    assert [f[2] for f in frames] == [b"\x01\x01\x01"]  # one in flight, never more
    session.tick(1.0 + SETTINGS.retransmit_timeout)
    resent = [f for f in sent(session) if f[0] == P.LED_FRAME]
    assert resent == frames  # the unacknowledged one again, same number
    session.receive(P.encode_frame(P.ACK, 0, P.encode_ack(P.LED_FRAME, frames[0][1])), 1.15)
    newest = [f for f in sent(session) if f[0] == P.LED_FRAME]
    assert [f[2] for f in newest] == [bytes([29] * 3)]  # the stale ones were never sent
    session.receive(P.encode_frame(P.ACK, 0, P.encode_ack(P.LED_FRAME, newest[0][1])), 1.2)
    session.send_leds(bytes([29] * 3), 1.3)  # unchanged: nothing to send
    session.tick(10.0 * SETTINGS.retransmit_timeout)
    assert P.LED_FRAME not in sent_types(session)


def test_leds_set_before_the_hello_are_shown_after_it() -> None:
    session = LinkSession(SETTINGS, 0.0, 1, Counters())
    session.open(0.0)
    session.send_leds(b"\x05\x06\x07", 0.0)
    assert P.LED_FRAME not in sent_types(session)
    session.receive(hello(), 0.1)
    assert [f[2] for f in sent(session) if f[0] == P.LED_FRAME] == [b"\x05\x06\x07"]


def test_heartbeats_go_out_and_silence_takes_the_link_down() -> None:
    session = connected(0.0)
    session.tick(0.0)
    assert P.HEARTBEAT in sent_types(session)
    session.tick(SETTINGS.heartbeat_interval / 2)
    assert P.HEARTBEAT not in sent_types(session)
    session.tick(SETTINGS.heartbeat_interval)
    assert P.HEARTBEAT in sent_types(session)
    board_heartbeat = P.encode_frame(P.HEARTBEAT, 0, P.encode_heartbeat(1234, 1, 2, 3))
    session.receive(board_heartbeat, 1.5)
    assert session.counters.board_uptime_ms == 1234
    session.tick(1.5 + SETTINGS.heartbeat_timeout)  # exactly at the limit: still fine
    with pytest.raises(LinkDown, match="heartbeat timeout"):
        session.tick(1.5 + SETTINGS.heartbeat_timeout + 0.01)


def test_new_boot_id_means_the_board_restarted() -> None:
    session = connected(0.0)
    session.send_leds(b"\x09\x09\x09", 0.5)
    session.receive(P.encode_frame(P.SENSOR_CHANGES, 3, P.encode_changes([(1, 1)])), 0.6)
    session.take_output()
    assert session.receive(hello(boot_id=7), 0.7) == []  # same boot: just an answer
    events = session.receive(hello(boot_id=8), 1.0)
    assert events == [LinkState(True, "board firmware restarted (1.2.3)", "1.2.3")]
    types = sent_types(session)
    assert P.SNAPSHOT_REQUEST in types and P.LED_FRAME in types
    # The new boot numbers from scratch: seq 3 again is new, not a duplicate.
    assert (
        len(session.receive(P.encode_frame(P.SENSOR_CHANGES, 3, P.encode_changes([(2, 1)])), 1.1))
        == 1
    )
    assert session.counters.firmware_restarts == 1


def test_queue_overflow_error_triggers_a_snapshot_request() -> None:
    session = connected(0.0)
    assert session.sender.inflight is not None
    seq = session.sender.inflight[1]
    session.receive(P.encode_frame(P.ACK, 0, P.encode_ack(P.SNAPSHOT_REQUEST, seq)), 0.1)
    session.take_output()
    overflow = P.encode_frame(P.ERROR, 4, P.encode_error(P.E_QUEUE_OVERFLOW, "dropped"))
    events = session.receive(overflow, 0.2)
    assert events == [FirmwareError(P.E_QUEUE_OVERFLOW, "dropped", 0.2)]
    assert P.SNAPSHOT_REQUEST in sent_types(session)


def test_a_replayed_earlier_frame_is_never_delivered_nor_acknowledged() -> None:
    # Issue #31: a recorded SENSOR_CHANGES re-sent later confirmed a move nobody made. A
    # session whose numbers wrap from 65535 to 1; then every earlier frame of it, again.
    session = connected(0.0)
    recorded = []
    seq = 65520
    for i in range(40):
        if i % 5 == 4:
            frame = P.encode_frame(P.CARD, seq, bytes([1, 2, 3, i]))
        else:
            frame = P.encode_frame(P.SENSOR_CHANGES, seq, P.encode_changes([(i % 112, i % 2)]))
        assert len(session.receive(frame, 1.0 + i / 100)) == 1
        recorded.append(frame)
        seq = P.next_seq(seq)
    assert 65535 in {P.parse_frame(f[1:-1])[1] for f in recorded}
    session.take_output()
    for frame in recorded[:-1]:
        assert session.receive(frame, 2.0) == []
    sent_now = sent(session)
    assert P.ACK not in [t for t, _s, _p in sent_now]
    # One question to the board (is it still the same boot?), not one per old frame.
    assert [t for t, _s, _p in sent_now] == [P.HOST_HELLO]
    assert session.counters.old_frames == 39 and session.counters.duplicates == 0
    # The last frame again is a plain duplicate: acknowledged (its ACK may have been lost).
    assert session.receive(recorded[-1], 2.1) == []
    assert sent_types(session) == [P.ACK] and session.counters.duplicates == 1
    # The board's next frame is delivered as ever.
    nxt = P.encode_frame(P.SENSOR_CHANGES, seq, P.encode_changes([(7, 1)]))
    assert session.receive(nxt, 2.2) == [SensorChanged(7, 1, 2.2)]


def test_a_reboot_whose_hello_was_lost_is_found_by_asking() -> None:
    session = connected(0.0)
    session.receive(P.encode_frame(P.SENSOR_CHANGES, 500, P.encode_changes([(1, 1)])), 0.1)
    session.take_output()
    # The rebooted board numbers from elsewhere: its frame looks old, so the Pi asks.
    stray = P.encode_frame(P.SENSOR_CHANGES, 100, P.encode_changes([(2, 1)]))
    assert session.receive(stray, 0.2) == []
    assert sent_types(session) == [P.HOST_HELLO]
    events = session.receive(hello(boot_id=99), 0.3)
    assert isinstance(events[0], LinkState) and "restarted" in events[0].detail
    session.take_output()
    assert session.receive(stray, 0.4) == [SensorChanged(2, 1, 0.4)]  # its resend gets in


def test_snapshot_requests_cannot_storm() -> None:
    # Issue #31: a forged HELLO (new boot id, 7 channels) made every real SNAPSHOT malformed,
    # and each malformed one asked for another: hundreds of requests in 2 s.
    session = connected(0.0)
    forged = P.encode_hello(P.KIND_PRESENCE, 0, 7, 132, 0xBAD, "1.2.3")
    session.receive(P.encode_frame(P.HELLO, 0, forged), 0.0)
    requests = 0
    seq = 1
    t = 0.0
    while t < 10.0:
        for mtype, rseq, _p in sent(session):
            if mtype == P.SNAPSHOT_REQUEST:
                requests += 1
                ack = P.encode_frame(P.ACK, 0, P.encode_ack(P.SNAPSHOT_REQUEST, rseq))
                session.receive(ack, t)
                # The real board (112 channels) answers at once.
                snap = P.encode_frame(P.SNAPSHOT, seq, P.encode_snapshot([0] * 112))
                session.receive(snap, t)
                seq += 1
                # the board's heartbeat keeps the link up
        session.receive(P.encode_frame(P.HEARTBEAT, 0, P.encode_heartbeat(0, 0, 0, 0)), t)
        session.tick(t)
        t += 0.01
    # A burst, then one a second: not one per answer.
    burst, interval = SETTINGS.snapshot_burst, SETTINGS.snapshot_interval
    assert requests <= burst + 10.0 / interval + 1
    assert session.counters.malformed == requests


def test_the_boards_lowest_free_heap_is_kept_from_its_heartbeat() -> None:
    session = connected(0.0)
    hb = P.encode_heartbeat(5000, 0, 0, 0, 61234)
    session.receive(P.encode_frame(P.HEARTBEAT, 0, hb), 0.5)
    assert session.counters.board_mem_free_min == 61234
    # A 1.1.0 board's heartbeat says nothing of it: the last figure stays.
    session.receive(P.encode_frame(P.HEARTBEAT, 0, P.encode_heartbeat(5500, 0, 0, 0)), 1.0)
    assert session.counters.board_mem_free_min == 61234


def test_the_pi_asks_for_timed_changes_and_reads_them() -> None:
    session = LinkSession(SETTINGS, 0.0, 0xABCD, Counters())
    session.open(0.0)
    ((_t, _s, payload),) = sent(session)
    assert P.host_hello_features(payload) & P.HOST_TIMED_CHANGES
    session.receive(hello(), 0.1)
    session.take_output()
    timed = P.encode_changes_timed([(3, 1, 5000), (4, 0, 5003)])
    events = session.receive(P.encode_frame(P.SENSOR_CHANGES_TIMED, 9, timed), 0.2)
    assert events == [SensorChanged(3, 1, 0.2, 5000), SensorChanged(4, 0, 0.2, 5003)]
    assert sent(session)[0][2] == P.encode_ack(P.SENSOR_CHANGES_TIMED, 9)
    # A 1.1 board's changes carry no time.
    untimed = P.encode_frame(P.SENSOR_CHANGES, 10, P.encode_changes([(5, 1)]))
    assert session.receive(untimed, 0.3) == [SensorChanged(5, 1, 0.3)]


def test_a_restarted_board_is_told_the_session_and_what_the_pi_reads() -> None:
    session = connected(0.0)
    session.receive(hello(boot_id=8), 1.0)
    hellos = [p for t, _s, p in sent(session) if t == P.HOST_HELLO]
    assert len(hellos) == 1 and P.host_hello_features(hellos[0]) & P.HOST_TIMED_CHANGES

"""Property tests of the frame parser: random bytes and random damage to valid frames.

The parser must never raise, never yield a frame whose CRC did not match (every frame it
yields is one that was really sent), and always recover the next valid frame.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pawnlight.firmware import protocol as P

message = st.tuples(
    st.sampled_from(sorted(P.TYPE_NAMES)),
    st.integers(0, 0xFFFF),
    st.binary(max_size=300),
)


def feed_in_chunks(decoder: P.FrameDecoder, stream: bytes, cuts: list[int]):
    frames = []
    start = 0
    for cut in [*sorted(set(c % (len(stream) + 1) for c in cuts)), len(stream)]:
        frames += decoder.feed(stream[start:cut])
        start = max(start, cut)
    return frames


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=3000), st.lists(st.integers(0, 5000), max_size=20))
def test_random_bytes_never_crash_and_yield_only_real_frames(junk: bytes, cuts: list[int]) -> None:
    decoder = P.FrameDecoder()
    frames = feed_in_chunks(decoder, junk, cuts)
    for mtype, seq, payload in frames:
        # A frame found in random bytes must really be in them, CRC and all.
        assert P.encode_frame(mtype, seq, payload)[1:-1] in junk


@st.composite
def damaged_stream(draw):
    sent = draw(st.lists(message, min_size=1, max_size=6))
    stream = bytearray(b"".join(P.encode_frame(*m) for m in sent))
    for _ in range(draw(st.integers(0, 6))):
        action = draw(st.sampled_from(["flip", "insert", "delete", "truncate", "zero"]))
        pos = draw(st.integers(0, max(0, len(stream) - 1)))
        if action == "flip" and stream:
            stream[pos] ^= 1 << draw(st.integers(0, 7))
        elif action == "insert":
            stream[pos:pos] = draw(st.binary(min_size=1, max_size=40))
        elif action == "delete" and stream:
            del stream[pos : pos + draw(st.integers(1, 10))]
        elif action == "truncate":
            del stream[pos:]
        elif action == "zero" and stream:
            stream[pos] = 0
    final = draw(message)
    return sent, bytes(stream), final


@settings(max_examples=400, deadline=None)
@given(damaged_stream(), st.lists(st.integers(0, 5000), max_size=10))
def test_damaged_frames_are_rejected_and_the_next_valid_one_recovered(case, cuts) -> None:
    sent, stream, final = case
    decoder = P.FrameDecoder()
    frames = feed_in_chunks(decoder, stream + P.encode_frame(*final), cuts)
    originals = set(sent) | {final}
    for frame in frames:
        # Damage could only ever make a frame disappear, never turn it into another one
        # (that would need a CRC-32 collision).
        assert frame in originals
    assert frames[-1] == final


@settings(max_examples=200, deadline=None)
@given(st.lists(message, max_size=8), st.lists(st.integers(0, 5000), max_size=20))
def test_clean_streams_decode_exactly(sent, cuts) -> None:
    stream = b"".join(P.encode_frame(*m) for m in sent)
    decoder = P.FrameDecoder()
    assert feed_in_chunks(decoder, stream, cuts) == sent
    assert decoder.crc_errors == decoder.resyncs == 0


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=1500))
def test_cobs_round_trips_anything(data: bytes) -> None:
    encoded = P.cobs_encode(data)
    assert b"\x00" not in encoded
    assert P.cobs_decode(encoded) == data

"""Card readers: tag presence, keyboard-wedge decoding, the simulated reader."""

from pawnlight.devices.card_readers import (
    KEY_ENTER,
    KeystrokeDecoder,
    SimulatedCardReader,
    TagPresence,
    uid_hex,
)
from pawnlight.devices.events import CardRead


def test_a_held_tag_is_reported_once_and_again_after_it_left():
    presence = TagPresence(absent_polls=3)
    polls = ["04AB", "04AB", None, "04AB", None, None, None, "04AB", "0455"]
    assert [presence.poll(uid) for uid in polls] == [
        "04AB",
        None,
        None,
        None,
        None,
        None,
        None,
        "04AB",
        "0455",
    ]


def test_keystrokes_become_uids():
    decoder = KeystrokeDecoder()
    keys = [30, 2, 11, 33, KEY_ENTER]  # A 1 0 F Enter
    assert [decoder.feed(k) for k in keys][-1] == "A10F"
    assert decoder.feed(KEY_ENTER) is None  # nothing typed


def test_decimal_readers_are_turned_into_hex():
    decoder = KeystrokeDecoder(decimal=True)
    for key in (2, 3, 4):  # "123"
        decoder.feed(key)
    assert decoder.feed(KEY_ENTER) == "0000007B"


def test_uid_hex():
    assert uid_hex([4, 0xA1, 0xFF]) == "04A1FF"


def test_the_simulated_reader_emits_upper_case():
    seen = []
    SimulatedCardReader(seen.append, clock=lambda: 1.5).present("0a0b")
    assert seen == [CardRead("0A0B", 1.5)]

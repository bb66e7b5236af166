"""Card readers: tag presence, keyboard-wedge decoding, the simulated reader."""

import pytest

from pawnlight.devices.card_readers import (
    KEY_ENTER,
    KeystrokeDecoder,
    SimulatedCardReader,
    SpiCardReader,
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
    seen: list[object] = []
    SimulatedCardReader(seen.append, clock=lambda: 1.5).present("0a0b")
    assert seen == [CardRead("0A0B", 1.5)]


class SimulatedSpidev:
    """spidev.SpiDev's xfer2 in front of the firmware's simulated MFRC522: chip select low
    for each transfer, as the kernel driver does."""

    def __init__(self) -> None:
        from pawnlight.firmware import sim_devices, sim_mfrc522

        self.cs = sim_devices.SimPin(99, 1)
        self.bus = sim_devices.SimSPI()
        self.chip = sim_mfrc522.SimMFRC522()
        self.bus.attach(self.chip, self.cs)
        self.sim_mfrc522 = sim_mfrc522

    def present(self, uid: str | None) -> None:
        card = self.sim_mfrc522.SimCard(bytes.fromhex(uid)) if uid else None
        self.chip.present(card)

    def xfer2(self, data: list[int]) -> list[int]:
        self.cs.value(0)
        buf = bytearray(len(data))
        self.bus.write_readinto(bytes(data), buf)
        self.cs.value(1)
        return list(buf)


@pytest.mark.parametrize("uid", ["04A1B2C3D4E5F6", "A1B2C3D4", "04112233445566778899"])
def test_the_pi_side_spi_reader_reads_the_whole_uid(uid: str) -> None:
    from gpiozero.pins.mock import MockFactory

    spi = SimulatedSpidev()
    factory = MockFactory()
    reader = SpiCardReader(lambda e: None, spi=spi, pin_factory=factory)
    assert factory.pin(25).state  # the chip's RST held high
    assert reader.read_uid() is None
    spi.present(uid)
    # The full UID, the same string the board's reader sends (an NTAG213 has 7 bytes).
    assert reader.read_uid() == uid
    spi.present(None)
    assert reader.read_uid() is None


def test_a_silent_spi_reader_fails_its_poll_and_is_set_up_again() -> None:
    spi = SimulatedSpidev()
    reader = SpiCardReader(lambda e: None, spi=spi, reset_pin=None)
    chip = spi.chip
    spi.chip.regs[0x37] = 0x00  # VERSION: nothing answers
    # and a soft reset does not bring it back
    spi.chip._soft_reset = lambda: None  # type: ignore[method-assign]
    with pytest.raises(OSError, match="not answering"):
        reader.read_uid()
    chip.regs[0x37] = 0x92
    spi.present("04A1B2C3D4E5F6")
    assert reader.read_uid() == "04A1B2C3D4E5F6"

# Minimal MFRC522 (13.56 MHz ISO 14443-A reader) driver: wake a card, run the anticollision
# and select cascade, return its 4-, 7- or 10-byte UID.
#
# The chip is driven over SPI: the first byte of a transfer is the register address shifted
# left by one, with bit 7 set for a read. Multi-byte reads send one address per byte and get
# each value back one byte later; multi-byte writes to one address push into the FIFO.
# CRC_A for SELECT and HLTA is computed here rather than by the chip's coprocessor: it is a
# few lines, costs no SPI round trips, and keeps the sequence of register accesses short.

# registers
COMMAND = 0x01
COM_IRQ = 0x04
DIV_IRQ = 0x05
ERROR = 0x06
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
CONTROL = 0x0C
BIT_FRAMING = 0x0D
COLL = 0x0E
MODE = 0x11
TX_MODE = 0x12
RX_MODE = 0x13
TX_CONTROL = 0x14
TX_ASK = 0x15
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
VERSION = 0x37

# commands
CMD_IDLE = 0x00
CMD_TRANSCEIVE = 0x0C
CMD_SOFT_RESET = 0x0F

# COM_IRQ bits
IRQ_TIMER = 0x01
IRQ_ERR = 0x02
IRQ_IDLE = 0x10
IRQ_RX = 0x20

# ERROR bits that spoil a reply: protocol, parity, buffer overflow (collision handled apart)
ERR_FATAL = 0x13
ERR_COLLISION = 0x08

# ISO 14443-3 commands
REQA = 0x26
WUPA = 0x52
SEL_CL = (0x93, 0x95, 0x97)
CASCADE_TAG = 0x88
HLTA = 0x50

# Version register values of genuine chips and common clones; 0x00/0xFF mean nothing answers.
KNOWN_VERSIONS = (0x88, 0x90, 0x91, 0x92, 0xB2, 0x12)

# How many times to poll COM_IRQ before giving up. The chip's own timer (1.5 ms, see init)
# ends every transceive; this bound only protects against a chip that stopped answering, and
# keeps the driver free of any clock so it runs unchanged in the simulator and in tests.
MAX_IRQ_POLLS = 2000


def crc_a(data):
    """ISO 14443-3 CRC_A (initial 0x6363), returned as the two bytes sent after the data."""
    crc = 0x6363
    for b in data:
        b ^= crc & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = (crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)
    crc &= 0xFFFF
    return bytes((crc & 0xFF, crc >> 8))


class MFRC522:
    def __init__(self, spi, cs, rst=None):
        self.spi = spi
        self.cs = cs
        self.rst = rst
        self.cs.value(1)
        self.errors = 0  # transceive errors seen (noise, collisions)

    # --- register access -------------------------------------------------------------------
    def write(self, reg, *values):
        self.cs.value(0)
        self.spi.write(bytes([(reg << 1) & 0x7E]) + bytes(values))
        self.cs.value(1)

    def read(self, reg):
        return self.read_many(reg, 1)[0]

    def read_many(self, reg, count):
        addr = 0x80 | ((reg << 1) & 0x7E)
        out = bytes([addr] * count + [0])
        buf = bytearray(count + 1)
        self.cs.value(0)
        self.spi.write_readinto(out, buf)
        self.cs.value(1)
        return bytes(buf[1:])

    def set_bits(self, reg, mask):
        self.write(reg, self.read(reg) | mask)

    def clear_bits(self, reg, mask):
        self.write(reg, self.read(reg) & ~mask & 0xFF)

    # --- setup -----------------------------------------------------------------------------
    def init(self):
        """Reset and configure the chip; returns its version byte (raises if none answers)."""
        if self.rst is not None:
            self.rst.value(1)
        self.write(COMMAND, CMD_SOFT_RESET)
        version = self.read(VERSION)
        if version not in KNOWN_VERSIONS:
            raise OSError("MFRC522 not answering (version register reads 0x%02X)" % version)
        # Timer: 13.56 MHz / (2 * 169 + 1) = 40 kHz, 60 ticks = 1.5 ms, started automatically
        # at the end of each transmission: the longest we wait for a card that is not there.
        # Cards answer within ~0.1 ms; a short wait keeps the sensor scan loop responsive.
        self.write(T_MODE, 0x80)
        self.write(T_PRESCALER, 0xA9)
        self.write(T_RELOAD_H, 0x00)
        self.write(T_RELOAD_L, 60)
        self.write(TX_ASK, 0x40)  # 100 % ASK modulation, required by ISO 14443-A
        self.write(MODE, 0x3D)  # CRC preset 0x6363 (CRC_A)
        self.write(TX_MODE, 0x00)  # 106 kBd, no hardware CRC: we add CRC_A ourselves
        self.write(RX_MODE, 0x00)
        self.set_bits(TX_CONTROL, 0x03)  # antenna drivers on
        return version

    # --- card communication ----------------------------------------------------------------
    def transceive(self, data, tx_last_bits=0):
        """Send a frame, return (reply bytes, valid bits in last byte) or None on timeout.

        Raises OSError on a garbled reply (collision, parity or protocol error).
        """
        self.write(COMMAND, CMD_IDLE)
        self.write(COM_IRQ, 0x7F)  # clear all interrupt flags
        self.write(FIFO_LEVEL, 0x80)  # flush the FIFO
        self.write(FIFO_DATA, *data)
        self.write(BIT_FRAMING, tx_last_bits & 0x07)
        self.write(COMMAND, CMD_TRANSCEIVE)
        self.set_bits(BIT_FRAMING, 0x80)  # StartSend
        irq = 0
        for _ in range(MAX_IRQ_POLLS):
            irq = self.read(COM_IRQ)
            if irq & (IRQ_RX | IRQ_IDLE | IRQ_TIMER):
                break
        self.clear_bits(BIT_FRAMING, 0x80)
        if not irq & (IRQ_RX | IRQ_IDLE):
            return None  # timer ran out: no card answered
        error = self.read(ERROR)
        if error & (ERR_FATAL | ERR_COLLISION):
            self.errors += 1
            raise OSError("card reply error 0x%02X" % error)
        count = self.read(FIFO_LEVEL) & 0x7F
        if count == 0:
            return None
        last_bits = self.read(CONTROL) & 0x07
        return self.read_many(FIFO_DATA, count), (last_bits or 8)

    def wake(self):
        """WUPA: wakes cards that are idle *and* halted, so a card left on the reader keeps
        answering and we can tell it is still there. Returns the 2-byte ATQA or None."""
        reply = self.transceive(bytes([WUPA]), tx_last_bits=7)
        if reply is None or len(reply[0]) != 2:
            return None
        return reply[0]

    def select_uid(self):
        """Anticollision and SELECT through up to three cascade levels; returns the UID.

        Only one card at a time is supported: two cards on the reader collide and raise
        OSError, and the next poll tries again.
        """
        uid = bytearray()
        for level in range(3):
            sel = SEL_CL[level]
            reply = self.transceive(bytes([sel, 0x20]))
            if reply is None or len(reply[0]) != 5:
                return None
            part = reply[0]
            if part[0] ^ part[1] ^ part[2] ^ part[3] != part[4]:
                self.errors += 1
                raise OSError("UID check byte mismatch")
            frame = bytes([sel, 0x70]) + part
            reply = self.transceive(frame + crc_a(frame))
            if reply is None or len(reply[0]) != 3 or crc_a(reply[0][:1]) != reply[0][1:]:
                return None
            sak = reply[0][0]
            if sak & 0x04:  # UID not complete: this level held the cascade tag + 3 bytes
                if part[0] != CASCADE_TAG:
                    raise OSError("cascade bit without cascade tag")
                uid += part[1:4]
                continue
            uid += part[:4]
            return bytes(uid)
        return None

    def halt(self):
        frame = bytes([HLTA, 0x00])
        self.transceive(frame + crc_a(frame))  # a halted card does not answer: None is normal

    def read_uid(self):
        """The UID of the card on the reader, or None if there is none."""
        if self.wake() is None:
            return None
        uid = self.select_uid()
        if uid is not None:
            self.halt()
        return uid


class CardWatcher:
    """Reports each newly presented card once.

    A card lying on the reader keeps answering WUPA, so it is seen again at every poll; it is
    reported only when its UID differs from the card seen last, or when the reader has been
    empty for `gone_after` polls in a row (a single failed read is RF noise, not a removal).
    """

    def __init__(self, reader, gone_after=3):
        self.reader = reader
        self.gone_after = gone_after
        self.current = None
        self._misses = 0

    def poll(self):
        try:
            uid = self.reader.read_uid()
        except OSError:
            return None  # garbled read: neither a new card nor proof the old one left
        if uid is None:
            self._misses += 1
            if self._misses >= self.gone_after:
                self.current = None
            return None
        self._misses = 0
        if uid == self.current:
            return None
        self.current = uid
        return uid

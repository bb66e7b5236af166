# Simulated MFRC522 reader and ISO 14443-A cards, at register level.
#
# The model keeps the reader's register file and FIFO and answers the SPI byte stream the way
# the chip does, and runs a transceive when the firmware sets StartSend. Cards follow the
# ISO 14443-3 state machine (IDLE, READY, ACTIVE, HALT) with cascade levels for 7- and 10-byte
# UIDs. CRC_A is computed here independently of the driver, so a wrong CRC in the driver
# makes the simulated card stay silent, as a real one would. Pure Python, no I/O.

COMMAND = 0x01
COM_IRQ = 0x04
ERROR = 0x06
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
CONTROL = 0x0C
BIT_FRAMING = 0x0D
TX_CONTROL = 0x14
VERSION = 0x37

TRANSCEIVE = 0x0C
SOFT_RESET = 0x0F

IDLE, READY, ACTIVE, HALT = 0, 1, 2, 3
SEL = (0x93, 0x95, 0x97)


def crc_a(data):
    # Bit-by-bit form of the ISO 14443-3 CRC (reflected 0x1021, preset 0x6363).
    crc = 0x6363
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return bytes((crc & 0xFF, crc >> 8))


class SimCard:
    def __init__(self, uid):
        uid = bytes(uid)
        if len(uid) not in (4, 7, 10):
            raise ValueError("a card UID has 4, 7 or 10 bytes")
        self.uid = uid
        self.state = IDLE
        self.level = 0
        # What the card answers at each cascade level: cascade tag 0x88 + 3 UID bytes while
        # more bytes follow, the last 4 UID bytes at the final level.
        if len(uid) == 4:
            self.parts = [uid]
        elif len(uid) == 7:
            self.parts = [b"\x88" + uid[:3], uid[3:]]
        else:
            self.parts = [b"\x88" + uid[:3], b"\x88" + uid[3:6], uid[6:]]
        self.atqa = bytes(((0x00, 0x40, 0x80)[len(self.parts) - 1] | 0x04, 0x00))

    def _reset(self):
        self.state = HALT if self.state == HALT else IDLE
        self.level = 0

    def respond(self, frame, last_bits):
        """Reply bytes to one frame from the reader, or None for silence."""
        if last_bits == 7 and len(frame) == 1:
            cmd = frame[0]
            if (cmd == 0x26 and self.state == IDLE) or (cmd == 0x52 and self.state in (IDLE, HALT)):
                self.state = READY
                self.level = 0
                return self.atqa
            return None
        if last_bits:
            self._reset()
            return None
        if self.state == READY and len(frame) >= 2 and frame[0] == SEL[self.level]:
            part = self.parts[self.level]
            bcc = part[0] ^ part[1] ^ part[2] ^ part[3]
            if frame[1] == 0x20 and len(frame) == 2:
                return part + bytes((bcc,))
            if frame[1] == 0x70 and len(frame) == 9:
                if crc_a(frame[:7]) != frame[7:] or frame[2:7] != part + bytes((bcc,)):
                    self._reset()
                    return None
                if self.level + 1 < len(self.parts):
                    self.level += 1
                    sak = 0x04  # UID not complete
                else:
                    self.state = ACTIVE
                    sak = 0x08 if len(self.uid) == 4 else 0x00
                return bytes((sak,)) + crc_a(bytes((sak,)))
        if self.state == ACTIVE and frame == b"\x50\x00" + crc_a(b"\x50\x00"):
            self.state = HALT
            return None
        self._reset()
        return None


class SimMFRC522:
    """The reader chip on a SimSPI bus (attach with its chip-select pin)."""

    def __init__(self, rst_pin=None):
        self.rst = rst_pin
        self.card = None
        self.regs = bytearray(64)
        self.fifo = bytearray()
        self._addr = None
        self.transceives = 0
        self.wakeups = 0  # REQA/WUPA frames seen: one per poll of the driver
        self._soft_reset()

    def _soft_reset(self):
        self.regs = bytearray(64)
        self.regs[TX_CONTROL] = 0x80
        self.regs[VERSION] = 0x92
        self.fifo = bytearray()

    @property
    def powered(self):
        return self.rst is None or self.rst.level == 1

    def present(self, card):
        """Put a card (SimCard) on the reader, or None to take it away."""
        self.card = card

    # --- SPI -------------------------------------------------------------------------------
    def begin(self):
        self._addr = None

    def exchange(self, out):
        if not self.powered:
            return 0x00
        if self._addr is None:
            self._addr = out
            return 0x00
        reg = (self._addr >> 1) & 0x3F
        if self._addr & 0x80:  # read: answer the previous address, take the next one
            self._addr = out
            return self.read_reg(reg)
        self.write_reg(reg, out)  # write: every further byte goes to the same register
        return 0x00

    # --- registers -------------------------------------------------------------------------
    def read_reg(self, reg):
        if reg == FIFO_DATA:
            if not self.fifo:
                return 0
            value = self.fifo[0]
            self.fifo = self.fifo[1:]
            return value
        if reg == FIFO_LEVEL:
            return len(self.fifo)
        return self.regs[reg]

    def write_reg(self, reg, value):
        if reg == COMMAND:
            command = value & 0x0F
            if command == SOFT_RESET:
                self._soft_reset()
                return
            self.regs[COMMAND] = value
            if command == TRANSCEIVE and self.regs[BIT_FRAMING] & 0x80:
                self._transceive()
        elif reg == COM_IRQ:
            if value & 0x80:
                self.regs[COM_IRQ] |= value & 0x7F
            else:
                self.regs[COM_IRQ] &= ~value & 0x7F
        elif reg == FIFO_DATA:
            if len(self.fifo) < 64:
                self.fifo.append(value)
        elif reg == FIFO_LEVEL:
            if value & 0x80:
                self.fifo = bytearray()
        elif reg == BIT_FRAMING:
            self.regs[BIT_FRAMING] = value
            if value & 0x80 and self.regs[COMMAND] & 0x0F == TRANSCEIVE:
                self._transceive()
        else:
            self.regs[reg] = value

    def _transceive(self):
        self.transceives += 1
        frame = bytes(self.fifo)
        last_bits = self.regs[BIT_FRAMING] & 0x07
        if last_bits == 7 and frame in (b"\x26", b"\x52"):
            self.wakeups += 1
        self.fifo = bytearray()
        self.regs[ERROR] = 0
        reply = None
        if self.card is not None and self.regs[TX_CONTROL] & 0x03:
            reply = self.card.respond(frame, last_bits)
        if reply is None:
            self.regs[COM_IRQ] |= 0x01  # TimerIRq: nothing came back
            return
        self.fifo = bytearray(reply)
        self.regs[CONTROL] &= 0xF8  # whole bytes received
        self.regs[COM_IRQ] |= 0x30  # RxIRq | IdleIRq

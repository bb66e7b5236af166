# Presence boards: digital hall sensors read through a chain of 74HC165 shift registers.
#
# Wiring: every 74HC165 shares PL (parallel load, active low) and CP (clock); CE is tied low.
# Q7 of chip 0 goes to the Pico's SPI MISO, Q7 of chip k+1 feeds DS of chip k. A low pulse on
# PL copies all inputs into the registers at once; then each clock shifts the chain by one.
# Chip 0's D7 comes out first, so with MSB-first SPI byte k holds chip k and its bit b holds
# input Db: channel = 8 * chip + input, the numbering docs/firmware.md documents.
#
# Hall switches such as the DRV5032FA pull their output low when a magnet is near, so with
# active_low the bits are inverted: value 1 always means "pawn present".


class ShiftInChain:
    def __init__(self, spi, load_pin, chips, channels, active_low=True):
        self.spi = spi
        self.load = load_pin
        self.chips = chips
        self.channels = channels
        self.invert = 0xFF if active_low else 0x00
        self._raw = bytearray(chips)
        self._last = None
        self.values = [0] * channels
        self.load.value(1)

    def read(self):
        """Scan all channels; returns (values, maybe_changed).

        values is reused between scans; maybe_changed is False when every bit equals the
        previous scan's, which lets the debouncer skip its per-channel work.
        """
        self.load.value(0)  # latch all inputs (the pulse needs ~100 ns; a pin write is longer)
        self.load.value(1)
        self.spi.readinto(self._raw)
        raw = bytes(self._raw)
        if raw == self._last:
            return self.values, False
        self._last = raw
        values = self.values
        invert = self.invert
        for ch in range(self.channels):
            values[ch] = ((raw[ch >> 3] ^ invert) >> (ch & 7)) & 1
        return values, True

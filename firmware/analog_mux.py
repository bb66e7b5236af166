# Colour boards: analog (ratiometric) hall sensors read through CD74HC4067 multiplexers.
#
# A ratiometric hall sensor (e.g. DRV5055) outputs half the supply with no field and moves up
# or down with the magnet's polarity and strength, which is how pawns of different colours are
# told apart (the Pi does that mapping; the firmware only reports 16-bit readings).
#
# Wiring: the four select lines S0..S3 are shared by every mux. Each mux has its own enable
# pin (active low, EN) and its SIG output goes to an ADC pin; several muxes may share one ADC
# pin as long as only one of them is enabled at a time, which this scanner guarantees.
# Channel = 16 * mux + mux input, the numbering docs/firmware.md documents.


def _no_sleep(us):
    pass


class AnalogMuxBank:
    def __init__(self, select_pins, muxes, channels, settle_us=20, samples=2, sleep_us=_no_sleep):
        """select_pins: 4 output pins S0..S3; muxes: list of (enable_pin or None, adc).

        sleep_us waits for the mux to settle: time.sleep_us on the Pico; the simulator's
        muxes settle at once, so it passes a no-op there.
        """
        if len(select_pins) != 4:
            raise ValueError("a CD74HC4067 has 4 select lines")
        self.select = select_pins
        self.muxes = muxes
        self.channels = channels
        self.settle_us = settle_us
        self.samples = samples
        self.sleep_us = sleep_us
        self.values = [0] * channels
        self._address = -1
        for enable, _adc in muxes:
            if enable is not None:
                enable.value(1)  # all off; read() enables one at a time

    def _set_address(self, address):
        changed = address ^ self._address if self._address >= 0 else 0xF
        self._address = address
        for bit in range(4):  # only touch the lines that change
            if changed & (1 << bit):
                self.select[bit].value((address >> bit) & 1)

    def read(self):
        """Scan all channels; returns (values, True): analog readings always may have moved."""
        values = self.values
        samples = self.samples
        ch = 0
        for enable, adc in self.muxes:
            if enable is not None:
                enable.value(0)
            for address in range(16):
                if ch >= self.channels:
                    break
                self._set_address(address)
                if self.settle_us:
                    self.sleep_us(self.settle_us)  # let the mux output and the ADC's input settle
                total = 0
                for _ in range(samples):
                    total += adc.read_u16()
                values[ch] = total // samples
                ch += 1
            if enable is not None:
                enable.value(1)
        return values, True

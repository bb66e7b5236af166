# Simulated board hardware: pins, an SPI bus, a 74HC165 chain, CD74HC4067 muxes, a WS2812
# strip. Each model behaves like the chip at the level the firmware drives it (pin levels,
# bytes clocked on SPI, ADC readings), so the real drivers in shift_in.py, analog_mux.py and
# mfrc522.py run unchanged against them: under the MicroPython unix port through hal_sim.py,
# and under CPython in the unit tests. Pure Python, no I/O.


class SimPin:
    """A GPIO: remembers its level and tells listeners about edges."""

    def __init__(self, number, level=0):
        self.number = number
        self.level = level
        self.listeners = []

    def value(self, level=None):
        if level is None:
            return self.level
        level = 1 if level else 0
        old = self.level
        self.level = level
        for listener in self.listeners:
            listener(old, level)
        return None


class SimPins:
    """All the board's pins by number, so every driver and model sees the same pin."""

    def __init__(self):
        self._pins = {}

    def get(self, number):
        pin = self._pins.get(number)
        if pin is None:
            pin = SimPin(number, 1)  # idle high, like an input with a pull-up
            self._pins[number] = pin
        return pin


class SimSPI:
    """An SPI bus with the machine.SPI methods the drivers use.

    Devices answer one byte per byte clocked. A device with a chip-select pin takes part
    while that pin is low; one without (the 74HC165 chain) always drives MISO.
    """

    def __init__(self):
        self.devices = []  # (device, cs pin or None)

    def attach(self, device, cs=None):
        self.devices.append((device, cs))
        if cs is not None:

            def edge(old, new):
                if old and not new:
                    device.begin()

            cs.listeners.append(edge)

    def _exchange(self, out):
        reply = 0xFF  # nobody driving: MISO floats high
        for device, cs in self.devices:
            if cs is None or cs.level == 0:
                reply &= device.exchange(out)
        return reply

    def write(self, data):
        for b in data:
            self._exchange(b)

    def readinto(self, buf, write=0):
        for i in range(len(buf)):
            buf[i] = self._exchange(write)

    def read(self, count, write=0):
        buf = bytearray(count)
        self.readinto(buf, write)
        return bytes(buf)

    def write_readinto(self, out, buf):
        for i in range(len(out)):
            buf[i] = self._exchange(out[i])


class ShiftRegisterChain:
    """A chain of 74HC165s wired as shift_in.py expects, reading simulated hall switches.

    `present` is one flag per channel (True = magnet near). With active_low hall switches a
    present magnet pulls the input low. PL low latches; each SPI byte shifts out one chip.
    """

    def __init__(self, chips, channels, load_pin, active_low=True):
        self.chips = chips
        self.channels = channels
        self.active_low = active_low
        self.present = [0] * channels
        self._levels = bytearray(chips)
        self._latched = bytes(chips)
        self._pos = 0
        self._update_levels()
        self.on_scan = None  # called at the start of every scan (the firmware's timing)
        load_pin.listeners.append(self._load_edge)

    def set(self, channel, value):
        self.present[channel] = 1 if value else 0
        self._update_levels()

    def set_all(self, values):
        for ch in range(self.channels):
            self.present[ch] = 1 if values[ch] else 0
        self._update_levels()

    def _update_levels(self):
        levels = bytearray(self.chips)
        for ch in range(self.channels):
            if self.present[ch]:
                levels[ch >> 3] |= 1 << (ch & 7)
        if self.active_low:
            for i in range(self.chips):
                levels[i] ^= 0xFF
        # Inputs beyond the last channel have pull-ups: they read 1.
        for ch in range(self.channels, self.chips * 8):
            levels[ch >> 3] |= 1 << (ch & 7)
        self._levels = levels

    def _load_edge(self, old, new):
        if not new:  # PL low: parallel load, shifting starts over at chip 0
            self._latched = bytes(self._levels)
            self._pos = 0
            if self.on_scan is not None:
                self.on_scan()

    def begin(self):
        pass

    def exchange(self, out):
        pos = self._pos
        self._pos = pos + 1
        if pos < self.chips:
            return self._latched[pos]
        return 0x00  # DS of the last chip is tied to ground


class MuxBank:
    """CD74HC4067 muxes in front of the ADC, wired as analog_mux.py expects.

    Each mux connects input S3..S0 to its SIG pin while its enable pin is low. A channel's
    value is the 16-bit reading its hall sensor would give; `noise` adds a deterministic
    +-noise jitter to every reading so the firmware's tolerance can be tested.
    """

    REST = 32768  # ratiometric hall sensor with no magnet: half the supply

    def __init__(self, select_pins, muxes, channels):
        self.select = select_pins
        self.muxes = muxes  # [(enable SimPin or None, adc pin number)]
        self.channels = channels
        self.values = [self.REST] * channels
        self.noise = 0
        self._rng = 12345
        self.on_scan = None  # called at the start of every scan (the firmware's timing)
        self._address = -1

    def set(self, channel, value):
        self.values[channel] = max(0, min(65535, value))

    def set_all(self, values):
        for ch in range(self.channels):
            self.set(ch, values[ch])

    def _jitter(self):
        if not self.noise:
            return 0
        self._rng = (self._rng * 1103515245 + 12345) & 0x7FFFFFFF
        return self._rng % (2 * self.noise + 1) - self.noise

    def read_adc(self, adc_pin):
        address = 0
        for bit in range(4):
            address |= self.select[bit].level << bit
        if address == 0 and self._address != 0 and self.on_scan is not None:
            enable = self.muxes[0][0]
            if enable is None or not enable.level:  # the first mux's first input: a new scan
                self.on_scan()
        self._address = address
        total = 0
        driving = 0
        for index in range(len(self.muxes)):
            enable, pin = self.muxes[index]
            if pin != adc_pin or (enable is not None and enable.level):
                continue
            ch = index * 16 + address
            total += self.values[ch] if ch < self.channels else 0
            driving += 1
        if not driving:
            return 0  # nothing connected: the ADC input is pulled to ground
        value = total // driving + self._jitter()
        return max(0, min(65535, value))


class SimADC:
    def __init__(self, bank, pin):
        self.bank = bank
        self.pin = pin

    def read_u16(self):
        return self.bank.read_adc(self.pin)


class SimNeoPixel:
    """The neopixel.NeoPixel interface, with the same buffer layout as MicroPython's (green,
    red, blue per LED: ORDER says where r, g and b go); on_write(rgb bytes) sees every frame
    written, in r, g, b order."""

    ORDER = (1, 0, 2, 3)

    def __init__(self, count, on_write=None):
        self.n = count
        self.bpp = 3
        self.buf = bytearray(3 * count)
        self.on_write = on_write
        self.writes = 0
        self.write_ms = 0  # busy time of one write (a Pico clocks 132 LEDs out in ~4 ms)

    def __len__(self):
        return self.n

    def __setitem__(self, i, colour):
        j = 3 * i
        order = self.ORDER
        self.buf[j + order[0]] = colour[0]
        self.buf[j + order[1]] = colour[1]
        self.buf[j + order[2]] = colour[2]

    def __getitem__(self, i):
        j = 3 * i
        order = self.ORDER
        return (self.buf[j + order[0]], self.buf[j + order[1]], self.buf[j + order[2]])

    def fill(self, colour):
        for i in range(self.n):
            self[i] = colour

    def rgb(self):
        """The buffer as r, g, b bytes."""
        out = bytearray(len(self.buf))
        buf = self.buf
        for j in range(0, len(buf), 3):
            out[j] = buf[j + 1]
            out[j + 1] = buf[j]
            out[j + 2] = buf[j + 2]
        return bytes(out)

    def write(self):
        self.writes += 1
        if self.write_ms:
            from time import sleep_ms

            sleep_ms(self.write_ms)
        if self.on_write is not None:
            self.on_write(self.rgb())

# WS2812 strip with a current budget.
#
# Every WS2812 draws about 20 mA per colour channel at full brightness (60 mA for white) plus
# about 1 mA even when dark. 132 LEDs at full white would want ~8 A, far more than the supply
# is sized for, and a brown-out resets the Pico mid-game. So before showing a frame we
# estimate its current and, if it is over the budget, scale every channel down by the same
# factor: colours keep their hue, the whole board just gets dimmer.
#
# Showing a frame is on the firmware's busiest path (the scan waits for it), so the bytes go
# straight into the NeoPixel buffer in one pass: in viper where the port has it (pixel_pack),
# else in plain Python. Both give the same bytes.

try:
    from pixel_pack import pack as _pack  # viper: the Pico and the unix port
except (ImportError, SyntaxError, NameError):  # CPython, or a port without native code
    _pack = None

FULL = 256  # brightness factor meaning "unchanged"


def estimate_ma(rgb, ma_per_channel, idle_ma_total=0):
    """Estimated current in mA of a frame given as flat r, g, b bytes."""
    return sum(rgb) * ma_per_channel / 255 + idle_ma_total


def brightness_factor(rgb, budget_ma, ma_per_channel, idle_ma_total=0):
    """Factor out of 256 that brings the frame within budget (256: within it already).

    Rounded down, so every scaled byte v * factor >> 8 is at most v * available / needed
    and the scaled frame's estimate never exceeds the budget.
    """
    available = budget_ma - idle_ma_total
    if available <= 0:
        return 0
    # Over budget when total * ma / 255 > available  <=>  total * ma > available * 255.
    num = available * 255
    den = sum(rgb) * ma_per_channel
    if den <= num:
        return FULL
    return num * FULL // den


def limit_brightness(rgb, budget_ma, ma_per_channel, idle_ma_total=0):
    """Returns (bytes, scale numerator, scale denominator); the frame itself if within budget."""
    factor = brightness_factor(rgb, budget_ma, ma_per_channel, idle_ma_total)
    if factor == FULL:
        return bytes(rgb), 1, 1
    return bytes([v * factor >> 8 for v in rgb]), factor, FULL


class LedStrip:
    """Shows frames on a NeoPixel-like object (np.buf in np.ORDER, np.write())."""

    def __init__(self, pixels, count, max_current_ma, ma_per_channel=20, idle_ma_per_led=1):
        self.pixels = pixels
        self.count = count
        self.max_current_ma = max_current_ma
        self.ma_per_channel = ma_per_channel
        self.idle_ma_total = idle_ma_per_led * count
        self.shown = bytes(3 * count)  # what the LEDs show now, after limiting
        self.limited = 0  # frames that had to be dimmed
        self._frame = bytearray(3 * count)  # reused: no allocation per frame
        order = getattr(pixels, "ORDER", (0, 1, 2))
        self._order = bytes(order[:3])
        buf = getattr(pixels, "buf", None)
        self._buf = buf if buf is not None and len(buf) == 3 * count else None

    def show(self, rgb):
        """Show flat r, g, b bytes for LEDs 0.. ; LEDs the frame does not cover go dark."""
        size = 3 * self.count
        if len(rgb) > size:
            raise ValueError("frame for %d LEDs, strip has %d" % (len(rgb) // 3, self.count))
        if len(rgb) < size:
            rgb = bytes(rgb) + bytes(size - len(rgb))
        factor = brightness_factor(
            rgb, self.max_current_ma, self.ma_per_channel, self.idle_ma_total
        )
        if factor != FULL:
            self.limited += 1
        frame = self._frame
        buf = self._buf
        if buf is not None and _pack is not None:
            _pack(buf, frame, rgb, size, self._order, factor)
        else:
            self._pack_python(rgb, factor)
        self.pixels.write()
        self.shown = bytes(frame)
        return self.shown

    def _pack_python(self, rgb, factor):
        frame = self._frame
        if factor == FULL:
            frame[:] = rgb
        else:
            for i in range(len(rgb)):
                frame[i] = rgb[i] * factor >> 8
        buf = self._buf
        if buf is None:  # an object without a buffer: one LED at a time
            pixels = self.pixels
            for i in range(self.count):
                j = 3 * i
                pixels[i] = (frame[j], frame[j + 1], frame[j + 2])
            return
        o0, o1, o2 = self._order[0], self._order[1], self._order[2]
        for j in range(0, len(frame), 3):
            buf[j + o0] = frame[j]
            buf[j + o1] = frame[j + 1]
            buf[j + o2] = frame[j + 2]

    def clear(self):
        self.show(b"")

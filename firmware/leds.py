# WS2812 strip with a current budget.
#
# Every WS2812 draws about 20 mA per colour channel at full brightness (60 mA for white) plus
# about 1 mA even when dark. 132 LEDs at full white would want ~8 A, far more than the supply
# is sized for, and a brown-out resets the Pico mid-game. So before showing a frame we
# estimate its current and, if it is over the budget, scale every channel down by the same
# factor: colours keep their hue, the whole board just gets dimmer.


def estimate_ma(rgb, ma_per_channel, idle_ma_total=0):
    """Estimated current in mA of a frame given as flat r, g, b bytes."""
    return sum(rgb) * ma_per_channel / 255 + idle_ma_total


def limit_brightness(rgb, budget_ma, ma_per_channel, idle_ma_total=0):
    """Returns (bytes, scale numerator, scale denominator); the frame itself if within budget.

    Integer arithmetic rounding down, so the scaled frame's estimate never exceeds the budget.
    """
    total = sum(rgb)
    available = budget_ma - idle_ma_total
    if available <= 0:
        return bytes(len(rgb)), 0, 1
    # Over budget when total * ma / 255 > available  <=>  total * ma > available * 255.
    num = available * 255
    den = total * ma_per_channel
    if den <= num:
        return bytes(rgb), 1, 1
    out = bytearray(len(rgb))
    for i in range(len(rgb)):
        out[i] = rgb[i] * num // den
    return bytes(out), num, den


class LedStrip:
    """Shows frames on a NeoPixel-like object (np[i] = (r, g, b); np.write())."""

    def __init__(self, pixels, count, max_current_ma, ma_per_channel=20, idle_ma_per_led=1):
        self.pixels = pixels
        self.count = count
        self.max_current_ma = max_current_ma
        self.ma_per_channel = ma_per_channel
        self.idle_ma_total = idle_ma_per_led * count
        self.shown = bytes(3 * count)  # what the LEDs show now, after limiting
        self.limited = 0  # frames that had to be dimmed

    def show(self, rgb):
        """Show flat r, g, b bytes for LEDs 0.. ; LEDs the frame does not cover go dark."""
        if len(rgb) > 3 * self.count:
            raise ValueError("frame for %d LEDs, strip has %d" % (len(rgb) // 3, self.count))
        if len(rgb) < 3 * self.count:
            rgb = bytes(rgb) + bytes(3 * self.count - len(rgb))
        frame, num, den = limit_brightness(
            rgb, self.max_current_ma, self.ma_per_channel, self.idle_ma_total
        )
        if num != den:
            self.limited += 1
        pixels = self.pixels
        for i in range(self.count):
            j = 3 * i
            pixels[i] = (frame[j], frame[j + 1], frame[j + 2])
        pixels.write()
        self.shown = frame
        return frame

    def clear(self):
        self.show(b"")

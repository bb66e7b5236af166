# The LED frame's inner loop in viper (machine code, ~100x faster than Python bytecode): scale
# every byte by the brightness factor and lay it out in the order the WS2812s expect (GRB),
# in one pass. The Pico compiles this for its Cortex-M0+; the MicroPython unix port used by
# the tests compiles it for the PC. A build without the native emitter fails to import this
# module, and leds.py then falls back to plain Python (same result, slower).
#
# For deployment as .mpy, compile with `mpy-cross -march=armv6m pixel_pack.py`.

import micropython

# ptr8 below is viper's type for a byte pointer, known only to MicroPython's compiler.


@micropython.viper
def pack(dst: ptr8, shown: ptr8, src: ptr8, size: int, order: ptr8, factor: int):  # noqa: F821
    # dst: the NeoPixel buffer; shown: the scaled frame in r, g, b order; src: the frame;
    # size: bytes (3 per LED); order: where r, g and b go within an LED; factor: out of 256.
    o0 = int(order[0])
    o1 = int(order[1])
    o2 = int(order[2])
    i = 0
    while i < size:
        r = (int(src[i]) * factor) >> 8
        g = (int(src[i + 1]) * factor) >> 8
        b = (int(src[i + 2]) * factor) >> 8
        shown[i] = r
        shown[i + 1] = g
        shown[i + 2] = b
        dst[i + o0] = r
        dst[i + o1] = g
        dst[i + o2] = b
        i += 3

# COBS decoding in viper (machine code): protocol.cobs_decode_into's loop, one pass over the
# bytes whatever they hold. In Python bytecode every COBS block costs a loop turn, and every
# zero byte of a frame starts a block, so a mostly dark LED frame (hundreds of zero bytes) cost
# the Pico far more than a bright one (issue #31). Here a block costs a few instructions, so
# decoding costs the frame's length, not its content. A build without the native emitter fails
# to import this module, and link.py falls back to protocol.cobs_decode_into (same result).
#
# For deployment as .mpy, compile with `mpy-cross -march=armv6m cobs_fast.py`.

import micropython

# ptr8 below is viper's type for a byte pointer, known only to MicroPython's compiler.


@micropython.viper
def decode_into(src: ptr8, n: int, dst: ptr8) -> int:  # noqa: F821
    # src: n COBS bytes (no zero among them); dst: room for n bytes. Returns the decoded
    # length, or -1 if a block runs past the end.
    i = 0
    o = 0
    while i < n:
        code = int(src[i])
        end = i + code
        if end > n:
            return -1
        i += 1
        while i < end:
            dst[o] = src[i]
            o += 1
            i += 1
        if code != 0xFF and i < n:
            dst[o] = 0
            o += 1
    return o

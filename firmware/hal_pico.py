# Hardware access on a Raspberry Pi Pico (RP2040) running MicroPython. See hal.py for the
# interface. The link to the Pi is the USB CDC serial port, which MicroPython exposes as
# sys.stdin / sys.stdout; nothing else may ever print, or it would corrupt the frames.

import io
import os
import select
import sys
from time import sleep_us, ticks_add, ticks_diff, ticks_ms  # noqa: F401 (re-exported)

import machine
import micropython
import neopixel as _neopixel

CONFIG_FILE = "config.json"
MAINTENANCE_FLAG = "maintenance.flag"


def setup(cfg):
    pass


def output_pin(number, value=1):
    return machine.Pin(number, machine.Pin.OUT, value=value)


def spi_bus(bus, baudrate, sck, mosi, miso):
    # Mode 0, MSB first: the 74HC165 presents D7 before the first rising clock edge and the
    # MFRC522 samples on the rising edge.
    return machine.SPI(
        bus,
        baudrate=baudrate,
        polarity=0,
        phase=0,
        bits=8,
        firstbit=machine.SPI.MSB,
        sck=machine.Pin(sck),
        mosi=machine.Pin(mosi),
        miso=machine.Pin(miso),
    )


def adc_input(pin):
    return machine.ADC(machine.Pin(pin))


def neopixels(pin, count):
    return _neopixel.NeoPixel(machine.Pin(pin, machine.Pin.OUT), count)


# The RP2040 watchdog's scratch registers keep their value through every reset except a
# power-on, and machine.reset() is itself a watchdog reset on this chip (so is the bootrom's
# reboot after `mpremote reset`). SCRATCH0 therefore says whether the next reset is
# deliberate, SCRATCH1 whether the next boot is a maintenance boot. The bootrom and the SDK
# use SCRATCH4..7 only.
_WATCHDOG = 0x40058000
_WATCHDOG_CTRL = _WATCHDOG
_WATCHDOG_ENABLE = 1 << 30
_SCRATCH_DELIBERATE = _WATCHDOG + 0x0C  # SCRATCH0
_SCRATCH_MAINTENANCE = _WATCHDOG + 0x10  # SCRATCH1
_DELIBERATE = 0x504C5253  # "PLRS": reset on purpose (or while no watchdog ran)
_MAINTENANCE = 0x504C4D54  # "PLMT"
# How long after boot a press of the BOOTSEL button skips the firmware. Held at power-on
# the button starts the USB bootloader instead, so it is pressed just after plugging in.
BOOTSEL_WINDOW_MS = 1000

# Read once at import, before anything can change it: was the reset that started this boot
# deliberate? Until the firmware starts its watchdog every reset is (the REPL, mpremote).
_boot_deliberate = machine.mem32[_SCRATCH_DELIBERATE] == _DELIBERATE
machine.mem32[_SCRATCH_DELIBERATE] = _DELIBERATE


def watchdog(timeout_ms):
    # From here on a reset nobody asked for is the watchdog's.
    machine.mem32[_SCRATCH_DELIBERATE] = 0
    return machine.WDT(timeout=timeout_ms)


def stop_watchdog():
    """Leave the firmware for the REPL: the watchdog must not bite there (nor the USB
    reader's guard stand in for stdin)."""
    machine.mem32[_WATCHDOG_CTRL] &= ~_WATCHDOG_ENABLE
    machine.mem32[_SCRATCH_DELIBERATE] = _DELIBERATE
    if _serial is not None:
        os.dupterm(None)


# Reading USB input. MicroPython has no "read what is there" call on stdin: readinto(buf)
# waits until len(buf) bytes have come (micropython/micropython#8772), and only poll says
# anything, that one byte has. Reading a byte per poll never waits, but costs the Pico ~60 us
# a byte (a quarter of its time under 25 LED frames a second, and more than the colour board
# has); trusting the framing (a COBS block read whole once its code byte came) blocked for good
# on a frame cut short, until the watchdog reset the board (issue #31). So stdin is read in
# chunks of CHUNK bytes, which C copies from the USB buffer, and a guard makes sure no read
# waits long: stdin asks its second terminal (os.dupterm) for a byte only when no USB byte is
# waiting, and the guard, armed during a read, answers zero bytes (delimiters) once the read
# has waited GUARD_MS. Bytes cut short are then dropped by the decoder at those delimiters,
# and at the end of a burst the chunk is padded with empty gaps. Every chunk costs the same,
# whatever its bytes hold: dark LED frames (mostly zero bytes) cost what bright ones do.
READ_LIMIT = 512  # bytes per loop pass at most
CHUNK = 32
GUARD_MS = 2  # how long a read waits for bytes that have not come


def _wake(_timer):
    pass  # the timer's interrupt is what matters: it wakes the chip from its wait for input


class _Guard(io.IOBase):
    """A second terminal (os.dupterm) that stdin consults only when no USB byte is waiting.
    While a read is armed and has waited GUARD_MS for bytes that did not come, it answers with
    zero bytes (delimiters) until the read is done: a frame cut short never holds the board."""

    def __init__(self):
        self.armed = False
        self.since = None
        self.filled = 0
        self.timer = machine.Timer()

    def readinto(self, buf):
        if not self.armed:
            return None
        now = ticks_ms()
        if self.since is None:
            self.since = now
            self.timer.init(mode=machine.Timer.ONE_SHOT, period=GUARD_MS + 1, callback=_wake)
            return None
        if ticks_diff(now, self.since) < GUARD_MS:
            return None
        for i in range(len(buf)):
            buf[i] = 0
        self.filled += len(buf)
        return len(buf)

    def write(self, buf):
        return len(buf)

    def ioctl(self, request, arg):
        return 0


class UsbSerial:
    """USB CDC through stdin/stdout; reads never wait longer than GUARD_MS (above)."""

    def __init__(self):
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(self._in, select.POLLIN)
        self._guard = _Guard()
        os.dupterm(self._guard)

    def readinto(self, buf):
        """What has arrived, at most len(buf) bytes, into buf; the number read."""
        guard = self._guard
        ipoll = self._poll.ipoll
        readinto = self._in.readinto
        view = memoryview(buf)
        size = min(len(buf), READ_LIMIT)
        n = 0
        while n < size:
            ready = False
            for _ in ipoll(0):
                ready = True
            if not ready:
                break
            k = min(CHUNK, size - n)
            guard.armed = True
            readinto(view[n : n + k])
            guard.armed = False
            n += k
            if guard.since is not None:  # it ran dry: the rest of the chunk is filler
                guard.timer.deinit()
                guard.since = None
                break
        return n

    def write(self, data):
        self._out.write(data)

    def wait(self, timeout_ms):
        self._poll.poll(timeout_ms)


_serial = None


def open_serial():
    global _serial
    if _serial is None:
        _serial = UsbSerial()
    return _serial


def wait(timeout_ms):
    if _serial is None:
        machine.idle()
    else:
        _serial.wait(timeout_ms)


def random_u32():
    return int.from_bytes(os.urandom(4), "little")


def load_config():
    import json

    with open(CONFIG_FILE) as f:
        return json.load(f)


def reset():
    machine.mem32[_SCRATCH_DELIBERATE] = _DELIBERATE
    machine.reset()


def reset_by_watchdog():
    return machine.reset_cause() == machine.WDT_RESET and not _boot_deliberate


def request_maintenance():
    # A register, not a file: it cannot fail on a full or damaged filesystem.
    machine.mem32[_SCRATCH_MAINTENANCE] = _MAINTENANCE


def maintenance_requested():
    """True once after a maintenance reset (the request is consumed)."""
    requested = machine.mem32[_SCRATCH_MAINTENANCE] == _MAINTENANCE
    machine.mem32[_SCRATCH_MAINTENANCE] = 0
    try:
        os.remove(MAINTENANCE_FLAG)  # the flag file older firmware wrote
        requested = True
    except OSError:
        pass
    return requested


def bootsel_held():
    """True if a person presses and holds the BOOTSEL button within BOOTSEL_WINDOW_MS of
    boot: their way to skip the firmware when neither the Pi nor mpremote can stop it.

    Only a press that starts after boot counts (the button read released first, then
    pressed for 3 reads in a row): held from power-on, the button starts the boot ROM's USB
    drive instead, so a button that reads pressed from the start is a fault, or an emulator
    that does not model the pin, and must not lock the firmware out."""
    import rp2

    start = ticks_ms()
    released = False
    held = 0
    while ticks_diff(ticks_ms(), start) < BOOTSEL_WINDOW_MS:
        if not rp2.bootsel_button():
            released = True
            held = 0
        elif released:
            held += 1
            if held >= 3:
                return True
        sleep_us(10000)
    return False


def quiet_keyboard_interrupt():
    micropython.kbd_intr(-1)


def keyboard_interrupt():
    micropython.kbd_intr(3)


def ready(link=None):
    pass


def log_exception(e):
    pass  # stdout is the link to the Pi: the error goes out as an ERROR frame instead

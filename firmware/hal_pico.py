# Hardware access on a Raspberry Pi Pico (RP2040) running MicroPython. See hal.py for the
# interface. The link to the Pi is the USB CDC serial port, which MicroPython exposes as
# sys.stdin / sys.stdout; nothing else may ever print, or it would corrupt the frames.

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
    """Leave the firmware for the REPL: the watchdog must not bite there."""
    machine.mem32[_WATCHDOG_CTRL] &= ~_WATCHDOG_ENABLE
    machine.mem32[_SCRATCH_DELIBERATE] = _DELIBERATE


# Bytes read per loop pass at most. Each costs the Pico about 60 us (a poll and a one-byte
# read), so a frame is read over several passes and the sensor scan runs between them: at 25
# LED frames a second the scan period's median stays near idle's (docs/firmware.md). A loop
# whose passes are slow (the colour board's scan takes ~45 ms) may read READ_PER_MS bytes for
# every millisecond since the last read, about a third of its time.
READ_LIMIT = 32
READ_PER_MS = 5


class UsbSerial:
    """USB CDC through stdin/stdout.

    MicroPython has no "read what is there" call on stdin: read(n) and readinto(buf) wait
    until n (or len(buf)) bytes have come (micropython/micropython#8772), and nothing says
    how many have. Only poll does, and only that one byte has: so a byte is read only when
    poll says one is there, and reading never waits. (Trusting the framing instead, reading
    a COBS block whole once its code byte came, blocked for good on a frame cut short: the
    board sat blind until the watchdog reset it, issue #31.) A frame cut short is then
    bytes like any others; the decoder drops them at the next delimiter. Each byte costs
    the same, whatever it holds.
    """

    def __init__(self):
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(self._in, select.POLLIN)
        self._one = bytearray(1)
        self._last_read = ticks_ms()

    def readinto(self, buf):
        """What has arrived, at most len(buf) bytes, into buf; the number read."""
        one = self._one
        ipoll = self._poll.ipoll
        readinto = self._in.readinto
        now = ticks_ms()
        allowed = max(READ_LIMIT, ticks_diff(now, self._last_read) * READ_PER_MS)
        self._last_read = now
        size = min(len(buf), allowed)
        n = 0
        while n < size:
            ready = False
            for _ in ipoll(0):
                ready = True
            if not ready:
                break
            readinto(one)
            buf[n] = one[0]
            n += 1
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

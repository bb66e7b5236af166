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
# Bytes read from USB per loop pass at most: bounds the time spent reading so a flood of
# input cannot starve the sensor scan or the watchdog.
READ_LIMIT = 512


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


def watchdog(timeout_ms):
    return machine.WDT(timeout=timeout_ms)


class UsbSerial:
    """USB CDC through stdin/stdout. MicroPython offers no "read what is there" call on
    stdin, so bytes are taken one at a time while poll() says more are waiting."""

    def __init__(self):
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(self._in, select.POLLIN)

    def read(self):
        buf = bytearray()
        poll = self._poll.poll
        read = self._in.read
        while len(buf) < READ_LIMIT and poll(0):
            buf += read(1)
        return bytes(buf)

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
    machine.reset()


def reset_by_watchdog():
    return machine.reset_cause() == machine.WDT_RESET


def request_maintenance():
    with open(MAINTENANCE_FLAG, "w") as f:
        f.write("1")


def maintenance_requested():
    try:
        os.remove(MAINTENANCE_FLAG)
        return True
    except OSError:
        return False


def quiet_keyboard_interrupt():
    micropython.kbd_intr(-1)


def ready():
    pass


def log_exception(e):
    pass  # stdout is the link to the Pi: the error goes out as an ERROR frame instead

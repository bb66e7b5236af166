# Simulated hardware for the MicroPython unix port. See hal.py for the interface.
#
# Started by pawnlight.devices.sim.firmware.SimulatedFirmware as
#     micropython main.py CONFIG CONTROL_IN_FD CONTROL_OUT_FD STATE_DIR
# stdin/stdout carry the serial link (the Pico's USB CDC is its stdin/stdout too), and two
# extra pipes carry the control channel: newline-separated JSON commands in ("set a sensor",
# "present a card", ...) and JSON events out ("ready", the LED colours after every write).
# The pins, SPI buses, shift registers, muxes, card reader and LEDs are the models in
# sim_devices.py and sim_mfrc522.py, so the real drivers run against them unchanged.

import json
import os
import select
import sys
from array import array
from binascii import hexlify
from time import sleep_ms, ticks_add, ticks_diff, ticks_ms  # noqa: F401

import sim_devices as D
import sim_mfrc522 as M

EXIT_REBOOT = 75  # the parent starts the firmware again, as a real reset would
EXIT_WATCHDOG = 76  # same, and the next boot reports a watchdog reset

_args = sys.argv[1:]
CONFIG_PATH = _args[0] if _args else "config.json"
STATE_DIR = _args[3] if len(_args) > 3 else "."

_pins = D.SimPins()
_buses = {}
_sensor_model = None
_mux_bank = None
_reader = None
_strip = None
_serial = None


def _emit(event):
    """Send one event line on the control channel (if there is one)."""
    if _control is not None:
        _control.send(event)


class _Control:
    def __init__(self, fd_in, fd_out):
        self.inp = open(fd_in, "rb")
        self.out = open(fd_out, "wb")
        self._buf = b""
        self._chunk = bytearray(4096)

    def send(self, event):
        self.out.write(json.dumps(event).encode() + b"\n")

    def handle_input(self):
        n = self.inp.readinto(self._chunk)
        if n is None:
            return
        if n == 0:
            sys.exit(0)  # the parent is gone: a simulated board has no reason to go on
        self._buf += bytes(self._chunk[:n])
        while True:
            end = self._buf.find(b"\n")
            if end < 0:
                return
            line = self._buf[:end]
            self._buf = self._buf[end + 1 :]
            if line:
                _command(json.loads(line))


_control = _Control(int(_args[1]), int(_args[2])) if len(_args) > 2 else None


def _world():
    """The physical state (pawns, card on the reader) the parent wants at power-on."""
    try:
        with open(STATE_DIR + "/world.json") as f:
            return json.load(f)
    except OSError:
        return {}


def _command(cmd):
    op = cmd.get("op")
    if op == "set":
        _sensor_model.set(cmd["channel"], cmd["value"])
    elif op == "set_all":
        _sensor_model.set_all(cmd["values"])
    elif op == "card":
        _present_card(cmd.get("uid"))
    elif op == "noise":
        if _mux_bank is not None:
            _mux_bank.noise = cmd["amplitude"]
    elif op == "led_write_ms":
        _strip.write_ms = cmd["ms"]  # as long as a real WS2812 chain takes to clock out
    elif op == "hang":
        sleep_ms(cmd["ms"])  # a stuck main loop, for the watchdog
    elif op == "send":
        # A message the firmware would never make (the simulator's line faults), queued and
        # numbered like any other, so it takes its turn in the board's own sequence.
        if _link is not None:
            _link.queue_raw(cmd["type"], bytes.fromhex(cmd["payload"]))
    elif op == "ping":
        _pong(cmd.get("id"))
    else:
        _emit({"ev": "log", "msg": "unknown control op %s" % op})


# ms between the starts of consecutive scans since the last ping: the first SCANS_KEPT of them,
# in buffers allocated once (a growing list asked the heap for 64 KiB blocks, issue #31), in
# 2 KiB pieces, which a Pico-sized heap always has room for.
SCANS_PIECE = 1024
SCANS_KEPT = 5 * SCANS_PIECE
_scan_periods = None  # allocated by setup(), once the modules are compiled
_scan_count = 0
_last_scan = None


def _scanned():
    global _last_scan, _scan_count
    now = ticks_ms()
    if _last_scan is not None and _scan_count < SCANS_KEPT:
        piece = _scan_periods[_scan_count // SCANS_PIECE]
        piece[_scan_count % SCANS_PIECE] = min(ticks_diff(now, _last_scan), 0xFFFF)
        _scan_count += 1
    _last_scan = now


def _pong(ping):
    """Answer a ping: the scan periods go out as little-endian u16 in hex, written piecewise
    so no large block is allocated."""
    global _scan_count
    if _control is None:
        _scan_count = 0
        return
    wakeups = _reader.wakeups if _reader is not None else None
    out = _control.out
    head = '{"ev": "pong", "id": %s, "reader_polls": %s, "scans_hex": "'
    out.write((head % (json.dumps(ping), json.dumps(wakeups))).encode())
    for i in range(0, _scan_count, 256):
        piece = memoryview(_scan_periods[i // SCANS_PIECE])
        start = i % SCANS_PIECE
        out.write(hexlify(piece[start : start + min(256, _scan_count - i)]))
    out.write(b'"}\n')
    _scan_count = 0


def _present_card(uid_hex):
    if _reader is not None:
        _reader.present(M.SimCard(bytes.fromhex(uid_hex)) if uid_hex else None)


def setup(cfg):
    global _sensor_model, _mux_bank, _reader, _scan_periods
    if cfg is None:
        return
    _scan_periods = [array("H", bytes(2 * SCANS_PIECE)) for _ in range(SCANS_KEPT // SCANS_PIECE)]
    channels = cfg["channels"]
    if cfg["board"] == "presence":
        s = cfg["presence"]
        chain = D.ShiftRegisterChain(s["chips"], channels, _pins.get(s["load"]), s["active_low"])
        _bus(s["spi"]).attach(chain)
        _sensor_model = chain
    else:
        c = cfg["colour"]
        muxes = []
        for mux in c["muxes"]:
            enable = _pins.get(mux["enable"]) if mux.get("enable") is not None else None
            muxes.append((enable, mux["adc"]))
        _mux_bank = D.MuxBank([_pins.get(p) for p in c["select"]], muxes, channels)
        _sensor_model = _mux_bank
    card = cfg["card_reader"]
    world = _world()
    if card is not None and not world.get("no_card_reader"):
        rst = _pins.get(card["rst"]) if card["rst"] is not None else None
        _reader = M.SimMFRC522(rst)
        _bus(card["spi"]).attach(_reader, _pins.get(card["cs"]))
    _sensor_model.on_scan = _scanned
    if world.get("sensors"):
        _sensor_model.set_all(world["sensors"])
    _present_card(world.get("card"))


def _bus(number):
    if number not in _buses:
        _buses[number] = D.SimSPI()
    return _buses[number]


def sleep_us(us):
    pass  # simulated parts settle at once; a real sleep would only slow the scan down


def output_pin(number, value=1):
    pin = _pins.get(number)
    pin.value(value)
    return pin


def spi_bus(bus, baudrate, sck, mosi, miso):
    return _bus(bus)


def adc_input(pin):
    return D.SimADC(_mux_bank, pin)


def _leds_written(rgb):
    _emit({"ev": "leds", "rgb": rgb.hex()})


def neopixels(pin, count):
    global _strip
    _strip = D.SimNeoPixel(count, _leds_written)
    return _strip


class _Watchdog:
    """Stands in for machine.WDT. A process cannot be reset from outside the stalled loop
    here, so a late feed() is what trips it: the reset happens when the stall ends."""

    def __init__(self, timeout_ms):
        self.timeout_ms = timeout_ms
        self.last = ticks_ms()

    def feed(self):
        now = ticks_ms()
        if ticks_diff(now, self.last) > self.timeout_ms:
            _emit({"ev": "watchdog", "late_ms": ticks_diff(now, self.last)})
            sys.exit(EXIT_WATCHDOG)
        self.last = now


_watchdogs = []


def watchdog(timeout_ms):
    dog = _Watchdog(timeout_ms)
    _watchdogs.append(dog)
    return dog


def stop_watchdog():
    for dog in _watchdogs:
        dog.timeout_ms = 1 << 30


class _PipeSerial:
    """The link over stdin/stdout; the parent made stdin non-blocking."""

    def __init__(self):
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer

    def readinto(self, buf):
        n = self._in.readinto(buf)
        if n is None:
            return 0
        if n == 0:
            sys.exit(0)  # the parent closed the line: it is shutting the simulator down
        return n

    def write(self, data):
        self._out.write(data)


def open_serial():
    global _serial
    if _serial is None:
        _serial = _PipeSerial()
    return _serial


_poller = None


def wait(timeout_ms):
    global _poller
    if _poller is None:
        _poller = select.poll()
        _poller.register(sys.stdin.buffer, select.POLLIN)
        if _control is not None:
            _poller.register(_control.inp, select.POLLIN)
    for obj, _event in _poller.poll(timeout_ms):
        if _control is not None and obj is _control.inp:
            _control.handle_input()


def random_u32():
    return int.from_bytes(os.urandom(4), "little")


def load_config():
    with open(CONFIG_PATH) as f:
        return json.load(f)


def reset():
    sys.exit(EXIT_REBOOT)


def reset_by_watchdog():
    return os.getenv("PAWNLIGHT_SIM_RESET_CAUSE") == "watchdog"


def request_maintenance():
    # A file, like older Pico firmware: the tests damage it to check what happens when the
    # request cannot be stored.
    with open(STATE_DIR + "/maintenance.flag", "w") as f:
        f.write("1")


def bootsel_held():
    return bool(_world().get("bootsel"))


def maintenance_requested():
    try:
        os.remove(STATE_DIR + "/maintenance.flag")
        return True
    except OSError:
        return False


def quiet_keyboard_interrupt():
    pass  # stdin is a pipe, not a terminal: 0x03 bytes raise nothing here


def keyboard_interrupt():
    pass


_link = None  # the firmware's HostLink, for the "send" op


def ready(link=None):
    global _link
    _link = link
    _emit({"ev": "ready"})


def log_exception(e):
    sys.print_exception(e)  # stderr, collected by the parent

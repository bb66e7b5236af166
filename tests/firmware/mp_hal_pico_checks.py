# The Pico's hardware layer (hal_pico.py) under the MicroPython unix port, with the chip's
# registers, the USB stdin and the BOOTSEL button played by fakes. Started by
# test_fw_micropython.py as
#     micropython mp_hal_pico_checks.py FIRMWARE_DIR
# Prints "PASSED n" and exits 0, or prints each failure and exits 1.

import sys
import time

sys.path.insert(0, sys.argv[1])

import protocol as P
from mp_check import check, finish


class Registers:
    """machine.mem32 over a dict: the watchdog's registers survive a reboot, like the chip's
    (only a power-on clears them)."""

    def __init__(self):
        self.words = {}

    def __getitem__(self, address):
        return self.words.get(address, 0)

    def __setitem__(self, address, value):
        self.words[address] = value & 0xFFFFFFFF


class FakeMachine:
    PWRON_RESET = 1
    WDT_RESET = 3
    cause = 1
    mem32 = Registers()
    resets = 0

    class Pin:
        OUT = 1

        def __init__(self, *args, **kwargs):
            pass

    class WDT:
        def __init__(self, timeout):
            self.timeout = timeout

    class Timer:
        ONE_SHOT = 0
        started = 0

        def init(self, mode, period, callback):
            FakeMachine.Timer.started += 1

        def deinit(self):
            pass

    @staticmethod
    def reset_cause():
        return FakeMachine.cause

    @staticmethod
    def reset():
        FakeMachine.resets += 1


class FakeModule:
    pass


fake_micropython = FakeModule()
fake_micropython.kbd_intr = lambda c: None
fake_neopixel = FakeModule()
fake_neopixel.NeoPixel = None
fake_rp2 = FakeModule()
fake_rp2.pressed = 0
fake_rp2.bootsel_button = lambda: fake_rp2.pressed

sys.modules["machine"] = FakeMachine
sys.modules["micropython"] = fake_micropython
sys.modules["neopixel"] = fake_neopixel
sys.modules["rp2"] = fake_rp2


def boot(cause):
    """A reset: the chip's registers stay, the firmware's modules load afresh."""
    FakeMachine.cause = cause
    sys.modules.pop("hal_pico", None)
    import hal_pico

    return hal_pico


def power_on():
    FakeMachine.mem32.words = {}
    return boot(FakeMachine.PWRON_RESET)


# Power-on: not the watchdog.
hal = power_on()
check(not hal.reset_by_watchdog(), "power-on is not a watchdog reset")
hal.watchdog(2000)

# The firmware asks for a reset (the Pi's RESET, the crash handler): machine.reset() is a
# watchdog reset on the RP2040, but the next boot must not call it one.
hal.reset()
check(FakeMachine.resets == 1, "reset() resets")
hal = boot(FakeMachine.WDT_RESET)
check(not hal.reset_by_watchdog(), "a deliberate reset is not reported as the watchdog")

# Before the firmware starts its watchdog (the REPL, `mpremote reset`) a reset is deliberate.
hal = boot(FakeMachine.WDT_RESET)
check(not hal.reset_by_watchdog(), "a reset from the REPL is not the watchdog")

# The firmware runs, its watchdog starts, the loop hangs: that one is the watchdog's.
hal.watchdog(2000)
hal = boot(FakeMachine.WDT_RESET)
check(hal.reset_by_watchdog(), "a real watchdog reset is reported")

# Maintenance: asked for, seen once at the next boot, then gone.
hal.request_maintenance()
hal.reset()
hal = boot(FakeMachine.WDT_RESET)
check(hal.maintenance_requested(), "maintenance after the request")
check(not hal.maintenance_requested(), "maintenance request consumed")
hal = power_on()
check(not hal.maintenance_requested(), "no maintenance after a power-on")

# Leaving for the REPL turns the watchdog off.
FakeMachine.mem32[hal._WATCHDOG_CTRL] = 0x40000000 | 1000
hal.stop_watchdog()
check(FakeMachine.mem32[hal._WATCHDOG_CTRL] == 1000, "watchdog disabled")

# BOOTSEL pressed after boot and held (three reads in a row) skips the firmware; a glitch
# does not, nor a button that reads pressed from the start (an emulator that does not model
# the pin reads it low for ever; a person cannot hold it from power-on without starting the
# boot ROM's USB drive instead).
hal.BOOTSEL_WINDOW_MS = 100


def button(reads):
    reads = list(reads)
    fake_rp2.bootsel_button = lambda: reads.pop(0) if reads else 0


button([0, 0, 1, 1, 1, 1])
check(hal.bootsel_held(), "BOOTSEL pressed and held")
button([0, 1, 0, 0, 0])
check(not hal.bootsel_held(), "a glitch is not a press")
fake_rp2.bootsel_button = lambda: 1
check(not hal.bootsel_held(), "pressed from power-on (or not modelled) does not count")

# USB reads never wait for long: stdin is read in chunks, and when the bytes run out the guard
# (a second terminal stdin consults only then) fills the chunk with delimiters once GUARD_MS
# have passed. FakeStdin plays the C loop: each missing byte asks the guard, and waits (1 ms
# here) while it has none.


class FakeOs:
    def __init__(self):
        self.terminals = []

    def dupterm(self, stream):
        self.terminals.append(stream)


fake_os = FakeOs()
hal.os = fake_os


class FakeStdin:
    def __init__(self, data):
        self.data = data
        self.calls = 0
        self.guard = None

    def readinto(self, buf):
        self.calls += 1
        one = bytearray(1)
        for i in range(len(buf)):
            if self.data:
                buf[i] = self.data[0]
                self.data = self.data[1:]
                continue
            start = time.ticks_ms()
            while self.guard.readinto(one) is None:
                assert time.ticks_diff(time.ticks_ms(), start) < 1000, "the read hangs"
                time.sleep_ms(1)
            buf[i] = one[0]
        return len(buf)


class FakePoll:
    def __init__(self, stdin):
        self.stdin = stdin

    def ipoll(self, timeout=0):
        return iter([(self.stdin, 1)] if self.stdin.data else [])


def usb(data):
    serial = hal.UsbSerial()
    serial._in = FakeStdin(data)
    serial._in.guard = serial._guard
    serial._poll = FakePoll(serial._in)
    return serial


def read_all(serial, size=1100):
    buf = bytearray(size)
    out = b""
    while True:
        n = serial.readinto(buf)
        if not n:
            return out
        out += bytes(buf[:n])


frame = P.encode_frame(P.LED_FRAME, 7, bytes([10, 20, 30] * 132))
serial = usb(frame + frame)
check(fake_os.terminals == [serial._guard], "the guard is stdin's second terminal")
got = read_all(serial)
decoded = P.FrameDecoder().feed(got)
check([f[1] for f in decoded] == [7, 7], "both frames read")
check(got.rstrip(b"\x00") == (frame + frame).rstrip(b"\x00"), "what came, then delimiters")
bright_calls = serial._in.calls
dark = P.encode_frame(P.LED_FRAME, 8, bytes(396))  # all zeros: every byte its own block
serial = usb(dark + dark)
got = read_all(serial)
check([f[1] for f in P.FrameDecoder().feed(got)] == [8, 8], "dark frames read whole")
check(serial._in.calls == bright_calls, "dark frames take as many reads as bright ones")
serial = usb(frame[:100])  # cut short: its COBS block says 250 more bytes follow
timers = FakeMachine.Timer.started
start = time.ticks_ms()
got = read_all(serial)
waited = time.ticks_diff(time.ticks_ms(), start)
check(got[:100] == frame[:100] and not got[100:].strip(b"\x00"), "the cut frame, then zeros")
check(hal.GUARD_MS <= waited < 200, f"a cut frame costs the guard's wait, not more ({waited} ms)")
check(FakeMachine.Timer.started == timers + 1, "one wake-up timer for the wait")
hello = P.encode_frame(P.HOST_HELLO, 0, P.encode_host_hello(99))
serial._in.data = hello
decoder = P.FrameDecoder()
decoder.feed(got)
check([f[0] for f in decoder.feed(read_all(serial))] == [P.HOST_HELLO], "the next frame is read")
check(serial._guard.readinto(bytearray(1)) is None, "the guard is quiet between reads")
check(serial._guard.write(b"abc") == 3, "what the firmware writes, the guard drops")

finish()

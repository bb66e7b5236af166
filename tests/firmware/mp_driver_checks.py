# The firmware's drivers against the simulated parts, under MicroPython (the unix port).
# Started by test_fw_micropython.py as
#     micropython mp_driver_checks.py FIRMWARE_DIR
# Prints "PASSED n" and exits 0, or prints each failure and exits 1.

import sys

sys.path.insert(0, sys.argv[1])

import config
import leds as L
import sim_devices as D
import sim_mfrc522 as M
from analog_mux import AnalogMuxBank
from debounce import Debouncer
from leds import LedStrip, estimate_ma
from mfrc522 import MFRC522, CardWatcher, crc_a
from mp_check import check, finish
from shift_in import ShiftInChain

# Config: both shipped boards, 112 channels and 132 LEDs
for name in ("presence", "colour"):
    cfg = config.load(sys.argv[1] + "/configs/" + name + ".json")
    check(cfg["channels"] == 112 and cfg["leds"]["count"] == 132, "config " + name)

# Debounce, across a tick wrap
try:
    from time import ticks_add
except ImportError:

    def ticks_add(a, b):
        return a + b


t0 = ticks_add(0, -2)
deb = Debouncer(3, 3)
deb.update([0, 0, 0], t0)
check(deb.update([1, 0, 0], t0) == [], "candidate")
check(deb.update([1, 0, 0], ticks_add(t0, 2)) == [], "not settled")
check(deb.update([1, 0, 0], ticks_add(t0, 3)) == [(0, 1)], "settled across wrap")

# LED brightness limit
pixels = D.SimNeoPixel(132)
strip = LedStrip(pixels, 132, 1500, 20, 1)
shown = strip.show(bytes([255]) * 396)
check(estimate_ma(shown, 20, 132) <= 1500, "limited")
check(pixels[0] == (shown[0], shown[1], shown[2]) and pixels.writes == 1, "written")

# Pixel packing: viper on this port, and the same bytes as the plain-Python path

check(L._pack is not None, "viper pixel packing available on the unix port")
frame = bytes([(i * 37) % 256 for i in range(396)])
fast = LedStrip(D.SimNeoPixel(132), 132, 1500, 20, 1)
slow = LedStrip(D.SimNeoPixel(132), 132, 1500, 20, 1)
for budget in (100000, 1500):
    fast.max_current_ma = slow.max_current_ma = budget
    a = fast.show(frame)
    slow._pack_python(frame, L.brightness_factor(frame, budget, 20, 132))
    check(a == bytes(slow._frame) and fast.pixels.buf == slow.pixels.buf, "viper = python")
check(fast.pixels.buf[0] == a[1] and fast.pixels.buf[1] == a[0] and a[1] != a[0], "GRB order")

# Presence chain
pins = D.SimPins()
spi = D.SimSPI()
chain = D.ShiftRegisterChain(14, 112, pins.get(13), True)
spi.attach(chain)
reader = ShiftInChain(spi, pins.get(13), 14, 112, True)
chain.set(0, 1)
chain.set(111, 1)
values, changed = reader.read()
check(changed and [i for i in range(112) if values[i]] == [0, 111], "shift chain")
check(reader.read()[1] is False, "shift chain unchanged")

# Colour muxes
select = [pins.get(p) for p in (7, 8, 9, 10)]
muxes = [(pins.get(11 + i), 26 + i // 3) for i in range(7)]
bank = D.MuxBank(select, muxes, 112)
bank.set(37, 50000)
adcs = {}
for pin in (26, 27, 28):
    adcs[pin] = D.SimADC(bank, pin)
scanner = AnalogMuxBank(select, [(e, adcs[a]) for e, a in muxes], 112, 0, 2)
values, _ = scanner.read()
check(values[37] == 50000 and values[36] == 32768, "muxes")

# Card reader
bus = D.SimSPI()
chip = M.SimMFRC522(pins.get(6))
bus.attach(chip, pins.get(5))
card_reader = MFRC522(bus, pins.get(5), pins.get(6))
check(card_reader.init() == 0x92, "reader version")
check(crc_a(b"\x50\x00") == b"\x57\xcd", "crc_a")
watcher = CardWatcher(card_reader, 2)
check(watcher.poll() is None, "no card")
for uid in ("01020304", "04a1b2c3d4e5f6", "00112233445566778899"):
    chip.present(M.SimCard(bytes.fromhex(uid)))
    check(watcher.poll() == bytes.fromhex(uid), "uid " + uid)
    check(watcher.poll() is None, "once " + uid)

finish()

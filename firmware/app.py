# The board firmware's main loop: scan the sensors, poll the card reader, show LED frames,
# talk to the Pi. Hardware comes from hal (the Pico's machine module, or the simulator), so
# this exact code runs on the board and under the MicroPython unix port in the tests.

import gc

import config as C
import hal
import protocol as P
from analog_mux import AnalogMuxBank
from debounce import Debouncer
from leds import LedStrip
from link import HostLink
from mfrc522 import MFRC522, CardWatcher
from shift_in import ShiftInChain

# major.minor follow the protocol this firmware speaks (protocol.PROTOCOL_MAJOR/MINOR: 1.1 added
# LED_SCENE, 1.2 the board's time of each sensor change); the last number counts releases of
# the same protocol.
FIRMWARE_VERSION = "1.2.0"

# The loop never sleeps longer than this, so the watchdog is fed well inside its timeout and
# heartbeats go out on time even on a quiet board.
MAX_SLEEP_MS = 50
# Time between acknowledging a RESET and doing it, so the ACK reaches the Pi first.
RESET_DELAY_MS = 50
# Writing LED frames may take at most 1/LED_SHARE of the board's time: after a write that took
# d ms the next waits (LED_SHARE - 1) * d ms. A frame arriving sooner waits, and a newer one
# replaces it unseen, so a flood of frames cannot starve the sensor scan, while frames that
# come one at a time are shown at once. (On a Pico a 132-LED write takes ~4 ms: at most ~60
# frames a second; the unix port writes in well under a millisecond.)
LED_SHARE = 4
# An animated scene (LED_SCENE) is drawn this often (25 times a second); a frame that did not
# change is not written again.
ANIMATION_MS = 40
# How often the heap is collected and its free size measured; the lowest goes out in every
# heartbeat (a collection takes a few milliseconds on a Pico).
MEMORY_CHECK_MS = 1000


def make_sensors(cfg):
    channels = cfg["channels"]
    if cfg["board"] == "presence":
        s = cfg["presence"]
        spi = hal.spi_bus(s["spi"], s["baudrate"], s["sck"], s["mosi"], s["miso"])
        load = hal.output_pin(s["load"], 1)
        return ShiftInChain(spi, load, s["chips"], channels, s["active_low"])
    c = cfg["colour"]
    select = [hal.output_pin(pin, 0) for pin in c["select"]]
    adcs = {}
    muxes = []
    for mux in c["muxes"]:
        enable = None
        if mux.get("enable") is not None:
            enable = hal.output_pin(mux["enable"], 1)
        if mux["adc"] not in adcs:
            adcs[mux["adc"]] = hal.adc_input(mux["adc"])
        muxes.append((enable, adcs[mux["adc"]]))
    return AnalogMuxBank(select, muxes, channels, c["settle_us"], c["samples"], hal.sleep_us)


def make_card_watcher(cfg):
    """(CardWatcher or None, error message or None)."""
    c = cfg["card_reader"]
    if c is None:
        return None, None
    spi = hal.spi_bus(c["spi"], c["baudrate"], c["sck"], c["mosi"], c["miso"])
    cs = hal.output_pin(c["cs"], 1)
    rst = hal.output_pin(c["rst"], 1) if c["rst"] is not None else None
    reader = MFRC522(spi, cs, rst)
    try:
        reader.init()
    except OSError as e:
        return None, "card reader: %s" % e
    return CardWatcher(reader, c["gone_after"]), None


class Board:
    def __init__(self, cfg):
        hal.setup(cfg)
        self.cfg = cfg
        now = hal.ticks_ms()
        channels = cfg["channels"]
        self.sensors = make_sensors(cfg)
        self.debouncer = Debouncer(channels, cfg["debounce_ms"], cfg["tolerance"])
        values, _ = self.sensors.read()
        self.debouncer.update(values, now)  # the first scan is the starting state
        leds = cfg["leds"]
        pixels = hal.neopixels(leds["pin"], leds["count"])
        self.strip = LedStrip(
            pixels,
            leds["count"],
            leds["max_current_ma"],
            leds["ma_per_channel"],
            leds["idle_ma_per_led"],
        )
        self.strip.clear()  # after a soft reset the LEDs still show the old frame
        self.cards, card_error = make_card_watcher(cfg)
        kind = P.KIND_PRESENCE if cfg["board"] == "presence" else P.KIND_COLOUR
        features = P.FEATURE_LED_SCENES
        if self.cards is not None:
            features |= P.FEATURE_CARD_READER
        hello = P.encode_hello(
            kind, features, channels, leds["count"], hal.random_u32(), FIRMWARE_VERSION
        )
        self.link = HostLink(
            hal.open_serial(),
            hello,
            now,
            hal.random_u32() & 0xFFFF,
            cfg["retransmit_ms"],
            cfg["heartbeat_ms"],
        )
        self.startup_errors = []
        if card_error:
            self.startup_errors.append((P.E_CARD_READER, card_error))
        if hal.reset_by_watchdog():
            self.startup_errors.append((P.E_WATCHDOG, "restarted by the watchdog"))
        self.reset_at = None
        self.leave_at = None  # when to stop the firmware for a maintenance session
        self.led_frame = None  # the newest LED frame (or decoded scene) not shown yet
        self.scene = None  # (base, effects, its time at scene_at) while the board animates
        self.scene_at = now
        self.scene_frame = bytearray(3 * cfg["leds"]["count"])
        self.scene_before = bytearray(len(self.scene_frame))
        # The newest LED frame, in a buffer allocated once (as long as the strip: a shorter
        # frame is padded with dark LEDs from _dark).
        self.frame_in = bytearray(len(self.scene_frame))
        self._dark = bytes(len(self.scene_frame))
        self.next_animation = now
        self.stale_frames = 0  # frames replaced by a newer one before they were shown
        self.next_show = now

    def show_leds(self, now):
        """Show the waiting LED frame or scene if the last write was long enough ago, or the
        animated scene's next picture when it is due."""
        if hal.ticks_diff(now, self.next_show) < 0:
            return
        frame = self.led_frame
        if frame is not None:
            self.led_frame = None
            self.scene = None
            if isinstance(frame, tuple):  # a scene: (phase, base, effects)
                phase, base, effects = frame
                if len(base) > len(self.scene_frame):
                    leds = len(self.scene_frame) // 3
                    message = "scene for %d LEDs, strip has %d" % (len(base) // 3, leds)
                    self.link.queue_error(P.E_LED_FRAME, message)
                    return
                base = base + bytes(len(self.scene_frame) - len(base))
                self.scene = (base, effects, phase)
                self.scene_at = now
                frame = self._render(now)
                self.next_animation = hal.ticks_add(now, ANIMATION_MS)
            self._write(frame, now)
            self.link.led_shown()
        elif self.scene is not None and self.scene[1]:
            if hal.ticks_diff(now, self.next_animation) < 0:
                return
            self.next_animation = hal.ticks_add(now, ANIMATION_MS)
            before = self.scene_before
            before[:] = self.scene_frame
            frame = self._render(now)
            if frame != before:
                self._write(frame, now)

    def _render(self, now):
        base, effects, phase = self.scene
        t = phase + hal.ticks_diff(now, self.scene_at)
        return P.render_scene(base, effects, t, self.scene_frame)

    def _write(self, frame, now):
        try:
            self.strip.show(frame)
        except ValueError as e:
            self.link.queue_error(P.E_LED_FRAME, str(e))
        done = hal.ticks_ms()
        self.next_show = hal.ticks_add(done, (LED_SHARE - 1) * hal.ticks_diff(done, now))

    def handle(self, mtype, payload, now):
        if mtype == P.LED_FRAME:
            if len(payload) % 3:
                self.link.queue_error(P.E_BAD_MESSAGE, "LED frame of %d bytes" % len(payload))
                self.link.led_shown()  # refused, but answered
                return
            size = len(self.frame_in)
            n = len(payload)
            if n > size:
                message = "frame for %d LEDs, strip has %d" % (n // 3, size // 3)
                self.link.queue_error(P.E_LED_FRAME, message)
                self.link.led_shown()
                return
            if self.led_frame is not None:
                self.stale_frames += 1
            frame = self.frame_in
            frame[:n] = payload
            if n < size:
                frame[n:] = memoryview(self._dark)[n:]
            self.led_frame = frame
        elif mtype == P.LED_SCENE:
            try:
                scene = P.decode_scene(payload)
            finally:
                self.link.led_shown()  # acknowledged either way: a bad one is reported
            if self.led_frame is not None:
                self.stale_frames += 1
            self.led_frame = scene
        elif mtype == P.SNAPSHOT_REQUEST:
            # Reported (debounced) values: every change before this point is already queued
            # ahead of the snapshot, every later one will follow it. A snapshot still waiting
            # its turn is replaced by this newer one: requests, however many, queue one.
            self.link.sender.drop_queued(P.SNAPSHOT)
            self.link.queue_snapshot(self.debouncer.values)
        elif mtype == P.RESET:
            if P.decode_reset(payload) == P.RESET_MAINTENANCE:
                try:
                    hal.request_maintenance()
                except OSError:
                    # The request could not be stored, so a reboot would come back into the
                    # firmware: leave for the REPL from here instead (after the ACK is out).
                    self.leave_at = hal.ticks_add(now, RESET_DELAY_MS)
                    return
            self.reset_at = hal.ticks_add(now, RESET_DELAY_MS)

    def scan(self, now):
        values, maybe_changed = self.sensors.read()
        changes = self.debouncer.update(values, now, maybe_changed)
        if changes:
            # Each with the board's time it first read the new value (its uptime in ms, the
            # heartbeat's clock): the Pi orders and times touches by it, not by when it reads.
            since = self.debouncer.since
            boot = self.link.boot
            timed = [(ch, v, hal.ticks_diff(since[ch], boot)) for ch, v in changes]
            self.link.queue_changes(timed)

    def run(self):
        cfg = self.cfg
        link = self.link
        ticks_ms = hal.ticks_ms
        ticks_diff = hal.ticks_diff
        ticks_add = hal.ticks_add
        link.send_hello()
        for code, message in self.startup_errors:
            link.queue_error(code, message)
        wdt = hal.watchdog(cfg["watchdog_ms"])  # started last: setup may take a while
        hal.ready(link)
        scan_ms = cfg["scan_interval_ms"]
        card_ms = cfg["card_reader"]["poll_ms"] if self.cards is not None else 0
        now = ticks_ms()
        next_scan = now
        next_card = now
        next_memory = now
        while True:
            now = ticks_ms()
            wdt.feed()
            for mtype, payload in link.receive(now):
                try:
                    self.handle(mtype, payload, now)
                except P.MessageError as e:  # a good CRC but a payload that makes no sense
                    link.queue_error(P.E_BAD_MESSAGE, str(e))
            if ticks_diff(now, next_scan) >= 0:
                self.scan(now)
                next_scan = ticks_add(now, scan_ms)
            self.show_leds(ticks_ms())
            if self.cards is not None and ticks_diff(now, next_card) >= 0:
                uid = self.cards.poll()
                if uid is not None:
                    link.queue_card(uid)
                next_card = ticks_add(ticks_ms(), card_ms)
            if self.reset_at is not None and ticks_diff(now, self.reset_at) >= 0:
                hal.reset()
            if self.leave_at is not None and ticks_diff(now, self.leave_at) >= 0:
                hal.stop_watchdog()
                return
            if ticks_diff(now, next_memory) >= 0:
                gc.collect()
                free = gc.mem_free()
                if link.mem_free_min is None or free < link.mem_free_min:
                    link.mem_free_min = free
                next_memory = ticks_add(ticks_ms(), MEMORY_CHECK_MS)
            link.service(now)
            now = ticks_ms()
            wait = min(ticks_diff(next_scan, now), link.wait_ms(now), MAX_SLEEP_MS)
            if self.cards is not None:
                wait = min(wait, ticks_diff(next_card, now))
            if self.reset_at is not None:
                wait = min(wait, ticks_diff(self.reset_at, now))
            if self.leave_at is not None:
                wait = min(wait, ticks_diff(self.leave_at, now))
            if self.led_frame is not None:
                wait = min(wait, ticks_diff(self.next_show, now))
            elif self.scene is not None and self.scene[1]:
                wait = min(wait, ticks_diff(self.next_animation, now))
            hal.wait(max(0, wait))


def run_unconfigured(message):
    """No usable config: still answer the Pi, so it shows the reason instead of silence."""
    hal.setup(None)
    now = hal.ticks_ms()
    hello = P.encode_hello(P.KIND_UNCONFIGURED, 0, 0, 0, hal.random_u32(), FIRMWARE_VERSION)
    link = HostLink(hal.open_serial(), hello, now, hal.random_u32() & 0xFFFF)
    link.send_hello()
    link.queue_error(P.E_CONFIG, message)
    wdt = hal.watchdog(C.MAX_WATCHDOG_MS)
    hal.ready(link)
    hellos = 0
    while True:
        now = hal.ticks_ms()
        wdt.feed()
        link.receive(now)
        link.led_shown()  # no LEDs to show: answer LED frames at once
        if link.host_hellos != hellos and not link.sender.has(P.ERROR):
            link.queue_error(P.E_CONFIG, message)  # tell every newly connected driver
        hellos = link.host_hellos
        link.service(now)
        hal.wait(min(link.wait_ms(hal.ticks_ms()), MAX_SLEEP_MS))


def main():
    hal.quiet_keyboard_interrupt()  # 0x03 bytes in frames must not raise KeyboardInterrupt
    try:
        cfg = C.validate(hal.load_config())
    except Exception as e:  # missing file, bad JSON, bad field: all end up in the ERROR
        run_unconfigured("config.json: %s" % e)
        return
    board = None
    try:
        board = Board(cfg)
        board.run()
    except Exception as e:
        # A bug must not leave a dead board: report it, then reboot into a clean state
        # (the Pi sees the new HELLO and asks for a snapshot).
        hal.log_exception(e)
        if board is not None:
            try:
                board.link.send_error_now(P.E_CRASH, "%s: %s" % (type(e).__name__, e))
            except Exception:
                pass
        hal.reset()

"""The firmware's sensor scan under a flood of LED frames, on the MicroPython unix port.

Two Pi-side senders against the simulated firmware over a real pty, for the same time each:

* ``raw``: what the companion used to do, every full 132-LED frame written at once at
  ``--rate`` frames/s, whatever the board acknowledged;
* ``driver``: the real SerialBoardLink, which sends a frame only when it changed and never
  before the board acknowledged the one before (coalescing to the newest).

Meanwhile a sensor toggles every 100 ms. Printed per run: the scan period (median and 99th
percentile, from the firmware's own clock), LED frames sent and shown, and how often the
same sensor report was sent (the raw client ACKs at once; the driver as it does).

Run:  .venv/bin/python benchmarks/led_flood.py [--seconds 5] [--rate 25] [--board presence]
Prints the figures; it is not a test. Goals: scan median within 2x of idle, no sensor report
sent more than twice. On a PC the unix port is far faster than a Pico: the emulated Pico
(benchmarks/pico_emulated.py) gives the board's real figures.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter

import serial

from pawnlight.devices.events import BoardEvent
from pawnlight.devices.serial_link import SerialBoardLink
from pawnlight.devices.sim.firmware import SimulatedFirmware
from pawnlight.firmware import protocol as P


def percentile(values: list[int], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def frame(level: int, leds: int) -> list[tuple[int, int, int]]:
    return [(level % 50, 50 - level % 50, 5)] * leds


class RawSender:
    """Handshake, then write frames without waiting; ACK every reliable frame at once."""

    def __init__(self, port: str) -> None:
        self.port = serial.Serial(port, timeout=0)
        self.decoder = P.FrameDecoder()
        self.reports: Counter[int] = Counter()
        self.seq = 0
        deadline = time.monotonic() + 10
        hello = False
        while not hello:
            if time.monotonic() > deadline:
                raise SystemExit("no HELLO from the simulated firmware")
            self.port.write(P.encode_frame(P.HOST_HELLO, 0, P.encode_host_hello(7)))
            time.sleep(0.05)
            hello = any(m == P.HELLO for m in self.pump())

    def pump(self) -> list[int]:
        types = []
        for mtype, seq, _payload in self.decoder.feed(self.port.read(65536)):
            types.append(mtype)
            if mtype in P.RELIABLE_TYPES:
                self.port.write(P.encode_frame(P.ACK, 0, P.encode_ack(mtype, seq)))
            if mtype == P.SENSOR_CHANGES:
                self.reports[seq] += 1
        return types

    def send(self, colours: list[tuple[int, int, int]]) -> None:
        self.seq = P.next_seq(self.seq)
        self.port.write(P.encode_frame(P.LED_FRAME, self.seq, P.encode_leds(colours)))

    def close(self) -> None:
        self.port.close()


def drive(sim: SimulatedFirmware, seconds: float, rate: float, send, pump) -> int:
    """Toggle a sensor every 100 ms and (rate > 0) send frames; returns frames sent."""
    start = time.monotonic()
    next_frame = next_toggle = start
    sent = toggles = 0
    while (now := time.monotonic()) - start < seconds:
        if rate and now >= next_frame:
            send(frame(sent, sim.led_count))
            sent += 1
            next_frame += 1 / rate
        if now >= next_toggle:
            toggles += 1
            values = (0, 1) if sim.kind == "presence" else (32768, 5000)  # empty, a red pawn
            sim.set_sensor(3, values[toggles % 2])
            next_toggle += 0.1
        pump()
        time.sleep(0.002)
    return sent


def report(name: str, periods: list[int], sent: int, shown: int, resent: int) -> None:
    print(
        f"  {name:<8} scan period median {statistics.median(periods):4.1f} ms, "
        f"p99 {percentile(periods, 0.99):5.1f} ms ({len(periods)} scans); "
        f"LED frames sent {sent}, shown {shown}; most sends of one sensor report: {resent}"
    )


def run(seconds: float, rate: float, board: str, write_ms: int) -> int:
    print(
        f"{board} board, {seconds:g} s per run, {rate:g} full frames/s offered, "
        f"each LED write taking {write_ms} ms"
    )
    with SimulatedFirmware(board, card_reader=False) as sim:
        sim.set_led_write_time(write_ms)
        raw = RawSender(sim.port)
        sim.sync()
        drive(sim, seconds, 0, raw.send, raw.pump)
        report("idle", list(sim.sync()["scans"]), 0, 0, max(raw.reports.values(), default=0))
        raw.reports.clear()
        shown_before = sim.led_writes
        sent = drive(sim, seconds, rate, raw.send, raw.pump)
        periods = list(sim.sync()["scans"])
        most = max(raw.reports.values(), default=0)
        report("raw", periods, sent, sim.led_writes - shown_before, most)
        raw.close()

    events: list[BoardEvent] = []
    with (
        SimulatedFirmware(board, card_reader=False) as sim,
        SerialBoardLink(events.append, sim.port) as link,
    ):
        link.wait_connected(10)
        sim.set_led_write_time(write_ms)
        sim.sync()
        shown_before = sim.led_writes
        frames_before = link.stats().frames_out
        retransmits_before = link.stats().board_retransmits
        sent = drive(sim, seconds, rate, link.send_leds, lambda: None)
        periods = list(sim.sync()["scans"])
        stats = link.stats()
        led_frames = sim.led_writes - shown_before
        print(
            f"  {'driver':<8} scan period median {statistics.median(periods):4.1f} ms, "
            f"p99 {percentile(periods, 0.99):5.1f} ms ({len(periods)} scans); "
            f"LED frames asked {sent}, shown {led_frames}; link frames out "
            f"{stats.frames_out - frames_before}; board retransmits "
            f"{stats.board_retransmits - retransmits_before}"
        )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rate", type=float, default=25.0, help="frames a second offered")
    parser.add_argument("--board", choices=("presence", "colour"), default="presence")
    parser.add_argument(
        "--led-write-ms",
        type=int,
        default=4,
        help="time one LED write takes (a Pico clocks 132 WS2812s out in ~4 ms; 0: the PC's)",
    )
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a few seconds' run that checks the benchmark still produces its figures (./test)",
    )
    args = parser.parse_args(argv)
    if args.smoke:
        args.seconds = 1.0
    if args.seconds <= 0 or args.rate <= 0 or args.led_write_ms < 0:
        parser.error("--seconds and --rate must be positive, --led-write-ms not negative")
    return run(args.seconds, args.rate, args.board, args.led_write_ms)


if __name__ == "__main__":
    sys.exit(main())

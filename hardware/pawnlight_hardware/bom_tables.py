"""The parts of hardware/bom.md measured on the board: the LED chain's power feeds and the
wire to buy, from hardware/wiring.toml, the board geometry and the hub's place under the deck
(:mod:`.underside`).  :mod:`.docs` writes them between the ``feeds`` and ``wire`` markers, and
also gives the counts the BOM's quantities are checked against (tests/hardware/test_bom.py).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

from pawnlight.board import geometry
from pawnlight.board.cells import parse_cell_name
from pawnlight.board.layout import CHANNELS

from . import feeds, underside
from .power import SPARE_POSITIONS, TERMINAL_BLOCKS, blocks_for, rail_connections
from .wiring import BoardWiring, Wiring

#: Spares to order of the parts that die of a hot iron: sensors and their capacitors.
SPARE = 1.10
LED_PACK = 100


def _metres(mm: float) -> str:
    return f"{mm / 1000:.1f} m"


def _buy(mm: float) -> int:
    """Whole metres, with 20 % for routing round the other wiring."""
    return math.ceil(mm * 1.2 / 1000)


def feeds_markdown(wiring: Wiring, config: dict[str, Any]) -> str:
    leds = config["leds"]
    budget, led_max = leds["max_current_ma"], 3 * leds["ma_per_channel"]
    net = feeds.network(wiring.led_chain, wiring.power_injection)
    drops = feeds.worst_drops(net, budget, led_max)
    worst = max(range(len(drops)), key=drops.__getitem__)
    lines = [
        f"| feed | at | pair length ({feeds.FEED_WIRE}) | worst drop at that LED |",
        "|---:|---|---:|---:|",
    ]
    for index in wiring.power_injection:
        lines.append(
            f"| LED {index} | {wiring.led_chain[index]} | "
            f"{net.feed_lengths_mm[index]:.0f} mm | {drops[index]:.2f} V |"
        )
    lines += [
        "",
        f"Worst LED: **{worst}** ({wiring.led_chain[worst]}), **{drops[worst]:.2f} V** below the "
        f"hub with all {budget} mA the firmware allows drawn where it hurts most "
        f"(at most {led_max} mA an LED); the limit is {feeds.MAX_DROP_V:.2f} V.",
    ]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Harness:
    chip: str
    places: tuple[str, ...]
    length_mm: float  # from the hub to its farthest sensor, along the axes, plus 10 cm


def harnesses(board: BoardWiring, wiring: Wiring) -> list[Harness]:
    hub = underside.CENTRE_MM
    size = wiring.harness_positions
    found = []
    for chip in board.chips:
        for first in range(0, len(chip.inputs), size):
            places = tuple(name for name in chip.inputs[first : first + size] if name != "-")
            far = max(
                abs(x - hub[0]) + abs(y - hub[1])
                for x, y in (geometry.SENSORS_MM[parse_cell_name(n)] for n in places)
            )
            found.append(Harness(chip.ref, places, far + 100))
    return found


def sensor_bus_mm(board: BoardWiring, wiring: Wiring) -> float:
    """One sensor bus (VCC or GND): from the hub along each harness's sensors in input order."""
    hub = underside.CENTRE_MM
    total = 0.0
    for harness in harnesses(board, wiring):
        points = [geometry.SENSORS_MM[parse_cell_name(n)] for n in harness.places]
        total += abs(points[0][0] - hub[0]) + abs(points[0][1] - hub[1])
        total += sum(math.dist(a, b) for a, b in itertools.pairwise(points))
    return total


def led_links_mm(wiring: Wiring) -> float:
    points = [geometry.led_hole_mm(name) for name in wiring.led_chain]
    return sum(feeds.link_length_mm(a, b) for a, b in itertools.pairwise(points))


def wire_markdown(wiring: Wiring) -> str:
    net = feeds.network(wiring.led_chain, wiring.power_injection)
    feed_mm = sum(net.feed_lengths_mm.values())
    links = led_links_mm(wiring)
    cable = underside.usb_cable()
    lines = [
        "| wire | for | measured | buy |",
        "|---|---|---:|---:|",
        f"| {feeds.FEED_WIRE} (20 AWG) stranded, red and black | the {len(net.feeds)} LED feed "
        f"pairs, terminal blocks to LEDs {', '.join(str(i) for i in net.feeds)} | "
        f"{_metres(feed_mm)} of each colour | {_buy(feed_mm)} m red, {_buy(feed_mm)} m black |",
        f"| 3-core {feeds.LINK_WIRE} (5 V, data, GND) | the LED chain's "
        f"{len(wiring.led_chain) - 1} links and hops | {_metres(links)} | {_buy(links)} m |",
    ]
    for board in wiring.boards.values():
        found = harnesses(board, wiring)
        ribbon = sum(h.length_mm for h in found)
        bus = sensor_bus_mm(board, wiring)
        lines.append(
            f"| {wiring.harness_positions}-way ribbon, 1.27 mm pitch, 28 AWG | {board.sensing} "
            f"board: {len(found)} sensor harnesses, hub to the farthest sensor + 10 cm | "
            f"{_metres(ribbon)} | {_buy(ribbon)} m |"
        )
        lines.append(
            f"| 24 AWG solid, insulated (VCC) and tinned bare (GND) | {board.sensing} board: "
            f"the sensors' buses along each harness's places | {_metres(bus)} each | "
            f"{_buy(bus)} m of each |"
        )
    lines.append(
        f"| USB-A to micro-B, data (not charge-only) | the Pico to the Pi: "
        f"{cable.to_edge_mm:.0f} mm to the edge, {cable.through_frame_mm:.0f} mm of frame, "
        f"{cable.to_pi_mm:.0f} mm into the Pi's box, 25 % slack | {_metres(cable.needed_mm)} | "
        f"{cable.buy_mm / 1000:g} m |"
    )
    return "\n".join(lines) + "\n"


# -- what the BOM's quantities must be (tests/hardware/test_bom.py) --------------------------


def counts(wiring: Wiring, sensing: str) -> dict[str, int]:
    """Every quantity of one board's BOM that follows from the wiring and the geometry, as
    ordered (spares included)."""
    board = wiring.boards[sensing]
    chips = len(board.chips)
    per_chip = board.inputs_per_chip
    harness_count = chips * (per_chip // wiring.harness_positions)
    wires = rail_connections(sensing, wiring.power_injection)
    blocks = blocks_for(len(wires) + SPARE_POSITIONS)
    found = {
        "sensors": math.ceil(CHANNELS * SPARE),
        "chips": chips,
        "networks": chips * per_chip // 8,  # 9-pin bussed networks: 8 resistors each
        # 100 nF: one per sensor (with spares), one per chip and one at the 74AHCT125.
        "capacitors": math.ceil(CHANNELS * SPARE) + chips + 1,
        "led_packs": math.ceil(len(wiring.led_chain) * SPARE / LED_PACK),
        "harness_housings": harness_count,
        "harness_headers": harness_count,
        "crimps": math.ceil(harness_count * wiring.harness_positions * SPARE),
        "cups": 80,
        "trays": 8,
        "feet": len(underside.feet()),
        "panel_screws": len(underside.panel_screws()),
    }
    for size in TERMINAL_BLOCKS:
        found[f"wago_{TERMINAL_BLOCKS[size]}"] = 2 * blocks.count(size)  # two rails
    return found

"""The 5 V power budget: what the supply must deliver, from the firmware's LED limit up.

The LEDs are the big load, and the firmware caps them: before a frame is shown it estimates
its current (including the dark LEDs' idle draw) and dims the whole frame to stay under
``leds.max_current_ma`` (docs/firmware.md).  So the supply is sized from that number, read
from the firmware config, plus everything else on the 5 V rail.  The table in hardware/bom.md
is generated from here; a test fails when the config changes and the table does not.

3.3 V loads are counted at their own current on the 5 V rail, as if through a linear
regulator (the Pico's regulator is a buck-boost, so this overestimates a little); the colour
board's sensors have their own 3.3 V buck converter, counted with its efficiency.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

SENSORS = 112
HEADROOM = 1.25  # buy 25 % more than the worst case: supplies sag when warm and old
#: Common 5 V supplies, amps.
SUPPLY_SIZES_A = (2, 3, 4, 5, 6, 8, 10)
BUCK_EFFICIENCY = 0.85

#: Raspberry Pi boards, busy (all cores, Wi-Fi), with nothing on USB but the Pico, mA at 5 V.
PI_MODELS: dict[str, int] = {"Raspberry Pi Zero 2 W": 600, "Raspberry Pi 4 B": 1400}


@dataclass(frozen=True)
class Load:
    name: str
    ma: float  # at 5 V
    why: str


def sensor_loads(sensing: str) -> list[Load]:
    if sensing == "presence":
        return [
            Load(
                "hall switches",
                SENSORS * 0.002,
                "112 x DRV5032FA, 2 µA average each (they sample at 20 Hz)",
            ),
            Load("shift registers", 14 * 0.08, "14 x 74HC165, 80 µA each at most"),
        ]
    volts = 3.3
    each_ma = 10  # DRV5055: 6 mA typical, 10 mA at most
    at_5v = SENSORS * each_ma * volts / 5 / BUCK_EFFICIENCY
    return [
        Load(
            "analog hall sensors",
            at_5v,
            f"112 x DRV5055 at 10 mA (most) on 3.3 V = {SENSORS * each_ma} mA, through the "
            f"3.3 V buck: {SENSORS * each_ma} x 3.3 / 5 / {BUCK_EFFICIENCY}",
        ),
        Load("multiplexers", 7 * 0.08, "7 x CD74HC4067, 80 µA each at most"),
    ]


def board_loads(sensing: str, config: dict[str, Any]) -> list[Load]:
    """Everything on the 5 V rail but the Raspberry Pi."""
    leds = config["leds"]
    return [
        Load(
            "WS2812B LEDs",
            leds["max_current_ma"],
            "leds.max_current_ma of the firmware config: every frame is dimmed to stay under "
            f"it ({leds['count'] * leds['idle_ma_per_led']} mA of it the dark LEDs' idle draw)",
        ),
        *sensor_loads(sensing),
        Load("Pico", 50, "RP2040 and flash, 25 mA typical"),
        Load("card reader", 30, "MFRC522 module while reading, on 3.3 V"),
        Load("level shifter", 1, "74AHCT125"),
        Load("buzzer and status LED", 35, "30 mA active buzzer, 5 mA LED"),
    ]


def supply_amps(total_ma: float) -> int:
    """The smallest common supply that carries ``total_ma`` with the headroom."""
    needed = total_ma * HEADROOM / 1000
    for amps in SUPPLY_SIZES_A:
        if amps >= needed:
            return amps
    return math.ceil(needed)


def _ma(value: float) -> str:
    return f"{value:,.0f}" if value >= 10 else f"{value:.1f}"


def budget_markdown(configs: dict[str, dict[str, Any]]) -> str:
    """The power budget of each board kind, as a Markdown table with its arithmetic."""
    kinds = list(configs)
    loads = {kind: board_loads(kind, configs[kind]) for kind in kinds}
    names: list[str] = []
    for kind in kinds:
        names += [load.name for load in loads[kind] if load.name not in names]
    lines = [
        "| load (mA at 5 V) | " + " | ".join(f"{k} board" for k in kinds) + " | from |",
        "|---|" + "---:|" * len(kinds) + "---|",
    ]
    for name in names:
        cells, why = [], ""
        for kind in kinds:
            load = next((x for x in loads[kind] if x.name == name), None)
            cells.append(_ma(load.ma) if load else "-")
            if load and load.why not in why:
                why = f"{why}; {load.why}" if why else load.why
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {why} |")
    subtotal = {kind: sum(load.ma for load in loads[kind]) for kind in kinds}
    lines.append(
        "| **board, without the Pi** | "
        + " | ".join(f"**{_ma(subtotal[k])}**" for k in kinds)
        + " | |"
    )
    for pi, pi_ma in PI_MODELS.items():
        cells = []
        for kind in kinds:
            total = subtotal[kind] + pi_ma
            amps = supply_amps(total)
            cells.append(f"{_ma(total)} x {HEADROOM} = {_ma(total * HEADROOM)} → **5 V {amps} A**")
        lines.append(f"| with a {pi} (+{pi_ma}) | " + " | ".join(cells) + " | busy, Wi-Fi on |")
    return "\n".join(lines) + "\n"


# -- the terminal blocks ----------------------------------------------------------------------

#: Lever terminal blocks one can buy: positions -> WAGO part number.
TERMINAL_BLOCKS: dict[int, str] = {5: "221-415", 3: "221-413", 2: "221-412"}


def rail_connections(sensing: str, injection: tuple[int, ...]) -> list[str]:
    """Every wire on the 5 V rail's terminal block (the GND rail's block has the same ones)."""
    found = [
        "the supply, through the fuse",
        "the Pi's USB power lead",
        "the hub (74AHCT125, 1000 µF)",
    ]
    found += [f"LED {i}'s feed pair" for i in injection]
    if sensing == "colour":
        found.append("the 3.3 V buck converter's input")
    return found


SPARE_POSITIONS = 1  # for a meter's probe, or a feed added later


def blocks_for(positions: int) -> list[int]:
    """The fewest lever blocks (largest first) with at least ``positions`` positions; callers
    add ``SPARE_POSITIONS``."""
    if positions <= 0:
        raise ValueError("a rail needs at least one position")
    sizes = sorted(TERMINAL_BLOCKS, reverse=True)
    chosen: list[int] = []
    left = positions
    while left > 0:
        fits = [size for size in sorted(sizes) if size >= left]
        size = fits[0] if fits else sizes[0]
        chosen.append(size)
        left -= size
    return chosen

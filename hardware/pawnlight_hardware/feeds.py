"""Where the LED chain's 5 V and GND are fed in: a resistive model of the chain's wires.

The 132 WS2812B share one 5 V and one GND wire, LED to LED along the chain (26 AWG in the
3-core links, the hops' cables the same), and pairs of thicker feed wires (0.5 mm²) run from the
hub's terminal blocks to a few LEDs (``power_injection`` in hardware/wiring.toml).  Every LED
draws at most 3 x ``ma_per_channel`` (full white), and the firmware holds the whole chain under
``max_current_ma``; nothing stops it putting that whole budget on the LEDs farthest from a
feed.  So the worst drop at an LED is the largest over every way of spending the budget: with
the network's transfer resistances ``Z[k][j]`` (volts at LED k per ampere drawn at LED j, both
conductors counted) that is the budget poured on the LEDs with the largest ``Z[k][j]`` first
(a fractional knapsack: exact for a linear network).

The chain is a path, and each feed a resistor from one of its LEDs to the hub, so the
conductance matrix is tridiagonal and every solve is a Thomas sweep: no numpy needed.
``hardware/bom.md``'s feed table is generated from here, and a test fails when the feeds in
wiring.toml let any LED drop more than ``MAX_DROP_V``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from pawnlight.board import geometry

from . import underside

#: Copper resistance per metre of one conductor.
OHM_PER_M = {"26 AWG": 0.1339, "0.5 mm²": 0.0356, "0.75 mm²": 0.0237}
LINK_WIRE = "26 AWG"
FEED_WIRE = "0.5 mm²"
#: A link between neighbouring LEDs is longer than the straight line: bends and solder tails.
LINK_ROUTING = 1.15
LINK_EXTRA_MM = 10.0
#: Feed wires run along the board's axes (around the other wiring) plus this for the ends.
FEED_EXTRA_MM = 50.0
#: The most an LED's 5 V may sag below the hub's, 5 %: LEDs across the board then show the
#: same colour at the same setting (blue dims first as the supply falls; a WS2812B works down
#: to 3.5 V but not evenly), and the firmware's current estimate, made for 5 V, holds.
MAX_DROP_V = 0.25


@dataclass(frozen=True)
class Network:
    """The chain's wiring as resistances (ohms, both conductors)."""

    links: tuple[float, ...]  # links[i]: between LED i and LED i + 1
    feeds: dict[int, float]  # LED index -> its feed pair's resistance to the hub
    feed_lengths_mm: dict[int, float]


def link_length_mm(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.dist(a, b) * LINK_ROUTING + LINK_EXTRA_MM


def feed_length_mm(point: tuple[float, float]) -> float:
    hub = underside.TERMINALS_MM
    return abs(point[0] - hub[0]) + abs(point[1] - hub[1]) + FEED_EXTRA_MM


def network(chain: Sequence[str], injection: Sequence[int]) -> Network:
    points = [geometry.led_hole_mm(name) for name in chain]
    per_m = 2 * OHM_PER_M[LINK_WIRE] / 1000
    links = tuple(link_length_mm(points[i], points[i + 1]) * per_m for i in range(len(points) - 1))
    lengths = {i: feed_length_mm(points[i]) for i in injection}
    feeds = {i: length * 2 * OHM_PER_M[FEED_WIRE] / 1000 for i, length in lengths.items()}
    return Network(links, feeds, lengths)


def _solve(net: Network, current_at: int) -> list[float]:
    """The drop (V) at every LED with 1 A drawn at LED ``current_at`` (Thomas algorithm on the
    tridiagonal conductance matrix)."""
    n = len(net.links) + 1
    g = [1 / r for r in net.links]
    diag = [0.0] * n
    for i in range(n):
        if i > 0:
            diag[i] += g[i - 1]
        if i < n - 1:
            diag[i] += g[i]
        if i in net.feeds:
            diag[i] += 1 / net.feeds[i]
    off = [-x for x in g]  # the same above and below the diagonal
    rhs = [0.0] * n
    rhs[current_at] = 1.0
    c = [0.0] * n
    d = [0.0] * n
    c[0] = off[0] / diag[0] if n > 1 else 0.0
    d[0] = rhs[0] / diag[0]
    for i in range(1, n):
        m = diag[i] - off[i - 1] * c[i - 1]
        c[i] = off[i] / m if i < n - 1 else 0.0
        d[i] = (rhs[i] - off[i - 1] * d[i - 1]) / m
    x = [0.0] * n
    x[-1] = d[-1]
    for i in range(n - 2, -1, -1):
        x[i] = d[i] - c[i] * x[i + 1]
    return x


def transfer(net: Network) -> list[list[float]]:
    """``Z[k][j]``: volts of drop at LED k per ampere at LED j (symmetric)."""
    if not net.feeds:
        raise ValueError("the chain has no power feed")
    columns = [_solve(net, j) for j in range(len(net.links) + 1)]
    return [[columns[j][k] for j in range(len(columns))] for k in range(len(columns))]


@dataclass(frozen=True)
class Drop:
    led: int
    volts: float


def worst_drops(net: Network, budget_ma: float, led_max_ma: float) -> list[float]:
    """The largest drop at each LED over every way of drawing ``budget_ma`` from the chain
    with no LED above ``led_max_ma``."""
    z = transfer(net)
    found = []
    for row in z:
        left, drop = budget_ma / 1000, 0.0
        for r in sorted(row, reverse=True):
            take = min(left, led_max_ma / 1000)
            drop += r * take
            left -= take
            if left <= 0:
                break
        found.append(drop)
    return found


def worst(net: Network, budget_ma: float, led_max_ma: float) -> Drop:
    drops = worst_drops(net, budget_ma, led_max_ma)
    led = max(range(len(drops)), key=drops.__getitem__)
    return Drop(led, drops[led])


def feed_currents_ma(net: Network, budget_ma: float) -> dict[int, float]:
    """The most current each feed pair can carry: the whole budget, at worst (all of it drawn
    next to that feed), so every feed wire is sized for it."""
    return {i: budget_ma for i in net.feeds}


def suggest(chain: Sequence[str], budget_ma: float, led_max_ma: float, start: Sequence[int] = (0,),
            limit: float = MAX_DROP_V) -> list[int]:  # fmt: skip
    """Feeds, added one at a time where they lower the worst drop most, until every LED stays
    within ``limit``: how the feeds in wiring.toml were chosen (slow: seconds)."""
    chosen = sorted(set(start))
    while True:
        net = network(chain, chosen)
        now = worst(net, budget_ma, led_max_ma)
        if now.volts <= limit:
            return chosen
        best: tuple[float, int] | None = None
        # The worst LED's neighbourhood is where a feed helps: try every LED within 30 of it.
        for candidate in range(max(0, now.led - 30), min(len(chain), now.led + 31)):
            if candidate in chosen:
                continue
            trial = worst(network(chain, sorted([*chosen, candidate])), budget_ma, led_max_ma)
            if best is None or trial.volts < best[0]:
                best = (trial.volts, candidate)
        if best is None:
            raise ValueError("no feed placement keeps the chain within the limit")
        chosen = sorted([*chosen, best[1]])

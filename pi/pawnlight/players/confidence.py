"""Win rates with honest error bars."""

from __future__ import annotations

import math

Z95 = 1.959963984540054  # the normal quantile for a two-sided 95% interval


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion.

    Unlike the textbook p ± z·sqrt(p(1-p)/n) it stays inside [0, 1] and is not absurdly narrow
    when a player wins almost always or almost never.
    """
    if trials <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= trials:
        raise ValueError("successes must be between 0 and trials")
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # At 0 or all successes the bound is exactly 0 or 1; rounding must not put it past the rate.
    low = 0.0 if successes == 0 else max(0.0, min(p, centre - half))
    high = 1.0 if successes == trials else min(1.0, max(p, centre + half))
    return low, high

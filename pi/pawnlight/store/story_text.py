"""``pawnlight games story ID`` as text: the chances after every turn, the turning points and the
moves that cost most, in the words the page uses (no square codes)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..terminal_text import wrap


def story_lines(story: Mapping[str, Any]) -> list[str]:
    turns = story["turns"]
    estimator = story["estimator"]
    colours = list(turns[0]["chances"]) if turns else []
    winners = [c for c in colours if turns and turns[-1]["chances"][c] == 1]
    lines = wrap(
        f"game {story['game']}: {' and '.join(winners) or 'nobody'} won in {len(turns)} turns. "
        f"Chances of winning by the {estimator['name']}, accurate to about "
        f"{round(estimator['error'] * 100)} points."
    )
    lines.append("")
    lines.append(f"{'turn':>5}  {'colour':<7} {'card':<6}" + "".join(f"{c:>8}" for c in colours))
    for turn in turns:
        chances = "".join(f"{round(turn['chances'][c] * 100):>7}%" for c in colours)
        lines.append(f"{turn['turn']:>5}  {turn['colour']:<7} {turn['card']:<6}{chances}")
    lines.append("")
    lines.append("The turning points:")
    for point in story["turning_points"]:
        lines += wrap(point["words"], f"{point['turn']:>5}. ", " " * 7)
    lines.append("")
    costly = story["costly_moves"]
    if costly:
        lines.append("The moves that cost most:")
        for move in costly:
            lines += wrap(move["words"], f"{move['turn']:>5}. ", " " * 7)
    else:
        lines += wrap("No move of a person cost more than the estimate's error: nothing to regret.")
    return lines

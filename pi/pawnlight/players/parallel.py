"""Many independent games on several cores, results in the order asked for.

Every game carries its own seeds, so the results do not depend on how many processes ran them
or which finished first: ``--jobs 1`` and ``--jobs 2`` print the same numbers.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")


def default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)


def run_all(
    work: Callable[[Item], Result], items: Iterable[Item], jobs: int = 1
) -> Iterator[Result]:
    """``work(item)`` for every item, in order; in ``jobs`` processes when more than one."""
    if jobs <= 1:
        yield from map(work, items)
        return
    # forkserver (Python 3.14's default on Linux): forking this process, which has threads,
    # may deadlock a child, and Python 3.12+ warns that it does.
    context = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        yield from pool.map(work, items, chunksize=4)

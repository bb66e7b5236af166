"""Fixtures shared by every test directory: a clock moved by hand, the browser, a phone page.

Helpers that tests import are in tests/helpers.py (and each directory's helpers.py); a
directory's own conftest.py holds only the fixtures used there alone.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator

import pytest

from .helpers import CHROMIUM, CHROMIUM_ARGS, PHONE, ManualClock

#: What only one worker should make or run at a time, each in its own pytest-xdist group: with
#: ``--dist loadgroup`` (./test) one worker runs a group's tests one after another while the
#: others go on with the rest.  Before, each worker reaching such a test waited on a lock, and
#: with two of three workers asleep on it a core stood idle (docs/testing.md, 'The time budget').
#: The emulated RP2040s (each keeps a core busy), the parts' OpenSCAD renders and the routed
#: strips (tests/hardware/conftest.py, made once per run).
GROUPED_FIXTURES = {"build_files": "hardware-parts", "pcb_written": "hardware-pcb"}


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups into the test ids
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow tests first.  pytest-xdist hands tests to its workers in this order (its groups
    first, the biggest first), so the long ones (whole games, evenings) start at once and the
    short ones fill the gaps beside them, instead of one long test starting last and running on
    alone.  Each test that needs one of GROUPED_FIXTURES or an emulated chip joins its group."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)  # stable: else as found
    for item in items:
        if item.get_closest_marker("emulated_chip") is not None:
            item.add_marker(pytest.mark.xdist_group("emulated-chip"))
        for fixture, group in GROUPED_FIXTURES.items():
            if fixture in getattr(item, "fixturenames", ()):
                item.add_marker(pytest.mark.xdist_group(group))


@pytest.fixture(scope="module", autouse=True)
def _one_emulated_chip_at_a_time(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[None]:
    """Tests marked ``emulated_chip`` (a whole module of them, or one test) take turns across the
    pytest-xdist workers: an emulated RP2040 keeps a core busy for as long as it runs, and two or
    three side by side starved the whole games and browsers beside them into timeouts.  The
    workers waiting for their turn only sleep, so the other tests, most of which wait on simulated
    hands and settle times rather than the CPU, fill the cores (docs/testing.md, 'The time
    budget').  Held for a module's lifetime: its chip runs between its tests too."""
    if request.node.get_closest_marker("emulated_chip") is None:
        yield
        return
    with _emulated_chip_turn(tmp_path_factory):
        yield


@pytest.fixture(autouse=True)
def _one_emulated_chip_test_at_a_time(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[None]:
    """The same turn for a single test marked ``emulated_chip`` in a module that is not."""
    marks = getattr(request.module, "pytestmark", [])
    module_marked = any(
        m.name == "emulated_chip" for m in (marks if isinstance(marks, list) else [marks])
    )
    if module_marked or request.node.get_closest_marker("emulated_chip") is None:
        yield
        return
    with _emulated_chip_turn(tmp_path_factory):
        yield


@contextlib.contextmanager
def _emulated_chip_turn(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """An exclusive lock on a file in this run's folder, shared by its xdist workers (without
    xdist there is one process, and no one to take turns with)."""
    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        yield
        return
    with open(tmp_path_factory.getbasetemp().parent / "emulated-chip.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, on a failure too
        yield


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is missing (./test installs Debian's chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def phone(browser) -> Iterator:
    """A fresh phone-sized page; fails the test if the page's script throws."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    context.set_default_timeout(30_000)  # a hang guard: CI's busiest minute took 10 s for a picture
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield page
    finally:
        context.close()
    assert not errors, f"errors in the page's script: {errors}"

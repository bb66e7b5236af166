"""Fixtures shared by every test directory: a clock moved by hand, the browser, a phone page.

Helpers that tests import are in tests/helpers.py (and each directory's helpers.py); a
directory's own conftest.py holds only the fixtures used there alone.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from .helpers import CHROMIUM, CHROMIUM_ARGS, PHONE, ManualClock


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow tests first.  pytest-xdist hands tests to its workers in this order, so the long
    ones (whole games, evenings, the emulated Pico) start at once and the short ones fill the
    gaps beside them, instead of one long test starting last and running on alone (docs/testing.md,
    'The time budget')."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)  # stable: else as found


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
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield page
    finally:
        context.close()
    assert not errors, f"errors in the page's script: {errors}"

"""Fixtures for the board link tests: simulated firmware on a pty, a driver, an event log."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pawnlight.devices.link_session import LinkSettings
from pawnlight.devices.serial_link import SerialBoardLink
from pawnlight.devices.sim.firmware import SimulatedFirmware

from .helpers import WAIT, EventRecorder


@pytest.fixture
def recorder() -> EventRecorder:
    return EventRecorder()


@pytest.fixture
def sim() -> Iterator[SimulatedFirmware]:
    with SimulatedFirmware("presence") as firmware:
        yield firmware


@pytest.fixture
def colour_sim() -> Iterator[SimulatedFirmware]:
    with SimulatedFirmware("colour") as firmware:
        yield firmware


@pytest.fixture
def fast_settings() -> LinkSettings:
    """Short reconnect backoff so reconnect tests finish quickly."""
    return LinkSettings(reconnect_min=0.02, reconnect_max=0.2)


@pytest.fixture
def link(
    sim: SimulatedFirmware, recorder: EventRecorder, fast_settings: LinkSettings
) -> Iterator[SerialBoardLink]:
    """A driver connected to the presence simulator, past its first snapshot."""
    from pawnlight.devices.events import SensorSnapshot

    with SerialBoardLink(recorder, sim.port, settings=fast_settings) as driver:
        driver.wait_connected(WAIT)
        recorder.wait_for(lambda e: isinstance(e, SensorSnapshot))
        yield driver

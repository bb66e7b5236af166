"""Finding the board's serial port among the Pi's USB devices."""

from __future__ import annotations

from collections.abc import Iterable

from serial.tools import list_ports
from serial.tools.list_ports_common import ListPortInfo

# MicroPython's RP2040 port enumerates as Raspberry Pi's vendor id with product 0x0005.
PICO_VID = 0x2E8A
MICROPYTHON_PIDS = (0x0005,)


def find_pico_port(
    ports: Iterable[ListPortInfo] | None = None,
    *,
    vid: int = PICO_VID,
    pids: Iterable[int] | None = MICROPYTHON_PIDS,
    serial_number: str | None = None,
) -> str | None:
    """The device path of the first matching Pico, or None.

    ``ports`` defaults to what ``serial.tools.list_ports.comports()`` sees now. Matches by
    USB vendor id and (unless ``pids`` is None) product id, and optionally by serial number
    when several boards are plugged in. The result is stable: the lowest path wins.
    """
    if ports is None:
        ports = list_ports.comports()
    wanted = None if pids is None else set(pids)
    matches = [
        port.device
        for port in ports
        if port.vid == vid
        and (wanted is None or port.pid in wanted)
        and (serial_number is None or port.serial_number == serial_number)
    ]
    return min(matches) if matches else None

"""The Raspberry Pi Pico's footprint, made in code (KiCad 6's library has none).

The Pico plugs into two 20-way 2.54 mm sockets (hardware/bom.md), so its footprint is the
sockets' holes: 2 x 20 through-hole pads, 2.54 mm apart along a row, the two rows 17.78 mm
(0.7 in) apart, numbered as the Pico datasheet's pinout: 1-20 down the left row (pin 1 at the
top, by the USB socket), 21-40 up the right row, so pin 40 faces pin 1.  Its courtyard is the
Pico's own board, 51 x 21 mm, centred on the pads.  The footprint's origin is pin 1, as KiCad's
DIP footprints have it.
"""

from __future__ import annotations

from typing import Any

from .circuit import CircuitError

LIB_ID = "pawnlight:RaspberryPi_Pico"
PINS = 40
PITCH_MM = 2.54
ROW_SPACING_MM = 17.78
BOARD_MM = (21.0, 51.0)  # width (across the rows), length (along them)
PAD_MM = 1.7
DRILL_MM = 1.0
#: The pads' centre, from pin 1.
CENTRE_MM = (ROW_SPACING_MM / 2, PITCH_MM * (PINS // 2 - 1) / 2)


def pin_position(pin: int) -> tuple[float, float]:
    """Where a pin's pad lies, in mm from pin 1 (x to the right, y down)."""
    if not 1 <= pin <= PINS:
        raise ValueError(f"the Pico has pins 1 to {PINS}, not {pin}")
    half = PINS // 2
    if pin <= half:
        return 0.0, round(PITCH_MM * (pin - 1), 4)
    return ROW_SPACING_MM, round(PITCH_MM * (PINS - pin), 4)


def pico_footprint() -> Any:
    """The footprint as a kiutils Footprint (pads, courtyard, outline on the silkscreen and the
    assembly drawing, a pin-1 mark)."""
    try:
        from kiutils.footprint import DrillDefinition, Footprint, Pad
        from kiutils.items.common import Position
        from kiutils.items.fpitems import FpLine
    except ImportError:
        raise CircuitError("kiutils is not installed: pip install -e 'hardware[pcb]'") from None

    footprint = Footprint.create_new(LIB_ID, "Raspberry Pi Pico")
    footprint.tedit = "00000000"  # the same footprint every time
    footprint.description = (
        "Raspberry Pi Pico in two 20-way 2.54 mm sockets, rows 17.78 mm apart (pawnlight)"
    )
    footprint.tags = "Raspberry Pi Pico RP2040 socket"
    footprint.attributes.type = "through_hole"
    cx, cy = CENTRE_MM
    width, length = BOARD_MM
    left, right = round(cx - width / 2, 4), round(cx + width / 2, 4)
    top, bottom = round(cy - length / 2, 4), round(cy + length / 2, 4)
    for item in footprint.graphicItems:
        if item.type == "reference":
            item.position = Position(X=cx, Y=round(top - 1.5, 4))
        elif item.type == "value":
            item.position = Position(X=cx, Y=round(bottom + 1.5, 4))
        else:
            item.position = Position(X=cx, Y=cy)

    def rectangle(layer: str, grow: float, width_mm: float) -> None:
        corners = [
            (left - grow, top - grow),
            (right + grow, top - grow),
            (right + grow, bottom + grow),
            (left - grow, bottom + grow),
        ]
        for (x0, y0), (x1, y1) in zip(corners, corners[1:] + corners[:1], strict=True):
            footprint.graphicItems.append(
                FpLine(
                    start=Position(X=round(x0, 4), Y=round(y0, 4)),
                    end=Position(X=round(x1, 4), Y=round(y1, 4)),
                    layer=layer,
                    width=width_mm,
                )
            )

    rectangle("F.CrtYd", 0.0, 0.05)
    rectangle("F.Fab", -0.1, 0.1)
    rectangle("F.SilkS", 0.11, 0.12)
    # Pin 1's mark: a short stroke outside the outline beside it.
    footprint.graphicItems.append(
        FpLine(
            start=Position(X=round(left - 0.6, 4), Y=-1.0),
            end=Position(X=round(left - 0.6, 4), Y=1.0),
            layer="F.SilkS",
            width=0.12,
        )
    )
    for pin in range(1, PINS + 1):
        x, y = pin_position(pin)
        footprint.pads.append(
            Pad(
                number=str(pin),
                type="thru_hole",
                shape="rect" if pin == 1 else "circle",
                position=Position(X=x, Y=y),
                size=Position(X=PAD_MM, Y=PAD_MM),
                drill=DrillDefinition(diameter=DRILL_MM),
                layers=["*.Cu", "*.Mask"],
            )
        )
    return footprint

"""What stands between a pawn's magnet and its sensor, layer by layer, for each build, and what
the magnet model (:mod:`pawnlight.board.magnets`) makes of the distance that gives.

The depth is not a constant: it is the sum of the board, the glue, the deck and, on the PCB
build, the gap the strip's tallest deck-face part leaves between the deck's underside and the
sensor's face (the strip lies on its tallest part; a sensor lower than that hangs below the
deck by the difference).  Every layer has a least and a greatest thickness, so every build has
a least and a greatest depth; the presence switch and every colour band are checked at both
(tests/board/test_stackup.py).

The parts' heights are per footprint (:data:`HEIGHT_MM`, datasheet figures: least and greatest
height above the board's face), and a strip's parts and faces come from its placement
(:func:`pawnlight_hardware.pcb.layout.placements`), so moving a tall part onto the deck face
moves the depth with it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pawnlight.board import magnets

#: Least and greatest height above the board's face of each footprint the boards use (mm).
HEIGHT_MM: dict[str, tuple[float, float]] = {
    "Package_TO_SOT_SMD:SOT-23": (0.89, 1.12),  # TI DBZ (DRV5032, DRV5055, MMBT3904)
    "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm": (1.5, 1.7),  # WS2812B 5050, 1.6 +- 0.1
    "Capacitor_SMD:C_0805_2012Metric": (0.5, 1.25),
    "Resistor_SMD:R_0805_2012Metric": (0.4, 0.6),
    "LED_SMD:LED_0805_2012Metric": (0.6, 0.9),
    "Diode_SMD:D_SOD-123": (0.9, 1.35),
    "Fuse:Fuse_Bourns_MF-RG400": (12.0, 14.7),  # MF-RG400: a disc 12 mm high on its leads
    "Package_SO:SOIC-14_3.9x8.7mm_P1.27mm": (1.35, 1.75),
    "Package_SO:SOIC-16_3.9x9.9mm_P1.27mm": (1.35, 1.75),
    "Package_SO:SOIC-24W_7.5x15.4mm_P1.27mm": (2.35, 2.65),
    "Resistor_THT:R_Array_SIP9": (4.5, 5.1),
    "Capacitor_THT:CP_Radial_D10.0mm_P5.00mm": (16.0, 17.5),  # 1000 uF 10 V, 10 x 16 mm
    "Connector_IDC:IDC-Header_2x08_P2.54mm_Vertical": (8.9, 9.1),  # shrouded, keyed
    "Connector_IDC:IDC-Header_2x05_P2.54mm_Vertical": (8.9, 9.1),  # shrouded, keyed
    "Connector_PinHeader_2.54mm:PinHeader_1x05_P2.54mm_Vertical": (8.4, 8.6),
    "Connector_PinHeader_2.54mm:PinHeader_1x02_P2.54mm_Vertical": (8.4, 8.6),
    "Connector_PinSocket_2.54mm:PinSocket_1x08_P2.54mm_Vertical": (8.4, 8.6),
    "Connector_PinSocket_2.54mm:PinSocket_1x03_P2.54mm_Vertical": (8.4, 8.6),
    "TerminalBlock_Phoenix:TerminalBlock_Phoenix_MKDS-1,5-2-5.08_1x02_P5.08mm_Horizontal": (
        9.6,
        9.8,
    ),
    # The Pico in two 20-way sockets: 8.5 mm of socket, 1 mm of board, 3 mm of USB socket.
    "pawnlight:RaspberryPi_Pico": (12.0, 12.5),
}
#: A through-hole part's pins come through to the other face: trimmed, with their solder, no
#: more than this (3 mm tails through a 1.6 mm board, cut to 1.2 mm).
PIN_TAIL_MM = (0.8, 1.2)
#: The boards' thickness.
PCB_MM = 1.6
THROUGH_HOLE_PREFIXES = (
    "Connector_",
    "Resistor_THT:",
    "Capacitor_THT:",
    "TerminalBlock_",
    "Fuse:Fuse_Bourns_MF-R",
)


def height_mm(footprint: str) -> tuple[float, float]:
    """A footprint's least and greatest height above its face; ValueError for one not listed."""
    try:
        return HEIGHT_MM[footprint]
    except KeyError:
        raise ValueError(f"no height for footprint {footprint} in stackup.HEIGHT_MM") from None


def through_hole(footprint: str) -> bool:
    return footprint.startswith(THROUGH_HOLE_PREFIXES) or footprint == "pawnlight:RaspberryPi_Pico"


@dataclass(frozen=True)
class Layer:
    """One thing between the magnet's face and the sensor's face: least and greatest mm."""

    name: str
    least_mm: float
    most_mm: float

    @property
    def nominal_mm(self) -> float:
        return (self.least_mm + self.most_mm) / 2


#: Shared by both builds: the pawn's magnet flush with its base, standing on the board.
BOARD = Layer("Sorry! board (folding board, 2 mm)", 1.8, 2.2)
GLUE = Layer("glue between board and deck", 0.0, 0.2)
DECK = Layer("deck (3 mm plywood or hardboard)", 2.7, 3.3)


@dataclass(frozen=True)
class DeckFacePart:
    """A part on a strip's face against the deck: its footprint and whether it is the sensor."""

    ref: str
    footprint: str
    sensor: bool = False


def strip_gap(parts: Iterable[DeckFacePart]) -> Layer:
    """The gap between the deck's underside and a sensor's face on a strip: the strip lies on
    its tallest deck-face part (a through-hole part on the far face counts with its pin tails),
    and the sensor, lower, hangs below the deck by the difference."""
    listed = list(parts)
    sensors = [height_mm(p.footprint) for p in listed if p.sensor]
    if not sensors:
        raise ValueError("a strip with no sensor on its deck face")
    tallest_least = max(
        PIN_TAIL_MM[0] if p.ref.startswith("tail:") else height_mm(p.footprint)[0] for p in listed
    )
    tallest_most = max(
        PIN_TAIL_MM[1] if p.ref.startswith("tail:") else height_mm(p.footprint)[1] for p in listed
    )
    sensor_least = min(s[0] for s in sensors)
    sensor_most = max(s[1] for s in sensors)
    least = max(0.0, tallest_least - sensor_most)
    most = max(0.0, tallest_most - sensor_least)
    return Layer("gap: the strip's tallest deck-face part above its sensor", least, most)


def deck_face(placed: Sequence[tuple[str, str, str]]) -> list[DeckFacePart]:
    """The parts a strip has on its deck face, from ``(ref, footprint, layer)`` placements: the
    front's parts, and the pin tails of a through-hole part on the back."""
    found = []
    for ref, footprint, layer in placed:
        if layer == "F.Cu":
            found.append(DeckFacePart(ref, footprint, sensor=ref.startswith("U")))
        elif through_hole(footprint):
            found.append(DeckFacePart(f"tail:{ref}", footprint))
    return found


def pcb_strip_gap() -> Layer:
    """The gap of the PCB build: the largest over the five strip designs."""
    from pawnlight_hardware.pcb.layout import placements
    from pawnlight_hardware.pcb.strips import DESIGNS

    gaps = [
        strip_gap(deck_face([(p.ref, p.footprint, p.layer) for p in placements(design)]))
        for design in DESIGNS.values()
    ]
    return Layer(gaps[0].name, min(g.least_mm for g in gaps), max(g.most_mm for g in gaps))


def stack(build: str) -> tuple[Layer, ...]:
    """The layers of a build: ``"hand"`` (each sensor glued flat against the deck) or
    ``"pcb"`` (the sensor strips)."""
    if build == "hand":
        return (BOARD, GLUE, DECK)
    if build == "pcb":
        return (BOARD, GLUE, DECK, pcb_strip_gap())
    raise ValueError(f"unknown build {build!r}: 'hand' or 'pcb'")


def depth_range(layers: Sequence[Layer]) -> tuple[float, float]:
    return (
        round(sum(layer.least_mm for layer in layers), 3),
        round(sum(layer.most_mm for layer in layers), 3),
    )


@dataclass(frozen=True)
class Margins:
    """How far a build's readings stay from trouble at its least and greatest depth, with the
    pawn anywhere within the placement tolerance of its sensor."""

    depths_mm: tuple[float, float]
    presence_mT: float  # the weakest field a presence switch sees, above its switch point
    colour_counts: int  # the nearest any colour comes to its band's edge


def margins(layers: Sequence[Layer]) -> Margins:
    from pawnlight.board.layout import Layout

    bands = Layout.named("colour").bands[0]
    least, most = depth_range(layers)
    radii = sorted({round(math.hypot(x, y), 9) for x, y in magnets.envelope_offsets()})
    presence = min(
        magnets.PRESENCE_MAGNET.field_z_mT(depth, radius)
        for depth in (least, most)
        for radius in radii
    )
    colour = math.inf
    for index, pawn in enumerate(magnets.PAWN_MAGNETS):
        band = bands.colours[index]
        for depth in (least, most):
            for radius in radii:
                field = pawn.sign * pawn.magnet.field_z_mT(depth, radius)
                low, high = magnets.DRV5055A2.readings(field)
                colour = min(colour, low - band.low, band.high - high)
    return Margins((least, most), round(presence - magnets.PRESENCE_SWITCH_MT, 2), int(colour))

"""Which magnet goes in which colour's pawns, and what an analog hall sensor reads from it.

A colour board tells pawns apart by their magnet: the pole that faces the board and how strong
it is.  This module is the arithmetic behind the magnet table in hardware/bom.md, so the table
and the default reading bands of hardware/layouts/colour.toml can be checked against each other
(tests/board/test_magnets.py): each colour's magnet, anywhere in the design envelope (the
nominal depth give or take DISTANCE_TOLERANCE_MM, up to PLACEMENT_TOLERANCE_MM off-centre),
must read inside its colour's band with GUARD_COUNTS to spare, and so must an empty place.

The field on the axis of a disc magnet magnetised through its thickness, at distance z from
its face (R the radius, L the thickness, Br the grade's remanence):

    B(z) = Br / 2 * ((z + L) / sqrt(R^2 + (z + L)^2) - z / sqrt(R^2 + z^2))

A ratiometric sensor (DRV5055) outputs VCC / 2 with no field, more for a south pole facing its
marked side and less for a north pole, its sensitivity in proportion to VCC, and saturates near
the rails: it never drives its output outside 0.2 V .. VCC - 0.2 V.  A reading beyond that (the
``shorted`` and ``broken`` bands of colour.toml) is a wire fault, never a pawn.

The Pico's ADC measures against its ADC_VREF pin, which the colour hub takes from the sensors'
own rail (+3V3_SENS, docs/pcb.md), as are the multiplexers and the pull-ups: a reading is then
the sensor's output as a fraction of its own supply, whatever the rail's exact voltage.  What is
left is the copper between the sensor's supply pins and ADC_VREF (REFERENCE_ERROR_V): the
envelope is swept with the sensor's supply that far either side of the reference.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pawnlight.rules.board import COLOURS

#: Remanence in tesla of common neodymium grades (the low end of each grade's range).
REMANENCE_T: dict[str, float] = {"N35": 1.17, "N42": 1.29, "N52": 1.43}

#: Magnet face (flush with the pawn's base, no felt over it) to the sensor's face (flat against
#: the deck's underside, no glue between): 2 mm of board and 3 mm of the plywood deck
#: (docs/assembly.md says how to measure it).
NOMINAL_DISTANCE_MM = 5.0
#: How far a build's depth may be off nominal and every colour still read in its band: a
#: thicker board or deck, a magnet a little proud or sunk, the Hall element's own depth inside
#: the sensor's package (a fraction of a millimetre), a sensor not quite flat.
DISTANCE_TOLERANCE_MM = 1.0
#: The design's spare: every reading in the envelope stays this many counts inside its band
#: (at 16 bits, about 50 mV of a 3.3 V ADC), for what the model leaves out (the sensors'
#: sensitivity spread, magnets at the low end of their grade, ADC noise).  Calibration then
#: centres each place's bands on what its own sensor reads.
GUARD_COUNTS = 1000
#: How far a sensor's output with no field may sit from VCC / 2: its own zero-field offset and
#: the ADC's offset error together (an allowance of this design, not a datasheet limit).
QUIESCENT_TOLERANCE_V = 0.06
#: How far a sensor's supply, measured between its own VCC and GND pins on its strip, may be
#: from the ADC's reference (ADC_VREF at the Pico, on the same +3V3_SENS rail): the hub's 0.5 mm
#: +3V3_SENS tracks (up to ~25 mV with the whole 1.1 A of 112 sensors in them), the ribbon's one
#: +3.3 V wire (a strip's 50 mA over 0.31 m of 28 AWG: 4 mV) and its ground lifted by the LEDs'
#: return current (up to 0.4 A over four wires: 8 mV).  With ADC_VREF on the Pico's own 3.3 V
#: and the sensors on a separate buck (two regulators of +-2 .. 3 % each) it was up to ~0.2 V.
REFERENCE_ERROR_V = 0.04


@dataclass(frozen=True)
class Magnet:
    diameter_mm: float
    thickness_mm: float
    grade: str

    def field_mT(self, distance_mm: float) -> float:
        """Flux density on the axis, ``distance_mm`` from the face, in millitesla."""
        r, length, z = self.diameter_mm / 2, self.thickness_mm, distance_mm
        far = (z + length) / math.hypot(r, z + length)
        near = z / math.hypot(r, z)
        return REMANENCE_T[self.grade] / 2 * (far - near) * 1000

    def field_z_mT(self, distance_mm: float, offset_mm: float = 0.0, steps: int = 48) -> float:
        """The field's component along the magnet's axis (what a hall sensor lying flat under
        the deck measures), ``distance_mm`` below the face and ``offset_mm`` to the side of
        the axis, in millitesla.

        Off the axis there is no closed form short of elliptic integrals, so this sums the
        two pole faces as charged discs (the standard "magnetic charge" model of a uniformly
        magnetised disc), on a polar grid of ``steps`` rings by ``2 * steps`` sectors.
        On the axis it agrees with :meth:`field_mT` to 0.1 %.
        """
        radius = self.diameter_mm / 2
        dr = radius / steps
        sectors = 2 * steps
        dphi = 2 * math.pi / sectors
        cosines = [math.cos((j + 0.5) * dphi) for j in range(sectors)]
        total = 0.0
        for height, sign in ((distance_mm, 1.0), (distance_mm + self.thickness_mm, -1.0)):
            face = 0.0
            for i in range(steps):
                r = (i + 0.5) * dr
                base = r * r + offset_mm * offset_mm + height * height
                twice = 2 * r * offset_mm
                ring = sum((base - twice * c) ** -1.5 for c in cosines)
                face += ring * r
            total += sign * height * face * dr * dphi
        return REMANENCE_T[self.grade] / (4 * math.pi) * total * 1000

    def reach_mm(self, threshold_mT: float, distance_mm: float = 5.0) -> float:
        """How far off the axis the field still reaches ``threshold_mT`` (to 0.1 mm)."""
        low, high = 0.0, self.diameter_mm / 2 + 3 * distance_mm
        if self.field_z_mT(distance_mm, 0.0) < threshold_mT:
            return 0.0
        while high - low > 0.05:
            middle = (low + high) / 2
            if self.field_z_mT(distance_mm, middle) >= threshold_mT:
                low = middle
            else:
                high = middle
        return round(low, 1)

    def __str__(self) -> str:
        return f"{self.diameter_mm:g} x {self.thickness_mm:g} mm {self.grade}"


@dataclass(frozen=True)
class AnalogHallSensor:
    part: str
    mv_per_mt: float  # at vcc
    #: The nominal supply, and the ADC's reference (ADC_VREF on the same rail).
    vcc: float = 3.3
    #: How close to each rail the output can swing (it saturates there).
    headroom_v: float = 0.2
    #: How far the sensor's own supply may be from the ADC's reference (REFERENCE_ERROR_V).
    reference_error_v: float = REFERENCE_ERROR_V

    def volts(self, field_mt: float, supply_v: float | None = None) -> float:
        """Output voltage with the sensor supplied at ``supply_v`` (nominal: ``vcc``);
        ``field_mt`` positive for a south pole facing the marked side.  Ratiometric: the zero
        field output and the sensitivity both in proportion to the supply."""
        supply = self.vcc if supply_v is None else supply_v
        volts = supply / 2 + field_mt * self.mv_per_mt / 1000 * supply / self.vcc
        return min(max(volts, self.headroom_v), supply - self.headroom_v)

    def reading(self, field_mt: float, bits: int = 16, supply_v: float | None = None) -> int:
        """What the Pico reports: the ADC's value scaled to ``bits``, its reference ``vcc``
        (ADC_VREF), the sensor supplied at ``supply_v`` (nominal: ``vcc``)."""
        return self.counts(self.volts(field_mt, supply_v), bits)

    def supplies(self) -> tuple[float, float, float]:
        """The sensor's supply at the ends and middle of its allowance round the reference."""
        return (self.vcc - self.reference_error_v, self.vcc, self.vcc + self.reference_error_v)

    def readings(self, field_mt: float, bits: int = 16) -> tuple[int, int]:
        """The lowest and highest reading of ``field_mt`` over :meth:`supplies`."""
        values = [self.reading(field_mt, bits, supply) for supply in self.supplies()]
        return min(values), max(values)

    def counts(self, volts: float, bits: int = 16) -> int:
        """A voltage on the ADC pin as a reading of ``bits``."""
        top = (1 << bits) - 1
        return round(min(max(volts, 0.0), self.vcc) / self.vcc * top)

    def output_range(self, bits: int = 16) -> tuple[int, int]:
        """The lowest and highest readings the sensor itself can give (its output swing, its
        supply anywhere in the allowance)."""
        supply = self.vcc + self.reference_error_v
        return self.counts(self.headroom_v, bits), self.counts(supply - self.headroom_v, bits)

    def quiescent_range(self, bits: int = 16) -> tuple[int, int]:
        """Where an empty place may read: half the sensor's supply (anywhere in the
        allowance) give or take QUIESCENT_TOLERANCE_V."""
        low, _, high = self.supplies()
        return (
            self.counts(low / 2 - QUIESCENT_TOLERANCE_V, bits),
            self.counts(high / 2 + QUIESCENT_TOLERANCE_V, bits),
        )


#: DRV5055A2: 30 mV/mT at 3.3 V (50 mV/mT at 5 V), linear over about +-44 mT.
DRV5055A2 = AnalogHallSensor("DRV5055A2", 30.0)


@dataclass(frozen=True)
class PawnMagnet:
    colour: str
    pole: str  # the pole facing down, towards the sensor: "N" or "S"
    magnet: Magnet

    @property
    def sign(self) -> int:
        """South towards the marked face raises the output, north lowers it."""
        return 1 if self.pole == "S" else -1

    def field_mT(self, distance_mm: float) -> float:
        return self.sign * self.magnet.field_mT(distance_mm)


#: 8 x 3 mm N42: 73 mT on the axis at 5 mm, past the DRV5055A2's +-42 mT range all through
#: the envelope, so red and green pawns read at the sensor's rails however deep they stand.
STRONG = Magnet(8, 3, "N42")
#: 5 x 1 mm N35: 17 mT at 5 mm, 11 to 27 mT over 4 .. 6 mm, half-way between empty and the rails.
WEAK = Magnet(5, 1, "N35")

#: The colour scheme of hardware/layouts/colour.toml: red strong north (lowest readings), blue
#: weak north, yellow weak south, green strong south (highest).
PAWN_MAGNETS: tuple[PawnMagnet, ...] = (
    PawnMagnet("red", "N", STRONG),
    PawnMagnet("blue", "N", WEAK),
    PawnMagnet("yellow", "S", WEAK),
    PawnMagnet("green", "S", STRONG),
)
assert tuple(m.colour for m in PAWN_MAGNETS) == COLOURS

#: Placement.  A player leaves a pawn anywhere on its place, and a small magnet's field falls
#: fast to the side: a 6 x 3 mm N42 at 5 mm reads 51 mT on the axis but 33 mT 3 mm off it,
#: 15 mT at 5 mm and 2 mT at 8 mm, while a pawn's centre can stand ~10 mm off a 33 mm square's
#: centre.  No magnet that fits in a pawn's base covers that, so every place gets a printed
#: centring cup (hardware/centring-cups.scad): a funnel that steers the base into a recess
#: PAWN_CLEARANCE_MM wider than the base.  The design tolerance adds how far a sensor may be
#: glued off its place's centre; the magnets and bands are chosen to read right anywhere in it.
PAWN_CLEARANCE_MM = 1.0
SENSOR_PLACEMENT_MM = 1.5
PLACEMENT_TOLERANCE_MM = PAWN_CLEARANCE_MM / 2 + SENSOR_PLACEMENT_MM  # 2 mm

#: Presence boards only need a magnet strong enough for the hall switch (DRV5032FA switches at
#: 4.8 mT at most, either pole): a 6 x 3 mm N42 gives far more, so any pole will do.
PRESENCE_MAGNET = Magnet(6, 3, "N42")
PRESENCE_SWITCH_MT = 4.8


def expected_readings(
    sensor: AnalogHallSensor = DRV5055A2,
    distances: tuple[float, ...] = (
        NOMINAL_DISTANCE_MM - DISTANCE_TOLERANCE_MM,
        NOMINAL_DISTANCE_MM,
        NOMINAL_DISTANCE_MM + DISTANCE_TOLERANCE_MM,
    ),
    offset_mm: float = 0.0,
) -> dict[str, tuple[int, ...]]:
    """Each colour's reading at each distance (and ``empty``: no magnet), ``offset_mm`` off
    the sensor's axis."""
    readings = {"empty": tuple(sensor.reading(0.0) for _ in distances)}
    for pawn in PAWN_MAGNETS:
        readings[pawn.colour] = tuple(
            sensor.reading(pawn.sign * pawn.magnet.field_z_mT(d, offset_mm)) for d in distances
        )
    return readings


def envelope_depths(step_mm: float = 0.25) -> tuple[float, ...]:
    """Depths across the design envelope: nominal give or take DISTANCE_TOLERANCE_MM."""
    count = round(2 * DISTANCE_TOLERANCE_MM / step_mm)
    low = NOMINAL_DISTANCE_MM - DISTANCE_TOLERANCE_MM
    return tuple(round(low + i * step_mm, 6) for i in range(count + 1))


def envelope_offsets(directions: int = 8, rings: int = 4) -> tuple[tuple[float, float], ...]:
    """Where a pawn's centre may stand from its sensor's axis, as (x, y) in mm: the centre and
    ``rings`` circles out to PLACEMENT_TOLERANCE_MM, each in ``directions`` directions."""
    points = [(0.0, 0.0)]
    for ring in range(1, rings + 1):
        radius = PLACEMENT_TOLERANCE_MM * ring / rings
        for k in range(directions):
            angle = 2 * math.pi * k / directions
            points.append((radius * math.cos(angle), radius * math.sin(angle)))
    return tuple(points)


def envelope_readings(
    sensor: AnalogHallSensor = DRV5055A2, bits: int = 16
) -> dict[str, tuple[int, int]]:
    """The lowest and highest reading of each colour's pawn anywhere in the design envelope
    (every depth of :func:`envelope_depths`, every offset of :func:`envelope_offsets`, the
    sensor's supply anywhere in its allowance round the reference), and of an empty place (the
    sensor's quiescent output, give or take QUIESCENT_TOLERANCE_V)."""
    readings: dict[str, tuple[int, int]] = {"empty": sensor.quiescent_range(bits)}
    # A disc magnet's field is the same all round its axis: a direction only enters through
    # the distance from the axis, so each distance is computed once.
    radii = sorted({round(math.hypot(x, y), 9) for x, y in envelope_offsets()})
    for pawn in PAWN_MAGNETS:
        values = [
            value
            for depth in envelope_depths()
            for radius in radii
            for value in sensor.readings(pawn.sign * pawn.magnet.field_z_mT(depth, radius), bits)
        ]
        readings[pawn.colour] = (min(values), max(values))
    return readings


#: Offsets from a place's centre shown in the placement table of hardware/bom.md.
TABLE_OFFSETS_MM = (0.0, 2.0, 3.0, 5.0, 8.0)


def placement_table() -> list[str]:
    """Markdown rows: each magnet's field at the nominal distance, off-centre by
    TABLE_OFFSETS_MM, and how far off-centre it still switches a DRV5032FA."""
    head = " / ".join(f"{o:g}" for o in TABLE_OFFSETS_MM)
    lines = [
        f"| magnet | field at {head} mm off-centre | DRV5032FA ({PRESENCE_SWITCH_MT} mT) "
        "switches within |",
        "|---|---|---|",
    ]
    for magnet in dict.fromkeys((STRONG, PRESENCE_MAGNET, WEAK)):
        fields = " / ".join(
            f"{magnet.field_z_mT(NOMINAL_DISTANCE_MM, o):.0f}" for o in TABLE_OFFSETS_MM
        )
        reach = magnet.reach_mm(PRESENCE_SWITCH_MT, NOMINAL_DISTANCE_MM)
        lines.append(f"| {magnet} | {fields} mT | {reach:g} mm |")
    return lines


def misreadings(sensing: str, offset_mm: float) -> list[str]:
    """What the board would get wrong with a pawn ``offset_mm`` off its sensor's axis (or any
    less), at every distance within the tolerance; empty when every pawn reads right.

    ``sensing`` is ``"presence"`` (the hall switch must switch) or ``"colour"`` (every colour's
    reading must fall in its band of hardware/layouts/colour.toml)."""
    distances = (
        NOMINAL_DISTANCE_MM - DISTANCE_TOLERANCE_MM,
        NOMINAL_DISTANCE_MM,
        NOMINAL_DISTANCE_MM + DISTANCE_TOLERANCE_MM,
    )
    offsets = sorted({0.0, offset_mm / 2, offset_mm})
    wrong: list[str] = []
    if sensing == "presence":
        for distance in distances:
            for offset in offsets:
                field = PRESENCE_MAGNET.field_z_mT(distance, offset)
                if field < PRESENCE_SWITCH_MT:
                    wrong.append(f"{distance:g} mm deep, {offset:g} mm off: {field:.1f} mT")
        return wrong
    from .layout import Layout

    bands = Layout.named("colour").bands[0]
    for offset in offsets:
        readings = expected_readings(distances=distances, offset_mm=offset)
        for colour, pawn in enumerate(PAWN_MAGNETS):
            for distance, value in zip(distances, readings[pawn.colour], strict=True):
                if bands.classify(value) != colour:
                    wrong.append(
                        f"{pawn.colour} {distance:g} mm deep, {offset:g} mm off: reads {value}"
                    )
    return wrong

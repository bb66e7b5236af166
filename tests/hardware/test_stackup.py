"""The magnets read right at the depth each build gives: the stack-up (board, glue, deck and, on
the PCB build, the gap the strips' tallest deck-face part leaves) at its least and its
greatest, a pawn anywhere within the placement tolerance: at least 1 mT above the presence
switch's greatest switch point and 1,000 counts inside every colour's band."""

from __future__ import annotations

import pytest

from pawnlight.board import magnets
from pawnlight_hardware import stackup
from pawnlight_hardware.pcb.layout import placements
from pawnlight_hardware.pcb.strips import DESIGNS

PRESENCE_MARGIN_MT = 1.0
COLOUR_MARGIN_COUNTS = 1000


@pytest.mark.parametrize("build", ["hand", "pcb"])
def test_each_build_reads_with_margin_at_both_ends_of_its_depth(build):
    got = stackup.margins(stackup.stack(build))
    where = f"{build}: {got.depths_mm[0]}-{got.depths_mm[1]} mm"
    assert got.presence_mT >= PRESENCE_MARGIN_MT, where
    assert got.colour_counts >= COLOUR_MARGIN_COUNTS, where


@pytest.mark.parametrize("design", sorted(DESIGNS))
def test_a_strips_deck_face_holds_only_low_surface_mount_parts(design):
    """Everything on the face against the deck is surface-mount and no taller than the LED;
    the connector stands on the far face, only its trimmed pin tails on this one."""
    placed = placements(DESIGNS[design])
    front = [p for p in placed if p.layer == "F.Cu"]
    assert front and all(not stackup.through_hole(p.footprint) for p in front)
    led = stackup.height_mm("LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm")[1]
    assert all(stackup.height_mm(p.footprint)[1] <= led for p in front)
    (connector,) = [p for p in placed if p.ref == "J1"]
    assert connector.layer == "B.Cu"
    assert stackup.PIN_TAIL_MM[1] <= led


def test_the_gap_is_what_the_tallest_part_leaves():
    gap = stackup.strip_gap(
        [
            stackup.DeckFacePart("U1", "Package_TO_SOT_SMD:SOT-23", sensor=True),
            stackup.DeckFacePart("D1", "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm"),
        ]
    )
    assert (gap.least_mm, gap.most_mm) == pytest.approx((1.5 - 1.12, 1.7 - 0.89))


def test_a_connector_on_the_deck_face_holds_the_sensors_off_the_deck_and_fails():
    """The review's finding: with the 2 x 8 header on the deck face, the strip stands on the
    header's body, 9 mm, and the weak colour magnets fall out of their bands."""
    placed = [(p.ref, p.footprint, "F.Cu") for p in placements(DESIGNS["track-a"])]
    gap = stackup.strip_gap(stackup.deck_face(placed))
    assert gap.most_mm > 8.0
    layers = (stackup.BOARD, stackup.GLUE, stackup.DECK, gap)
    got = stackup.margins(layers)
    assert got.colour_counts < COLOUR_MARGIN_COUNTS
    assert got.depths_mm[1] > 12.0


def test_the_hand_build_is_the_magnet_models_nominal_depth():
    least, most = stackup.depth_range(stackup.stack("hand"))
    assert least <= magnets.NOMINAL_DISTANCE_MM <= most
    assert least >= magnets.NOMINAL_DISTANCE_MM - magnets.DISTANCE_TOLERANCE_MM
    assert most <= magnets.NOMINAL_DISTANCE_MM + magnets.DISTANCE_TOLERANCE_MM


def test_every_footprint_the_boards_use_has_a_height():
    from pawnlight_hardware.pcb.circuit import FP

    for footprint in FP.values():
        low, high = stackup.height_mm(footprint)
        assert 0 < low <= high, footprint
    with pytest.raises(ValueError, match="no height for footprint"):
        stackup.height_mm("Nowhere:Nothing")


def test_an_unknown_build_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown build"):
        stackup.stack("glued")

"""The Pico's footprint (made in code): its pads where the Pico's pins are, numbered as the
datasheet's pinout, its courtyard the Pico's 51 x 21 mm board."""

from __future__ import annotations

import importlib.util
import math

import pytest

from pawnlight_hardware.pcb.pico import pico_footprint, pin_position

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("kiutils") is None, reason="kiutils missing (the pcb extra)"
)


def _pads(footprint) -> dict[int, tuple[float, float]]:
    return {int(pad.number): (pad.position.X, pad.position.Y) for pad in footprint.pads}


def test_forty_through_hole_pads_in_two_rows_of_twenty():
    footprint = pico_footprint()
    pads = _pads(footprint)
    assert sorted(pads) == list(range(1, 41))
    assert all(pad.type == "thru_hole" and pad.drill.diameter >= 0.9 for pad in footprint.pads)
    assert {x for x, _ in pads.values()} == {0.0, 17.78}


def test_pin_numbering_follows_the_datasheet():
    pads = _pads(pico_footprint())
    # Pin 1 top-left; 1-20 down the left row at 2.54 mm; 21-40 up the right row.
    assert pads[1] == (0.0, 0.0)
    for pin in range(1, 20):
        assert math.isclose(pads[pin + 1][1] - pads[pin][1], 2.54, abs_tol=1e-6)
        assert pads[pin][0] == 0.0
    for pin in range(21, 40):
        assert math.isclose(pads[pin][1] - pads[pin + 1][1], 2.54, abs_tol=1e-6)
        assert math.isclose(pads[pin][0], 17.78)
    # Pin 40 faces pin 1, pin 21 faces pin 20 (the rows are 0.7 in apart).
    assert pads[40] == (17.78, 0.0)
    assert math.isclose(pads[21][1], pads[20][1]) and math.isclose(pads[20][1], 48.26)
    # Pin 1 is the square one, as on the Pico's silkscreen.
    shapes = {int(pad.number): pad.shape for pad in pico_footprint().pads}
    assert shapes[1] == "rect" and {shapes[n] for n in range(2, 41)} == {"circle"}


def test_courtyard_is_the_picos_board_centred_on_the_pads():
    footprint = pico_footprint()
    xs, ys = [], []
    for item in footprint.graphicItems:
        if getattr(item, "layer", "") == "F.CrtYd":
            xs += [item.start.X, item.end.X]
            ys += [item.start.Y, item.end.Y]
    assert math.isclose(max(xs) - min(xs), 21.0) and math.isclose(max(ys) - min(ys), 51.0)
    assert math.isclose((max(xs) + min(xs)) / 2, 17.78 / 2)
    assert math.isclose((max(ys) + min(ys)) / 2, 48.26 / 2)


def test_pin_position_refuses_a_pin_the_pico_has_not():
    with pytest.raises(ValueError, match="pins 1 to 40"):
        pin_position(41)


def test_the_footprint_writes_and_reads_back(tmp_path):
    from kiutils.footprint import Footprint

    path = tmp_path / "RaspberryPi_Pico.kicad_mod"
    pico_footprint().to_file(str(path))
    again = Footprint.from_file(str(path))
    assert again.libId == "pawnlight:RaspberryPi_Pico"
    assert _pads(again) == _pads(pico_footprint())

"""The SVG renderer, and that the committed docs picture is what the code draws."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree

from pawnlight.board.cells import CELLS, SLIDE_LEDS
from pawnlight.board.leds import PAWN_COLOURS, position_frame
from pawnlight.board.render_svg import example_panels, render, render_panels, repository_docs

from .helpers import PRESENCE, pos

SVG = "{http://www.w3.org/2000/svg}"


def test_a_frame_is_drawn_on_every_place():
    position = pos(red="T19 T40 start start", blue="T26 start start start")
    svg = render(PRESENCE, position_frame(PRESENCE, position), position, "a position")
    root = ElementTree.fromstring(svg)
    squares = root.findall(f"{SVG}rect")
    circles = root.findall(f"{SVG}circle")
    # Background, board, 80 squares; 20 slide LEDs, 8 areas of 4 spots and their rings, pawns.
    assert len(squares) == 2 + 80
    assert len(circles) == SLIDE_LEDS + 8 + (CELLS - 80) + 8
    assert "#{:02x}{:02x}{:02x}".format(*PAWN_COLOURS[0]) in svg
    assert "a position" in svg


def test_the_docs_picture_is_up_to_date():
    """docs/leds.svg is generated: python -m pawnlight.board.render_svg"""
    drawn = render_panels(PRESENCE, example_panels(PRESENCE))
    assert (repository_docs() / "leds.svg").read_text(encoding="utf-8") == drawn

"""The SVG renderer, and that the committed docs picture is what the code draws."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree

from pawnlight.board.cells import CELLS, SLIDE_LEDS
from pawnlight.board.leds import position_picture
from pawnlight.board.render_svg import example_panels, render, render_panels, repository_docs

from .helpers import PRESENCE, pos

SVG = "{http://www.w3.org/2000/svg}"


def test_a_frame_is_drawn_on_every_place():
    position = pos(red="T19 T40 start start", blue="T26 start start start")
    svg = render(PRESENCE, position_picture(PRESENCE, position).frame, position, "a position")
    root = ElementTree.fromstring(svg)
    # One board, drawn by the one renderer: every LED a place, every pawn on it.
    leds = [e for e in root.iter() if e.get("data-led")]
    assert len(leds) == CELLS + SLIDE_LEDS
    lit = {e.get("data-led") for e in leds if e.get("fill") not in ("none", "#2b2f36")}
    assert lit == {"T19", "T40", "T26", "start:red:1", "start:red:2"} | {
        f"start:blue:{i}" for i in (1, 2, 3)
    }
    assert {e.get("data-at") for e in root.iter() if e.get("data-pawn") == "red"} == {
        "T19", "T40", "start:red"
    }  # fmt: skip
    assert "#ff0000" in svg and "a position" in svg


def test_the_docs_picture_is_up_to_date():
    """docs/leds.svg is generated: python -m pawnlight.board.render_svg"""
    drawn = render_panels(PRESENCE, example_panels(PRESENCE))
    assert (repository_docs() / "leds.svg").read_text(encoding="utf-8") == drawn

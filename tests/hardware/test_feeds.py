"""The LED chain's power feeds (pawnlight_hardware.feeds), the terminal blocks and what sits
under the deck (pawnlight_hardware.underside)."""

from __future__ import annotations

import math

import pytest

from pawnlight.board import geometry
from pawnlight_hardware import feeds, underside
from pawnlight_hardware.power import blocks_for, rail_connections
from pawnlight_hardware.wiring import load_firmware_config, load_wiring

WIRING = load_wiring()
CONFIG = load_firmware_config("presence.json")["leds"]
BUDGET = CONFIG["max_current_ma"]
LED_MAX = 3 * CONFIG["ma_per_channel"]


def test_the_feeds_in_wiring_toml_keep_every_led_within_the_limit() -> None:
    net = feeds.network(WIRING.led_chain, WIRING.power_injection)
    drop = feeds.worst(net, BUDGET, LED_MAX)
    assert drop.volts <= feeds.MAX_DROP_V, (
        f"LED {drop.led} drops {drop.volts:.2f} V: move the feeds (feeds.suggest)"
    )


def test_the_old_feeds_fail_the_limit_so_the_check_has_teeth() -> None:
    net = feeds.network(WIRING.led_chain, (0, 30, 60, 112))
    assert feeds.worst(net, BUDGET, LED_MAX).volts > feeds.MAX_DROP_V


def test_one_feed_alone_is_far_worse_and_more_current_means_more_drop() -> None:
    one = feeds.network(WIRING.led_chain, (0,))
    assert feeds.worst(one, BUDGET, LED_MAX).volts > 1.0
    net = feeds.network(WIRING.led_chain, WIRING.power_injection)
    assert feeds.worst(net, 2 * BUDGET, LED_MAX).volts > feeds.worst(net, BUDGET, LED_MAX).volts


def test_the_transfer_resistance_matches_a_hand_computed_chain() -> None:
    # Three LEDs 33 mm apart in a row, fed at the first: 1 A at the last drops through its feed
    # and both links; at the middle one, the feed and one link.
    chain = ["T4", "T5", "T6"]
    net = feeds.network(chain, (0,))
    z = feeds.transfer(net)
    feed = net.feeds[0]
    assert z[2][2] == pytest.approx(feed + net.links[0] + net.links[1])
    assert z[1][2] == pytest.approx(feed + net.links[0])
    assert z[0][2] == pytest.approx(feed)
    link = (33 * feeds.LINK_ROUTING + feeds.LINK_EXTRA_MM) * 2 * feeds.OHM_PER_M["26 AWG"] / 1000
    assert net.links[0] == pytest.approx(link)


def test_a_chain_without_feeds_is_refused() -> None:
    with pytest.raises(ValueError, match="no power feed"):
        feeds.transfer(feeds.network(["T0", "T1"], ()))


@pytest.mark.parametrize(
    ("positions", "blocks"), [(1, [2]), (3, [3]), (5, [5]), (7, [5, 2]), (8, [5, 3]), (9, [5, 5])]
)
def test_terminal_blocks_cover_the_positions(positions: int, blocks: list[int]) -> None:
    assert blocks_for(positions) == blocks


def test_every_rail_has_a_position_for_each_feed_and_load() -> None:
    presence = rail_connections("presence", WIRING.power_injection)
    colour = rail_connections("colour", WIRING.power_injection)
    assert len(presence) == 3 + len(WIRING.power_injection)
    assert len(colour) == len(presence) + 1  # the 3.3 V buck


def test_the_hub_sits_where_no_sensor_or_led_is() -> None:
    for point in (*geometry.SENSORS_MM, *geometry.PLACE_LEDS_MM, *geometry.SLIDE_LEDS_MM):
        assert not underside.under_hub(point), point
    half_w, half_h = underside.HUB_SIZE_MM[0] / 2, underside.HUB_SIZE_MM[1] / 2
    for dx in (-half_w, half_w):
        for dy in (-half_h, half_h):
            corner = (underside.CENTRE_MM[0] + dx, underside.CENTRE_MM[1] + dy)
            assert underside.under_hub(corner)
    for thing in (underside.PICO_MM, underside.TERMINALS_MM, underside.hatch_centre()):
        assert abs(thing[0] - underside.CENTRE_MM[0]) < half_w
        assert abs(thing[1] - underside.CENTRE_MM[1]) < half_h


def test_the_usb_cable_reaches_the_pi_with_slack() -> None:
    cable = underside.usb_cable()
    # To the frame's inner face, which stands FRAME_GAP_MM outside the board's edge.
    inner = underside.DECK_MM + underside.FRAME_GAP_MM
    assert cable.to_edge_mm == pytest.approx(inner - underside.PICO_USB_MM[0])
    straight = cable.to_edge_mm + cable.through_frame_mm + cable.to_pi_mm
    assert cable.buy_mm >= cable.needed_mm >= straight
    assert cable.buy_mm in underside.CABLE_LENGTHS_MM
    assert cable.buy_mm > 200  # the BOM's old 20 cm cable could not reach


def test_the_hatch_opens_under_the_pico_and_its_screws_hit_the_panel() -> None:
    cx, cy = underside.hatch_centre()
    w, h = underside.HATCH_OPENING_MM
    px, py = underside.PICO_MM
    pw, ph = underside.PICO_SIZE_MM
    assert abs(px - cx) + pw / 2 <= w / 2 + 15 and abs(py - cy) + ph / 2 <= h / 2
    for x, y in underside.hatch_screws():
        assert abs(x - cx) > w / 2 and abs(y - cy) > h / 2  # outside the opening


def test_the_feet_and_screws_stand_on_the_frame() -> None:
    """The frame stands under the deck's border, outside the board's square: every foot's and
    panel screw's centre lies on a frame strip, and every foot inside the panel's outline."""
    strip = underside.FRAME_WIDTH_MM
    low = underside.DECK_CORNER_MM
    high = low + underside.DECK_OUTER_MM
    points = [*underside.feet(), *underside.panel_screws()]
    assert len(underside.feet()) == 8
    for x, y in points:
        edge = min(x - low, y - low, high - x, high - y)
        assert 0 <= edge <= strip, (x, y)
    for a in underside.panel_screws():
        assert all(math.dist(a, foot) > underside.FOOT_DIAMETER_MM for foot in underside.feet())
    radius = underside.FOOT_DIAMETER_MM / 2
    for x, y in underside.feet():
        # Inside the panel's outline, its screw inside the strip with wood round it.
        assert low + radius <= x <= high - radius and low + radius <= y <= high - radius
        edge = min(x - low, y - low, high - x, high - y)
        assert edge + underside.FOOT_SCREW_MM / 2 + 1 <= strip
    # Nothing of the frame under the board's square.
    assert strip + 1 <= underside.DECK_BORDER_MM

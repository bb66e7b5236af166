"""hardware/bom.md: its quantities follow from the wiring and the geometry, its part numbers
are the ones the wiring names, and every line's arithmetic adds up."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pawnlight_hardware import bom_tables, underside
from pawnlight_hardware.wiring import load_wiring, repository_hardware

WIRING = load_wiring()
BOM = (repository_hardware() / "bom.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    start = BOM.index(f"\n## {title}\n")
    end = BOM.find("\n## ", start + 1)
    return BOM[start : end if end > 0 else len(BOM)]


def _rows(title: str) -> list[list[str]]:
    """The rows of the section's first parts table: qty, part, part number, price, notes."""
    rows = []
    for line in _section(title).splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| ") and cells[0].isdigit() and len(cells) == 5:
            rows.append(cells)
    return rows


def _qty(title: str, part_number: str) -> int:
    found = [int(row[0]) for row in _rows(title) if part_number in row[2]]
    assert len(found) == 1, f"{title}: {len(found)} rows name {part_number}"
    return found[0]


def _line_total(row: list[str]) -> float:
    price = row[3]
    each = re.fullmatch(r"\$([\d.]+) × (\d+) = \$([\d.]+)", price)
    if each:
        unit, qty, total = float(each.group(1)), int(each.group(2)), float(each.group(3))
        assert qty == int(row[0]), f"{row[1]}: price for {qty}, ordering {row[0]}"
        assert total == pytest.approx(unit * qty, abs=0.005), row[1]
        return total
    single = re.fullmatch(r"\$([\d.]+)", price)
    assert single, f"{row[1]}: price {price!r} is neither $x nor $x × n = $y"
    return float(single.group(1))


@pytest.mark.parametrize("sensing", ["presence", "colour"])
def test_the_quantities_follow_from_the_wiring(sensing: str) -> None:
    title = f"{sensing.capitalize()} board"
    need = bom_tables.counts(WIRING, sensing)
    board = WIRING.boards[sensing]
    sensor = "DRV5032FADBZR" if sensing == "presence" else "DRV5055A2QDBZR"
    assert board.sensor in sensor
    assert _qty(title, sensor) == need["sensors"]
    chip = "SN74HC165N" if sensing == "presence" else "CD74HC4067"
    assert _qty(title, chip) == need["chips"] == len(board.chips)
    network = "4609X-101-103LF" if sensing == "presence" else "4609X-101-104LF"
    assert _qty(title, network) == need["networks"]
    assert _qty(title, "C320C104K5R5TA") == need["capacitors"]
    assert _qty(title, "B8B-XH-A") == need["harness_headers"]
    assert _qty(title, "XHP-8") == need["harness_housings"]
    assert _qty(title, "SXH-001T-P0.6") == need["crimps"]
    for block in ("221-415", "221-413", "221-412"):
        wanted = need[f"wago_{block}"]
        named = [row for row in _rows(title) if f"WAGO {block}" in row[2]]
        assert (int(named[0][0]) if named else 0) == wanted, f"WAGO {block}"


def test_the_shared_parts_follow_from_the_wiring_and_the_geometry() -> None:
    need = bom_tables.counts(WIRING, "presence")
    title = "Both boards"
    leds = [row for row in _rows(title) if "WS2812B" in row[2]]
    assert len(leds) == 1 and int(leds[0][0]) == need["led_packs"]
    assert int(leds[0][0]) * bom_tables.LED_PACK >= len(WIRING.led_chain) * bom_tables.SPARE
    assert _qty(title, "CFR-25JB-52-10K") == 1  # the data line's pull-down
    assert _qty(title, "CFR-25JB-52-33R") == len(WIRING.card_series_lines)
    assert _qty(title, "SN74AHCT125N") == 1
    assert _qty(title, "EEU-FR1A102") == 1
    screws = [row for row in _rows(title) if "3.5 x 16" in row[1]]
    assert int(screws[0][0]) == need["panel_screws"]
    feet = [row for row in _rows(title) if "3.5 x 25" in row[1]]
    assert int(feet[0][0]) == need["feet"] == len(underside.feet())
    cable = [row for row in _rows(title) if row[1].startswith("USB cable, Pico to Pi")]
    assert f"{underside.usb_cable().buy_mm / 1000:g} m" in cable[0][1]


def test_the_printed_parts_are_every_part_the_generator_makes() -> None:
    table = _section("Printed parts")
    counts = {
        m.group(2): int(m.group(1))
        for m in re.finditer(r"\| (\d+) \|[^|]*\| `print/([\w-]+)\.stl`", table)
    }
    assert counts == {"cup": 60, "cup-slide": 20, "tray": 8, "hatch": 1, "foot": 8}
    need = bom_tables.counts(WIRING, "presence")
    assert counts["cup"] + counts["cup-slide"] == need["cups"]
    assert counts["tray"] == need["trays"] and counts["foot"] == need["feet"]


def test_no_part_number_the_review_found_wrong_is_left() -> None:
    for wrong in ("DRV5032FAQ", "DRV5032FAQLPG", "20 cm", "about 150 g"):
        assert wrong not in BOM


@pytest.mark.parametrize("sensing", ["presence", "colour"])
def test_every_line_and_the_totals_add_up(sensing: str) -> None:
    both = sum(_line_total(row) for row in _rows("Both boards"))
    stated_both = re.search(r"Both boards' parts: \*\*\$([\d.]+)\*\*", BOM)
    assert stated_both and float(stated_both.group(1)) == pytest.approx(both, abs=0.01)
    title = f"{sensing.capitalize()} board"
    own = sum(_line_total(row) for row in _rows(title))
    stated = re.search(
        rf"{title}: \*\*\$([\d.]+)\*\*; with the parts of both boards \*\*about \$(\d+)\*\*", BOM
    )
    assert stated, f"bom.md states no total for the {title.lower()}"
    assert float(stated.group(1)) == pytest.approx(own, abs=0.01)
    assert int(stated.group(2)) == pytest.approx(both + own, abs=1)


def test_the_wire_section_is_measured_on_the_board() -> None:
    assert bom_tables.wire_markdown(WIRING) in BOM
    assert (
        bom_tables.feeds_markdown(WIRING, {"leds": {"max_current_ma": 1500, "ma_per_channel": 20}})
        in BOM
    )


@pytest.mark.slow
def test_the_bom_states_the_filament_the_parts_take(build_files: Path) -> None:
    grams = json.loads((build_files / "filament.json").read_text())
    bom = (Path(__file__).parents[2] / "hardware" / "bom.md").read_text(encoding="utf-8")
    on_deck = sum(grams[k]["pla_g"] for k in ("cup", "cup-slide", "tray"))
    under = sum(grams[k]["pla_g"] for k in ("hatch", "foot"))
    stated = re.search(r"about (\d+) g of PLA for the cups and trays, (\d+) g for the hatch", bom)
    assert stated, "bom.md must state the filament from filament.json"
    assert int(stated.group(1)) == pytest.approx(on_deck, rel=0.05)
    assert int(stated.group(2)) == pytest.approx(under, rel=0.1)


def test_the_assembly_guide_quotes_the_boms_totals() -> None:
    guide = (Path(__file__).parents[2] / "docs" / "assembly.md").read_text(encoding="utf-8")
    totals = re.findall(r"with the parts of both boards \*\*about \$(\d+)\*\*", BOM)
    assert len(totals) == 2
    assert f"| about ${totals[0]} | about ${totals[1]} |" in guide

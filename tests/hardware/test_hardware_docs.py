"""The generated hardware files are what the generator writes today, and it writes the same
thing every time: regenerate with ``python -m pawnlight_hardware.docs --write``."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree

import pytest

from pawnlight_hardware import docs as hardware_docs
from pawnlight_hardware.draw_board_maps import hops
from pawnlight_hardware.wiring import load_wiring, repository_hardware

SVG = "{http://www.w3.org/2000/svg}"
GENERATED = hardware_docs.outputs()


@pytest.mark.parametrize("path", sorted(GENERATED), ids=lambda p: p.name)
def test_the_committed_file_is_current(path):
    assert path.exists(), f"{path.name} missing: python -m pawnlight_hardware.docs --write"
    assert path.read_text(encoding="utf-8") == GENERATED[path], (
        f"{path.name} is out of date: python -m pawnlight_hardware.docs --write"
    )


def test_generation_is_deterministic():
    assert hardware_docs.outputs() == GENERATED


def test_every_expected_file_is_generated():
    names = {path.name for path in GENERATED}
    assert names == {
        "wiring.md",
        "bom.md",
        "leds.svg",
        "wiring-presence.svg",
        "wiring-colour.svg",
        "sensors-presence.svg",
        "sensors-colour.svg",
    }


@pytest.mark.parametrize("name", [p.name for p in sorted(GENERATED) if p.suffix == ".svg"], ids=str)
def test_the_drawings_are_valid_svg(name):
    root = ElementTree.fromstring(GENERATED[repository_hardware() / name])
    assert root.tag == f"{SVG}svg"


def test_the_led_map_numbers_every_led():
    root = ElementTree.fromstring(GENERATED[repository_hardware() / "leds.svg"])
    numbers = {text.text for text in root.iter(f"{SVG}text")}
    assert {str(i) for i in range(132)} <= numbers


def test_the_sensor_maps_give_every_channel():
    for kind in ("presence", "colour"):
        root = ElementTree.fromstring(GENERATED[repository_hardware() / f"sensors-{kind}.svg"])
        numbers = [t.text for t in root.iter(f"{SVG}text") if t.get("font-weight") == "bold"]
        assert {str(i) for i in range(112)} <= set(numbers)


def test_the_wiring_tables_list_every_hop_of_the_led_chain():
    text = GENERATED[repository_hardware() / "wiring.md"]
    for index, _distance in hops(load_wiring()):
        assert f"| {index - 1} → {index} |" in text


def test_the_power_table_follows_the_led_limit(monkeypatch):
    configs = {
        kind: hardware_docs.load_firmware_config(f"{kind}.json") for kind in ("presence", "colour")
    }
    configs["presence"]["leds"]["max_current_ma"] = 4000
    monkeypatch.setattr(hardware_docs, "load_firmware_config", lambda name: configs[name[:-5]])
    table = hardware_docs.bom_sections()["power"]
    assert "| WS2812B LEDs | 4,000 | 1,500 |" in table
    # 4000 + 117 + 600 = 4717 mA, x 1.25 = 5.9 A: a 6 A supply.
    assert "4,717 x 1.25 = 5,897 → **5 V 6 A**" in table


def test_a_bom_without_its_generated_sections_is_refused():
    with pytest.raises(ValueError, match="no generated section"):
        hardware_docs.fill_sections("no markers here\n", {"power": "x\n"})


# -- the command: writes only when told to ---------------------------------------------------


@pytest.fixture
def hardware_copy(tmp_path):
    """A copy of hardware/ with every generated file made stale (bom.md's power budget too)."""
    import shutil

    folder = tmp_path / "hardware"
    shutil.copytree(repository_hardware(), folder)
    for path in GENERATED:
        if path.name != "bom.md":
            (folder / path.name).write_text("stale\n", encoding="utf-8")
    bom = folder / "bom.md"
    stale = hardware_docs.fill_sections(bom.read_text(encoding="utf-8"), {"power": "stale\n"})
    bom.write_text(stale, encoding="utf-8")
    return folder


def _contents(folder):
    return {path.name: (folder / path.name).read_text(encoding="utf-8") for path in GENERATED}


@pytest.mark.parametrize("argv", [[], ["--help"], ["--chek"], ["check"], ["--write", "x"]])
def test_nothing_is_written_without_an_explicit_write(hardware_copy, argv, capsys):
    before = _contents(hardware_copy)
    code: int | str | None
    try:
        code = hardware_docs.main(argv, folder=hardware_copy)
    except SystemExit as exit_:  # argparse: --help (0) and unknown arguments (2)
        code = exit_.code
    out, err = capsys.readouterr()
    assert _contents(hardware_copy) == before
    if argv == ["--help"]:
        assert code == 0 and "--write" in out and "--check" in out
    else:
        assert code == 2 and "usage:" in err


def test_write_regenerates_and_check_then_says_all_is_current(hardware_copy, capsys):
    assert hardware_docs.main(["--check"], folder=hardware_copy) == 1
    assert "out of date" in capsys.readouterr().err
    assert hardware_docs.main(["--write"], folder=hardware_copy) == 0
    assert "wrote" in capsys.readouterr().out
    assert _contents(hardware_copy) == {path.name: text for path, text in GENERATED.items()}
    assert hardware_docs.main(["--check"], folder=hardware_copy) == 0
    assert "up to date" in capsys.readouterr().out

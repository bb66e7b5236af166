"""Firmware drivers and logic under CPython, against the simulated parts."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pawnlight.devices.sim.firmware import FIRMWARE_DIR
from pawnlight.firmware import config, sim_devices, sim_mfrc522
from pawnlight.firmware.analog_mux import AnalogMuxBank
from pawnlight.firmware.debounce import Debouncer
from pawnlight.firmware.leds import LedStrip, estimate_ma, limit_brightness
from pawnlight.firmware.mfrc522 import MFRC522, CardWatcher, crc_a
from pawnlight.firmware.shift_in import ShiftInChain

# --- debounce ----------------------------------------------------------------------------


def test_first_scan_is_the_starting_state() -> None:
    deb = Debouncer(4, 5)
    assert deb.update([0, 1, 0, 1], 0) == []
    assert deb.values == [0, 1, 0, 1]


def test_change_is_reported_once_it_has_held_for_the_debounce_time() -> None:
    deb = Debouncer(2, 5)
    deb.update([0, 0], 0)
    assert deb.update([1, 0], 10) == []
    assert deb.wait_ms(12) == 3
    assert deb.update([1, 0], 14) == []
    assert deb.update([1, 0], 15) == [(0, 1)]
    assert deb.update([1, 0], 16) == [] and deb.pending == 0
    assert deb.wait_ms(16) is None


def test_bounce_is_never_reported() -> None:
    deb = Debouncer(1, 5)
    deb.update([0], 0)
    for t in range(1, 40):
        assert deb.update([t % 2], t) == []  # flickers every millisecond
    assert deb.update([0], 40) == [] and deb.pending == 0


def test_zero_debounce_reports_at_once_and_quiet_scans_are_skipped() -> None:
    deb = Debouncer(3, 0)
    deb.update([0, 0, 0], 0)
    assert deb.update([0, 0, 1], 1) == [(2, 1)]
    assert deb.update([9, 9, 9], 2, maybe_changed=False) == []  # caller says: nothing moved


def test_analog_noise_within_tolerance_is_ignored() -> None:
    deb = Debouncer(1, 10, tolerance=1000)
    deb.update([32768], 0)
    for t, reading in enumerate([33500, 32100, 33700, 31900], start=1):
        assert deb.update([reading], t) == []
    assert deb.update([52000], 10) == []
    assert deb.update([51400], 15) == []  # still the same level: the wait is not restarted
    assert deb.update([52300], 20) == [(0, 52300)]


# --- LEDs --------------------------------------------------------------------------------


def test_frames_within_budget_are_shown_unchanged() -> None:
    pixels = sim_devices.SimNeoPixel(132)
    strip = LedStrip(pixels, 132, 1500)
    frame = bytes([10, 20, 30] * 132)
    assert strip.show(frame) == frame and strip.limited == 0
    assert pixels[131] == (10, 20, 30) and pixels.writes == 1


def test_frames_go_into_the_neopixel_buffer_in_its_own_order() -> None:
    pixels = sim_devices.SimNeoPixel(2)
    strip = LedStrip(pixels, 2, 1500)
    strip.show(b"\x01\x02\x03\x04\x05\x06")
    assert bytes(pixels.buf) == b"\x02\x01\x03\x05\x04\x06"  # WS2812s take green first
    assert pixels.rgb() == b"\x01\x02\x03\x04\x05\x06"


def test_short_frames_leave_the_rest_dark_and_long_ones_are_refused() -> None:
    strip = LedStrip(sim_devices.SimNeoPixel(4), 4, 1500)
    assert strip.show(b"\x01\x02\x03") == b"\x01\x02\x03" + bytes(9)
    with pytest.raises(ValueError):
        strip.show(bytes(15))


@settings(max_examples=200)
@given(
    st.binary(min_size=0, max_size=3 * 132).map(lambda b: b[: len(b) - len(b) % 3]),
    st.integers(200, 10000),
)
def test_limited_frame_stays_within_budget_and_keeps_proportions(frame: bytes, budget: int) -> None:
    out, num, den = limit_brightness(frame, budget, 20, 132)
    assert estimate_ma(out, 20, 132) <= max(budget, 132)
    if estimate_ma(frame, 20, 132) <= budget:
        assert out == frame
    for before, after in zip(frame, out, strict=True):
        assert after <= before
        assert after == before * num // den


def test_full_white_is_dimmed_to_the_budget() -> None:
    out, _num, _den = limit_brightness(bytes([255] * 396), 1500, 20, 132)
    assert 1400 < estimate_ma(out, 20, 132) <= 1500
    assert len(set(out)) == 1


# --- presence chain ----------------------------------------------------------------------


def make_chain(active_low: bool = True):
    pins = sim_devices.SimPins()
    spi = sim_devices.SimSPI()
    model = sim_devices.ShiftRegisterChain(14, 112, pins.get(13), active_low)
    spi.attach(model)
    return model, ShiftInChain(spi, pins.get(13), 14, 112, active_low)


@pytest.mark.parametrize("active_low", [True, False])
def test_every_channel_maps_to_its_own_bit(active_low: bool) -> None:
    model, chain = make_chain(active_low)
    for channel in range(112):
        model.set_all([1 if c == channel else 0 for c in range(112)])
        values, changed = chain.read()
        assert changed and [c for c in range(112) if values[c]] == [channel]
    assert chain.read()[1] is False


def test_chain_with_spare_inputs() -> None:
    pins = sim_devices.SimPins()
    spi = sim_devices.SimSPI()
    model = sim_devices.ShiftRegisterChain(3, 20, pins.get(1))
    spi.attach(model)
    chain = ShiftInChain(spi, pins.get(1), 3, 20)
    model.set(19, 1)
    assert [c for c, v in enumerate(chain.read()[0]) if v] == [19]


# --- colour muxes ------------------------------------------------------------------------


def make_muxes(shared_adc: bool = True):
    pins = sim_devices.SimPins()
    select = [pins.get(p) for p in (7, 8, 9, 10)]
    wiring = [(pins.get(11 + i), 26 if shared_adc else 26 + i % 3) for i in range(7)]
    model = sim_devices.MuxBank(select, wiring, 112)
    adcs = {pin: sim_devices.SimADC(model, pin) for pin in (26, 27, 28)}
    scanner = AnalogMuxBank(select, [(e, adcs[a]) for e, a in wiring], 112, 0, 1)
    return model, scanner, select


@pytest.mark.parametrize("shared_adc", [True, False])
def test_every_analog_channel_reads_its_own_sensor(shared_adc: bool) -> None:
    model, scanner, _ = make_muxes(shared_adc)
    model.set_all([1000 + 500 * c for c in range(112)])
    values, changed = scanner.read()
    assert changed and values == [1000 + 500 * c for c in range(112)]


def test_only_changing_select_lines_are_written() -> None:
    _model, scanner, select = make_muxes()
    writes = []
    for pin in select:
        pin.listeners.append(lambda old, new, n=pin.number: writes.append(n))
    scanner.read()
    # 16 addresses per mux, counted up: 1 + 2 + 1 + 3 + ... = 30 toggles after the first 4.
    assert len(writes) <= 4 + 7 * 31


# --- card reader -------------------------------------------------------------------------


def make_reader(rst: bool = True):
    pins = sim_devices.SimPins()
    spi = sim_devices.SimSPI()
    chip = sim_mfrc522.SimMFRC522(pins.get(6) if rst else None)
    spi.attach(chip, pins.get(5))
    return chip, MFRC522(spi, pins.get(5), pins.get(6) if rst else None)


def test_crc_a_known_value() -> None:
    assert crc_a(b"\x50\x00") == b"\x57\xcd"  # HLTA as every ISO 14443-A trace shows it
    assert crc_a(b"\x93\x70\x01\x02\x03\x04\x04") == sim_mfrc522.crc_a(
        b"\x93\x70\x01\x02\x03\x04\x04"
    )


@pytest.mark.parametrize("uid", ["01020304", "04A1B2C3D4E5F6", "00112233445566778899"])
def test_reads_4_7_and_10_byte_uids(uid: str) -> None:
    chip, reader = make_reader()
    assert reader.init() == 0x92
    assert reader.read_uid() is None
    chip.present(sim_mfrc522.SimCard(bytes.fromhex(uid)))
    assert reader.read_uid() == bytes.fromhex(uid)
    assert chip.card.state == sim_mfrc522.HALT
    assert reader.read_uid() == bytes.fromhex(uid)  # WUPA wakes the halted card again


def test_missing_reader_is_an_error() -> None:
    pins = sim_devices.SimPins()
    reader = MFRC522(sim_devices.SimSPI(), pins.get(5))
    with pytest.raises(OSError, match="0xFF"):
        reader.init()


def test_card_watcher_reports_each_presentation_once() -> None:
    chip, reader = make_reader()
    reader.init()
    watcher = CardWatcher(reader, gone_after=3)
    card = bytes.fromhex("DEADBEEF")
    chip.present(sim_mfrc522.SimCard(card))
    assert watcher.poll() == card
    assert [watcher.poll() for _ in range(10)] == [None] * 10
    chip.present(None)
    watcher.poll()
    chip.present(sim_mfrc522.SimCard(card))  # lifted for one poll only: the same presentation
    assert watcher.poll() is None
    chip.present(None)
    assert [watcher.poll() for _ in range(3)] == [None] * 3
    chip.present(sim_mfrc522.SimCard(card))  # gone long enough: a new presentation
    assert watcher.poll() == card


def test_card_that_answers_garbage_is_ignored() -> None:
    class Liar(sim_mfrc522.SimCard):
        def respond(self, frame: bytes, last_bits: int):
            reply = super().respond(frame, last_bits)
            if reply is not None and len(reply) == 5:
                return reply[:4] + bytes([reply[4] ^ 1])  # wrong check byte
            return reply

    chip, reader = make_reader()
    reader.init()
    chip.present(Liar(bytes.fromhex("01020304")))
    watcher = CardWatcher(reader)
    assert watcher.poll() is None and reader.errors == 1


def test_reader_held_in_reset_does_not_answer() -> None:
    pins = sim_devices.SimPins()
    spi = sim_devices.SimSPI()
    chip = sim_mfrc522.SimMFRC522(pins.get(6))
    spi.attach(chip, pins.get(5))
    pins.get(6).value(0)
    assert chip.powered is False
    assert MFRC522(spi, pins.get(5)).read(0x37) == 0


# --- config ------------------------------------------------------------------------------


def shipped(name: str) -> dict:
    return json.loads((FIRMWARE_DIR / "configs" / f"{name}.json").read_text())


@pytest.mark.parametrize("name", ["presence", "colour"])
def test_shipped_configs_are_valid_with_the_fixed_counts(name: str) -> None:
    cfg = config.validate(shipped(name))
    assert cfg["board"] == name
    assert cfg["channels"] == 112 and cfg["leds"]["count"] == 132
    if name == "presence":
        assert cfg["presence"]["chips"] == 14
    else:
        assert len(cfg["colour"]["muxes"]) == 7
    assert cfg["card_reader"] is not None and cfg["watchdog_ms"] <= config.MAX_WATCHDOG_MS


@pytest.mark.parametrize(
    ("name", "change", "message"),
    [
        ("presence", lambda c: c.update(board="chess"), "board must be"),
        ("presence", lambda c: c["presence"].update(chips=13), "13 chips give 104"),
        ("presence", lambda c: c["presence"].update(miso=13), "GP13 cannot be used here"),
        ("presence", lambda c: c["leds"].update(pin=13), "already used"),
        ("presence", lambda c: c["leds"].update(pin=25), "GP25 cannot be used"),
        ("presence", lambda c: c["card_reader"].update(spi=1), "SPI1 already"),
        ("presence", lambda c: c.update(watchdog_ms=9000), "watchdog_ms"),
        ("presence", lambda c: c["leds"].update(max_current_ma=100), "idle current"),
        ("colour", lambda c: c["colour"]["muxes"].pop(), "6 muxes give 96"),
        ("colour", lambda c: c["colour"]["muxes"][0].update(adc=22), "not an ADC pin"),
        ("colour", lambda c: c["colour"]["muxes"][0].update(enable=None), "need enable pins"),
        ("colour", lambda c: c["colour"].update(select=[1, 2, 3]), "4 select pins"),
        ("colour", lambda c: c.update(channels="112"), "channels must be an integer"),
    ],
)
def test_config_errors_name_the_field(name: str, change, message: str) -> None:
    cfg = copy.deepcopy(shipped(name))
    change(cfg)
    with pytest.raises(config.BoardConfigError, match=message):
        config.validate(cfg)


def test_card_reader_is_optional() -> None:
    cfg = shipped("presence")
    cfg["card_reader"] = None
    assert config.validate(cfg)["card_reader"] is None
    del cfg["card_reader"]
    assert config.validate(cfg)["card_reader"] is None

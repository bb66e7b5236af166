# Board configuration: a JSON file (config.json on the Pico, firmware/configs/*.json in the
# repository) naming the board kind, its pins and chain lengths, and the timing knobs.
# validate() fills defaults and rejects anything the hardware could not do, with a message
# that names the field, so a typo shows up as a clear ERROR rather than a dead board.
# docs/firmware.md documents every field.

import json

KINDS = ("presence", "colour")

# RP2040 pins that may carry each SPI signal (datasheet GPIO function table).
SPI_PINS = {
    0: {"sck": (2, 6, 18, 22), "mosi": (3, 7, 19, 23), "miso": (0, 4, 16, 20)},
    1: {"sck": (10, 14, 26), "mosi": (11, 15, 27), "miso": (8, 12, 24, 28)},
}
# GP23..GP25 drive the Pico's regulator, VBUS sense and on-board LED: not on the header.
USABLE_PINS = tuple(range(0, 23)) + (26, 27, 28)
ADC_PINS = (26, 27, 28)
MAX_WATCHDOG_MS = 8388  # the RP2040 watchdog's longest timeout

DEFAULTS = {
    "name": "",
    "scan_interval_ms": 2,
    "debounce_ms": 5,
    "tolerance": 0,
    "watchdog_ms": 2000,
    "heartbeat_ms": 500,
    "retransmit_ms": 100,
    "card_reader": None,
}
LED_DEFAULTS = {"ma_per_channel": 20, "idle_ma_per_led": 1}
CARD_DEFAULTS = {"baudrate": 1000000, "rst": None, "poll_ms": 100, "gone_after": 3}
PRESENCE_DEFAULTS = {"baudrate": 1000000, "active_low": True}
COLOUR_DEFAULTS = {"settle_us": 20, "samples": 2}


class BoardConfigError(ValueError):
    """The board's config.json cannot be used; the message names the field."""


def load(path):
    with open(path) as f:
        return validate(json.load(f))


def _fill(section, defaults):
    out = dict(defaults)
    out.update(section)
    return out


def _int(cfg, key, low, high, where=""):
    value = cfg.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise BoardConfigError("%s%s must be an integer from %d to %d" % (where, key, low, high))
    return value


def _pin(cfg, key, used, where, allowed=USABLE_PINS):
    pin = cfg.get(key)
    if pin not in allowed or isinstance(pin, bool):
        raise BoardConfigError(
            "%s%s: GP%s cannot be used here (allowed: %s)" % (where, key, pin, allowed)
        )
    if pin in used:
        raise BoardConfigError("%s%s: GP%d is already used for %s" % (where, key, pin, used[pin]))
    used[pin] = where + key
    return pin


def _spi(section, used, where):
    bus = section.get("spi")
    if bus not in SPI_PINS:
        raise BoardConfigError("%sspi must be 0 or 1" % where)
    for signal in ("sck", "mosi", "miso"):
        _pin(section, signal, used, where, SPI_PINS[bus][signal])
    _int(section, "baudrate", 10000, 10000000, where)


def validate(cfg):
    """Returns the config with defaults filled in; raises BoardConfigError naming the bad field."""
    if not isinstance(cfg, dict):
        raise BoardConfigError("config must be a JSON object")
    cfg = _fill(cfg, DEFAULTS)
    if cfg.get("board") not in KINDS:
        raise BoardConfigError("board must be one of %s" % (KINDS,))
    channels = _int(cfg, "channels", 1, 512)
    _int(cfg, "scan_interval_ms", 1, 1000)
    _int(cfg, "debounce_ms", 0, 10000)
    _int(cfg, "tolerance", 0, 65535)
    _int(cfg, "watchdog_ms", 100, MAX_WATCHDOG_MS)
    _int(cfg, "heartbeat_ms", 50, 10000)
    _int(cfg, "retransmit_ms", 10, 10000)
    used = {}
    spi_buses = {}

    if cfg["board"] == "presence":
        sec = _fill(cfg.get("presence") or {}, PRESENCE_DEFAULTS)
        _spi(sec, used, "presence.")
        _pin(sec, "load", used, "presence.")
        chips = _int(sec, "chips", 1, 64, "presence.")
        if chips * 8 < channels:
            raise BoardConfigError(
                "presence.chips: %d chips give %d inputs, not %d" % (chips, chips * 8, channels)
            )
        spi_buses[sec["spi"]] = "presence"
        cfg["presence"] = sec
    else:
        sec = _fill(cfg.get("colour") or {}, COLOUR_DEFAULTS)
        select = sec.get("select")
        if not isinstance(select, list) or len(select) != 4:
            raise BoardConfigError("colour.select must list the 4 select pins S0..S3")
        for i in range(4):
            _pin({"select": select[i]}, "select", used, "colour.%d." % i)
        muxes = sec.get("muxes")
        if not isinstance(muxes, list) or not muxes:
            raise BoardConfigError("colour.muxes must list the multiplexers")
        if len(muxes) * 16 < channels:
            raise BoardConfigError(
                "colour.muxes: %d muxes give %d inputs, not %d"
                % (len(muxes), len(muxes) * 16, channels)
            )
        for i, mux in enumerate(muxes):
            where = "colour.muxes[%d]." % i
            if mux.get("enable") is not None:
                _pin(mux, "enable", used, where)
            adc = mux.get("adc")
            if adc not in ADC_PINS:
                raise BoardConfigError("%sadc: GP%s is not an ADC pin %s" % (where, adc, ADC_PINS))
            if used.get(adc, "colour.muxes").startswith("colour.muxes"):
                used[adc] = where + "adc"  # muxes may share an ADC pin
            else:
                raise BoardConfigError(
                    "%sadc: GP%d is already used for %s" % (where, adc, used[adc])
                )
        shared = {}
        for mux in muxes:
            shared[mux["adc"]] = shared.get(mux["adc"], 0) + 1
        for mux in muxes:
            if shared[mux["adc"]] > 1 and mux.get("enable") is None:
                raise BoardConfigError("colour.muxes: muxes sharing an ADC pin need enable pins")
        _int(sec, "settle_us", 0, 1000, "colour.")
        _int(sec, "samples", 1, 16, "colour.")
        cfg["colour"] = sec

    leds = cfg.get("leds")
    if not isinstance(leds, dict):
        raise BoardConfigError("leds section missing")
    leds = _fill(leds, LED_DEFAULTS)
    _pin(leds, "pin", used, "leds.")
    _int(leds, "count", 1, 1024, "leds.")
    _int(leds, "max_current_ma", 1, 100000, "leds.")
    _int(leds, "ma_per_channel", 1, 100, "leds.")
    _int(leds, "idle_ma_per_led", 0, 10, "leds.")
    if leds["count"] * leds["idle_ma_per_led"] >= leds["max_current_ma"]:
        raise BoardConfigError("leds.max_current_ma is used up by the LEDs' idle current alone")
    cfg["leds"] = leds

    if cfg["card_reader"] is not None:
        card = _fill(cfg["card_reader"], CARD_DEFAULTS)
        if card.get("spi") in spi_buses:
            raise BoardConfigError(
                "card_reader.spi: SPI%d already reads the shift registers" % card["spi"]
            )
        _spi(card, used, "card_reader.")
        _pin(card, "cs", used, "card_reader.")
        if card["rst"] is not None:
            _pin(card, "rst", used, "card_reader.")
        _int(card, "poll_ms", 10, 10000, "card_reader.")
        _int(card, "gone_after", 1, 100, "card_reader.")
        cfg["card_reader"] = card
    return cfg

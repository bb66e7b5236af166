"""Turns of a game through the daemon with the board's firmware on an emulated Pico.

`pawnlight run --sim-pico` in-process: the companion, the real pyserial driver over a pty and
the unmodified firmware on MicroPython's RP2040 build in rp2040js, with the simulated pawns
turned into 74HC165 bits or mux/ADC readings, cards read through the emulated MFRC522 and the
LEDs decoded from the WS2812 pulses, the companion's pictures sent as LED scenes the firmware
animates itself. The emulator runs several times slower than a Pico, so these are a few dozen
turns rather than whole games (tests/daemon/test_games.py plays those on the unix-port
firmware).

Skipped unless PAWNLIGHT_RP2040_DIR names the folder with MicroPython's UF2 and the RP2040
boot ROM (docs/firmware.md).
"""

import pytest

from pawnlight.devices.sim.emulated_pico import EmulatedPico, missing
from pawnlight.runtime.config import Config
from pawnlight.runtime.daemon import Daemon
from pawnlight.store.journal import Journal

from .test_games import play_game

REASON = missing()
pytestmark = [
    pytest.mark.skipif(REASON is not None, reason=f"no emulated Pico: {REASON}"),
    pytest.mark.slow,
]

# Seed 7 brings pawns out of START, a slide, an 11's switch, a bump and a Sorry! within 16
# turns of the first game and 9 of the second (the test checks they came). The emulated chip
# plays about a turn a second on a quiet machine and several times slower beside CI's other
# tests, so a few turns are what CI can afford: whole games run on the unix-port firmware
# (tests/daemon/test_games.py).
SEED = 7
GAMES = [
    ("presence", {"players": ["red", "blue", "yellow"], "edition": "hasbro-2002"}, 16),
    ("colour", {"players": ["red", "green"], "edition": "parker-1950"}, 10),
]


def kinds_of_move(turns: list[dict]) -> set[str]:
    """What the recorded turns show: a slide, an 11's switch, a Sorry! played, a bump."""
    seen = set()
    for turn in turns:
        before, after, mover = turn["before"], turn["after"], turn["colour"]
        if ">" in turn["text"].replace("<>", ""):
            seen.add("slide")
        if "<>" in turn["text"]:
            seen.add("switch")
        if turn["card"] == "sorry" and turn["text"] != "forfeit":
            seen.add("sorry")
        if any(
            was != "start" and now == "start"
            for colour in before
            if colour != mover
            for was, now in zip(before[colour], after[colour], strict=True)
        ):
            seen.add("bump")
    return seen


# Turns of a real game through the daemon, the pyserial driver and the firmware on the emulated
# chip, with the companion's LED animations running (issue 19: they used to starve the link).
@pytest.mark.parametrize(("layout", "config", "turns"), GAMES)
def test_turns_of_a_game_on_the_emulated_pico(tmp_path, layout, config, turns):
    daemon = Daemon(Config(data=tmp_path, sim=True, sim_pico=True, layout=layout, settle=0.1))
    daemon.start(web=False)
    try:
        assert isinstance(daemon.firmware, EmulatedPico)
        state = play_game(daemon, config, seed=SEED, stop_after=turns)
        assert len(state["turns"]) >= turns
        assert kinds_of_move(state["turns"]) == {"slide", "switch", "sorry", "bump"}
        with Journal.open(tmp_path / "journal.sqlite3", readonly=True) as journal:
            game = journal.resume(state["game_id"])
        assert [t.text for t in game.history] == state["history"]
    finally:
        daemon.stop()

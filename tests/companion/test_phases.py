"""Phases are enums in the code and the same plain words on the wire as before they were."""

import json

from pawnlight.companion.phases import CompanionPhase
from pawnlight.rules.game import Game, GameConfig, Phase

from .bench import Bench

#: The words of GET /api/state's ``phase`` and of the page's data-phase, as they were.
WIRE = ["idle", "enrol", "leader", "setup", "draw", "move", "choose", "double", "over"]


def test_the_phases_keep_their_words():
    assert [phase.value for phase in CompanionPhase] == WIRE
    assert [phase.value for phase in Phase] == ["draw", "move", "double", "over"]
    assert json.dumps(list(CompanionPhase)) == json.dumps(WIRE)
    assert f"{CompanionPhase.SETUP}" == str(CompanionPhase.SETUP) == "setup"


def test_a_game_phase_is_the_companion_phase_of_the_same_word():
    for phase in Phase:
        assert CompanionPhase.of_game(phase) == phase == phase.value


def test_the_state_carries_the_phase_as_a_plain_word():
    bench = Bench()
    state = bench.companion.state().to_json()
    assert state["phase"] == "idle" and type(state["phase"]) is str
    bench.command("new_game", players=["red", "blue"])
    state = json.loads(json.dumps(bench.companion.state().to_json()))
    assert state["phase"] == "setup"


def test_a_game_reports_its_phase_as_the_enum():
    game = Game(GameConfig("hasbro-2002", ("red", "blue")))
    assert game.phase is Phase.DRAW and game.phase == "draw"
    game.draw("1")
    assert game.phase is Phase.MOVE

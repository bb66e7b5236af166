"""LED scenes: the board animates what the Pi once sent 25 frames a second for.

The companion paints each picture as a scene (a still base and blink, breathe and chase effects,
docs/protocol.md); the runtime sends a board that runs scenes each scene once.  What the board
draws from the scene at any instant must be what the companion's frame is at that instant.
"""

from __future__ import annotations

import pytest

from pawnlight.board.leds import Scene, dimmed_scene
from pawnlight.companion.lights import dimmed, frame_for, picture_for
from pawnlight.companion.signals import Pressed, ShowLeds
from pawnlight.rules import Position
from pawnlight.rules.game import Game, GameConfig
from pawnlight.rules.notation import parse_move
from pawnlight.runtime.owner import Owner

from .bench import Bench

#: Breathing is a cosine on the Pi and a smoothstep of whole numbers on the Pico: a shade apart.
BREATH_TOLERANCE = 4


def started(layout: str = "colour", pawns: dict | None = None) -> Bench:
    bench = Bench(layout)
    bench.command("new_game", players=["red", "blue"])
    bench.show(bench.game.position)
    if pawns is not None:
        position = Position.from_json(pawns)
        bench.companion.resume(Game(GameConfig(players=("red", "blue")), position))
        bench.show(position)
    assert bench.companion.phase == "draw"
    return bench


def waiting_for_a_card() -> Bench:
    return started()


def a_move_with_a_slide_and_a_bump() -> Bench:
    bench = started(
        pawns={"red": ["T19", "T40", "start", "start"], "blue": ["T26", "start", "start", "start"]}
    )
    bench.scan("5")
    assert bench.companion.phase == "move"
    return bench


def a_wrong_board() -> Bench:
    bench = started()
    bench.scan("1")
    bench.show(
        Position.from_json({"red": ["T5", "start", "start", "start"], "blue": ["start"] * 4})
    )
    bench.advance(2.5)
    assert bench.companion.state().to_json()["corrections"]
    return bench


def part_way_through_a_split_seven() -> Bench:
    bench = started(pawns={"red": ["T5", "T20", "start", "start"], "blue": ["start"] * 4})
    bench.scan("7")
    halfway = Position.from_json({"red": ["T8", "T20", "start", "start"], "blue": ["start"] * 4})
    bench.show(halfway, settle=False)
    return bench


def asking_about_a_new_game() -> Bench:
    bench = started()
    bench.effects += bench.companion.handle(Pressed("new_game", bench.now))
    assert bench.companion.asking_until is not None
    return bench


SCENARIOS = [
    waiting_for_a_card,
    a_move_with_a_slide_and_a_bump,
    a_wrong_board,
    part_way_through_a_split_seven,
    asking_about_a_new_game,
]


@pytest.mark.parametrize("patterns", [False, True], ids=["colours", "patterns"])
@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda f: f.__name__)
def test_the_board_draws_from_the_scene_what_the_companion_paints(scenario, patterns):
    bench = scenario()
    if patterns:  # issue #48: the colour-free patterns are scenes the board runs too
        bench.command("settings", patterns=True)
    scene = picture_for(bench.companion, bench.now, record=False).scene
    assert scene is not None and scene.effects, "an animated picture is a scene with effects"
    start = round(bench.now * 1000)
    # The patterns' 2.4 s cycle holds every one of their phases; 11 ms steps pass through them.
    end, step = (start + 2400, 11) if patterns else (start + 4000, 7)
    if bench.companion.asking_until is not None:  # the question lapses: another picture
        end = min(end, round(bench.companion.asking_until * 1000))
    for ms in range(start, end, step):  # every blink, breath and chase passes through
        painted = frame_for(bench.companion, ms / 1000)
        drawn = scene.frame_at(ms)
        for led, (ours, board) in enumerate(zip(painted, drawn, strict=True)):
            apart = max(abs(a - b) for a, b in zip(ours, board, strict=True))
            assert apart <= BREATH_TOLERANCE, f"LED {led} at {ms} ms: {ours} painted, {board} drawn"


def test_the_celebration_goes_out_as_frames():
    """Comets that race round the track are no blink, breath or chase: no scene."""
    bench = started(pawns={"red": ["S5", "home", "home", "home"], "blue": ["start"] * 4})
    bench.scan("1")
    bench.play(parse_move("R:S5-home", bench.game.position, False))
    assert bench.companion.phase == "over"
    assert picture_for(bench.companion, bench.now, record=False).scene is None


def shows_over(bench: Bench, seconds: float) -> list[ShowLeds]:
    """The companion's LED effects while the board waits ``seconds`` at 100 ticks a second."""
    bench.effects.clear()
    for _ in range(round(seconds * 100)):
        bench.advance(0.01)
    return [effect for effect in bench.effects if isinstance(effect, ShowLeds)]


def test_a_long_wait_for_a_card_is_one_scene():
    bench = started()
    shows = shows_over(bench, 30.0)
    assert len(shows) > 100  # the breathing changes the frame many times a second
    assert len({show.scene for show in shows}) == 1


class Link:
    """What the owner sends: scenes (accepted while ``scenes``) and frames."""

    def __init__(self, scenes: bool) -> None:
        self.takes_scenes = scenes
        self.scenes: list[tuple[Scene, int]] = []
        self.frames: list[tuple] = []

    def send_scene(self, scene: Scene, phase_ms: int) -> bool:
        if self.takes_scenes:
            self.scenes.append((scene, phase_ms))
        return self.takes_scenes


@pytest.mark.parametrize("takes_scenes", [True, False], ids=["scene-board", "old-board"])
def test_the_owner_sends_a_scene_once_and_frames_to_a_board_without_scenes(tmp_path, takes_scenes):
    bench = started()
    bench.command("settings", brightness=0.5)
    shows = shows_over(bench, 30.0)
    link = Link(takes_scenes)
    owner = Owner(
        bench.companion,
        tmp_path / "journal.sqlite",
        send_leds=lambda frame: link.frames.append(tuple(frame)),
        send_scene=link.send_scene,
    )
    owner._execute(list(shows))
    if takes_scenes:
        assert link.frames == []
        [(scene, phase_ms)] = link.scenes  # thirty seconds of breathing: one message
        assert shows[0].scene is not None
        assert scene == dimmed_scene(shows[0].scene, 0.5)
        assert phase_ms == round(shows[0].at * 1000)
    else:
        assert link.scenes == []
        assert link.frames == [dimmed(show.frame, 0.5) for show in shows]


def test_a_brightness_change_relights_a_still_board():
    """A picture that does not move (the pawns to set out) goes out again at the new
    brightness: it once stayed at the old one until something else changed."""
    bench = Bench()
    bench.command("new_game", players=["red", "blue"])
    assert bench.companion.phase == "setup"
    shows_over(bench, 0.5)  # the still picture is out
    bench.effects.clear()
    bench.command("settings", brightness=0.3)
    assert [e for e in bench.effects if isinstance(e, ShowLeds)]
    bench.effects.clear()
    bench.command("settings", night=True)  # the night level: the LEDs go out again
    assert [e for e in bench.effects if isinstance(e, ShowLeds)]
    bench.effects.clear()
    bench.command("settings", settle=0.5)  # the same light: nothing to send
    assert not [e for e in bench.effects if isinstance(e, ShowLeds)]


def test_at_night_the_owner_sends_the_night_level(tmp_path):
    bench = started()
    bench.command("settings", brightness=0.8, night=True, night_level=0.1)
    shows = shows_over(bench, 1.0)
    link = Link(scenes=False)
    owner = Owner(
        bench.companion,
        tmp_path / "journal.sqlite",
        send_leds=lambda frame: link.frames.append(tuple(frame)),
        send_scene=link.send_scene,
    )
    owner._execute(list(shows))
    assert link.frames == [dimmed(show.frame, 0.1) for show in shows]
    assert max(max(rgb) for frame in link.frames for rgb in frame) <= round(255 * 0.1)

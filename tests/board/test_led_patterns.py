"""Issue #48: with the owner's ``patterns`` setting on, every kind of light and every pawn colour
is told apart with the colour taken away: by the LED's brightness over time alone."""

from __future__ import annotations

import functools

import pytest

from pawnlight.board import led_patterns
from pawnlight.board.cells import CELL_KEYS, area_cells, slide_led_key
from pawnlight.board.effects import RGB, Scene, dimmed_scene
from pawnlight.board.guidance import Correction, Fix
from pawnlight.board.leds import (
    Picture,
    Role,
    guidance_picture,
    position_picture,
    turn_picture,
)
from pawnlight.companion.config import NIGHT_LEVEL_MIN
from pawnlight.firmware import protocol
from pawnlight.rules.board import COLOURS, START, Place

from .helpers import PRESENCE, options, pos

#: Every rhythm repeats within 12 s: the colours' 2.4 s, the bump's 0.5 s, the flicker's
#: 0.25 s, the pulse's 1 s and the slides' chases of 0.6 s and 0.75 s.
SPAN_MS, STEP_MS = 12_000, 25
#: The FIVE of tests/board/test_leds.py: red's 5 from T19 slides from T24, sweeping blue off T26.
FIVE = options(
    pos(red="T19 T40 start start", blue="T26 T33 start start", green="T45 T52 home start"),
    "red",
    "5",
)


def grey(rgb: RGB, full: int) -> int:
    """What an eye that cannot tell hues sees: dark (0), dim (1) or bright (2)."""
    level = max(rgb)
    return 0 if level == 0 else 2 if 2 * level >= full else 1


def signature(scene: Scene, led: int, full: int = 255) -> bytes:
    """The LED's dark/dim/bright over every 25 ms of the patterns' whole cycle, from whichever
    instant is smallest: the rhythm alone, whenever one starts looking."""
    # Only this LED drawn (as LED 0): the others of an effect keep their places in its list
    # (a chase's order) but fall outside the one-LED picture.
    effects = [(*e[:6], tuple(0 if i == led else 9999 for i in e[6])) for e in scene.effects]
    base = bytes(scene.base[led])
    out = bytearray(3)
    seen = bytes(
        grey(tuple(protocol.render_scene(base, effects, t, out)), full)
        for t in range(0, SPAN_MS, STEP_MS)
    )
    twice = seen + seen
    return min(twice[i : i + len(seen)] for i in range(len(seen)))


def led_of(key: str) -> int:
    if key.startswith("slide:"):
        return PRESENCE.slide_led(int(key.removeprefix("slide:T")))
    return PRESENCE.led_of[CELL_KEYS.index(key)]


def one(picture: Picture, role: Role, channel: bool = False) -> int:
    """The LED of one place lit as ``role`` (a slide's channel LED or its triangle)."""
    keys = sorted(k for k, lit in picture.lit.items() if lit.role == role)
    keys = [k for k in keys if k.startswith("slide:") == channel]
    assert keys, f"nothing lit as {role}"
    return led_of(keys[0])


@functools.cache
def lights(patterns: bool) -> dict[str, tuple[Scene, int]]:
    """One LED of every kind, and of every colour where the kind has one: its scene and LED."""
    found: dict[str, tuple[Scene, int]] = {}

    def add(name: str, picture: Picture, led: int) -> None:
        assert picture.scene is not None
        found[name] = (picture.scene, led)

    for colour, name in enumerate(COLOURS):
        # A pawn on its own side's fifth square, moving 2: a plain destination, no slide.
        moves = options(pos(**{name: f"T{15 * colour + 5} home home home"}), name, "2")
        turn = turn_picture(PRESENCE, colour, moves, 0.0, patterns=patterns)
        add(f"destination {name}", turn, one(turn, Role.DESTINATION))
        add(f"movable pawn {name}", turn, one(turn, Role.PAWN))
        put = (Correction(Fix.PUT, None, Place(15 * colour + 7), colour),)
        guidance = guidance_picture(PRESENCE, put, 0.0, patterns=patterns)
        add(f"place to fill {name}", guidance, one(guidance, Role.CORRECTION))
    five = turn_picture(PRESENCE, 0, FIVE, 0.0, patterns=patterns)
    add("slide triangle", five, one(five, Role.SLIDE))
    add("slide channel", five, one(five, Role.SLIDE, channel=True))
    add("bump", five, one(five, Role.BUMP))
    add("turn", five, PRESENCE.led_of[area_cells(START, 0)[0]])
    clear = (Correction(Fix.LIFT, Place(40), None),)
    lift = guidance_picture(PRESENCE, clear, 0.0, patterns=patterns)
    add("place to clear", lift, one(lift, Role.CORRECTION))
    check = (Correction(Fix.CHECK, Place(40), None, -1),)
    unreadable = guidance_picture(PRESENCE, check, 0.0, patterns=patterns)
    add("unreadable pawn", unreadable, one(unreadable, Role.CHECK))
    return found


def test_every_kind_and_colour_has_its_own_rhythm_without_colour():
    seen: dict[bytes, str] = {}
    for name, (scene, led) in lights(patterns=True).items():
        mine = signature(scene, led)
        assert mine not in seen, f"{name} looks like {seen.get(mine)} without colour"
        seen[mine] = name
    assert len(seen) == 18


def test_without_the_setting_colours_and_kinds_are_told_apart_by_hue_alone():
    """The old frames: a red and a blue destination differ only in colour (what the setting is
    for), and so do a place to clear and an unreadable pawn."""
    found = lights(patterns=False)
    same = [("destination red", "destination blue"), ("place to clear", "unreadable pawn")]
    for a, b in same:
        assert signature(*found[a]) == signature(*found[b])


def test_the_patterns_stay_apart_at_the_night_level():
    full = led_patterns_full(NIGHT_LEVEL_MIN)
    seen: dict[bytes, str] = {}
    for name, (scene, led) in lights(patterns=True).items():
        mine = signature(dimmed_scene(scene, NIGHT_LEVEL_MIN), led, full)
        assert mine not in seen, f"{name} looks like {seen.get(mine)} at night"
        seen[mine] = name


def led_patterns_full(level: float) -> int:
    return max(1, round(255 * level))


@pytest.mark.parametrize("colour", range(4))
def test_a_colour_is_counted_in_dips_and_flashes(colour):
    """Red 1, blue 2, yellow 3, green 4: a steady light's dark dips and a place to fill's
    flashes, once per 2.4 s cycle."""
    rgb = (200, 200, 200)

    def runs(pattern: led_patterns.Pattern, lit: bool) -> int:
        samples = [led_patterns.now(pattern, t / 1000) != (0, 0, 0) for t in range(0, 2400, 10)]
        return sum(1 for i, on in enumerate(samples) if on == lit and samples[i - 1] != lit)

    assert runs(led_patterns.steady(rgb, colour), lit=False) == colour + 1
    assert runs(led_patterns.flashes(rgb, colour), lit=True) == colour + 1


@pytest.mark.parametrize("at", [0.13, 1.27, 2.1, 2.35])
def test_the_pis_frame_is_the_boards_drawing_of_the_scene(at):
    position = pos(
        red="T19 T40 home start", blue="T26 start start start", yellow="S2 home home start"
    )
    pictures = [
        turn_picture(PRESENCE, 0, FIVE, at, patterns=True),
        position_picture(PRESENCE, position, at=at, patterns=True),
        guidance_picture(
            PRESENCE,
            (
                Correction(Fix.MOVE, Place(13), Place(12), 1),
                Correction(Fix.PUT, None, Place(START, 2), 2),
                Correction(Fix.CHECK, Place(40), None, -1),
            ),
            at,
            player=0,
            patterns=True,
        ),
    ]
    for picture in pictures:
        assert picture.scene is not None
        drawn = picture.scene.frame_at(round(at * 1000))
        # Breathing is a cosine on the Pi, a smoothstep on the board: a few levels apart.
        assert all(
            abs(a - b) <= 3
            for pi, board in zip(picture.frame, drawn, strict=True)
            for a, b in zip(pi, board, strict=True)
        )
        assert [rgb != (0, 0, 0) for rgb in drawn] == [rgb != (0, 0, 0) for rgb in picture.frame]


def test_the_patterns_keep_what_is_lit():
    """The state's ``lit`` (and the page) does not change with the setting."""
    with_patterns = turn_picture(PRESENCE, 0, FIVE, 0.3, patterns=True)
    assert with_patterns.lit == turn_picture(PRESENCE, 0, FIVE, 0.3).lit
    assert with_patterns.lit[slide_led_key(25)].role == Role.SLIDE


def test_the_docs_picture_of_the_patterns_is_up_to_date():
    """docs/led-patterns.svg is generated: python -m pawnlight.board.render_patterns"""
    from pawnlight.board.render_patterns import TITLE, render, repository_docs, rows

    drawn = render(rows(PRESENCE), TITLE)
    assert (repository_docs() / "led-patterns.svg").read_text(encoding="utf-8") == drawn
